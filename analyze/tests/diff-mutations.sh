#!/bin/bash
# The regression gate sees each kind of regression: from every sample and
# corpus recording that can take it, tests/mutate.py makes a regression
# (a jump out and back, an offset, a bowed path, a stall, half the frame
# rate, halved pressure, a lost click, a shifted button, a scaled axis);
# `diff --json` must exit 1 and name it with the right kind, and analyze
# must flag the jump. A file against its own evemu and libinput
# conversions is 0 differences, and so is the rhythm of a copy whose
# frames come in bunches (as a replay under TCG delivers them). The HID
# recordings: a contact's Confidence cleared or its tip lifted for a
# report is a difference of kind hid. To keep the run short, each mutation is
# made from at most $TT_MUTATE_MAX files (default 2) of each device kind
# and protocol (the samples count as one more kind).
. "$(dirname "$0")/../../tests/lib.sh"
corpus="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}"
mutate="$abs_top_srcdir/tests/mutate.py"
max="${TT_MUTATE_MAX:-2}"
kinds="jump offset bow scale-axis stall halve-rate halve-pressure lost-click shift-button"
declare -A want=([jump]=path [offset]=path [bow]=path [scale-axis]=path
	[stall]=rhythm [halve-rate]=rhythm [halve-pressure]=axis
	[lost-click]=key [shift-button]=key)
declare -A applied detected flagged taken anydiff groups
bunched=0
for k in $kinds; do applied[$k]=0 detected[$k]=0 flagged[$k]=0 anydiff[$k]=0; done

# The inputs: the samples, then the corpus's touch recordings converted to
# timelines, one of each device kind and protocol in turn.
inputs=("$samples"/*.jsonl)
if [ -f "$corpus/SOURCES.tsv" ]; then
	n=0
	while IFS=$'\t' read -r group file desc; do
		out="$tmp/corpus-$n.jsonl"
		n=$((n + 1))
		args=()
		case "$desc" in evemu-desc/*) args=(--desc "$corpus/$desc") ;; esac
		# events-only files without a description cannot be read: skipped
		"$TOUCHTAPE" convert "${args[@]}" "$corpus/$file" -o "$out" 2>/dev/null || continue
		inputs+=("$out")
		printf '%s\t%s\t%s\n' "$out" "$file" "$group" >>"$tmp/names"
	done < <(awk -F'\t' 'NR > 1 && $1 ~ /^evemu\// && $1 !~ /__at-/ &&
		$6 ~ /^(touchscreen|touchpad|tablet-touch)$/ {
			g = $6 "/" $7; print ++seen[g] "\t" g "\t" $1 "\t" $16 }' \
		"$corpus/SOURCES.tsv" | sort -t$'\t' -k1,1n -k2,2 | cut -f2-)
else
	echo "no corpus at $corpus: samples only"
fi

# field N FILE: the corpus file name (2) or device group (3) of an input
field() {
	local v
	v=$(awk -F'\t' -v f="$2" -v n="$1" '$1 == f { print $n }' "$tmp/names" 2>/dev/null)
	[ "$1" -eq 2 ] && printf '%s' "${v:-${2#"$abs_top_srcdir"/}}" || printf '%s' "${v:-sample}"
}

# has_kind KIND FILE: the diff --json output in FILE has a difference of KIND
has_kind() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[2]))
sys.exit(0 if any(x.get("kind") == sys.argv[1] for x in d["differences"]) else 1)' "$1" "$2"
}

# jumps FILE: analyze's count of jump anomalies
jumps() {
	"$TOUCHTAPE" analyze --json "$1" 2>/dev/null |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["anomaly_counts"].get("jump", 0))'
}

# check ORIG LABEL GROUP KIND MUTANT: diff sees the mutant, with its kind.
check() {
	local f=$1 label=$2 group=$3 k=$4 m=$5 rc a b
	applied[$k]=$((applied[$k] + 1))
	[ "${taken[$k/$group]:-0}" -gt 0 ] || groups[$k]="${groups[$k]:-}${groups[$k]:+ }$group"
	taken[$k/$group]=$((${taken[$k/$group]:-0} + 1))
	"$TOUCHTAPE" validate "$m" >/dev/null 2>&1
	[ $? -le 1 ] || fail "$label: the $k mutant is not a valid timeline"
	"$TOUCHTAPE" diff --json "$f" "$m" >"$tmp/diff.json" 2>"$tmp/diff.err"
	rc=$?
	[ "$rc" -ne 1 ] || anydiff[$k]=$((anydiff[$k] + 1))
	if [ "$rc" -eq 1 ] && has_kind "${want[$k]}" "$tmp/diff.json"; then
		detected[$k]=$((detected[$k] + 1))
		pass "$label: $k: diff names a ${want[$k]} difference"
	else
		fail "$label: $k: diff exit $rc, no difference of kind ${want[$k]}"
	fi
	[ "$k" = jump ] || return 0
	a=$(jumps "$f") b=$(jumps "$m")
	if [ "${b:-0}" -gt "${a:-0}" ]; then
		flagged[$k]=$((flagged[$k] + 1))
		pass "$label: jump: analyze flags $b jumps, the original $a"
	else
		fail "$label: jump: analyze flags ${b:-?} jumps, the original ${a:-?}"
	fi
}

for f in "${inputs[@]}"; do
	label=$(field 2 "$f") group=$(field 3 "$f")
	# A file against its own conversions: nothing changed.
	for fmt in evemu libinput; do
		"$TOUCHTAPE" convert -F "$fmt" "$f" -o "$tmp/conv.$fmt" 2>/dev/null ||
			{ fail "$label: convert -F $fmt"; continue; }
		if ! "$TOUCHTAPE" diff "$f" "$tmp/conv.$fmt" >"$tmp/conv.out" 2>&1; then
			fail "$label: differs from its $fmt conversion"
			sed 's/^/  | /' "$tmp/conv.out" | head >&2
		fi
	done
	todo=()
	for k in $kinds; do
		[ "${taken[$k/$group]:-0}" -lt "$max" ] && todo+=("$k")
	done
	# Bunched as a replay under TCG delivers frames: every frame and the
	# mean rate kept, so no rhythm difference.
	if python3 "$mutate" bunch "$f" "$tmp/bunch.jsonl" 2>/dev/null; then
		"$TOUCHTAPE" diff --json "$f" "$tmp/bunch.jsonl" >"$tmp/diff.json" 2>/dev/null
		has_kind rhythm "$tmp/diff.json" && fail "$label: bunched frames: a rhythm difference" ||
			{ pass "$label: bunched frames: no rhythm difference"; bunched=$((bunched + 1)); }
	fi
	[ "${#todo[@]}" -gt 0 ] || continue
	list=$(IFS=,; echo "${todo[*]},")	# the trailing comma: PREFIX.KIND.jsonl
	python3 "$mutate" "$list" "$f" "$tmp/m" >"$tmp/mutate.out" 2>"$tmp/mutate.err" ||
		{ fail "$label: mutate.py failed"; cat "$tmp/mutate.err" >&2; continue; }
	for k in "${todo[@]}"; do
		grep -qx "$k applied" "$tmp/mutate.out" || continue
		check "$f" "$label" "$group" "$k" "$tmp/m.$k.jsonl"
	done
done

# The HID contacts: a finger turned palm (its Confidence cleared) and a
# tip up and down for one report, on the touchpads and touchscreens whose
# descriptor has a Confidence usage; a touchscreen without one (where
# clearing it is not applicable) and all of them against themselves and
# their hid-recorder files stay 0 differences. The project's own files
# always (tests/corpus/make-hid.py: two touchpads, one with ghost fingers,
# a touchscreen with Confidence and one without); the real Synaptics and
# ELAN touchpads and ILITEK touchscreen with the corpus that has them.
# hid_mutations HIDFILE NOCONF: the checks on HIDFILE; NOCONF is "yes"
# when its contacts have no Confidence usage.
hid_mutations() {
	local hid=$1 noconf=$2 name k rc against
	name=$(basename "$hid" .hid)
	"$TOUCHTAPE" convert "$hid" -o "$tmp/$name.jsonl" 2>/dev/null || { fail "$name: convert"; return; }
	for against in "$tmp/$name.jsonl" "$hid"; do
		"$TOUCHTAPE" diff "$tmp/$name.jsonl" "$against" >"$tmp/hid.out" 2>&1 &&
			pass "$name: 0 differences against ${against##*/}" ||
			{ fail "$name: differs from ${against##*/}"; sed 's/^/  | /' "$tmp/hid.out" | head >&2; }
	done
	for k in clear-confidence drop-tip; do
		python3 "$mutate" "$k" "$tmp/$name.jsonl" "$tmp/hid-$k.jsonl" 2>"$tmp/mutate.err"
		rc=$?
		if [ "$rc" -eq 3 ]; then
			case "$k/$noconf" in clear-confidence/yes) pass "$name: $k: no Confidence usage" ;;
				*) fail "$name: $k: not applicable: $(cat "$tmp/mutate.err")" ;; esac
			continue
		fi
		[ "$rc" -eq 0 ] || { fail "$name: $k: mutate.py exit $rc"; continue; }
		[ "$k/$noconf" != clear-confidence/yes ] || { fail "$name: $k: applied without a Confidence usage"; continue; }
		"$TOUCHTAPE" diff --json "$tmp/$name.jsonl" "$tmp/hid-$k.jsonl" >"$tmp/diff.json" 2>"$tmp/diff.err"
		rc=$?
		[ "$rc" -eq 1 ] && has_kind hid "$tmp/diff.json" && pass "$name: $k: diff names a hid difference" ||
			fail "$name: $k: diff exit $rc, no difference of kind hid"
	done
}
own="$abs_top_srcdir/tests/corpus/hid-recorder"
hid_mutations "$own/touchtape-touchpad-ghost.hid" no
hid_mutations "$own/touchtape-touchpad.hid" no
hid_mutations "$own/touchtape-touchscreen-keyboard.hid" no
hid_mutations "$own/touchtape-touchscreen-noconfidence.hid" yes
for name in synaptics-dll0945-06cb-ce26-touchpad:no elan1206-04f3-30f1-touchpad:no ilitek-iltp7807-222a-fff1-touchscreen:yes; do
	hid="$corpus/hid-recorder/${name%%:*}.hid"
	if [ -f "$hid" ] || [ -n "${TT_CORPUS:-}" ]; then
		hid_mutations "$hid" "${name##*:}"
	else
		echo "# ${hid##*/} is only in the public corpus (\$TT_CORPUS): its HID mutations are checked on the own files"
	fi
done

echo "bunch: $bunched files without a rhythm difference"
[ "$bunched" -gt 0 ] || fail "bunch: no file could take it"
for k in $kinds; do
	line="$k: ${applied[$k]} files, ${detected[$k]} detected by diff (kind ${want[$k]}; ${anydiff[$k]} with any difference)"
	[ "$k" = jump ] && line="$line, ${flagged[$k]} flagged by analyze"
	line="$line; from ${groups[$k]:-nothing}"
	echo "$line"
	[ "${applied[$k]}" -gt 0 ] || fail "$k: no file could take it"
done
finish
