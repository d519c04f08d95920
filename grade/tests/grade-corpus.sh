#!/bin/sh
# Every recording of the samples and the corpus graded with every
# built-in profile: a verdict (exit 0 or 1) and a grade object, never
# trouble or a crash. The corpus is tests/corpus, or the whole public
# one with $TT_CORPUS.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
corpus="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}"

list="$tmp/list"
ls "$samples"/*.jsonl >"$list"
[ -d "$corpus" ] && find "$corpus/evemu" "$corpus/hid-recorder" "$corpus/libinput-record" -type f \
	! -name '*.tsv' ! -name '*.md' 2>/dev/null >>"$list"
n=0 bad=0
while IFS= read -r f; do
	for p in touchscreen touchpad chromeos; do
		"$TOUCHTAPE" analyze --json --grade "$p" "$f" >"$tmp/g.json" 2>"$tmp/g.err"
		rc=$?
		n=$((n + 1))
		# An unreadable input (a device description only) is the reader's
		# exit 2 with or without --grade; anything else must grade.
		if [ "$rc" -eq 2 ] && "$TOUCHTAPE" analyze "$f" >/dev/null 2>&1; then
			fail "$p $f: exit 2 only with --grade: $(head -c 300 "$tmp/g.err")"; bad=$((bad + 1))
		elif [ "$rc" -gt 2 ]; then
			fail "$p $f: exit $rc"; bad=$((bad + 1))
		elif [ "$rc" -lt 2 ] && ! python3 -c '
import json, sys
g = json.load(open(sys.argv[1]))["grade"]
assert g["profile"] == sys.argv[2]
for m in g["metrics"]:
    assert m["verdict"] in ("pass", "fail", "info", "not-measurable"), m
    assert m["value"] is not None or m["verdict"] == "not-measurable", m
    assert m["verdict"] != "not-measurable" or m["why"], m
' "$tmp/g.json" "$p"; then
			fail "$p $f: a malformed grade"; bad=$((bad + 1))
		fi
	done
done <"$list"
[ "$bad" -eq 0 ] && pass "$n gradings of $(wc -l <"$list") recordings"
finish
