#!/bin/bash
# touchtape replay --dry-run over every evemu recording of the public
# corpus ($TT_CORPUS/evemu), each with its description where SOURCES.tsv
# names one (companion_desc, through --desc). Each replays with exit 0,
# and agrees with validate (on the same records, converted to a timeline):
#  - the values outside absinfo validate warns about are the ones replay
#    says it writes, as many;
#  - a file refused is refused only for errors validate reports too: here
#    codes a given description lacks (a description that is not the
#    recorded device's), and that file replays without --desc.
# Skipped (77) only when TT_CORPUS is unset.
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

[ -n "${TT_CORPUS:-}" ] || { echo "TT_CORPUS is not set: skipped"; exit 77; }
corpus=$TT_CORPUS
[ -f "$corpus/SOURCES.tsv" ] || { fail "$corpus/SOURCES.tsv is missing"; finish; }
T=$TOUCHTAPE

# The sum of the counts in replay's "N values outside ..." lines.
replay_outside() {
	sed -n 's/.*: \([0-9]*\) values\{0,1\} outside the absinfo range .*\[value-out-of-range\]$/\1/p' "$1" |
		awk '{ n += $1 } END { print n + 0 }'
}

n=0 refused=0 outside_files=0
while IFS=$'\t' read -r file desc; do
	f=$corpus/$file
	args=()
	[ -n "$desc" ] && args=(--desc "$corpus/$desc")
	n=$((n + 1))
	"$T" convert "${args[@]}" "$f" -o "$tmp/t.jsonl" 2>/dev/null
	"$T" validate --max 0 "$tmp/t.jsonl" >"$tmp/v.out" 2>&1
	"$T" replay --dry-run "${args[@]}" "$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if grep -q '\[unsupported-code\]' "$tmp/v.out"; then
		# The description lacks codes the events use: refused, for
		# that alone, and the events replay on their inferred device.
		refused=$((refused + 1))
		kinds=$(grep -o ': error: .*\[[a-z-]*\]$' "$tmp/err" | grep -o '\[[a-z-]*\]$' | sort -u | tr '\n' ' ')
		if [ "$rc" -eq 1 ] && [ "$kinds" = "[unsupported-code] " ] &&
		   grep -q "is it this device's?" "$tmp/err"; then
			pass "$file: refused with --desc, for the codes its description lacks"
		else
			fail "$file: exit $rc with --desc, refusals '$kinds', want 1 for [unsupported-code] alone"
			sed 's/^/  | /' "$tmp/err" | head -5 >&2
		fi
		expect_exit 0 "$file: replays on its inferred device" -- "$T" replay --dry-run "$f"
		continue
	fi
	if [ "$rc" -ne 0 ]; then
		fail "$file: replay --dry-run ${args[*]} exits $rc"
		sed 's/^/  | /' "$tmp/err" | head -5 >&2
		continue
	fi
	want=$(grep -c '\[value-out-of-range\]$' "$tmp/v.out")
	got=$(replay_outside "$tmp/err")
	[ "$want" -gt 0 ] && outside_files=$((outside_files + 1))
	if [ "$want" -eq "$got" ]; then
		pass "$file: replayed ($got values outside absinfo, as validate counts)"
	else
		fail "$file: replay says $got values outside absinfo, validate $want"
	fi
done < <(awk -F'\t' 'NR > 1 && $1 ~ /^evemu\// { print $1 "\t" $16 }' "$corpus/SOURCES.tsv")

[ "$n" -gt 0 ] || fail "no evemu file listed in $corpus/SOURCES.tsv"
echo "$n files: $outside_files with values outside absinfo, $refused refused only for a description that lacks codes"
finish
