#!/bin/bash
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
# print and inspect on the HID layer of a real kernel, in one VM boot: a
# HID touchscreen made through /dev/uhid from a hid-recorder file
# (record/tests/uhid-device.py): the project's own touchscreen with a
# keyboard (tests/corpus/hid-recorder/touchtape-touchscreen-keyboard.hid),
# and the real ILITEK too when the corpus has it ($TT_CORPUS). Bound by
# hid-multitouch, it sends its first 60 reports while
#  - `print --hid NODE` shows them live: the HID device, its input
#    reports (their IDs and sizes as the file's reports have them), each
#    report decoded as the same reports of the file are, and the evdev
#    frames the kernel made of them;
#  - `record --hid NODE` records both layers, in which inspect finds each
#    HID contact of those reports (as inspect counts them in the file's
#    first 60) linked to the kernel touch it became.
set -uo pipefail
: "${abs_top_srcdir:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
. "$abs_top_srcdir/tests/vm/lib.sh"
own="$abs_top_srcdir/tests/corpus/hid-recorder"
real="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}/hid-recorder"
: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
vm_enter "$TOUCHTAPE" "build touchtape first" "${BASH_SOURCE[0]}" --timeout 180

failures=0
bad() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }
ok() { printf 'ok: %s\n' "$*"; }
check() {	# check FILE PATTERN WHAT
	if grep -Eq -- "$2" "$1"; then ok "$3"; else bad "$3: /$2/ not in $1"; head -n 20 "$1"; fi
}

modprobe uhid && modprobe hid-multitouch || fail "cannot load uhid and hid-multitouch"

# print_hid HIDFILE TAG INPUTS: the checks on the uhid touchscreen of
# HIDFILE (a hid-recorder file whose N: line names it), whose descriptor's
# input reports print lists as INPUTS; TAG names its files and messages.
print_hid() {
	local hidfile=$1 tag=$2 inputs=$3 name touch ppid rpid contacts
	name=$(sed -n 's/^N: //p' "$hidfile")
	uhidlog="$tmp/uhid-$tag.log"
	exec 3> >(exec "$py" "$abs_top_srcdir/record/tests/uhid-device.py" "$hidfile" "$uhidlog")
	_hid_ready() { touch=$(node_named "$name"); }
	wait_for 15 _hid_ready || { bad "$tag: the kernel made no evdev node of the uhid device"; return 1; }
	note "$tag: HID touchscreen at $touch"

	"$TOUCHTAPE" print --hid "$touch" >"$tmp/live.out" 2>"$tmp/live.err" &
	ppid=$!
	"$TOUCHTAPE" record --hid "$touch" -o "$tmp/rec-$tag.jsonl" 2>"$tmp/rec.err" &
	rpid=$!
	# Up when both recorders (print's child and record) hold the hidraw
	# node open: print itself shows nothing before the reader has its
	# first 4 KiB (format detection), which only the reports bring.
	hidraw_readers() { ls -l /proc/[0-9]*/fd 2>/dev/null | grep -c '/dev/hidraw'; }
	_up() { grep -qs '"kind":"start"' "$tmp/rec-$tag.jsonl" && (($(hidraw_readers) >= 2)); }
	if ! wait_for 30 _up; then
		for f in live.out live.err rec.err; do note "$f:"; head -c 2000 "$tmp/$f"; echo; done
		fail "$tag: print --hid and record --hid did not start"
	fi
	sleep 0.5
	echo "send 60 3" >&3
	_sent() { (($(grep -c '^input ' "$uhidlog") >= 60)); }
	wait_for 20 _sent || bad "$tag: the uhid device did not send its reports"
	_printed() { (($(grep -c ' hid0  ' "$tmp/live.out") >= 60)); }
	wait_for 10 _printed || bad "$tag: print --hid showed $(grep -c ' hid0  ' "$tmp/live.out") of 60 reports"
	sleep 0.3
	kill -INT "$ppid" "$rpid"
	wait "$ppid" || bad "$tag: print --hid exited $? ($(cat "$tmp/live.err"))"
	wait "$rpid" || bad "$tag: record --hid exited $? ($(cat "$tmp/rec.err"))"
	echo quit >&3
	exec 3>&-

	# Live: the device, then each report decoded like the file's own.
	check "$tmp/live.out" "^# HID device 0: \"$name\" at /dev/hidraw[0-9]+\$" "$tag: live: the HID device"
	check "$tmp/live.out" "^#   input reports: $inputs\$" "$tag: live: its descriptor's input reports"
	check "$tmp/live.out" ' dev0  EV_ABS  ABS_MT_TRACKING_ID +[0-9]+   slot 0 begins$' "$tag: live: the kernel's touch"
	"$TOUCHTAPE" print "$hidfile" | grep ' hid0  ' | head -n 60 | sed 's/.*  | //' >"$tmp/want"
	grep ' hid0  ' "$tmp/live.out" | sed 's/.*  | //' >"$tmp/got"
	if [[ -s "$tmp/want" ]] && cmp -s "$tmp/want" "$tmp/got"; then
		ok "$tag: live: the 60 reports decoded as the file's are"
	else
		bad "$tag: live: decoded reports differ from the file's"; diff "$tmp/want" "$tmp/got" | head -n 10
	fi

	# Recorded: inspect links each HID contact to its kernel touch, as
	# many as the file's first 60 reports have.
	awk '!/^E:/ || ++n <= 60' "$hidfile" >"$tmp/first60.hid"
	contacts=$("$TOUCHTAPE" inspect --json "$tmp/first60.hid" | "$py" -c \
		'import json, sys; h = json.load(sys.stdin)["hid_devices"]; assert len(h) == 1; print(h[0]["contacts"])') ||
		{ bad "$tag: inspect --json of the file's first 60 reports"; return 1; }
	note "$tag: $contacts HID contacts in the first 60 reports"
	if "$TOUCHTAPE" inspect --json "$tmp/rec-$tag.jsonl" >"$tmp/sum.json" && "$py" - "$tmp/sum.json" "$contacts" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
h = d["hid_devices"]
assert n >= 1, n
assert len(h) == 1 and h[0]["reports"] == 60 and h[0]["contacts"] == n, h
assert h[0]["links"]["linked"] == n and h[0]["links"]["not_delivered"] == 0, h
assert abs(h[0]["links"]["median_latency_us"]) < 50000, h
assert d["devices"][0]["touch_sequences"] == n, d["devices"]
PY
	then
		ok "$tag: recorded: $contacts HID contacts, each linked to its kernel touch"
	else
		bad "$tag: recorded: inspect --json"; cat "$tmp/sum.json"
	fi
	"$TOUCHTAPE" inspect --text "$tmp/rec-$tag.jsonl" >"$tmp/text.out"
	if grep -A1 '^dev0 s0 #' "$tmp/text.out" | grep -Eq '^ `hid0 c0 [+-][0-9]'; then
		ok "$tag: recorded: the HID lane under its kernel touch, with the latency"
	else
		bad "$tag: recorded: inspect --text"; cat "$tmp/text.out"
	fi
}

# The own file's input reports (a pattern), as its reports have them:
# every report ID of its descriptor is in them (touches and keys).
f="$own/touchtape-touchscreen-keyboard.hid"
inputs=""
while read -r id size; do
	inputs+="${inputs:+, }$(printf 'ID %d \\(%d bytes\\)' "0x$id" "$size")"
done < <(awk '/^E:/ { print $4, $3 }' "$f" | sort -u)
print_hid "$f" own "$inputs"
ilitek="$real/ilitek-iltp7807-222a-fff1-touchscreen.hid"
if [[ -f $ilitek ]]; then
	print_hid "$ilitek" ilitek 'ID 1 \(83 bytes\), ID 3 \(83 bytes\), ID 9 \(2 bytes\)'
elif [[ -n "${TT_CORPUS:-}" ]]; then
	bad "no ILITEK file in \$TT_CORPUS ($ilitek)"
else
	note "the real ILITEK touchscreen is only in the public corpus (\$TT_CORPUS): checked on the own one"
fi
((failures == 0)) || exit 1
