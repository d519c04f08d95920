#!/bin/bash
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
# analyze's HID-to-kernel link on a real two-layer recording, in one VM
# boot: a HID touchscreen made through /dev/uhid from a hid-recorder file
# (record/tests/uhid-device.py; hid-multitouch binds it) sends all its
# reports while touchtape record --hid records its hidraw node and its
# evdev nodes. The file: the project's own touchscreen with a keyboard
# (tests/corpus/hid-recorder/touchtape-touchscreen-keyboard.hid), and the
# real ILITEK too when the corpus has it ($TT_CORPUS). Every HID contact
# (as many as inspect counts in the file, each lifted) pairs with the
# kernel touch hid-multitouch made of it, every kernel touch with its
# contact, within the link window, and every evdev frame of the
# touchscreen with the report that produced it.
set -uo pipefail
: "${abs_top_srcdir:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
. "$abs_top_srcdir/tests/vm/lib.sh"
own="$abs_top_srcdir/tests/corpus/hid-recorder"
real="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}/hid-recorder"
: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
vm_enter "$TOUCHTAPE" "build touchtape first" "${BASH_SOURCE[0]}" --timeout 180

modprobe uhid && modprobe hid-multitouch || fail "cannot load uhid and hid-multitouch"

# link_check HIDFILE TAG: records the uhid touchscreen and keyboard of
# HIDFILE (a hid-recorder file whose N: line names them) sending all its
# reports, and checks analyze's links; TAG names its files and messages.
link_check() {
	local hidfile=$1 tag=$2 name nreports ncontacts touch kbd recpid status result
	name=$(sed -n 's/^N: //p' "$hidfile")
	nreports=$(grep -c '^E:' "$hidfile")
	# The file's own HID contacts, each a kernel touch once replayed.
	ncontacts=$("$TOUCHTAPE" inspect --json "$hidfile" | "$py" -c \
		'import json, sys; h = json.load(sys.stdin)["hid_devices"]; assert len(h) == 1; print(h[0]["contacts"])') ||
		{ echo "FAIL: $tag: inspect --json $hidfile"; return 1; }
	note "$tag: $nreports reports, $ncontacts HID contacts"
	uhidlog="$tmp/uhid-$tag.log"
	exec 3> >(exec "$py" "$abs_top_srcdir/record/tests/uhid-device.py" "$hidfile" "$uhidlog")
	_hid_ready() { touch=$(node_named "$name") && kbd=$(node_named "$name Keyboard"); }
	wait_for 15 _hid_ready || { echo "FAIL: $tag: the kernel made no evdev nodes of the uhid device"; return 1; }

	"$TOUCHTAPE" record --hid "$touch" "$kbd" -o "$tmp/rec-$tag.jsonl" 2>"$tmp/rec.err" &
	recpid=$!
	_rec_ready() { grep -q '"kind":"start"' "$tmp/rec-$tag.jsonl" 2>/dev/null; }
	wait_for 15 _rec_ready || fail "$tag: recorder did not start: $(cat "$tmp/rec.err")"
	echo "send $nreports 4" >&3
	_sent() { (($(grep -c '^input ' "$uhidlog") >= nreports)); }
	wait_for 60 _sent || fail "$tag: the uhid device did not send its reports"
	sleep 0.3
	kill -INT "$recpid"
	wait "$recpid" || fail "$tag: record exited $?: $(cat "$tmp/rec.err")"
	echo quit >&3
	exec 3>&-

	"$TOUCHTAPE" analyze --json "$tmp/rec-$tag.jsonl" >"$tmp/analyze.json" 2>"$tmp/analyze.err"
	status=$?
	"$py" - "$tmp/analyze.json" "$nreports" "$touch" "$tmp/rec-$tag.jsonl" "$ncontacts" "$tag" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
nreports = int(sys.argv[2])
nc = int(sys.argv[5])
failures = 0
def check(cond, what):
    global failures
    print(("ok: " if cond else "FAIL: ") + sys.argv[6] + ": " + what)
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
check(nc >= 1 and h["contacts"] == nc, "%d HID contacts, as in the file: %d" % (nc, h["contacts"]))
links = h["links"]
check(links["linked"] == nc and links["not_delivered"] == 0,
      "every contact linked: %d linked, %d not delivered" % (links["linked"], links["not_delivered"]))
touches = [t for t in a["touches"] if t["device"] == touch_id]
check(len(touches) == nc, "%d kernel touches on the touchscreen: %d" % (nc, len(touches)))
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
check(a["hid_links"]["linked"] == nc, "the file's HID links: %d" % a["hid_links"]["linked"])
sys.exit(1 if failures else 0)
PY
	result=$?
	((status == 0)) || { echo "FAIL: $tag: analyze exited $status: $(cat "$tmp/analyze.err")"; result=1; }
	# A failure keeps the recording beside the test's log, to be looked at.
	((result == 0)) || cp "$tmp/rec-$tag.jsonl" "$PWD/analyze-hid-link-vm.$tag.failed.jsonl"
	return $result
}

result=0
link_check "$own/touchtape-touchscreen-keyboard.hid" own || result=1
ilitek="$real/ilitek-iltp7807-222a-fff1-touchscreen.hid"
if [[ -f $ilitek ]]; then
	link_check "$ilitek" ilitek || result=1
elif [[ -n "${TT_CORPUS:-}" ]]; then
	echo "FAIL: no ILITEK file in \$TT_CORPUS ($ilitek)"
	result=1
else
	note "the real ILITEK touchscreen is only in the public corpus (\$TT_CORPUS): checked on the own one"
fi
exit $result
