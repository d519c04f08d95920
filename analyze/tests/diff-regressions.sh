#!/bin/sh
# touchtape diff sees inside the touches: regressions made from the samples
# by tests/mutate.py (a jump mid-touch, 200 ms of frames deleted, half the
# report rate, pressure halved, a lost click) are each reported with their kind and exit 1,
# while every sample against itself and its own evemu and libinput
# conversions gives 0 differences. Tolerances need their units.
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
mutate="$abs_top_srcdir/tests/mutate.py"
samples="$abs_top_srcdir/samples"

for f in "$samples"/*.jsonl; do
	n=$(basename "$f")
	expect_exit 0 "$n against itself" -- "$TOUCHTAPE" diff "$f" "$f"
	for fmt in evemu libinput; do
		"$TOUCHTAPE" convert -F $fmt "$f" -o "$tmp/conv.$fmt" 2>/dev/null || { fail "$n: convert -F $fmt"; continue; }
		expect_exit 0 "$n against its $fmt conversion" -- "$TOUCHTAPE" diff "$f" "$tmp/conv.$fmt"
	done
done

# kinds FILE: the kinds of diff --json's differences, sorted, one a line;
# and every difference with a number has its value, tolerance and unit.
kinds() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for x in d["differences"]:
    assert isinstance(x["kind"], str), x
    if "value" in x:
        assert isinstance(x["value"], (int, float)) and isinstance(x["tolerance"], (int, float)), x
        assert x["unit"] in ("mm", "units", "fraction", "us", "ms", "Hz", "count"), x
        assert x["value"] > x["tolerance"], x
print("\n".join(sorted({x["kind"] for x in d["differences"]})))
PY
}

# regression NAME KIND FILE WANT-KIND [PATTERN]: the mutant of FILE differs,
# with WANT-KIND among its kinds and PATTERN in its text.
regression() {
	name=$1 kind=$2 file=$3 want=$4 pat=$5
	python3 "$mutate" "$kind" "$file" "$tmp/$name.jsonl" || { fail "$name: not made"; return; }
	expect_exit 1 "$name: differs" -- "$TOUCHTAPE" diff "$file" "$tmp/$name.jsonl"
	[ -n "$pat" ] && expect_grep "$pat" "$tmp/out" "$name: $pat"
	expect_exit 1 "$name: --json" -- "$TOUCHTAPE" diff --json "$file" "$tmp/$name.jsonl"
	kinds "$tmp/out" >"$tmp/kinds" || { fail "$name: JSON without kinds or numbers"; return; }
	grep -qx "$want" "$tmp/kinds" && pass "$name: kind $want" || fail "$name: kinds $(tr '\n' ' ' <"$tmp/kinds"), want $want"
}

s3m="$samples/3m-two-finger.jsonl"
pad="$samples/touchpad-two-finger-swipe.jsonl"
regression jump jump "$s3m" path 'slot 0 touch at \+0\.000000 s: paths part by [0-9.]* % of the axis range'
regression gap stall "$s3m" rhythm 'largest interval in motion 6\.0 vs 204\.0 ms \(tolerance 100\.0 ms\)'
grep -qx path "$tmp/kinds" && pass "gap: the cut path shows" || fail "gap: no path difference"
regression halfrate halve-rate "$s3m" rhythm 'slot 0 touch at \+0\.000000 s: 479 vs 420 frames \(tolerance 24\)'
regression pressure halve-pressure "$pad" axis 'ABS_MT_PRESSURE 67 vs 33 at'
[ "$(cat "$tmp/kinds")" = axis ] && pass "pressure: nothing but the axis" || fail "pressure: $(cat "$tmp/kinds")"

# A click on the touchpad (BTN_LEFT down at its 40th frame, up at its
# 60th), and the same without it.
python3 "$mutate" add-click "$pad" "$tmp/clicked.jsonl"
expect_exit 0 "clicked: against itself" -- "$TOUCHTAPE" diff "$tmp/clicked.jsonl" "$tmp/clicked.jsonl"
regression click lost-click "$tmp/clicked.jsonl" key 'device 0 BTN_LEFT press at \+[0-9.]* s is missing in'
"$TOUCHTAPE" diff "$tmp/clicked.jsonl" "$tmp/click.jsonl" >"$tmp/text" 2>&1
expect_grep 'device 0 BTN_LEFT release at \+[0-9.]* s is missing in' "$tmp/text" "click: the release is missing too"
expect_grep '^2 differences$' "$tmp/text" "click: the press and the release, nothing else"

# A touchpad's pressure is ABS_PRESSURE only, not per slot: halved, the
# device's own axis shows.
regression stpressure halve-pressure "$samples/xi-touchpad-synaptics.jsonl" axis \
	'device 0: ABS_PRESSURE 92 vs 46 at \+1\.393019 s, 46 apart \(tolerance 13\)'

# Key times: a click 22 ms late (what a replay under TCG gave) is within
# the default time tolerance, 200 ms late is not.
python3 "$mutate" shift-button --ms 22 "$tmp/clicked.jsonl" "$tmp/late.jsonl"
expect_exit 0 "click 22 ms late: within 50 ms" -- "$TOUCHTAPE" diff "$tmp/clicked.jsonl" "$tmp/late.jsonl"
regression shifted shift-button "$tmp/clicked.jsonl" key 'BTN_LEFT press at \+[0-9.]* s: 200\.000 ms later \(tolerance 50\.000 ms\)'

# A replay whose frames came bunched (31, 0.5, 56, ... ms apart instead
# of 14 each) with the same positions along a curve: the paths do not
# part (only the rhythm differs); the same track with a jump does.
python3 - "$samples/3m-two-finger.jsonl" "$tmp/even.jsonl" "$tmp/bunched.jsonl" <<'PY'
import json, math, sys
hdr = open(sys.argv[1]).read().splitlines()[:2]
def write(name, times):
    with open(name, "w") as o:
        o.write("\n".join(hdr) + "\n")
        for i, t in enumerate(times):
            x, y = round(16000 + 6000 * math.cos(i / 6)), round(8000 + 3000 * math.sin(i / 6))
            ev = ([[3, 57, 5], [1, 330, 1]] if i == 0 else []) + [[3, 53, x], [3, 54, y], [3, 0, x], [3, 1, y], [0, 0, 0]]
            o.write(json.dumps({"type": "frame", "dev": 0, "t": t, "ev": ev}) + "\n")
        o.write(json.dumps({"type": "frame", "dev": 0, "t": times[-1] + 14000, "ev": [[3, 57, -1], [1, 330, 0], [0, 0, 0]]}) + "\n")
steps, t, times = [31000, 500, 56000, 500, 500, 500, 500, 500, 36000], 0, []
for i in range(64):
    times.append(t)
    t += steps[i % 9]
write(sys.argv[2], [i * 14000 for i in range(64)])
write(sys.argv[3], times)
PY
expect_exit 0 "bunched frames: the same path" -- "$TOUCHTAPE" diff --ignore rhythm "$tmp/even.jsonl" "$tmp/bunched.jsonl"
regression bunchedjump jump "$tmp/bunched.jsonl" path 'paths part by [0-9.]* % of the axis range'

# The HID layer: 40 reports of a touchscreen lost.
corpus="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}"
hid="$corpus/hid-recorder/ilitek-iltp7807-222a-fff1-touchscreen.hid"
if [ -f "$hid" ] && "$TOUCHTAPE" convert "$hid" -o "$tmp/hid.jsonl" 2>/dev/null; then
	expect_exit 0 "HID: against its conversion" -- "$TOUCHTAPE" diff "$hid" "$tmp/hid.jsonl"
	awk '/"type":"hid"/ { n++; if (n >= 200 && n < 240) next } { print }' "$tmp/hid.jsonl" >"$tmp/hid-lost.jsonl"
	expect_exit 1 "HID: reports lost" -- "$TOUCHTAPE" diff --json "$tmp/hid.jsonl" "$tmp/hid-lost.jsonl"
	kinds "$tmp/out" >"$tmp/kinds" && grep -qx hid-rhythm "$tmp/kinds" && pass "HID: kind hid-rhythm" ||
		fail "HID: kinds $(tr '\n' ' ' <"$tmp/kinds")"
	expect_exit 0 "HID: --ignore hid" -- "$TOUCHTAPE" diff --ignore hid "$tmp/hid.jsonl" "$tmp/hid-lost.jsonl"
	# The first contact's X (bytes 4-5 of this device's reports) moved to
	# 0x1000 for 60 reports.
	python3 "$mutate" hid-move "$tmp/hid.jsonl" "$tmp/hid-moved.jsonl"
	expect_exit 1 "HID: a contact moved" -- "$TOUCHTAPE" diff "$tmp/hid.jsonl" "$tmp/hid-moved.jsonl"
	expect_grep 'HID device 0 contact 0 at \+0\.000000 s: paths part by 11\.64% of the range' "$tmp/out" \
		"HID: where the contact's path parts"
	expect_exit 1 "HID: a contact moved, --json" -- "$TOUCHTAPE" diff --json "$tmp/hid.jsonl" "$tmp/hid-moved.jsonl"
	kinds "$tmp/out" >"$tmp/kinds" && [ "$(cat "$tmp/kinds")" = hid-path ] && pass "HID: kind hid-path" ||
		fail "HID: kinds $(tr '\n' ' ' <"$tmp/kinds")"
fi

# A touch missing is reported once: not again as its BTN_TOUCH press and
# release and the device's frames while touching. A click lost with it
# is no consequence of it and still shows.
m3="$corpus/evemu/evemu__data_3m.event"
if [ -f "$m3" ] && "$TOUCHTAPE" convert "$m3" -o "$tmp/3m.jsonl" 2>/dev/null; then
	python3 "$mutate" add-click "$tmp/3m.jsonl" "$tmp/3m-click.jsonl"
	python3 "$mutate" drop-touch "$tmp/3m-click.jsonl" "$tmp/3m-gone.jsonl"
	expect_exit 1 "a touch missing" -- "$TOUCHTAPE" diff --json "$tmp/3m-click.jsonl" "$tmp/3m-gone.jsonl"
	kinds "$tmp/out" >"$tmp/kinds" && [ "$(cat "$tmp/kinds")" = touch-missing ] &&
		[ "$(grep -c '"kind"' "$tmp/out")" -eq 1 ] && pass "a touch missing: one difference, the touch" ||
		fail "a touch missing: kinds $(tr '\n' ' ' <"$tmp/kinds"), $(grep -c '"kind"' "$tmp/out") differences"
	python3 "$mutate" lost-click "$tmp/3m-gone.jsonl" "$tmp/3m-gone-click.jsonl"
	expect_exit 1 "a touch and a click missing" -- "$TOUCHTAPE" diff "$tmp/3m-click.jsonl" "$tmp/3m-gone-click.jsonl"
	expect_grep 'BTN_LEFT press at \+[0-9.]* s is missing' "$tmp/out" "a touch and a click missing: the click shows"
	expect_grep 'BTN_LEFT release at \+[0-9.]* s is missing' "$tmp/out" "a touch and a click missing: its release shows"
	[ "$(grep -c 'BTN_TOUCH\|frames while touching' "$tmp/out")" -eq 0 ] &&
		pass "a touch and a click missing: no BTN_TOUCH or frame count difference" ||
		fail "a touch and a click missing: $(cat "$tmp/out")"
fi

# A short tap whose first frames a loaded replay delivered 22 ms late,
# together (as the VM rig did under CI): its mean interval moves by 5 ms
# over 4 intervals, which is no regression. The same allowance over a long
# touch is below 1 ms: the 3M sample's frames 1.5 times as far apart are.
tap="$abs_top_srcdir/tests/data/analyze/type-a-pairing.jsonl"
python3 - "$tap" "$tmp/tap-late.jsonl" "$s3m" "$tmp/slow.jsonl" <<'PY'
import json, sys
def rewrite(src, dst, fn):
    rows = [json.loads(l) for l in open(src)]
    with open(dst, "w") as f:
        for r in rows:
            if r.get("type") == "frame":
                r["t"] = fn(r["t"])
            f.write(json.dumps(r) + "\n")
# CI saw 10.0 vs 4.6 ms: the first three frames came together, late.
late = {10000: 31600, 20000: 32000, 30000: 33000}
rewrite(sys.argv[1], sys.argv[2], lambda t: late.get(t, t))
t0 = min(json.loads(l).get("t", 1 << 62) for l in open(sys.argv[3]) if '"frame"' in l)
rewrite(sys.argv[3], sys.argv[4], lambda t: t0 + (t - t0) * 3 // 2)
PY
expect_exit 0 "a short tap's first frames 22 ms late" -- "$TOUCHTAPE" diff "$tap" "$tmp/tap-late.jsonl"
expect_exit 1 "the 3M sample 1.5 times slower" -- "$TOUCHTAPE" diff "$s3m" "$tmp/slow.jsonl"
expect_grep 'device 0: mean frame interval while touching [0-9.]* vs [0-9.]* ms \(tolerance 2\.0 ms\)' "$tmp/out" \
	"slower frames: the mean interval"

# --ignore leaves a comparison out.
expect_exit 0 "--ignore axes" -- "$TOUCHTAPE" diff --ignore axes "$pad" "$tmp/pressure.jsonl"
expect_exit 0 "--ignore keys" -- "$TOUCHTAPE" diff --ignore keys "$tmp/clicked.jsonl" "$tmp/click.jsonl"
expect_exit 2 "--ignore what" -- "$TOUCHTAPE" diff --ignore tempo "$s3m" "$s3m"

# Tolerances need their units; negative or NaN ones are refused.
for bad in "-T 50" "--stall-tolerance 100" "--time-tolerance 0.02"; do
	expect_exit 2 "$bad refused" -- "$TOUCHTAPE" diff $bad "$s3m" "$s3m"
	expect_grep 'needs a unit: us, ms, s' "$tmp/err" "$bad: says the units"
done
for bad in "-P 2" "--path-tolerance 1"; do
	expect_exit 2 "$bad refused" -- "$TOUCHTAPE" diff $bad "$s3m" "$s3m"
	expect_grep 'needs a unit: mm or %' "$tmp/err" "$bad: says the units"
done
for bad in "-T -5ms" "-T nanms" "-P -1mm" "--path-tolerance nan%" "--axis-tolerance -5%" "--rate-tolerance 2"; do
	expect_exit 2 "$bad refused" -- "$TOUCHTAPE" diff $bad "$s3m" "$s3m"
done
expect_exit 0 "units given" -- "$TOUCHTAPE" diff -T 50ms -P 2mm --path-tolerance 1% --axis-tolerance 10% \
	--rate-tolerance 0.1 --stall-tolerance 150ms "$s3m" "$s3m"
finish
