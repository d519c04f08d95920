#!/bin/bash
# The device's surroundings, in the VM with systemd-udevd and Xorg (one
# boot, tests/vm/run --xorg). A fixture made of samples/touchpad-two-finger-
# swipe.jsonl (a Synaptics clickpad) with recorded udev properties and the
# libinput quirk ModelAppleTouchpad=1 (libinput's default click method on
# a clickpad is then clickfinger, not button-areas):
#   1. replay: the replayed device has the properties (udevadm info), X
#      adds it, and `record --libinput` of it sees the quirk (click-method
#      clickfinger) and stores the properties udevadm reports; SIGINT
#      removes the rule and the quirks section;
#   2. replay --no-surroundings --libinput: button-areas (the quirk made
#      the difference);
#   3. replay --isolate: X does not add the device; SIGKILL leaves the rule
#      and the section behind;
#   4. replay --isolate --libinput: our own libinput still reads the
#      device (with the quirk), and the killed replayer's leftovers are gone.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../tests/vm/lib.sh"
: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
export TOUCHTAPE
vm_enter "$TOUCHTAPE" "build touchtape first" "${BASH_SOURCE[0]}" --xorg --timeout 150

[[ -n "${DISPLAY:-}" ]] || fail "DISPLAY not set: Xorg not started"
tmp=$(mktemp -d)
status=0
bad() { printf 'FAIL: %s\n' "$*" >&2; status=1; }
rules=/run/udev/rules.d
quirks=/etc/libinput/local-overrides.quirks
name="touchtape replay: Synaptics TM3276-022"
# Something of the user's own in the quirks file, to be kept.
mkdir -p /etc/libinput
printf '[user]\nMatchName=nothing here\nAttrSizeHint=10x10\n' >"$quirks"

fix="$tmp/surroundings.jsonl"
"$py" - "$abs_top_srcdir/samples/touchpad-two-finger-swipe.jsonl" "$fix" <<'PY'
import json, sys
out = open(sys.argv[2], "w")
for line in open(sys.argv[1]):
    rec = json.loads(line)
    if rec.get("type") == "device":
        rec["udev"] = {"ID_INPUT": "1", "ID_INPUT_TOUCHPAD": "1", "ID_INPUT_WIDTH_MM": "123",
                       "ID_INPUT_HEIGHT_MM": "45", "LIBINPUT_ATTR_TOUCH_SIZE_RANGE": "20:10"}
        rec["quirks"] = ["ModelAppleTouchpad=1"]
    out.write(json.dumps(rec, separators=(",", ":")) + "\n")
PY

# start_replay OUT [OPTIONS...]: a replay that waits 30 s before its first
# frame, in the background ($rpid); sets $node once its device is there.
start_replay() {
	local out=$1
	shift
	"$TOUCHTAPE" replay --no-realtime --start-delay 30 "$@" "$fix" >"$tmp/$out" 2>&1 &
	rpid=$!
	have_node() { grep -q '^device 0 .*: /dev/input/event' "$tmp/$out"; }
	wait_for 10 have_node || { cat "$tmp/$out"; fail "$out: no device"; }
	node=$(sed -n 's/^device 0 .*: \(\/dev\/input\/event[0-9]*\)$/\1/p' "$tmp/$out")
	timeout 10 udevadm settle || true
}
in_x() { xinput list --name-only | grep -qx "$name (pid $1.0)"; }
leftovers() { ls "$rules" 2>/dev/null | grep -q touchtape-replay || grep -qs '^# touchtape replay ' "$quirks"; }

# 1. the surroundings recreated, seen by udev, X, libinput and record
start_replay a.out
apid=$rpid
[[ -f "$rules/99-touchtape-replay-$apid.rules" ]] || bad "no rule for replay $apid"
grep -q "^# touchtape replay $apid begin" "$quirks" || bad "no quirks section for replay $apid"
grep -q "99-touchtape-replay-$apid.rules: the recorded udev properties" "$tmp/a.out" ||
	bad "replay did not say where the rule is"
udevadm info --query=property --name="$node" >"$tmp/a.udev"
for p in ID_INPUT_TOUCHPAD=1 ID_INPUT_WIDTH_MM=123 ID_INPUT_HEIGHT_MM=45 LIBINPUT_ATTR_TOUCH_SIZE_RANGE=20:10; do
	grep -qx "$p" "$tmp/a.udev" || { cat "$tmp/a.udev"; bad "udevadm info: no $p"; }
done
wait_for 10 in_x "$apid" || { xinput list; bad "X did not add the replayed device"; }
"$TOUCHTAPE" record --libinput --duration 1 -o "$tmp/a-rec.jsonl" "$node" >"$tmp/a-rec.out" 2>&1 ||
	{ cat "$tmp/a-rec.out"; bad "record --libinput failed"; }
kill -INT "$apid"
rc=0
wait "$apid" || rc=$?
[[ $rc == 130 ]] || { cat "$tmp/a.out"; bad "replay after SIGINT: status $rc, want 130"; }
leftovers && bad "rule or quirks left after SIGINT: $(ls "$rules"; cat "$quirks")"
grep -q '^\[user\]' "$quirks" || bad "the user's own quirks were not kept"

# 2. without the surroundings, libinput's own default
"$TOUCHTAPE" replay --quiet --no-realtime --no-surroundings --libinput -o "$tmp/plain.jsonl" "$fix" \
	>"$tmp/plain.out" 2>&1 || { cat "$tmp/plain.out"; bad "replay --no-surroundings failed"; }

# 3. --isolate: X leaves the device alone; SIGKILL leaves the files
start_replay b.out --isolate
bpid=$rpid
udevadm info --query=property --name="$node" | grep -qx 'ID_SEAT=seat-touchtape-replay' ||
	bad "--isolate: no ID_SEAT on $node"
sleep 2
in_x "$bpid" && bad "--isolate: X added the replayed device"
kill -KILL "$bpid"
wait "$bpid" 2>/dev/null || true
[[ -f "$rules/99-touchtape-replay-$bpid.rules" ]] || bad "a SIGKILLed replay left no rule (test broken?)"

# 4. --isolate with our own libinput; the leftovers cleaned
"$TOUCHTAPE" replay --no-realtime --isolate --libinput -o "$tmp/iso.jsonl" "$fix" >"$tmp/iso.out" 2>&1 ||
	{ cat "$tmp/iso.out"; bad "replay --isolate --libinput failed"; }
grep -q "removed $rules/99-touchtape-replay-$bpid.rules" "$tmp/iso.out" ||
	{ cat "$tmp/iso.out"; bad "the killed replay's rule was not reported removed"; }
leftovers && bad "rule or quirks left after a SIGKILL and a replay: $(ls "$rules"; cat "$quirks")"

"$py" - "$tmp" "$node" <<'PY' || status=1
import json, subprocess, sys
tmp = sys.argv[1]
failed = []
def records(path):
    return [json.loads(l) for l in open(path)]
def li_device(path):
    return next((r for r in records(path) if r.get("type") == "li_device"), {})
def click(path):
    return li_device(path).get("config", {}).get("click-method")
for f, want in (("a-rec", "clickfinger"), ("plain", "button-areas"), ("iso", "clickfinger")):
    got = click("%s/%s.jsonl" % (tmp, f))
    if got != want:
        failed.append("%s: click-method %r, want %r (li_device %s)" % (f, got, want, li_device("%s/%s.jsonl" % (tmp, f))))
# record's side: the properties it stored are those udevadm reported
dev = next(r for r in records(tmp + "/a-rec.jsonl") if r.get("type") == "device")
udev = dict(l.rstrip("\n").split("=", 1) for l in open(tmp + "/a.udev") if "=" in l)
stored = dev.get("udev", {})
for k, v in stored.items():
    # udevadm prints the kernel's DEVNAME under /dev; record keeps the
    # kernel's own (uevent) form: the same node.
    if k == "DEVNAME" and udev.get(k) == "/dev/" + v:
        continue
    if udev.get(k) != v:
        failed.append("record stored %s=%r, udevadm said %r" % (k, v, udev.get(k)))
for k in udev:
    if (k.startswith("ID_INPUT") or k.startswith("LIBINPUT_")) and k not in stored:
        failed.append("record left out %s" % k)
for f in failed:
    print("FAIL: " + f, file=sys.stderr)
sys.exit(1 if failed else 0)
PY
note "guest run: $SECONDS s"
exit "$status"
