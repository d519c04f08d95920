#!/bin/sh
# touchtape replay of invalid recordings against a real kernel with uinput
# (tests/vm/run): a bad line in the middle, a device id declared twice,
# types and codes out of range, in the timeline, evemu and libinput-record
# formats. Each must fail with its FILE:LINE: message and create no input
# device at all: /proc/bus/input/devices is the same after it, a kernel
# uevent monitor and a poll of /sys/class/input see nothing, and (with
# strace) /dev/uinput is never opened. A valid recording replayed last
# shows that the watchers do see a device when one is made. One VM boot
# (tests/hostile-replay-guest.sh).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

hdr='{"format":"touchtape-timeline","version":1,"start":{"monotonic_us":0,"realtime_us":0}}'
dev='{"type":"device","id":0,"name":"TTHOSTILE replay","input_id":{"bustype":3,"vendor":1,"product":2,"version":3},"properties":["INPUT_PROP_DIRECT"],"codes":{"EV_SYN":["SYN_REPORT"],"EV_KEY":["BTN_TOUCH"],"EV_ABS":["ABS_X","ABS_Y","ABS_MT_SLOT","ABS_MT_POSITION_X","ABS_MT_POSITION_Y","ABS_MT_TRACKING_ID"]},"absinfo":{"ABS_X":{"min":0,"max":1000,"resolution":10},"ABS_Y":{"min":0,"max":1000,"resolution":10},"ABS_MT_SLOT":{"min":0,"max":1},"ABS_MT_POSITION_X":{"min":0,"max":1000,"resolution":10},"ABS_MT_POSITION_Y":{"min":0,"max":1000,"resolution":10},"ABS_MT_TRACKING_ID":{"min":0,"max":65535}},"mt":{"protocol":"B","slots":2}}'
f1='{"type":"frame","dev":0,"t":1000,"ev":[[3,47,0],[3,57,5],[3,53,100],[3,54,200],[1,330,1],[3,0,100],[3,1,200],[0,0,0]]}'
f2='{"type":"frame","dev":0,"t":9000,"ev":[[3,53,110],[3,54,210],[3,0,110],[3,1,210],[0,0,0]]}'
f3='{"type":"frame","dev":0,"t":17000,"ev":[[3,57,-1],[1,330,0],[0,0,0]]}'
lines() { printf '%s\n' "$@"; }

# NAME LINE: the file and the line its message must name.
cases=(
	"mid-bad.jsonl 4"
	"dup-ids.jsonl 4"
	"out-of-range.jsonl 4"
	"code-range.jsonl 4"
	"mid-bad.evemu 14"
	"out-of-range.yml 21"
)
lines "$hdr" "$dev" "$f1" '{"type":"frame","dev":0,"t":5000,"ev":[[3,53,1],[0,0,0]' "$f2" "$f3" >"$tmp/mid-bad.jsonl"
lines "$hdr" "$dev" "$f1" "${dev/TTHOSTILE replay/TTHOSTILE second}" "$f2" "$f3" >"$tmp/dup-ids.jsonl"
lines "$hdr" "$dev" "$f1" '{"type":"frame","dev":0,"t":5000,"ev":[[32,0,0],[0,0,0]]}' "$f2" "$f3" >"$tmp/out-of-range.jsonl"
lines "$hdr" "$dev" "$f1" '{"type":"frame","dev":0,"t":5000,"ev":[[3,1023,0],[0,0,0]]}' "$f2" "$f3" >"$tmp/code-range.jsonl"
lines "$hdr" "$dev" "$f1" "$f2" "$f3" >"$tmp/good.jsonl"
cat >"$tmp/mid-bad.evemu" <<'EOF'
# EVEMU 1.3
N: TTHOSTILE evemu
I: 0003 0001 0002 0003
P: 02 00 00 00 00 00 00 00
B: 00 0b 00 00 00 00 00 00 00
B: 03 03 00 00 00 00 80 60 02
A: 00 0 1000 0 0 10
A: 01 0 1000 0 0 10
A: 2f 0 1 0 0 0
A: 35 0 1000 0 0 10
A: 36 0 1000 0 0 10
A: 39 0 65535 0 0 0
E: 0.001000 0003 0035 0100
E: 0.001000 0003 0035 nan
E: 0.001000 0000 0000 0000
E: 0.009000 0003 0035 0110
E: 0.009000 0000 0000 0000
EOF
cat >"$tmp/out-of-range.yml" <<'EOF'
version: 1
ndevices: 1
devices:
- node: /dev/input/event5
  evdev:
    name: "TTHOSTILE libinput"
    id: [3, 1, 2, 3]
    codes:
      0: [0]
      3: [0, 1, 47, 53, 54, 57]
    absinfo:
      0: [0, 1000, 0, 0, 10]
      1: [0, 1000, 0, 0, 10]
      47: [0, 1, 0, 0, 0]
      53: [0, 1000, 0, 0, 10]
      54: [0, 1000, 0, 0, 10]
      57: [0, 65535, 0, 0, 0]
  events:
  - evdev:
    - [  0,   1000, 3, 53, 100]
    - [  0,   1000, 32, 0, 0]
    - [  0,   1000, 0, 0, 0]
  - evdev:
    - [  0,   9000, 3, 53, 110]
    - [  0,   9000, 0, 0, 0]
EOF
for c in "${cases[@]}"; do echo "${c%% *}"; done >"$tmp/cases"

export TOUCHTAPE
rc=0
"$abs_top_srcdir/tests/vm/run" --timeout 300 --rw "$tmp" -- \
	bash "$abs_top_srcdir/tests/hostile-replay-guest.sh" "$tmp" || rc=$?
[ $rc -eq 77 ] && exit 77
[ $rc -eq 0 ] || fail "VM run failed with status $rc"
res=$tmp/results
[ -f "$res" ] || { fail "the guest wrote no results"; finish; }
val() { awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print }' "$res"; }
is() { # KEY WANT WHAT
	if [ "$(val "$1")" = "$2" ]; then pass "$3"; else
		fail "$3: $1 is '$(val "$1")', want '$2'"; fi
}
# The same for what the guest could only see with strace.
traced() {
	case $(val "$1") in
	unknown*) echo "no strace in the guest: not checked: $3" ;;
	*) is "$@" ;;
	esac
}

is uinput yes "the guest has /dev/uinput"
is watching yes "the uevent monitor runs"
for c in "${cases[@]}"; do
	read -r name line <<<"$c"
	is "$name-exit" 1 "$name: replay fails"
	expect_grep "^$tmp/$name:$line: " "$tmp/$name.err" "$name: message names line $line"
	expect_grep "refusing to replay \(nothing was created\)" "$tmp/$name.err" "$name: says nothing was created"
	is "$name-devices" same "$name: /proc/bus/input/devices unchanged"
	traced "$name-uinput" "not opened" "$name: /dev/uinput never opened"
done
is invalid-uevents 0 "no input uevent while the invalid files were replayed"
is invalid-sysfs 0 "no new /sys/class/input entry while the invalid files were replayed"
# The watchers work: the valid file's device is seen.
is good.jsonl-exit 0 "the valid recording replays"
traced good.jsonl-uinput opened "the valid recording opens /dev/uinput"
if [ "$(val good-uevents)" -ge 1 ] 2>/dev/null; then pass "its device's uevents were seen"; else
	fail "the monitor saw no uevent for the valid replay ($(val good-uevents))"; fi
if [ "$(val good-sysfs)" -ge 1 ] 2>/dev/null; then pass "its /sys/class/input entry was seen"; else
	fail "the poll saw no /sys/class/input entry for the valid replay ($(val good-sysfs))"; fi
finish
