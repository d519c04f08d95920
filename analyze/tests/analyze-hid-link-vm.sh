#!/bin/bash
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
# analyze's HID-to-kernel link on a real two-layer recording, in one VM
# boot: a HID touchscreen made through /dev/uhid from the corpus's ILITEK
# hid-recorder file (record/tests/uhid-device.py; hid-multitouch binds it)
# sends all its reports while touchtape record --hid records its hidraw
# node and its evdev nodes. Every HID contact (3, each lifted) pairs with
# the kernel touch hid-multitouch made of it, every kernel touch with its
# contact, within the link window, and every evdev frame of the
# touchscreen with the report that produced it.
set -uo pipefail
: "${abs_top_srcdir:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
. "$abs_top_srcdir/tests/vm/lib.sh"
vm_corpus_hid ilitek-iltp7807-222a-fff1-touchscreen.hid
: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
vm_enter "$TOUCHTAPE" "build touchtape first" "${BASH_SOURCE[0]}" --timeout 120

modprobe uhid && modprobe hid-multitouch || fail "cannot load uhid and hid-multitouch"

nreports=$(grep -c '^E:' "$hidfile")
exec 3> >(exec "$py" "$abs_top_srcdir/record/tests/uhid-device.py" "$hidfile" "$tmp/uhid.log")
_hid_ready() { touch=$(node_named "ILTP7807:00 222A:FFF1") && kbd=$(node_named "ILTP7807:00 222A:FFF1 Keyboard"); }
wait_for 15 _hid_ready || fail "the kernel made no evdev nodes of the uhid device"

"$TOUCHTAPE" record --hid "$touch" "$kbd" -o "$tmp/rec.jsonl" 2>"$tmp/rec.err" &
recpid=$!
_rec_ready() { grep -q '"kind":"start"' "$tmp/rec.jsonl" 2>/dev/null; }
wait_for 15 _rec_ready || fail "recorder did not start: $(cat "$tmp/rec.err")"
echo "send $nreports 4" >&3
_sent() { (($(grep -c '^input ' "$tmp/uhid.log") >= nreports)); }
wait_for 60 _sent || fail "the uhid device did not send its reports"
sleep 0.3
kill -INT "$recpid"
wait "$recpid" || fail "record exited $?: $(cat "$tmp/rec.err")"
echo quit >&3
exec 3>&-

"$TOUCHTAPE" analyze --json "$tmp/rec.jsonl" >"$tmp/analyze.json" 2>"$tmp/analyze.err"
status=$?
"$py" - "$tmp/analyze.json" "$nreports" "$touch" "$tmp/rec.jsonl" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
nreports = int(sys.argv[2])
failures = 0
def check(cond, what):
    global failures
    print(("ok: " if cond else "FAIL: ") + what)
    failures += not cond
# The evdev id of the touchscreen, from the recording's device records.
touch_id = None
for line in open(sys.argv[4]):
    r = json.loads(line)
    if r.get("type") == "device" and r.get("node") == sys.argv[3]:
        touch_id = r["id"]
hid = a["hid_devices"]
check(len(hid) == 1, "one HID device: %d" % len(hid))
h = hid[0]
check(h["reports"] == nreports, "every report recorded: %d of %d" % (h["reports"], nreports))
check(h["contacts"] == 3, "3 HID contacts: %d" % h["contacts"])
links = h["links"]
check(links["linked"] == 3 and links["not_delivered"] == 0,
      "every contact linked: %d linked, %d not delivered" % (links["linked"], links["not_delivered"]))
touches = [t for t in a["touches"] if t["device"] == touch_id]
check(len(touches) == 3, "3 kernel touches on the touchscreen: %d" % len(touches))
check(all(t["hid_link"] == "linked" and t["hid"]["device"] == 0 for t in touches),
      "every kernel touch made of a HID contact: %s" % [t["hid_link"] for t in touches])
lat = [t["hid"]["latency_us"] for t in touches if t["hid"]]
# hidraw has the report before hid-multitouch makes the frame: the
# recorder may read it a little before the kernel stamps the frame (by
# the driver's time, some milliseconds under emulation), or tens of
# milliseconds after when it is busy.
check(all(-100000 <= x <= 10000 for x in lat), "latencies from -100 ms to +10 ms: %s us" % lat)
check(sorted(lat)[(len(lat) + 1) // 2 - 1] == links["median_latency_us"] if lat else False,
      "the median is the touches' own: %s" % links["median_latency_us"])
frames = [d for d in a["devices"] if d["id"] == touch_id][0]["frames"]
check(links["frames"] == frames, "every touchscreen frame paired with its report: %d of %d" % (links["frames"], frames))
check(a["hid_links"]["linked"] == 3, "the file's HID links: %d" % a["hid_links"]["linked"])
sys.exit(1 if failures else 0)
PY
result=$?
((status == 0)) || { echo "FAIL: analyze exited $status: $(cat "$tmp/analyze.err")"; result=1; }
# A failure keeps the recording beside the test's log, to be looked at.
((result == 0)) || cp "$tmp/rec.jsonl" "$PWD/analyze-hid-link-vm.failed.jsonl"
exit $result
