#!/bin/sh
# analyze, inspect --summary and validate give one set of answers on every
# sample, every hand-made anomaly timeline and every corpus recording
# (evemu with and without its description, libinput record YAML,
# hid-recorder): see
# diag-consistency.py for what is compared.
. "${abs_top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
corpus="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}"

: >"$tmp/list"
for f in "$samples"/*.jsonl "$abs_top_srcdir"/tests/data/analyze/*.jsonl "$abs_top_srcdir"/tests/data/xi-chains/*.jsonl; do
	printf '%s\n' "$f" >>"$tmp/list"
done
if [ -n "$corpus" ] && [ -d "$corpus/evemu" ]; then
	for f in "$corpus"/evemu/* "$corpus"/libinput-record/* "$corpus"/hid-recorder/*.hid \
		"$corpus"/hid-recorder/*.txt; do
		[ -e "$f" ] || continue	# a pattern that matched nothing
		printf '%s\n' "$f" >>"$tmp/list"
	done
	# Events-only evemu files once more, with their description.
	awk -F'\t' -v c="$corpus" 'NR > 1 && $16 != "" { print c "/" $1 "|" c "/" $16 }' \
		"$corpus/SOURCES.tsv" >>"$tmp/list"
else
	fail "no corpus at $corpus"
fi
tr '\n' '\0' <"$tmp/list" | xargs -0 python3 "$abs_top_srcdir/tests/diag-consistency.py" "$TOUCHTAPE" \
	>"$tmp/report"
rc=$?
cat "$tmp/report"
[ "$rc" -eq 0 ] && pass "one set of answers" || fail "analyze, inspect and validate disagree"
finish
