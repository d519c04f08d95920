#!/bin/sh
# analyze --grade on recordings of known quality (grade-fixtures.py makes
# them and computes every metric itself): each value within 5%, the
# verdicts the profiles imply, exit 1 when a metric fails; and the guide's
# markers make a short still touch and a short stroke count.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }

expect_exit 0 "the metrics of the fixtures" -- python3 "$abs_top_srcdir/grade/tests/grade-fixtures.py" "$TOUCHTAPE" "$tmp"
cat "$tmp/out"

# The text table carries the same verdicts, and where they were.
expect_exit 1 "a failing grade exits 1" -- "$TOUCHTAPE" analyze --grade touchscreen "$tmp/shaky.jsonl"
cp "$tmp/out" "$tmp/shaky.txt"
"$TOUCHTAPE" analyze --json --grade touchscreen "$tmp/shaky.jsonl" >"$tmp/shaky.json"
expect_grep '^  stationary-jitter +1\.[0-9][0-9] mm +<= 0\.50 mm +fail +[0-9.]+-[0-9.]+ s, line [0-9]+$' \
	"$tmp/out" "the failing metric's row: value, limit, verdict, where"
expect_grep '^  limits from: Microsoft' "$tmp/out" "the profile's sources"
expect_exit 0 "a passing grade exits 0" -- "$TOUCHTAPE" analyze --grade touchscreen "$tmp/still.jsonl"
cp "$tmp/out" "$tmp/still.txt"
expect_grep '^  linearity-max +- +<= 1\.00 mm +not-measurable +no straight stroke of 30 mm or more$' \
	"$tmp/out" "a metric the recording cannot show says why"

# The suggested fuzz (its value is checked by grade-fixtures.py).
expect_grep '^  suggestion \(hwdb\): stationary jitter 1\.[0-9]+ mm; with this fuzz the kernel.s filter would make it 0\.[0-4][0-9] mm;' \
	"$tmp/shaky.txt" "the hwdb suggestion says what it would bring"
expect_grep '^     EVDEV_ABS_35=:::[0-9]+$' "$tmp/shaky.txt" "an hwdb fuzz for x"
expect_grep '^     EVDEV_ABS_36=:::[0-9]+$' "$tmp/shaky.txt" "an hwdb fuzz for y"
expect_grep '^    evdev:name:grade fixture touchscreen:\*$' "$tmp/shaky.txt" "the hwdb match of the device's name"
grep -q 'suggestion' "$tmp/still.txt" && fail "a passing jitter suggests nothing" || pass "a passing jitter suggests nothing"

# --refresh moves the touchscreen's lowest report rate: 125 Hz fails 144.
expect_exit 1 "a display faster than the device" -- "$TOUCHTAPE" analyze --grade touchscreen --refresh 144 "$tmp/still.jsonl"
expect_grep '^  report-rate +125\.0 Hz +144\.0\.\.250\.0 Hz +fail' "$tmp/out" "judged against the refresh rate"

# inspect --summary names the failing metrics, and exits 1 for them.
expect_exit 1 "inspect --summary --grade" -- "$TOUCHTAPE" inspect --summary --grade touchscreen "$tmp/shaky.jsonl"
expect_grep '^grade \(touchscreen\), device 0: 1 metric fails: stationary-jitter 1\.[0-9]+ mm \(<= 0\.50 mm\)$' \
	"$tmp/out" "the failing metric with value and limit"
expect_exit 1 "inspect --json --grade" -- "$TOUCHTAPE" inspect --json --grade touchscreen "$tmp/shaky.jsonl"
python3 -c 'import json, sys
g = json.load(open(sys.argv[1]))["grade"]
assert g["profile"] == "touchscreen" and g["device"] == 0, g
assert [m["name"] for m in g["failing"]] == ["stationary-jitter"], g' "$tmp/out" &&
	pass "the JSON lists the failing metric" || fail "the JSON lists the failing metric"
expect_exit 0 "inspect --summary --grade, all passing" -- "$TOUCHTAPE" inspect --summary --grade touchscreen "$tmp/still.jsonl"
expect_grep '^grade \(touchscreen\), device 0: 0 metrics fail$' "$tmp/out" "nothing fails"
expect_exit 2 "--grade without --summary" -- "$TOUCHTAPE" inspect --text --grade touchscreen "$tmp/still.jsonl"

# A touchpad: the pressure seen and the quirk lines libinput takes.
expect_exit 0 "a touchpad's grade" -- "$TOUCHTAPE" analyze --grade touchpad "$samples/touchpad-two-finger-swipe.jsonl"
expect_grep '^  suggestion \(quirk\): pressure seen [0-9]+\.\.[0-9]+ \(each touch.s highest [0-9]+\.\.[0-9]+\)' "$tmp/out" "the pressure seen"
expect_grep '^    MatchName=Synaptics TM3276-022$' "$tmp/out" "a quirk section for the device"
expect_grep '^    AttrPressureRange=[0-9]+:[0-9]+$' "$tmp/out" "AttrPressureRange"

# The kernel-to-client latency of a Wayland client (the fixture's
# latencies are 3.0 and 4.5 ms: the median 3.75 ms).
expect_exit 0 "a Wayland recording's grade" -- "$TOUCHTAPE" analyze --grade touchscreen "$abs_top_srcdir/tests/data/wayland/wl-clean.jsonl"
expect_grep '^  kernel-to-client +3\.75 ms +- +info' "$tmp/out" "the Wayland client's latency"

# diff --grade: a metric whose verdict differs is a difference.
expect_exit 1 "diff --grade of a still finger and a shaky one" -- "$TOUCHTAPE" diff --grade touchscreen "$tmp/still.jsonl" "$tmp/shaky.jsonl"
expect_grep 'still\.jsonl:[0-9]+ .*shaky\.jsonl:[0-9]+: grade touchscreen: stationary-jitter pass \(0\.[0-9]+ mm\) vs fail \(1\.[0-9]+ mm\)$' \
	"$tmp/out" "the metric, both verdicts and values"
expect_exit 0 "diff --grade of a file with itself" -- "$TOUCHTAPE" diff --grade touchscreen "$tmp/shaky.jsonl" "$tmp/shaky.jsonl"
expect_exit 1 "diff --json --grade" -- "$TOUCHTAPE" diff --json --grade touchscreen "$tmp/still.jsonl" "$tmp/shaky.jsonl"
python3 -c 'import json, sys
d = [x for x in json.load(open(sys.argv[1]))["differences"] if x["kind"] == "grade"]
assert len(d) == 1 and "stationary-jitter" in d[0]["message"], d' "$tmp/out" &&
	pass "one JSON difference of kind grade" || fail "one JSON difference of kind grade"
expect_exit 2 "diff --grade with a bad profile" -- "$TOUCHTAPE" diff --grade nope "$tmp/still.jsonl" "$tmp/shaky.jsonl"

# A recording without a touch has nothing to grade: said, exit 0.
head -n 2 "$tmp/still.jsonl" >"$tmp/none.jsonl"
expect_exit 0 "--grade of a recording without touches" -- "$TOUCHTAPE" analyze --grade touchpad "$tmp/none.jsonl"
expect_grep '^grade \(touchpad\): no touch device with a touch in the recording: nothing to grade$' "$tmp/out" "nothing to grade"
expect_exit 0 "--json of it" -- "$TOUCHTAPE" analyze --json --grade touchpad "$tmp/none.jsonl"
expect_grep '"grade": *\{"profile": *"touchpad", *"device": *null, *"metrics": *\[\], *"suggestions": *\[\]\}' "$tmp/out" "an empty grade object"
finish
