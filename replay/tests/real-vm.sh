#!/bin/bash
# Replaying what real devices recorded, against a real kernel (tests/vm/run),
# in one VM boot:
#  1. corpus recordings (tests/corpus/evemu, or $TT_CORPUS/evemu): every one the replay of
#     before this change refused (values outside absinfo, devices with keys),
#     a touchscreen that always replayed, and two given a description that
#     lacks codes they use (added to the device), with --verify (idle gaps cut to 50 ms,
#     at most 1 s of each): exit 0, no unexplained difference, and the
#     values outside absinfo it announces are delivered and counted
#     (outside-absinfo-delivered);
#  2. the key guard: a touchscreen with KEY_WAKEUP, a mouse with KEY_A and
#     KEY_LEFTCTRL, and a keyboard, replayed; a second reader
#     (evkeys.py, independent of touchtape) sees KEY_WAKEUP and BTN_TOUCH,
#     the mouse without KEY_A (neither created nor sent), no keyboard and
#     no letter at all, unless --allow-keys, with which it sees everything.
# Skipped (77) when QEMU cannot start.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -uo pipefail
. "${abs_top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}/tests/vm/lib.sh"

: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
# Refused before: values outside absinfo (Wacom ABS_MISC, bcm5974), or
# devices with keys (keyboards, a mouse, a type cover); then a touchscreen
# that always replayed.
files=(
	"autotest__client_cros_input_playback_keyboard_a"
	"autotest__client_cros_input_playback_keyboard_ctrl+alt+f1"
	"evemu-devices__keyboards_Lenovo ThinkPad Compact USB Keyboard with TrackPoint.keyboard.events"
	"evemu-devices__keyboards_Logitech K400 Plus.events"
	"evemu-devices__mice_Ultrathin Touch Mouse.events"
	"evemu-devices__misc_Microsoft Surface Type Cover.events"
	"evemu-devices__tablets_Wacom Cintiq 12WX Pad.buttons-left.events"
	"evemu-devices__tablets_Wacom Cintiq 12WX Pad.buttons-right.events"
	"evemu-devices__tablets_Wacom Cintiq 12WX.events"
	"evemu-devices__tablets_Wacom Cintiq 13HD touch Pad.events"
	"evemu-devices__tablets_Wacom Cintiq 13HD touch Pen.events"
	"evemu-devices__tablets_Wacom Cintiq 13HD.events"
	"evemu-devices__tablets_Wacom Cintiq 22HDT Pen.events"
	"evemu-devices__tablets_Wacom DTH2242 Pen.events"
	"evemu-devices__tablets_Wacom Intuos3 4x6 Pad.strip.events"
	"evemu__data_bcm5974.event"
	"evemu-devices__touchscreens_Atmel maXTouch Touchscreen.4-finger-drag-down.events"
	# Given a description that lacks codes they use (ABS_MT_*, added
	# with ABS_X/Y/PRESSURE's absinfo or the values' range;
	# BTN_TOOL_DOUBLETAP): two of the eight.
	"xit__recordings_touchpads_SynPS2-Synaptics-TouchPad-Clickpad.two-finger-down.events"
	"xit__recordings_tablets_N-Trig-MultiTouch.touch_1_begin.events"
)
if [[ "${TT_VM_GUEST:-}" != 1 ]]; then
	corpus=${TT_CORPUS:-$abs_top_srcdir/tests/corpus}
	[[ -x "$TOUCHTAPE" ]] || fail "build touchtape first"
	command -v python3 >/dev/null || { note "no python3"; exit 77; }
	# Reading a long recording whole is slow under emulation: the guest
	# gets the first second of each (description, then the events up to
	# the first SYN_REPORT a second after the first event), cut here, and
	# the path of its description where SOURCES.tsv names one.
	TT_REAL_CUT=$(mktemp -d "${TMPDIR:-/tmp}/tt-real.XXXXXX")
	export TT_REAL_CUT
	trap 'rm -rf "$TT_REAL_CUT"' EXIT
	for i in "${!files[@]}"; do
		python3 - "$corpus/evemu/${files[$i]}" "$TT_REAL_CUT/$i.evemu" <<'PY' || fail "cutting ${files[$i]}"
import sys
t0 = None
with open(sys.argv[1], errors="surrogateescape") as src, \
     open(sys.argv[2], "w", errors="surrogateescape") as out:
    for line in src:
        out.write(line)
        f = line.split()
        if len(f) < 5 or f[0] != "E:":
            continue
        t = float(f[1])
        t0 = t if t0 is None else t0
        if t - t0 > 1.0 and [int(x, 16) for x in f[2:5]] == [0, 0, 0]:
            break
PY
		awk -F'\t' -v f="evemu/${files[$i]}" -v c="$corpus" '$1 == f && $16 != "" { print c "/" $16 }' \
			"$corpus/SOURCES.tsv" >"$TT_REAL_CUT/$i.desc"
	done
	vm_reexec "${BASH_SOURCE[0]}" --timeout 300
fi

T=$TOUCHTAPE
here="$abs_top_srcdir/replay/tests"
PY=/usr/bin/python3
[[ -x $PY ]] || PY=python3
failures=0
bad() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }
ok() { printf 'ok: %s\n' "$*"; }

# ---- 1. corpus recordings with --verify ----
cut=(--max-gap 0.05)
# verify_one I: replays file I, its output in $tmp/I.log, status in $tmp/I.rc.
verify_one() {
	local i=$1 desc args=() rc=0
	desc=$(<"$TT_REAL_CUT/$i.desc")
	[[ -n "$desc" ]] && args=(--desc "$desc")
	"$T" replay --verify --max-gap 0.05 "${args[@]}" "$TT_REAL_CUT/$i.evemu" >"$tmp/$i.log" 2>&1 || rc=$?
	echo "$rc" >"$tmp/$i.rc"
}
t0=$SECONDS
# Two at a time: what is compared is what each reader got, not timing.
for i in "${!files[@]}"; do
	verify_one "$i" &
	(($(jobs -rp | wc -l) < 2)) || wait -n
done
wait
for i in "${!files[@]}"; do
	f=${files[$i]} log=$tmp/$i.log rc=$(<"$tmp/$i.rc")
	announced=$(sed -n 's/.*: \([0-9]*\) values\{0,1\} outside the absinfo range .*/\1/p' "$log" |
		awk '{ n += $1 } END { print n + 0 }')
	delivered=$(sed -n 's/^  explained: \([0-9]*\) x outside-absinfo-delivered$/\1/p' "$log")
	delivered=${delivered:-0}
	if [[ $rc != 0 ]] || ! grep -q ', 0 unexplained differences$' "$log"; then
		bad "$f: exit $rc"
		sed 's/^/  | /' "$log" | head -30
	elif ((announced > 0 && (delivered < 1 || delivered > announced))); then
		bad "$f: $announced values outside absinfo announced, $delivered delivered"
		sed 's/^/  | /' "$log" | head -30
	else
		ok "$f: 0 unexplained differences ($(grep -o '^verify: [0-9]* frames expected' "$log" |
			grep -o '[0-9]*') frames; $delivered of $announced values outside absinfo delivered)"
	fi
done
note "corpus: $((SECONDS - t0)) s"

# ---- 2. the key guard, seen by a second reader ----
t0=$SECONDS
hdr='{"format":"touchtape-timeline","version":1,"start":{"monotonic_us":0,"realtime_us":0}}'
ids='"input_id":{"bustype":3,"vendor":1,"product":2,"version":1}'
abs='"ABS_X":{"min":0,"max":1000},"ABS_Y":{"min":0,"max":1000},"ABS_MT_SLOT":{"min":0,"max":1},"ABS_MT_POSITION_X":{"min":0,"max":1000},"ABS_MT_POSITION_Y":{"min":0,"max":1000},"ABS_MT_TRACKING_ID":{"min":0,"max":65535}'
frame() { printf '{"type":"frame","dev":%s,"t":%s,"ev":[%s]}\n' "$1" "$2" "$3"; }
{
	echo "$hdr"
	echo '{"type":"device","id":0,"name":"TTKEY touchscreen",'"$ids"',"properties":["INPUT_PROP_DIRECT"],"codes":{"EV_KEY":["BTN_TOUCH","KEY_WAKEUP"],"EV_ABS":["ABS_X","ABS_Y","ABS_MT_SLOT","ABS_MT_POSITION_X","ABS_MT_POSITION_Y","ABS_MT_TRACKING_ID"]},"absinfo":{'"$abs"'},"mt":{"protocol":"B","slots":2}}'
	echo '{"type":"device","id":1,"name":"TTKEY mouse",'"$ids"',"codes":{"EV_KEY":["BTN_LEFT","KEY_A","KEY_LEFTCTRL"],"EV_REL":["REL_X","REL_Y"]}}'
	echo '{"type":"device","id":2,"name":"TTKEY keyboard",'"$ids"',"codes":{"EV_KEY":["KEY_A","KEY_B","KEY_ENTER","KEY_LEFTCTRL","KEY_VOLUMEUP"],"EV_MSC":["MSC_SCAN"]}}'
	frame 0 0 '[3,47,0],[3,57,1],[3,53,100],[3,54,200],[1,330,1],[3,0,100],[3,1,200],[0,0,0]'
	frame 0 100000 '[1,143,1],[0,0,0]'
	frame 0 150000 '[1,143,0],[0,0,0]'
	frame 1 200000 '[1,29,1],[1,30,1],[0,0,0]'
	frame 1 210000 '[1,30,0],[1,29,0],[0,0,0]'
	frame 1 220000 '[2,0,5],[1,272,1],[0,0,0]'
	frame 1 250000 '[1,272,0],[0,0,0]'
	frame 2 300000 '[4,4,30],[1,30,1],[0,0,0]'
	frame 2 310000 '[4,4,30],[1,30,0],[0,0,0]'
	frame 2 320000 '[1,28,1],[0,0,0]'
	frame 2 330000 '[1,28,0],[0,0,0]'
	frame 0 400000 '[3,53,110],[3,0,110],[0,0,0]'
	frame 0 450000 '[3,57,-1],[1,330,0],[0,0,0]'
} >"$tmp/keys.jsonl"

# KEY_A 0x1e, KEY_ENTER 0x1c, KEY_LEFTCTRL 0x1d, KEY_WAKEUP 0x8f,
# BTN_LEFT 0x110, BTN_TOUCH 0x14a.
keys_run() { # NAME REPLAY-OPTIONS...: the reader's view in $tmp/NAME.seen
	local name=$1 reader rc=0
	shift
	rm -f "$tmp/ready"
	"$PY" -I -S "$here/evkeys.py" "touchtape replay: TTKEY" 20 "$tmp/ready" \
		0x1e 0x1c 0x8f 0x110 0x14a >"$tmp/$name.seen" &
	reader=$!
	wait_for 10 test -e "$tmp/ready" || bad "$name: the reader did not start"
	# --start-delay: time for the reader to open the new nodes.
	"$T" replay --start-delay 1 "$@" "$tmp/keys.jsonl" >"$tmp/$name.log" 2>&1 || rc=$?
	wait "$reader"
	[[ $rc == 0 ]] || bad "$name: replay exit $rc: $(cat "$tmp/$name.log")"
}
seen() { grep -qx -- "$2" "$tmp/$1.seen"; }
expect() { # RUN LINE WHAT
	if seen "$1" "$2"; then ok "$1: $3"; else bad "$1: $3: no '$2' in: $(tr '\n' ';' <"$tmp/$1.seen")"; fi
}
expect_not() { # RUN REGEX WHAT
	if grep -qE -- "$2" "$tmp/$1.seen"; then bad "$1: $3: $(grep -E -- "$2" "$tmp/$1.seen" | head -3 | tr '\n' ';')"
	else ok "$1: $3"; fi
}

keys_run guarded
expect guarded "key TTKEY_touchscreen 0x14a 1" "BTN_TOUCH delivered"
expect guarded "key TTKEY_touchscreen 0x8f 1" "KEY_WAKEUP delivered"
expect guarded "has TTKEY_touchscreen 0x8f 1" "the touchscreen has KEY_WAKEUP"
expect guarded "key TTKEY_mouse 0x110 1" "BTN_LEFT delivered"
expect guarded "has TTKEY_mouse 0x1e 0" "the mouse is created without KEY_A"
expect_not guarded "^device TTKEY_keyboard" "the keyboard is not created"
expect_not guarded "^key [^ ]* (0x1e|0x1c|0x1d) " "no KEY_A, KEY_ENTER or KEY_LEFTCTRL reaches a reader"
if grep -q 'device 2 "TTKEY keyboard" is left out' "$tmp/guarded.log" &&
   grep -q 'device 1 "TTKEY mouse": replayed without its keys.*4 events dropped' "$tmp/guarded.log"; then
	ok "guarded: both said once"
else
	bad "guarded: messages: $(cat "$tmp/guarded.log")"
fi

keys_run allowed --allow-keys
expect allowed "key TTKEY_keyboard 0x1e 1" "--allow-keys: KEY_A typed by the keyboard"
expect allowed "key TTKEY_keyboard 0x1c 1" "--allow-keys: KEY_ENTER"
expect allowed "key TTKEY_mouse 0x1e 1" "--allow-keys: KEY_A of the mouse"
expect allowed "key TTKEY_touchscreen 0x8f 1" "--allow-keys: KEY_WAKEUP"

note "keys: $((SECONDS - t0)) s"
if ((failures)); then
	echo "$failures failure(s)"
	exit 1
fi
echo "PASS: real recordings replayed and verified; guarded keys reach nobody"
