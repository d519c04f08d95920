#!/bin/sh
# touchtape convert over every evemu file of the corpus: each converts
# (with its companion description where SOURCES.tsv names one), validates,
# and round-trips through evemu with the same description and the same E:
# events (compared by value: times in µs, types, codes, values).
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"

corpus="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}"
[ -d "$corpus/evemu" ] || { echo "no corpus at $corpus"; exit 77; }

# E: lines as "usec type code value", all decimal.
events() {
	awk '
	function hex(s,   i, c, v) {
		v = 0; s = tolower(s)
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", substr(s, i, 1)) - 1
			v = v * 16 + c
		}
		return v
	}
	{ sub(/\r$/, "") }
	/^E:/ {
		split($2, t, ".")
		printf "%d %d %d %d\n", t[1] * 1000000 + t[2], hex($3), hex($4), $5 + 0
	}' "$1"
}

# Device and frame records; the header names the tool and markers become
# evemu comments, so neither survives a trip through evemu.
body() {
	grep -v '"type":"marker"' "$1" | tail -n +2
}

n=0
for f in "$corpus"/evemu/* "$corpus"/evemu-desc/*; do
	rel=${f#"$corpus"/}
	b=$(basename "$f")
	comp=$(awk -F '\t' -v f="$rel" '$1 == f { print $16 }' "$corpus/SOURCES.tsv")
	set --
	[ -n "$comp" ] && set -- --desc "$corpus/$comp"
	n=$((n + 1))
	case "$b" in
	*.template)
		# A template with placeholders (RESOLUTION_X) instead of numbers.
		expect_exit 1 "$rel: placeholders refused" -- "$TOUCHTAPE" convert "$@" "$f" -o "$tmp/a.jsonl"
		expect_grep "$b:25: A: needs" "$tmp/err" "$rel: FILE:LINE message"
		continue ;;
	esac
	if ! "$TOUCHTAPE" convert "$@" "$f" -o "$tmp/a.jsonl" 2>"$tmp/err"; then
		fail "$rel: convert failed"; sed 's/^/  | /' "$tmp/err" | head -5 >&2; continue
	fi
	if ! "$TOUCHTAPE" validate --max 0 "$tmp/a.jsonl" >"$tmp/vout" 2>"$tmp/verr"; then
		# Known real-data anomalies: SOURCES.tsv pairs some events-only
		# files with the description of a sibling device that lacks
		# codes the events use; some old touchpads really jump (a
		# Synaptics PS/2 pad reporting x beyond its range as the finger
		# lifts). The conversion must add no error the original, read
		# directly, does not have.
		"$TOUCHTAPE" validate --max 0 "$@" "$f" >/dev/null 2>"$tmp/verr0" || true
		grep ': error: ' "$tmp/verr0" | sed 's/^.*: error: //' | sort >"$tmp/e0"
		grep ': error: ' "$tmp/verr" | sed 's/^.*: error: //' | sort >"$tmp/e1"
		if [ -n "$comp" ] && ! grep ': error: ' "$tmp/verr" | grep -qv 'unsupported-code'; then
			echo "note: $rel: its companion description lacks codes the events use"
		elif [ -s "$tmp/e1" ] && cmp -s "$tmp/e0" "$tmp/e1"; then
			echo "note: $rel: $(wc -l <"$tmp/e0") errors, as the original has"
		else
			fail "$rel: validate"; sed 's/^/  | /' "$tmp/verr" | head -5 >&2; continue
		fi
	fi
	if ! "$TOUCHTAPE" convert --to evemu "$tmp/a.jsonl" -o "$tmp/b.evemu" 2>"$tmp/err"; then
		fail "$rel: to evemu"; sed 's/^/  | /' "$tmp/err" | head -5 >&2; continue
	fi
	"$TOUCHTAPE" convert "$tmp/b.evemu" -o "$tmp/c.jsonl" 2>"$tmp/err" || { fail "$rel: evemu back"; continue; }
	body "$tmp/a.jsonl" >"$tmp/a.body"
	body "$tmp/c.jsonl" >"$tmp/c.body"
	if ! cmp -s "$tmp/a.body" "$tmp/c.body"; then
		fail "$rel: device or frames differ after evemu -> timeline -> evemu"
		diff "$tmp/a.body" "$tmp/c.body" | head -5 >&2
		continue
	fi
	events "$f" >"$tmp/orig.ev"
	events "$tmp/b.evemu" >"$tmp/back.ev"
	if ! cmp -s "$tmp/orig.ev" "$tmp/back.ev"; then
		fail "$rel: E: events differ after the round trip"
		diff "$tmp/orig.ev" "$tmp/back.ev" | head -5 >&2
		continue
	fi
	pass "$rel"
done
# Files: over 100 in the whole public corpus, 90 in tests/corpus.
want=90; [ -n "${TT_CORPUS:-}" ] && want=101
[ "$n" -ge "$want" ] || fail "only $n corpus files found"

# Look-alikes are refused, naming what they are.
# (hid-recorder files are read: convert/tests/convert-hidrec.sh.)
for f in "$corpus"/other/*; do
	[ -e "$f" ] || continue	# none in tests/corpus: their licences are unclear
	[ "${f##*/}" = SOURCES.tsv ] && continue	# the corpus's index, not a look-alike
	expect_exit 2 "${f#"$corpus"/}: refused" -- "$TOUCHTAPE" convert "$f"
	expect_grep 'looks like (an evtest dump|/proc/bus/input/devices)' "$tmp/err" "${f#"$corpus"/}: says what it is"
done
finish
