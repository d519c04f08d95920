#!/bin/bash
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
# print and inspect on the HID layer of a real kernel, in one VM boot: a
# HID touchscreen made through /dev/uhid from a corpus hid-recorder file
# (the ILITEK; record/tests/uhid-device.py), bound by hid-multitouch,
# sends its first 60 reports while
#  - `print --hid NODE` shows them live: the HID device, each report
#    decoded as the same reports of the file are, and the evdev frames
#    the kernel made of them;
#  - `record --hid NODE` records both layers, in which inspect finds the
#    HID contact linked to the kernel touch it became.
set -uo pipefail
: "${abs_top_srcdir:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
. "$abs_top_srcdir/tests/vm/lib.sh"
vm_corpus_hid ilitek-iltp7807-222a-fff1-touchscreen.hid
: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
vm_enter "$TOUCHTAPE" "build touchtape first" "${BASH_SOURCE[0]}" --timeout 120

failures=0
bad() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }
ok() { printf 'ok: %s\n' "$*"; }
check() {	# check FILE PATTERN WHAT
	if grep -Eq -- "$2" "$1"; then ok "$3"; else bad "$3: /$2/ not in $1"; head -n 20 "$1"; fi
}

modprobe uhid && modprobe hid-multitouch || fail "cannot load uhid and hid-multitouch"
exec 3> >(exec "$py" "$abs_top_srcdir/record/tests/uhid-device.py" "$hidfile" "$tmp/uhid.log")
_hid_ready() { touch=$(node_named "ILTP7807:00 222A:FFF1"); }
wait_for 15 _hid_ready || fail "the kernel made no evdev node of the uhid device"
note "HID touchscreen at $touch"

"$TOUCHTAPE" print --hid "$touch" >"$tmp/live.out" 2>"$tmp/live.err" &
ppid=$!
"$TOUCHTAPE" record --hid "$touch" -o "$tmp/rec.jsonl" 2>"$tmp/rec.err" &
rpid=$!
# Up when both recorders (print's child and record) hold the hidraw node
# open: print itself shows nothing before the reader has its first 4 KiB
# (format detection), which only the reports bring.
hidraw_readers() { ls -l /proc/[0-9]*/fd 2>/dev/null | grep -c '/dev/hidraw'; }
_up() { grep -qs '"kind":"start"' "$tmp/rec.jsonl" && (($(hidraw_readers) >= 2)); }
if ! wait_for 30 _up; then
	for f in live.out live.err rec.err; do note "$f:"; head -c 2000 "$tmp/$f"; echo; done
	fail "print --hid and record --hid did not start"
fi
sleep 0.5
echo "send 60 3" >&3
_sent() { (($(grep -c '^input ' "$tmp/uhid.log") >= 60)); }
wait_for 20 _sent || bad "the uhid device did not send its reports"
_printed() { (($(grep -c ' hid0  ' "$tmp/live.out") >= 60)); }
wait_for 10 _printed || bad "print --hid showed $(grep -c ' hid0  ' "$tmp/live.out") of 60 reports"
sleep 0.3
kill -INT "$ppid" "$rpid"
wait "$ppid" || bad "print --hid exited $? ($(cat "$tmp/live.err"))"
wait "$rpid" || bad "record --hid exited $? ($(cat "$tmp/rec.err"))"

# Live: the device, then each report decoded like the file's own.
check "$tmp/live.out" '^# HID device 0: "ILTP7807:00 222A:FFF1" at /dev/hidraw[0-9]+$' "live: the HID device"
check "$tmp/live.out" '^#   input reports: ID 1 \(83 bytes\), ID 3 \(83 bytes\), ID 9 \(2 bytes\)$' \
	"live: its descriptor's input reports"
check "$tmp/live.out" ' dev0  EV_ABS  ABS_MT_TRACKING_ID +[0-9]+   slot 0 begins$' "live: the kernel's touch"
"$TOUCHTAPE" print "$hidfile" | grep ' hid0  ' | head -n 60 | sed 's/.*  | //' >"$tmp/want"
grep ' hid0  ' "$tmp/live.out" | sed 's/.*  | //' >"$tmp/got"
if [[ -s "$tmp/want" ]] && cmp -s "$tmp/want" "$tmp/got"; then
	ok "live: the 60 reports decoded as the file's are"
else
	bad "live: decoded reports differ from the file's"; diff "$tmp/want" "$tmp/got" | head -n 10
fi

# Recorded: inspect links the HID contact to the kernel touch.
if "$TOUCHTAPE" inspect --json "$tmp/rec.jsonl" >"$tmp/sum.json" && "$py" - "$tmp/sum.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
h = d["hid_devices"]
assert len(h) == 1 and h[0]["reports"] == 60 and h[0]["contacts"] == 1, h
assert h[0]["links"]["linked"] == 1 and h[0]["links"]["not_delivered"] == 0, h
assert abs(h[0]["links"]["median_latency_us"]) < 50000, h
assert d["devices"][0]["touch_sequences"] == 1, d["devices"]
PY
then
	ok "recorded: one HID contact, linked to the kernel touch"
else
	bad "recorded: inspect --json"; cat "$tmp/sum.json"
fi
"$TOUCHTAPE" inspect --text "$tmp/rec.jsonl" >"$tmp/text.out"
if grep -A1 '^dev0 s0 #' "$tmp/text.out" | grep -Eq '^ `hid0 c0 [+-][0-9]'; then
	ok "recorded: the HID lane under its kernel touch, with the latency"
else
	bad "recorded: inspect --text"; cat "$tmp/text.out"
fi
echo quit >&3
exec 3>&-
((failures == 0)) || exit 1
