#!/bin/sh
# touchtape diff compares the anomalies of its two files (the pass validate
# and analyze share) kind by kind: a recording and the same recording with
# one hand-made jump added differ in exactly that, named as analyze names
# it, in text and --json; the reading options (--device, --from, --to)
# apply to both files.
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
data="$abs_top_srcdir/tests/data/analyze"
corpus="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}"
s="$data/session.jsonl"

# Slot 0 goes from (10, 10) mm out to (80, 10) mm for one frame at 15 ms and
# back at 20 ms: two jumps of analyze's, nothing else changed (its begin and
# end, and every other touch, are as they were).
awk '{ print }
/"t":10000,/ { print "{\"type\":\"frame\",\"dev\":0,\"t\":15000,\"ev\":[[\"EV_ABS\",\"ABS_MT_SLOT\",0],[\"EV_ABS\",\"ABS_MT_POSITION_X\",800],[\"EV_SYN\",\"SYN_REPORT\",0]]}" }' \
	"$s" >"$tmp/jump.jsonl"
jline=$(grep -n '"t":15000,' "$tmp/jump.jsonl" | cut -d: -f1)
bline=$(grep -n '"t":20000,' "$tmp/jump.jsonl" | cut -d: -f1)
"$TOUCHTAPE" analyze "$tmp/jump.jsonl" >"$tmp/analyze" 2>&1
expect_grep 'error jump: 2' "$tmp/analyze" "analyze finds the two jumps it is given"

expect_exit 0 "same file" -- "$TOUCHTAPE" diff "$s" "$s"
expect_grep '^0 differences$' "$tmp/out" "same file: 0 differences"

# The jump is a path difference too (slot 0 leaves its path by 65 mm five
# ms in); --ignore path leaves the anomaly alone.
expect_exit 1 "jump added" -- "$TOUCHTAPE" diff "$s" "$tmp/jump.jsonl"
expect_grep '^2 differences$' "$tmp/out" "jump added: the path and the anomaly"
expect_grep "^[^ ]*session.jsonl:[0-9]* [^ ]*jump.jsonl:$jline: device 0 slot 0 touch at \+0\.000000 s: paths part by 65\.00 mm at \+0\.005000 s" \
	"$tmp/out" "jump added: the path, where it parts"
expect_exit 1 "jump added, --ignore path" -- "$TOUCHTAPE" diff --ignore path "$s" "$tmp/jump.jsonl"
expect_grep '^1 difference$' "$tmp/out" "jump added: exactly 1 difference"
expect_grep "^[^ ]*session.jsonl:- [^ ]*jump.jsonl:$jline: jump \(error\): 0 in [^ ]*session.jsonl, 2 in [^ ]*jump.jsonl; [^ ]*jump.jsonl: lines $jline, $bline\$" \
	"$tmp/out" "jump added: the kind, the counts and the lines of each"
expect_exit 1 "the other way round" -- "$TOUCHTAPE" diff "$tmp/jump.jsonl" "$s"
expect_grep "jump.jsonl:$jline [^ ]*session.jsonl:-: jump \(error\): 2 in" "$tmp/out" "the other way round: A's line"
expect_exit 0 "--no-anomalies" -- "$TOUCHTAPE" diff --no-anomalies --ignore path "$s" "$tmp/jump.jsonl"

# --json: the same, under analyze's names.
expect_exit 1 "--json" -- "$TOUCHTAPE" diff --json --ignore path "$s" "$tmp/jump.jsonl"
python3 - "$tmp/out" "$jline" "$bline" <<'PY' && pass "--json: the anomaly with its counts and lines" || fail "--json"
import json, sys
d = json.load(open(sys.argv[1]))
j, b = int(sys.argv[2]), int(sys.argv[3])
assert d["differences"] == [], d["differences"]
assert d["anomalies"] == [{"kind": "jump", "severity": "error",
                           "a": {"count": 0, "lines": []},
                           "b": {"count": 2, "lines": [j, b]}}], d["anomalies"]
assert d["count"] == 1
assert d["a"]["anomaly_counts"] == {"total": 0}
assert d["b"]["anomaly_counts"] == {"total": 2, "jump": 2}
assert d["xi_compared"] is True and d["xi_note"] is None
PY
expect_exit 0 "--json, same file" -- "$TOUCHTAPE" diff -j "$s" "$s"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["count"] == 0 and d["anomalies"] == [] and d["differences"] == []' \
	"$tmp/out" && pass "--json, same file: nothing" || fail "--json, same file"

# The reading options, on both files: the jumps are at 15 and 20 ms.
expect_exit 0 "--from 50ms leaves the jumps out" -- "$TOUCHTAPE" diff --from 50ms "$s" "$tmp/jump.jsonl"
expect_exit 1 "--to 50ms keeps them" -- "$TOUCHTAPE" diff --to 50ms --ignore path,rhythm "$s" "$tmp/jump.jsonl"
expect_grep '^1 difference$' "$tmp/out" "--to 50ms: the jump only"
expect_grep '^# comparing .* \(1 touch, 2 XI\) with .* \(1 touch, 2 XI\)$' "$tmp/out" "--to 50ms: the first touch only"
expect_exit 1 "--device 0" -- "$TOUCHTAPE" diff --device 0 "$s" "$tmp/jump.jsonl"
expect_exit 2 "--device the files lack" -- "$TOUCHTAPE" diff --device 3 "$s" "$tmp/jump.jsonl"
expect_grep 'there is no device 3' "$tmp/err" "--device the files lack: said"
expect_exit 2 "--to before --from" -- "$TOUCHTAPE" diff --from 2s --to 1s "$s" "$s"
expect_exit 2 "--from past the end" -- "$TOUCHTAPE" diff --from 10s "$s" "$tmp/jump.jsonl"
expect_grep 'diff: --from 10\.000000 is past the end of [^ ]*session.jsonl' "$tmp/err" "--from past the end: said"

# Every sample and corpus file against itself: no difference, and the
# anomaly counts diff read are analyze's, kind by kind (one stream). The
# JSON of all of them is checked by one python at the end.
n=0
self_check() {
	n=$((n + 1))
	"$TOUCHTAPE" diff --json "$1" "$1" >"$tmp/self-$n.json" 2>/dev/null
	rc=$?
	# 2: a file the readers cannot read whole, trouble in both.
	[ $rc -eq 0 ] || [ $rc -eq 2 ] || { fail "$1 against itself: exit $rc"; return; }
	"$TOUCHTAPE" analyze --json "$1" >"$tmp/analyze-$n.json" 2>/dev/null
	printf '%s\t%s\t%s\n' "$1" "$tmp/self-$n.json" "$tmp/analyze-$n.json" >>"$tmp/selves"
}
for f in "$abs_top_srcdir"/samples/*.jsonl; do
	self_check "$f"
done
if [ -n "$corpus" ] && [ -d "$corpus" ]; then
	for f in "$corpus"/evemu/* "$corpus"/libinput-record/*; do
		[ -f "$f" ] && self_check "$f"
	done
fi
python3 - "$tmp/selves" <<'PY' && pass "$n samples and corpus files against themselves" || fail "diff's anomaly counts"
import json, sys
bad = 0
for line in open(sys.argv[1]):
    name, diff, analyze = line.rstrip("\n").split("\t")
    d, a = json.load(open(diff)), json.load(open(analyze))
    if not (d["a"]["anomaly_counts"] == a["anomaly_counts"] == d["b"]["anomaly_counts"]) or \
            d["anomalies"] or d["count"]:
        print(f"FAIL: {name}: diff {d['a']['anomaly_counts']}, {d['count']} differences; "
              f"analyze {a['anomaly_counts']}", file=sys.stderr)
        bad += 1
sys.exit(1 if bad else 0)
PY
finish
