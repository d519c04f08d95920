#!/bin/bash
# touchtape replay --dry-run over every evemu recording of the public
# corpus ($TT_CORPUS/evemu), each with its description where SOURCES.tsv
# names one (companion_desc, through --desc). Each replays with exit 0,
# and agrees with validate (on the same records, converted to a timeline):
#  - the values outside absinfo validate warns about are the ones replay
#    says it writes, as many;
#  - the codes a given description lacks and the events use (validate's
#    [unsupported-code] errors: a description of a sibling model) are
#    added to the device replay creates, said once per device, and the
#    file replays without --desc too.
# The corpus is tests/corpus, or the whole public one with $TT_CORPUS.
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

corpus=${TT_CORPUS:-$abs_top_srcdir/tests/corpus}
[ -f "$corpus/SOURCES.tsv" ] || { fail "$corpus/SOURCES.tsv is missing"; finish; }
T=$TOUCHTAPE

# The sum of the counts in replay's "N values outside ..." lines.
replay_outside() {
	sed -n 's/.*: \([0-9]*\) values\{0,1\} outside the absinfo range .*\[value-out-of-range\]$/\1/p' "$1" |
		awk '{ n += $1 } END { print n + 0 }'
}

n=0 added=0 outside_files=0 ok=0
while IFS=$'\t' read -r file desc; do
	f=$corpus/$file
	args=()
	[ -n "$desc" ] && args=(--desc "$corpus/$desc")
	n=$((n + 1))
	"$T" convert "${args[@]}" "$f" -o "$tmp/t.jsonl" 2>/dev/null
	"$T" validate --max 0 "$tmp/t.jsonl" >"$tmp/v.out" 2>&1
	"$T" replay --dry-run "${args[@]}" "$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "$file: replay --dry-run ${args[*]} exits $rc"
		sed 's/^/  | /' "$tmp/err" | head -5 >&2
		continue
	fi
	if grep -q '\[unsupported-code\]' "$tmp/v.out"; then
		added=$((added + 1))
		if grep -q ': the description lacks .*, used by the recording: added$' "$tmp/err"; then
			pass "$file: replayed with the codes its description lacks added"
		else
			fail "$file: validate finds codes the description lacks, replay does not say it adds them"
		fi
		expect_exit 0 "$file: replays on its inferred device" -- "$T" replay --dry-run "$f"
	elif grep -q ': the description lacks ' "$tmp/err"; then
		fail "$file: replay adds codes validate does not miss"
	fi
	want=$(grep -c '\[value-out-of-range\]$' "$tmp/v.out")
	got=$(replay_outside "$tmp/err")
	[ "$want" -gt 0 ] && outside_files=$((outside_files + 1))
	if [ "$want" -eq "$got" ]; then
		pass "$file: replayed ($got values outside absinfo, as validate counts)"
		ok=$((ok + 1))
	else
		fail "$file: replay says $got values outside absinfo, validate $want"
	fi
done < <(awk -F'\t' 'NR > 1 && $1 ~ /^evemu\// { print $1 "\t" $16 }' "$corpus/SOURCES.tsv")

[ "$n" -gt 0 ] || fail "no evemu file listed in $corpus/SOURCES.tsv"
# Every file replayed (exit 0) with as many values outside as validate.
[ "$ok" -eq "$n" ] && pass "all $n files replay with --dry-run" ||
	fail "$ok of $n files replay with --dry-run"
echo "$n files: $outside_files with values outside absinfo, $added with codes their description lacks added"
finish
