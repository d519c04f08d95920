#!/bin/bash
# record --guide driven headless (tests/vm/run, one boot): the guest replays
# a touchscreen fixture (a still finger, a stroke, a tap) while a script
# plays the person at a pseudo-terminal. The host checks that each
# exercise's markers bracket its touch, the skipped ones have none, and
# the grade printed at the end measured the guided touches.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../tests/vm/lib.sh"
: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
failures=0
bad() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }
ok() { printf 'ok: %s\n' "$*"; }

if [[ "${TT_VM_GUEST:-}" == 1 ]]; then
	here=$(dirname "${BASH_SOURCE[0]}")
	"$py" "$here/guide-guest.py" "$TOUCHTAPE" "$1/in.jsonl" "$1/out.jsonl" || exit 1
	# Again beside the libinput layer (it takes only what udev tagged).
	for d in /lib/systemd /usr/lib/systemd; do
		[[ -x $d/systemd-udevd ]] && { "$d/systemd-udevd" --daemon >/dev/null 2>&1; break; }
	done
	"$py" "$here/guide-guest.py" "$TOUCHTAPE" "$1/in.jsonl" "$1/out-li.jsonl" --libinput
	exit
fi

command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/tt-guide-vm.XXXXXX")
trap '[[ $failures == 0 ]] && rm -rf "$dir" || echo "# files kept in $dir"' EXIT
python3 - "$dir/in.jsonl" <<'PY'
import json, math, random, sys
rng = random.Random(3)
ab = {"value": 0, "min": 0, "fuzz": 0, "flat": 0}
absinfo = {"ABS_X": dict(ab, max=4095, resolution=16), "ABS_Y": dict(ab, max=2399, resolution=16),
           "ABS_MT_SLOT": dict(ab, max=9, resolution=0),
           "ABS_MT_POSITION_X": dict(ab, max=4095, resolution=16),
           "ABS_MT_POSITION_Y": dict(ab, max=2399, resolution=16),
           "ABS_MT_TRACKING_ID": dict(ab, max=65535, resolution=0)}
lines = [{"format": "touchtape-timeline", "version": 1, "tool": "guide-vm.sh",
          "start": {"monotonic_us": 1, "realtime_us": 0}, "keycodes_masked": True},
         {"type": "device", "id": 0, "name": "guide touchscreen",
          "input_id": {"bustype": 3, "vendor": 1, "product": 3, "version": 1},
          "properties": ["INPUT_PROP_DIRECT"],
          "codes": {"EV_SYN": ["SYN_REPORT", "SYN_DROPPED"], "EV_KEY": ["BTN_TOUCH"], "EV_ABS": list(absinfo)},
          "absinfo": absinfo, "mt": {"protocol": "B", "slots": 10, "current_slot": 0, "state": []},
          "state": {"keys_down": [], "leds_on": [], "switches_on": []}}]
tid = 0
def touch(t0, n, pos):
    global tid
    tid += 1
    for i in range(n + 1):
        x, y = pos(i / n)
        ev = [[3, 47, 0]]
        if i == 0:
            ev += [[3, 57, tid], [1, 330, 1]]
        ev += [[3, 53, round(x * 16)], [3, 54, round(y * 16)], [3, 0, round(x * 16)], [3, 1, round(y * 16)], [0, 0, 0]]
        lines.append({"type": "frame", "dev": 0, "t": t0 + i * 8000, "ev": ev})
    lines.append({"type": "frame", "dev": 0, "t": t0 + (n + 1) * 8000, "ev": [[3, 47, 0], [3, 57, -1], [1, 330, 0], [0, 0, 0]]})
touch(2000000, 375, lambda s: (100 + rng.uniform(-0.2, 0.2), 70 + rng.uniform(-0.2, 0.2)))
touch(7000000, 187, lambda s: (30 + 180 * s, 40 + 60 * s + 1.5 * math.sin(math.pi * s)))
touch(10500000, 8, lambda s: (50, 50))
lines.append({"type": "frame", "dev": 0, "t": 14000000, "ev": [[0, 0, 0]]})
with open(sys.argv[1], "w") as f:
    for l in lines:
        f.write(json.dumps(l) + "\n")
PY
rc=0
"$abs_top_srcdir/tests/vm/run" --timeout 240 --rw "$dir" -- bash "${BASH_SOURCE[0]}" "$dir" || rc=$?
[[ $rc == 77 ]] && exit 77
[[ $rc == 0 ]] && ok "the guided recording ran and printed its grade" || bad "the guest's guided recording failed (VM status $rc)"
[[ -s $dir/out.jsonl.tty ]] && sed 's/^/  | /' "$dir/out.jsonl.tty" | tr '\r' '\n' | grep -a "Exercise\|grade\|Done\|Skipped" | head -20

check_markers() {
python3 - "$1" <<'PY'
import json, sys
marks, touches, down = [], [], {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("type") == "marker" and r["kind"].startswith("guide-"):
        marks.append((r["kind"], r.get("text"), r["t"]))
    if r.get("type") == "frame":
        for t, c, v in r["ev"]:
            if (t, c) == (3, 57):
                if v >= 0:
                    down[0] = r["t"]
                else:
                    touches.append((down.pop(0), r["t"]))
names = [(k, x) for k, x, _ in marks]
want = [("guide-begin", "stationary"), ("guide-end", "stationary"), ("guide-begin", "line"),
        ("guide-end", "line"), ("guide-begin", "tap"), ("guide-end", "tap")]
assert names == want, names
assert len(touches) == 3, touches
for (b, e), i in zip(touches, range(0, 6, 2)):
    assert marks[i][2] < b and e < marks[i + 1][2], (marks[i], (b, e), marks[i + 1])
PY
}
check_markers "$dir/out.jsonl" && ok "the markers bracket their touches; skipped exercises have none" || bad "the markers"
check_markers "$dir/out-li.jsonl" && ok "with --libinput too" || bad "the markers with --libinput"
grep -q '"type":"li_device"' "$dir/out-li.jsonl" && grep -q '"type":"li"' "$dir/out-li.jsonl" &&
	ok "the guided recording with --libinput holds libinput's view" || bad "no libinput records beside the guide's"
"$TOUCHTAPE" analyze --json --grade touchscreen "$dir/out.jsonl" >"$dir/grade.json" 2>/dev/null
python3 - "$dir/grade.json" <<'PY' && ok "the grade measured the guided still finger and stroke" || bad "the grade of the guided recording"
import json, sys
m = {x["name"]: x for x in json.load(open(sys.argv[1]))["grade"]["metrics"]}
assert m["stationary-jitter"]["value"] is not None and m["stationary-jitter"]["value"] < 0.5, m["stationary-jitter"]
assert m["linearity-max"]["value"] is not None and 0.5 < m["linearity-max"]["value"] < 2.5, m["linearity-max"]
PY
exit $((failures > 0))
