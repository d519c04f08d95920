#!/bin/bash
# replay --libinput in the VM rig (one boot, with systemd-udevd as
# tests/vm/guest-xorg starts it): recordings replayed through uinput while
# the installed libinput reads the created devices; the timeline written
# has the kernel layer as delivered (it matches the recording, --kernel-only)
# and what libinput made of it:
#   - a two-finger vertical swipe on a touchpad (samples/) is a finger
#     scroll upwards, not a gesture;
#   - a one-finger tap (libinput-tap.jsonl, below) is a left tap with
#     --libinput-config tap=on and nothing with tap=off, and diff of the two
#     lists exactly that tap;
#   - a touchscreen's libinput touches are linked one to one to its kernel
#     touches;
#   - from the corpus: a two-finger pinch in (kwin-gestures pinch_in_2) and
#     a three-finger swipe (stroke_b_3) are recognised with those fingers.
# libinput-tap.jsonl: the first 0.1 s of kwin-gestures evemu/touchpad/hold_1
# (Synaptics TM3276-022, GPL-3.0, taj-ny/kwin-gestures branch evemu at
# 4f70fa3ba2958e3da50913ef94df46db255a20a4), made with
#   touchtape convert --to 0.1 hold_1 -o libinput-tap.jsonl
# one finger down for 96 ms without moving; the replay lifts it at the end
# (replay always releases): a tap. (So its kernel layer is the recording's
# plus that release: tap on and off are compared with each other.)
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../tests/vm/lib.sh"
: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
export TOUCHTAPE
vm_enter "$TOUCHTAPE" "build touchtape first" "${BASH_SOURCE[0]}" --timeout 170

samples="$abs_top_srcdir/samples"
here="$abs_top_srcdir/replay/tests"
corpus="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}"
status=0
bad() { printf 'FAIL: %s\n' "$*" >&2; status=1; }

# The udevd the Xorg rig starts: libinput takes only devices udev tagged.
udevd=$(command -v systemd-udevd || echo /lib/systemd/systemd-udevd)
"$udevd" --daemon >/dev/null 2>&1 || fail "systemd-udevd did not start"
udevadm trigger --action=add --subsystem-match=input || true
timeout 10 udevadm settle || true
note "udevd: $SECONDS s"

# replay_li NAME FILE [OPTIONS...]: replays FILE into $tmp/NAME.jsonl and
# writes analyze --json of it to $tmp/NAME.json.
replay_li() {
	local name=$1 file=$2 t0=$SECONDS
	shift 2
	note "replay --libinput $* $(basename "$file")"
	"$TOUCHTAPE" replay --quiet --no-realtime --libinput "$@" -o "$tmp/$name.jsonl" "$file" \
		>"$tmp/$name.out" 2>&1 || { cat "$tmp/$name.out"; bad "$name: replay failed"; return 0; }
	"$TOUCHTAPE" analyze --json "$tmp/$name.jsonl" >"$tmp/$name.json" || bad "$name: analyze failed"
	note "$name: $((SECONDS - t0)) s"
}

# kernel_same NAME FILE: the kernel layer of the replay is the recording.
kernel_same() {
	"$TOUCHTAPE" diff -k -T 50ms "$2" "$tmp/$1.jsonl" >"$tmp/$1.diff" ||
		{ cat "$tmp/$1.diff"; bad "$1: the kernel layer differs from the recording"; }
}

# check NAME PYTHON-EXPRESSION: over li (the "libinput" object of NAME's
# analyze --json), d (its first device) and g (its gestures). Checked all
# at once at the end (python starts slowly in an emulated guest).
check() {
	printf '%s\t%s\n' "$1" "$2" >>"$tmp/checks"
}

run_checks() {
	python3 - "$tmp" <<'PY' || status=1
import json, sys
failed = 0
for line in open(sys.argv[1] + "/checks"):
    name, expr = line.rstrip("\n").split("\t", 1)
    try:
        li = json.load(open("%s/%s.json" % (sys.argv[1], name))).get("libinput", {})
    except (OSError, ValueError) as e:
        li = {}
    d = (li.get("devices") or [{}])[0]
    g = li.get("gestures", [])
    try:
        ok = eval(expr)
    except Exception as e:
        ok = False
    if not ok:
        failed += 1
        print("FAIL: %s: %s" % (name, expr), file=sys.stderr)
        print(json.dumps(li, indent=1)[:3000], file=sys.stderr)
sys.exit(1 if failed else 0)
PY
}

replay_li scroll "$samples/touchpad-two-finger-swipe.jsonl"
kernel_same scroll "$samples/touchpad-two-finger-swipe.jsonl"
check scroll 'd["scroll"]["finger_events"] > 10 and d["scroll"]["vertical"] < -20 and abs(d["scroll"]["horizontal"]) < 5'
check scroll 'not [x for x in g if x["kind"] in ("swipe", "pinch")]'

replay_li tap-on "$here/libinput-tap.jsonl" --libinput-config tap=on
check tap-on 'd["taps"] == 1 and d["tap_buttons"]["left"] == 1'
replay_li tap-off "$here/libinput-tap.jsonl" --libinput-config tap=off
check tap-off 'd["taps"] == 0 and d["button_presses"] == 0'
grep -q '"tap":"off"' "$tmp/tap-off.jsonl" || bad "tap=off is not in the li_device record"
if "$TOUCHTAPE" diff -T 50ms "$tmp/tap-on.jsonl" "$tmp/tap-off.jsonl" >"$tmp/tap.diff"; then
	bad "tap on and off do not differ"
fi
cat "$tmp/tap.diff"
grep -q '^1 difference$' "$tmp/tap.diff" || bad "tap on/off: want exactly 1 difference"
grep -Eq 'libinput device 0 left tap at \+[0-9.]+ s: only in .*tap-on.jsonl' "$tmp/tap.diff" ||
	bad "tap on/off: the tap is not the difference"
"$TOUCHTAPE" diff "$tmp/tap-on.jsonl" "$tmp/tap-on.jsonl" >/dev/null || bad "tap-on differs from itself"

replay_li touchscreen "$samples/3m-two-finger.jsonl"
kernel_same touchscreen "$samples/3m-two-finger.jsonl"
check touchscreen 'd["touches"] == 2 and d["touches_linked"] == 2 and d["touches_cancelled"] == 0'
check touchscreen 'li["touch_latency_us"]["count"] == 2 and li["touch_latency_us"]["max"] < 20000'
# inspect: each libinput touch lane right under the kernel touch it came from.
"$TOUCHTAPE" inspect --text "$tmp/touchscreen.jsonl" >"$tmp/touchscreen.lanes" || bad "inspect --text failed"
[[ $(grep -A1 '^dev0 s[01] ' "$tmp/touchscreen.lanes" | grep -c '^ `li0 s[01] ') == 2 ]] ||
	{ cat "$tmp/touchscreen.lanes"; bad "inspect: the libinput touches are not under their kernel touches"; }

if [[ -n "$corpus" && -d "$corpus/evemu" ]]; then
	replay_li pinch "$corpus/evemu/kwin-gestures__evemu_touchpad_pinch_in_2"
	check pinch '[(x["kind"], x["fingers"], x["direction"]) for x in g if x["kind"] == "pinch"] == [("pinch", 2, "in")]'
	# Its first 1.5 s: the swipe begins at once.
	replay_li swipe3 "$corpus/evemu/kwin-gestures__evemu_touchpad_stroke_b_3" --to 1.5s
	check swipe3 '[(x["kind"], x["fingers"]) for x in g if x["kind"] == "swipe"] == [("swipe", 3)]'
	check swipe3 'all(x["kernel_touches"] >= 3 for x in g if x["kind"] == "swipe")'
	"$TOUCHTAPE" inspect --text "$tmp/swipe3.jsonl" >"$tmp/swipe3.lanes" || bad "inspect --text swipe3 failed"
	grep -q '^li0 swipe 3f ' "$tmp/swipe3.lanes" || { cat "$tmp/swipe3.lanes"; bad "inspect: no 3-finger swipe lane"; }
else
	bad "no corpus at $corpus: the pinch and the three-finger swipe are not replayed"
fi
run_checks
exit $status
