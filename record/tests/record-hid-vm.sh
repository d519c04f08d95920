#!/bin/bash
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
# touchtape record --hid against a real HID multitouch device, in one VM boot.
# The devices are made through /dev/uhid (record/tests/uhid-device.py) from
# hid-recorder files, so the kernel's hid-multitouch binds them and makes
# their evdev nodes: the project's own touchscreen with feature reports and
# a keyboard collection (tests/corpus/hid-recorder/
# touchtape-touchscreen-features.hid), and the real ILITEK I2C touchscreen
# too when the corpus has it ($TT_CORPUS).
#  A. both evdev nodes (touchscreen, keyboard) with --hid: one hid_device
#     naming both, its descriptor, its feature reports (one refused by the
#     device), every report sent, in order, and the frames they produced
#     (the checks: record-hid-check.py);
#  C. not root: hidraw is refused with one message, evdev is recorded;
#  B. a uinput device and the touchscreen: the uinput device gets the
#     "no HID device" note once; the HID device is unplugged mid-recording:
#     its hidraw source ends with a marker and the uinput device goes on;
#  D. a combined touchscreen + keyboard of our own descriptor (with a
#     Bluetooth-like phys) typing a word among the touches, recorded twice
#     at once: by default its keys are masked in both layers (as many
#     presses and releases, none of the word's keys) and its address too,
#     with --show-keycodes they are there (record-hid-keys.py);
#  E. a touchscreen with a pen in one HID device (the project's own
#     touchtape-touchscreen-pen.hid, and the corpus's Acer USI descriptor
#     when the corpus has it): --all-touch --hid records the pen's evdev
#     device too, and so does --hid naming only the touchscreen.
set -uo pipefail
: "${abs_top_srcdir:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
. "$abs_top_srcdir/tests/vm/lib.sh"
own="$abs_top_srcdir/tests/corpus/hid-recorder"
real="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}/hid-recorder"
: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
vm_enter "$TOUCHTAPE" "build touchtape first" "${BASH_SOURCE[0]}" --timeout 120

here="$abs_top_srcdir/record/tests"
failures=0
bad() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }
ok() { printf 'ok: %s\n' "$*"; }

modprobe -a uhid hid-multitouch || fail "cannot load uhid and hid-multitouch"

# start_rec OUT ARGS...: touchtape record in the background, until its start marker.
start_rec() {
	local out=$1
	shift
	"$TOUCHTAPE" record "$@" -o "$out" 2>"$out.err" &
	recpid=$!
	_rec_ready() { grep -q '"kind":"start"' "$out" 2>/dev/null; }
	wait_for 15 _rec_ready || { bad "recorder did not start: $(cat "$out.err")"; return 1; }
}

stop_rec() {
	kill -INT "$recpid"
	wait "$recpid" || bad "record exited $? ($(cat "$1.err"))"
}

# inputs_logged N: the uhid device has sent N reports in all.
inputs_logged() { (($(grep -c '^input ' "$uhidlog") >= $1)); }

# hid_parts HIDFILE TAG: parts A, C and B on the uhid device of HIDFILE (a
# touchscreen with a keyboard collection and feature reports); TAG names
# its files and messages.
hid_parts() {
	local hidfile=$1 tag=$2 name touch kbd out status
	name=$(sed -n 's/^N: //p' "$hidfile")
	uhidlog="$tmp/uhid-$tag.log"
	# The device's commands go through fd 3.
	exec 3> >(exec "$py" "$here/uhid-device.py" "$hidfile" "$uhidlog")
	uhidpid=$!
	_hid_ready() { touch=$(node_named "$name") && kbd=$(node_named "$name Keyboard"); }
	wait_for 15 _hid_ready || { bad "$tag: the kernel made no evdev nodes of the uhid device"; return 1; }
	note "$tag: HID touchscreen at $touch, its keyboard at $kbd"

	# A: the HID device of both nodes.
	start_rec "$tmp/a-$tag.jsonl" --hid "$touch" "$kbd" || return 1
	echo "send 40 4" >&3
	wait_for 20 inputs_logged 40 || bad "the uhid device did not send its reports"
	sleep 0.3
	stop_rec "$tmp/a-$tag.jsonl"
	if "$py" "$here/record-hid-check.py" full "$tmp/a-$tag.jsonl" "$uhidlog" "$hidfile" "$touch" "$kbd"; then
		ok "A ($tag): hid_device, features, reports and frames"
	else
		bad "A ($tag): record --hid of a uhid touchscreen"
	fi
	"$TOUCHTAPE" validate "$tmp/a-$tag.jsonl" >"$tmp/a.validate" 2>&1 ||
		bad "A ($tag): validate: $(cat "$tmp/a.validate")"

	# C: not root. The evdev nodes are opened to everyone, hidraw is not:
	# one message for the one hidraw node, both evdev devices recorded.
	chmod 0666 "$touch" "$kbd"
	out=/dev/shm/c-$tag.jsonl
	setpriv --reuid=65534 --regid=65534 --clear-groups "$TOUCHTAPE" record --hid "$touch" "$kbd" \
		--duration 1 -o "$out" 2>"$tmp/c.err"
	status=$?
	if ((status == 0)) && (($(grep -c 'permission denied' "$tmp/c.err") == 1)) &&
		"$py" "$here/record-hid-check.py" denied "$out" "$touch" "$kbd"; then
		ok "C ($tag): not root: hidraw refused with one message, evdev recorded"
	else
		bad "C ($tag): exit $status: $(cat "$tmp/c.err")"
	fi

	part_b "$tag" "$touch"
}

# part_b TAG TOUCH: B, a uinput device without a HID parent, and the uhid
# device (fd 3, $uhidpid) of the touchscreen TOUCH unplugged meanwhile.
part_b() {
	local tag=$1 touch=$2
	make_touchscreen "$vm_data/touchscreen.desc"
	start_rec "$tmp/b-$tag.jsonl" --hid "$node" "$touch" || return 1
	echo "send 10 4" >&3
	wait_for 20 inputs_logged 50 || bad "the uhid device did not send its reports"
	echo quit >&3
	exec 3>&-
	wait "$uhidpid" || bad "uhid-device.py exited $?"
	_gone() { grep -q 'hidraw[0-9]* (HID device 0) removed' "$tmp/b-$tag.jsonl"; }
	wait_for 10 _gone || bad "B ($tag): no removal marker for the hidraw node"
	evemu-event "$node" --type EV_ABS --code ABS_X --value 100
	evemu-event "$node" --type EV_KEY --code BTN_TOUCH --value 1 --sync
	evemu-event "$node" --type EV_KEY --code BTN_TOUCH --value 0 --sync
	sleep 0.3
	stop_rec "$tmp/b-$tag.jsonl"
	kill "$devpid" 2>/dev/null
	wait "$devpid" 2>/dev/null
	if "$py" "$here/record-hid-check.py" unplugged "$tmp/b-$tag.jsonl" "$node" "$touch"; then
		ok "B ($tag): a uinput device's note, the HID device unplugged, evdev goes on"
	else
		bad "B ($tag): no-HID note and unplugging"
	fi
}

hid_parts "$own/touchtape-touchscreen-features.hid" own
ilitek="$real/ilitek-iltp7807-222a-fff1-touchscreen.hid"
if [[ -f $ilitek ]]; then
	hid_parts "$ilitek" ilitek
elif [[ -n "${TT_CORPUS:-}" ]]; then
	bad "no ILITEK file in \$TT_CORPUS ($ilitek)"
else
	note "the real ILITEK touchscreen is only in the public corpus (\$TT_CORPUS): A, B, C ran on the own one"
fi

# D: keys typed on a combined device, masked unless --show-keycodes.
"$py" "$here/record-hid-keys.py" make "$tmp/combined.hid"
exec 4> >(exec "$py" "$here/uhid-device.py" "$tmp/combined.hid" "$tmp/combined.log" 00:1a:7d:da:71:13)
_combined_ready() {
	ctouch=$(node_named "touchtape combined") && ckbd=$(node_named "touchtape combined Keyboard")
}
if wait_for 15 _combined_ready; then
	start_rec "$tmp/d-masked.jsonl" --hid "$ctouch" "$ckbd" || exit 1
	maskedpid=$recpid
	start_rec "$tmp/d-shown.jsonl" --hid --show-keycodes "$ctouch" "$ckbd" || exit 1
	echo "send 16 20" >&4
	_combined_sent() { (($(grep -c '^input ' "$tmp/combined.log") >= 16)); }
	wait_for 20 _combined_sent || bad "D: the combined device did not send its reports"
	sleep 0.3
	stop_rec "$tmp/d-shown.jsonl"
	recpid=$maskedpid
	stop_rec "$tmp/d-masked.jsonl"
	if "$py" "$here/record-hid-keys.py" check "$tmp/d-masked.jsonl" "$tmp/d-shown.jsonl" \
		"$tmp/combined.log"; then
		ok "D: keys masked in both layers by default, kept with --show-keycodes"
	else
		bad "D: keys of a combined touchscreen + keyboard"
	fi
	"$TOUCHTAPE" validate --privacy "$tmp/d-masked.jsonl" >/dev/null 2>"$tmp/d.privacy"
	grep -q 'keys typed' "$tmp/d.privacy" && bad "D: validate --privacy finds keys in the masked recording"
	"$TOUCHTAPE" validate --privacy "$tmp/d-shown.jsonl" >/dev/null 2>"$tmp/d.privacy"
	grep -q 'keys typed in clear in the reports of HID device' "$tmp/d.privacy" ||
		bad "D: validate --privacy does not find the HID keys of --show-keycodes"
else
	bad "D: the kernel made no evdev nodes of the combined device"
fi
echo quit >&4
exec 4>&-

# E: a touchscreen with a pen (issue 34): a Win8-style touchscreen and a
# pen in one HID device, of which hid-multitouch makes a touchscreen and a
# pen ("tablet" in touchtape list). --all-touch --hid records both, pens
# being touch input, and --hid naming only the touchscreen records its pen
# too: every evdev device of a recorded HID device is.

# pen_parts HIDFILE TAG: part E on the uhid device of HIDFILE, whose input
# reports begin with two pen strokes of six reports each (in range, tip
# down, moving twice, up, out), one for each recording.
pen_parts() {
	local hidfile=$1 tag=$2 name touch pen usipid
	name=$(sed -n 's/^N: //p' "$hidfile")
	exec 5> >(exec "$py" "$here/uhid-device.py" "$hidfile" "$tmp/pen-$tag.log")
	usipid=$!
	# hid-multitouch makes a touchscreen and a pen of it: which is which,
	# touchtape list says (the pen is a "tablet").
	_nodes() {
		local found
		found=$("$TOUCHTAPE" list --json 2>/dev/null | "$py" -c 'import json, sys
devs = [d for d in json.load(sys.stdin) if d.get("name", "").startswith(sys.argv[1])]
kind = {d["kind"]: d["node"] for d in reversed(devs)}
print(kind.get("touchscreen", ""), kind.get("tablet", ""))' "$name") || return 1
		read -r touch pen <<<"$found"
		[[ -n "${pen:-}" && -n "${touch:-}" ]]
	}
	wait_for 15 _nodes || { "$TOUCHTAPE" list >&2; bad "E ($tag): the kernel made no touchscreen and pen of the device"; }
	note "$tag: touchscreen at ${touch:-}, pen at ${pen:-}"

	sent=0
	record_pen "$tmp/e-all-$tag.jsonl" --all-touch --hid &&
		check_pen "$tmp/e-all-$tag.jsonl" "$name" "E ($tag): --all-touch --hid records the pen and its frames"
	record_pen "$tmp/e-one-$tag.jsonl" --hid "$touch" &&
		check_pen "$tmp/e-one-$tag.jsonl" "$name" "E ($tag): --hid of the touchscreen records its pen too"
	"$TOUCHTAPE" validate "$tmp/e-all-$tag.jsonl" >"$tmp/e.validate" 2>&1 ||
		bad "E ($tag): validate: $(cat "$tmp/e.validate")"

	echo quit >&5
	exec 5>&-
	wait "$usipid" || bad "E ($tag): uhid-device.py exited $?"
}

# record_pen OUT ARGS...: records while the device (fd 5, log
# $tmp/pen-$tag.log) sends its next six reports, a pen stroke.
record_pen() {
	local out=$1
	start_rec "$@" || return 1
	echo "send 6 10" >&5
	sent=$((sent + 6))
	_sent() { (($(grep -c '^input ' "$tmp/pen-$tag.log") >= sent)); }
	wait_for 20 _sent || bad "the uhid device did not send its reports"
	sleep 0.3
	stop_rec "$out"
}

# check_pen OUT NAME WHAT: the pen and the touchscreen are devices of the
# file, the HID device NAME names both, and the pen's frames are there.
check_pen() {
	if "$py" - "$1" "$touch" "$pen" "$2" <<-'PY'; then ok "$3"; else bad "$3"; fi
	import json, sys
	path, touch, pen, name = sys.argv[1:]
	recs = [json.loads(l) for l in open(path) if l.strip()]
	devs = {r["node"]: r["id"] for r in recs if r.get("type") == "device"}
	hids = [r for r in recs if r.get("type") == "hid_device" and r["name"] == name]
	assert touch in devs and pen in devs, "devices recorded: %s" % sorted(devs)
	assert len(hids) == 1 and {devs[touch], devs[pen]} <= set(hids[0]["evdev"]), hids
	frames = [r for r in recs if r.get("type") == "frame" and r.get("dev") == devs[pen]]
	assert len(frames) >= 4, "%d frames of the pen" % len(frames)
	reports = [r for r in recs if r.get("type") == "hid" and r["dev"] == hids[0]["id"]]
	assert len(reports) >= 6, "%d HID reports" % len(reports)
	PY
}

pen_parts "$own/touchtape-touchscreen-pen.hid" own

# The corpus's Acer USI descriptor (a touchscreen and a USI stylus): its
# descriptor, a name and an I2C id (hid-recorder's N: and I: lines), and
# the pen's input reports (ID 7) made here. Report 7: ID, in
# range/tip/barrel/invert/eraser bits, X, Y, pressure (16 bits each),
# battery, transducer index, colour, width, style (1..6), an 8-byte serial
# and 2 vendor bytes.
usifile="$real/acer-usi-touchscreen-pen-rdesc.hid"
pen_report() {	# BITS X Y PRESSURE, little-endian 16-bit values
	printf 'E: 000000.000000 23 07 %02x %02x %02x %02x %02x %02x %02x 64 00 00 00 01 01 02 03 04 05 06 07 08 00 00\n' \
		"$1" $(($2 & 255)) $(($2 >> 8)) $(($3 & 255)) $(($3 >> 8)) $(($4 & 255)) $(($4 >> 8))
}
if [[ -f "$usifile" ]]; then
	{
		grep '^R:' "$usifile"
		echo "N: touchtape usi"
		echo "I: 18 04f3 2a1c"
		for round in 1 2; do	# one stroke per recording
			pen_report 1 4096 4096 0
			pen_report 3 4096 4096 256
			pen_report 3 4200 4150 512
			pen_report 3 4300 4200 512
			pen_report 1 4300 4200 0
			pen_report 0 4300 4200 0
		done
	} >"$tmp/usi.hid"
	pen_parts "$tmp/usi.hid" acer
elif [[ -n "${TT_CORPUS:-}" ]]; then
	bad "no Acer USI file in \$TT_CORPUS ($usifile)"
else
	note "the real Acer USI descriptor is only in the public corpus (\$TT_CORPUS): E ran on the own one"
fi

((failures == 0)) || exit 1
