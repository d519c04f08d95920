#!/bin/sh
# The Wayland layer on hand-made timelines (tests/data/wayland, written by
# make-data.py there): a clean two-finger sequence with its kernel frames
# gives no wl_touch rule broken, both touches linked to their kernel
# touches with the latencies of the file's times (analyze, text and JSON),
# print names the kernel touch of each wl_touch event, inspect puts each
# Wayland lane under its kernel touch, diff finds exactly what changed;
# each file with one rule broken gets exactly that diagnostic, on its line.
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
data="$abs_top_srcdir/tests/data/wayland"
clean="$data/wl-clean.jsonl"

expect_exit 0 "validate clean" -- "$TOUCHTAPE" validate "$clean"
grep -q '\[wl-' "$tmp/err" && fail "a wl_touch rule on the clean file" || pass "no wl_touch rule on the clean file"

# rule LINE: the file's one diagnostic, of its own kind, on LINE.
rule() {
	expect_exit 1 "validate $1" -- "$TOUCHTAPE" validate "$data/$1.jsonl"
	n=$(grep -c '\[wl-' "$tmp/err")
	[ "$n" -eq 1 ] && pass "$1: one wl_touch diagnostic" || { fail "$1: $n wl_touch diagnostics"; cat "$tmp/err" >&2; }
	expect_grep "$1\\.jsonl:$2: error: .*\\[$1\\]\$" "$tmp/err" "$1 on line $2"
}
rule wl-frame-missing 9
rule wl-touch-not-down 17
rule wl-event-after-up 21
rule wl-event-after-cancel 23
rule wl-touch-id-reused 18

# validate, analyze and inspect --summary name the same diagnostics.
python3 "$abs_top_srcdir/tests/diag-consistency.py" "$TOUCHTAPE" "$data"/*.jsonl >"$tmp/consistency" 2>&1
expect_grep '^7 recordings compared, 5 anomalies .* 0 disagreements$' "$tmp/consistency" "one set of answers"

# analyze: the touches, their kernel touches, the latencies.
expect_exit 0 "analyze clean" -- "$TOUCHTAPE" analyze "$clean"
expect_grep '^wayland:$' "$tmp/out" "a wayland section"
expect_grep '^  touches 2: linked 2, unlinked 0, cancelled 0, active_at_end 0$' "$tmp/out" "counts"
expect_grep '^  wayland touch id 0: 0\.013000-0\.042000 s \(lines 9-19\), 1 motions, 3 frames, linked to kernel device 0 slot 0 tracking ID 1 \(line 8\), latency_us 3000, stamp_latency_us 0$' \
	"$tmp/out" "touch 0: kernel touch, latency 3 ms, the compositor passed the kernel's time on"
expect_grep '^  wayland touch id 1: .* linked to kernel device 0 slot 1 tracking ID 2 \(line 11\), latency_us 4500, stamp_latency_us 500$' \
	"$tmp/out" "touch 1: latency 4.5 ms, the microsecond timestamp 0.5 ms after the kernel"
expect_grep '^  latency_us \(kernel frame to Wayland client\): median 3750 us, p95 4425 us, max 4500 us over 2$' \
	"$tmp/out" "latency median and p95"
expect_grep '^  stamp_latency_us \(kernel frame to compositor timestamp\): median 250 us, p95 475 us, max 500 us over 2$' \
	"$tmp/out" "compositor timestamp latency"
expect_grep '^  events: .*wl_touch\.down 2, wl_touch\.frame 5, wl_touch\.motion 2, wl_touch\.up 2$' "$tmp/out" "events per kind"

expect_exit 0 "analyze --json clean" -- "$TOUCHTAPE" analyze --json "$clean"
python3 - "$tmp/out" <<'PY' && pass "JSON: the same numbers" || fail "JSON: the same numbers"
import json, sys
w = json.load(open(sys.argv[1]))["wayland"]
assert (w["touches"], w["linked"], w["unlinked"], w["cancelled"]) == (2, 2, 0, 0), w
assert w["latency_us"] == {"count": 2, "median": 3750, "p95": 4425, "max": 4500}, w
assert w["stamp_latency_us"] == {"count": 2, "median": 250, "p95": 475, "max": 500}, w
assert w["events"]["wl_touch.frame"] == 5 and w["events"]["wl_touch.down"] == 2, w
t0, t1 = w["touch_list"]
assert t0["link"] == "linked" and t0["kernel"] == {"device": 0, "slot": 0, "tracking_id": 1, "begin_us": 10000, "line": 8}, t0
assert t1["latency_us"] == 4500 and t1["stamp_latency_us"] == 500 and t1["li_seat_slot"] is None, t1
PY
expect_exit 0 "analyze --json without the layer" -- "$TOUCHTAPE" analyze --json "$samples/3m-two-finger.jsonl"
grep -q '"wayland"' "$tmp/out" && fail "a wayland key without the layer" || pass "no wayland key without the layer"

# Xwayland beside the Wayland client (xwayland.jsonl): its touch device
# has no node; with one touchscreen in the file it is that one's, so each
# kernel touch carries both views: its XI touch and its wl_touch, each
# with its latency.
expect_exit 0 "analyze --json xwayland" -- "$TOUCHTAPE" analyze --json "$data/xwayland.jsonl"
python3 - "$tmp/out" <<'PY' && pass "Xwayland: XI and wl_touch per kernel touch" || fail "Xwayland: XI and wl_touch per kernel touch"
import json, sys
a = json.load(open(sys.argv[1]))
assert a["links"]["linked"] == 2, a["links"]
xi = [(t["begin_us"], t["xi"]["deviceid"], t["xi"]["touchid"], t["xi"]["latency_us"]) for t in a["touches"]]
assert xi == [(10000, 7, 1, 5000), (20000, 7, 2, 6000)], xi
wl = [(t["kernel"]["begin_us"], t["latency_us"]) for t in a["wayland"]["touch_list"]]
assert wl == [(10000, 3000), (20000, 4500)], wl
PY
# The touches went to the Wayland surface, none to an X window: Xwayland
# got none, rightly, and that is no not-delivered.
grep -v '"type":"xi"' "$data/xwayland.jsonl" >"$tmp/wl-only.jsonl"
expect_exit 0 "analyze Xwayland without XI touches" -- "$TOUCHTAPE" analyze --json "$tmp/wl-only.jsonl"
python3 - "$tmp/out" <<'PY' && pass "touches on a Wayland surface are not lost to X" || fail "touches on a Wayland surface are not lost to X"
import json, sys
a = json.load(open(sys.argv[1]))
assert a["links"]["not_delivered"] == 0 and a["anomaly_counts"].get("not-delivered", 0) == 0, a["links"]
assert [t["link"] for t in a["touches"]] == ["none", "none"], a["touches"]
PY
# Two touchscreens: nothing says which one Xwayland's touches came from.
python3 - "$data/xwayland.jsonl" >"$tmp/two-screens.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    print(line, end="")
    r = json.loads(line)
    if r.get("type") == "device":
        print(json.dumps(dict(r, id=1, node="/dev/input/event6"), separators=(",", ":")))
PY
expect_exit 0 "analyze two touchscreens" -- "$TOUCHTAPE" analyze "$tmp/two-screens.jsonl"
expect_grep '^kernel to XI: 0 linked' "$tmp/out" "two touchscreens: Xwayland's touch device linked to neither"

# A touch far from any kernel touch: unlinked.
sed 's/"id":1,"xy":\[750\.0,250\.0\]/"id":1,"xy":[10.0,490.0]/' "$clean" >"$tmp/far.jsonl"
expect_exit 0 "analyze far" -- "$TOUCHTAPE" analyze "$tmp/far.jsonl"
expect_grep '^  touches 2: linked 1, unlinked 1,' "$tmp/out" "a touch where no kernel touch was: unlinked"

# diff: nothing against itself; a compositor 10 ms slower, one that sends
# a cancel.
expect_exit 0 "diff itself" -- "$TOUCHTAPE" diff "$clean" "$clean"
expect_grep '^0 differences$' "$tmp/out" "0 differences"
python3 - "$clean" >"$tmp/slow.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("type") == "wl" and r["t"] > 0:
        r["t"] += 10000
    print(json.dumps(r, separators=(",", ":")))
PY
expect_exit 1 "diff slower" -- "$TOUCHTAPE" diff "$clean" "$tmp/slow.jsonl"
expect_grep 'wayland: latency_us median 3750 vs 13750 us$' "$tmp/out" "median latency"
expect_grep 'wayland: latency_us p95 4425 vs 14425 us$' "$tmp/out" "p95 latency"
expect_grep '^2 differences$' "$tmp/out" "only the latencies"
# --latency-tolerance: 10 ms more is within 11ms, not within 9ms.
expect_exit 0 "slower within --latency-tolerance 11ms" -- "$TOUCHTAPE" diff --latency-tolerance 11ms "$clean" "$tmp/slow.jsonl"
expect_exit 1 "slower past --latency-tolerance 9ms" -- "$TOUCHTAPE" diff --latency-tolerance 9ms "$clean" "$tmp/slow.jsonl"
expect_exit 2 "--latency-tolerance needs its unit" -- "$TOUCHTAPE" diff --latency-tolerance 9 "$clean" "$clean"
# The seat's capabilities again (the replayed device joined the seat after
# the client bound it): not a difference.
awk '{ print } /"wl":"wl_seat".*"ev":"capabilities"/ { sub(/"capabilities":\["touch"\]/, "\"capabilities\":[]"); print }' \
	"$clean" >"$tmp/seat.jsonl"
[ "$(grep -c '"ev":"capabilities"' "$tmp/seat.jsonl")" -eq 2 ] || fail "the seat copy has no second capabilities event"
expect_exit 0 "wl_seat's events again: no difference" -- "$TOUCHTAPE" diff "$clean" "$tmp/seat.jsonl"
expect_exit 1 "diff cancel" -- "$TOUCHTAPE" diff "$clean" "$data/wl-event-after-cancel.jsonl"
expect_grep 'wayland: touches cancelled 0 vs 1$' "$tmp/out" "a touch cancelled"
expect_grep 'wayland: wl_touch\.cancel events 0 vs 1$' "$tmp/out" "a cancel event"
expect_grep 'wl-event-after-cancel \(error\): 0 in .*, 1 in ' "$tmp/out" "the rule broken"
expect_grep '^3 differences$' "$tmp/out" "nothing else"

# print: each wl_touch event of a linked touch names its kernel touch.
expect_exit 0 "print" -- "$TOUCHTAPE" print "$clean"
expect_grep 'down.*<- dev0 s0 #1 \+3\.0ms$' "$tmp/out" "print: down of id 0 from dev0 s0 #1"
expect_grep 'up.*<- dev0 s1 #2 \+4\.5ms$' "$tmp/out" "print: up of id 1 from dev0 s1 #2"

# inspect: the Wayland lane right under its kernel touch, with the latency.
expect_exit 0 "inspect --text" -- "$TOUCHTAPE" inspect --text "$clean"
under() {
	if grep -A1 "^$1 " "$tmp/out" | tail -n +2 | grep -Eq "$2"; then pass "$3"; else
		fail "$3"; cat "$tmp/out" >&2; fi
}
under 'dev0 s0 #1' '^ `wl t0 wayland \+3ms' "inspect: wl t0 under dev0 s0 #1"
under 'dev0 s1 #2' '^ `wl t1 wayland \+4\.5ms' "inspect: wl t1 under dev0 s1 #2"
# With Xwayland beside it: under each kernel touch, its wl_touch, the raw
# XI touch and the X window's touch, each with its latency.
expect_exit 0 "inspect --text xwayland" -- "$TOUCHTAPE" inspect --text "$data/xwayland.jsonl"
lanes=$(grep -A3 '^dev0 s1 #2 ' "$tmp/out" | tail -n +2 | sed 's/  *\[.*//' | tr '\n' '|')
[ "$lanes" = ' `wl t1 wayland +4.5ms| `raw7 t2 observer +6ms| `xi7 t2 window +6.5ms|' ] &&
	pass "inspect: the wl_touch and XI views side by side under their kernel touch" ||
	{ fail "inspect: lanes under dev0 s1 #2: $lanes"; cat "$tmp/out" >&2; }
expect_exit 0 "inspect --summary" -- "$TOUCHTAPE" inspect --summary "$clean"
expect_grep '^  wayland: touches 2 \(2 linked to kernel touches, 0 cancelled\)$' "$tmp/out" "inspect summary"
(cd "$data" && TOUCHTAPE_INSPECT_HEADLESS=100x24 TOUCHTAPE_INSPECT_KEYS='<Dump>' \
	"$TOUCHTAPE" inspect wl-clean.jsonl) >"$tmp/screens" 2>"$tmp/err" && pass "headless" || fail "headless"
expect_grep ' became wl t0 wayland \+3(\.0)?ms$' "$tmp/screens" "pane: the Wayland touch made of the kernel touch"
finish
