#!/bin/bash
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
# touchtape record against real uinput devices, in one VM boot:
#  1. corpus devices (Type B Atmel touchscreen, Type A N-Trig, Synaptics
#     touchpad, Wacom ISDv4 finger sensor): their recorded events are injected
#     with evemu-play and the recording must hold exactly what the kernel
#     model (record/tests/model-check.c) says the kernel delivers;
#  2. two devices in one file, one removed mid-recording;
#  3. SIGINT, SIGTERM, SIGKILL at random moments: the file validates;
#  4. a recording started mid-touch: the device record holds the touch;
#  5. SYN_DROPPED: the recorder is stopped (SIGSTOP) during a flood, the
#     drop and the resync are recorded and the resynced state is right;
#  6. masking: a keyboard recording has no real letter codes unless
#     --show-keycodes;
#  7. touchtape list and the --frames/--duration stop conditions.
set -uo pipefail
: "${abs_top_srcdir:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
. "$abs_top_srcdir/tests/vm/lib.sh"
corpus="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}"
if [[ ! -d "$corpus" ]]; then
	echo "SKIP: no corpus at $corpus"
	exit 77
fi
vm_reexec "${BASH_SOURCE[0]}" --timeout 300

: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
model="$abs_top_builddir/record/tests/model-check"
failures=0
bad() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }
ok() { printf 'ok: %s\n' "$*"; }

# make_dev VAR DESC: creates a uinput device; VAR=node, VAR_pid=pid.
make_dev() {
	local var=$1 desc=$2 out
	out="$(mktemp "$tmp/dev.XXXXXX")"
	evemu-device "$desc" >"$out" 2>&1 &
	local pid=$!
	_dev_ready() { grep -q '/dev/input/event[0-9]*' "$out"; }
	if ! wait_for 15 _dev_ready; then
		cat "$out"
		bad "evemu-device $desc created no node"
		return 1
	fi
	local node
	node="$(grep -o '/dev/input/event[0-9]*' "$out" | head -n1)"
	wait_for 5 test -c "$node" || { bad "$node never appeared"; return 1; }
	printf -v "$var" '%s' "$node"
	printf -v "${var}_pid" '%s' "$pid"
}

# start_rec OUT ARGS...: starts touchtape record, waits for its start marker.
start_rec() {
	local out=$1
	shift
	"$TOUCHTAPE" record "$@" -o "$out" 2>"$out.err" &
	recpid=$!
	_rec_ready() { grep -q '"kind":"start"' "$out" 2>/dev/null; }
	wait_for 15 _rec_ready || { bad "recorder did not start: $(cat "$out.err")"; return 1; }
}

# settle FILE: waits until FILE stops growing (the recorder caught up).
settle() {
	local prev=-1 n
	for _ in $(seq 100); do
		n=$(wc -c <"$1")
		[[ "$n" == "$prev" ]] && return 0
		prev=$n
		sleep 0.3
	done
}

stop_rec() {
	kill -INT "$recpid"
	wait "$recpid"
	recstatus=$?
}

validate() {
	if "$TOUCHTAPE" validate -q "$1" >"$1.val" 2>&1; then
		ok "$2: validates ($(cat "$1.val"))"
	else
		bad "$2: does not validate"; cat "$1.val"
	fi
}

check_model() {
	local what=$1
	shift
	if "$model" "$@" >"$tmp/model.out" 2>&1; then
		ok "$what: $(tail -n1 "$tmp/model.out")"
	else
		bad "$what: recording differs from the kernel model"; cat "$tmp/model.out"
	fi
}

atmel_desc="$corpus/evemu-desc/evemu-devices__touchscreens_Atmel maXTouch Touchscreen.desc"
atmel_ev="$corpus/evemu/evemu-devices__touchscreens_Atmel maXTouch Touchscreen.4-finger-drag-down.events"
ntrig="$corpus/evemu/evemu__data_ntrig-dell-xt2.event"
synaptics="$corpus/evemu/kwin-gestures__evemu_touchpad_swipe_right_2"
wacom_desc="$corpus/evemu-desc/evemu-devices__tablets_Wacom ISDv4 E6 Finger.desc"
wacom_ev="$corpus/evemu/evemu-devices__tablets_Wacom ISDv4 E6 Finger.double-center-scroll.events"
keyboard_desc="$corpus/evemu-desc/evemu-devices__keyboards_Razer Razer BlackWidow 2013.keyboard.desc"

# --- 1. corpus devices, one at a time ---------------------------------------
corpus_case() {
	local label=$1 desc=$2 events=$3
	make_dev dev "$desc" || return
	start_rec "$tmp/$label.jsonl" "$dev" || return
	evemu-play "$dev" <"$events" || bad "$label: evemu-play failed"
	settle "$tmp/$label.jsonl"
	stop_rec
	[[ $recstatus == 0 ]] || bad "$label: recorder exit $recstatus: $(cat "$tmp/$label.jsonl.err")"
	grep -q '"kind":"stop".*"text":"SIGINT"' "$tmp/$label.jsonl" || bad "$label: no stop marker"
	validate "$tmp/$label.jsonl" "$label"
	check_model "$label" "$tmp/$label.jsonl" 0 "$events"
	kill "$dev_pid"; wait "$dev_pid" 2>/dev/null
}
corpus_case atmel "$atmel_desc" "$atmel_ev"
corpus_case ntrig "$ntrig" "$ntrig"
corpus_case synaptics "$synaptics" "$synaptics"
corpus_case wacom "$wacom_desc" "$wacom_ev"
grep -q '"mt":{"protocol":"A"' "$tmp/ntrig.jsonl" 2>/dev/null ||
	grep -q '"protocol":"A"' "$tmp/ntrig.jsonl" || bad "ntrig: not recorded as Type A"

# --- 2. two devices, one removed ---------------------------------------------
make_dev d1 "$atmel_desc" && make_dev d2 "$ntrig" && {
	start_rec "$tmp/two.jsonl" "$d1" "$d2"
	evemu-play "$d1" <"$atmel_ev" &
	p1=$!
	evemu-play "$d2" <"$ntrig"
	wait "$p1"
	settle "$tmp/two.jsonl"
	kill "$d2_pid"; wait "$d2_pid" 2>/dev/null
	_removed() { grep -q '"kind":"device-removed"' "$tmp/two.jsonl"; }
	wait_for 10 _removed || bad "two: no device-removed marker"
	evemu-play "$d1" <"$atmel_ev"
	settle "$tmp/two.jsonl"
	stop_rec
	[[ $recstatus == 0 ]] || bad "two: recorder exit $recstatus"
	grep -q '"kind":"device-removed","dev":1' "$tmp/two.jsonl" || bad "two: removal not marked for device 1"
	# Frames of device 0 after the marker: the other device kept recording.
	after=$(sed -n '/"device-removed"/,$p' "$tmp/two.jsonl" | grep -c '"type":"frame","dev":0')
	((after > 10)) && ok "two: $after frames of device 0 after device 1 was removed" ||
		bad "two: only $after frames of device 0 after the removal"
	validate "$tmp/two.jsonl" "two"
	check_model "two/device0" "$tmp/two.jsonl" 0 "$atmel_ev" "$atmel_ev"
	check_model "two/device1" "$tmp/two.jsonl" 1 "$ntrig"
	grep -q 'removed' "$tmp/two.jsonl.err" && ok "two: removal reported on stderr" ||
		bad "two: removal not reported on stderr"
	kill "$d1_pid"; wait "$d1_pid" 2>/dev/null
}

# --- 3. signals at random moments --------------------------------------------
make_dev sdev "$atmel_desc" && {
	for sig in INT TERM KILL INT TERM KILL; do
		out="$tmp/sig-$sig-$RANDOM.jsonl"
		start_rec "$out" "$sdev" || continue
		( while :; do evemu-play "$sdev" <"$atmel_ev" || break; done ) &
		player=$!
		sleep "0.$((RANDOM % 9 + 1))"
		kill -"$sig" "$recpid"
		wait "$recpid"
		status=$?
		kill "$player"; wait "$player" 2>/dev/null
		pkill -P "$player" 2>/dev/null
		frames=$(grep -c '"type":"frame"' "$out")
		case $sig in
		KILL) [[ $status == 137 ]] || bad "SIG$sig: exit $status" ;;
		*) [[ $status == 0 ]] || bad "SIG$sig: exit $status"
		   grep -q "\"kind\":\"stop\".*SIG$sig" "$out" || bad "SIG$sig: no stop marker naming it" ;;
		esac
		if "$TOUCHTAPE" validate -q "$out" >"$out.val" 2>&1; then
			ok "SIG$sig after $frames frames: validates"
		else
			bad "SIG$sig after $frames frames: does not validate"; cat "$out.val"
		fi
	done
	kill "$sdev_pid"; wait "$sdev_pid" 2>/dev/null
}

# --- 4. mid-touch start -----------------------------------------------------
make_dev mdev "$vm_data/touchscreen.desc" && {
	printf 'E: 0.000001 0003 002f 0001\nE: 0.000001 0003 0039 0042\nE: 0.000001 0003 0035 1234\nE: 0.000001 0003 0036 2345\nE: 0.000001 0001 014a 0001\nE: 0.000001 0000 0000 0000\n' >"$tmp/down.ev"
	printf 'E: 0.000001 0003 0035 1300\nE: 0.000001 0000 0000 0000\nE: 0.010000 0003 0039 -001\nE: 0.010000 0001 014a 0000\nE: 0.010000 0000 0000 0000\n' >"$tmp/up.ev"
	evemu-play "$mdev" <"$tmp/down.ev"
	start_rec "$tmp/mid.jsonl" "$mdev"
	"$model" --state "$tmp/mid.jsonl" 0 >"$tmp/mid.state"
	grep -q '^slot 1 tracking 42 x 1234 y 2345$' "$tmp/mid.state" &&
		grep -q 'current 1' "$tmp/mid.state" && grep -q '^key down 330$' "$tmp/mid.state" &&
		ok "mid-touch: device record holds the active touch in slot 1 and BTN_TOUCH" ||
		{ bad "mid-touch: state not recorded"; cat "$tmp/mid.state"; }
	evemu-play "$mdev" <"$tmp/up.ev"
	settle "$tmp/mid.jsonl"
	stop_rec
	check_model "mid-touch" "$tmp/mid.jsonl" 0 "$tmp/up.ev"
	validate "$tmp/mid.jsonl" "mid-touch"
	kill "$mdev_pid"; wait "$mdev_pid" 2>/dev/null
}

# --- 5. SYN_DROPPED ------------------------------------------------------------
make_dev fdev "$vm_data/touchscreen.desc" && {
	# Slot 0 down, then 6000 moves in as many frames, all at once; the last
	# move leaves the touch at x 4000 y 3000, and slot 3 ends released.
	{
		printf 'E: 0.000001 0003 0039 0007\nE: 0.000001 0003 0035 0001\nE: 0.000001 0001 014a 0001\nE: 0.000001 0000 0000 0000\n'
		printf 'E: 0.000001 0003 002f 0003\nE: 0.000001 0003 0039 0009\nE: 0.000001 0000 0000 0000\n'
		printf 'E: 0.000001 0003 002f 0000\n'
		for i in $(seq 1 6000); do
			printf 'E: 0.000001 0003 0035 %d\nE: 0.000001 0003 0036 %d\nE: 0.000001 0000 0000 0000\n' \
				$((i % 3000 + 2)) $((i % 2000 + 2))
		done
		printf 'E: 0.000001 0003 002f 0003\nE: 0.000001 0003 0039 -001\nE: 0.000001 0000 0000 0000\n'
		printf 'E: 0.000001 0003 002f 0000\nE: 0.000001 0003 0035 4000\nE: 0.000001 0003 0036 3000\nE: 0.000001 0000 0000 0000\n'
	} >"$tmp/flood.ev"
	start_rec "$tmp/drop.jsonl" "$fdev"
	kill -STOP "$recpid"
	evemu-play "$fdev" <"$tmp/flood.ev"
	kill -CONT "$recpid"
	settle "$tmp/drop.jsonl"
	stop_rec
	grep -q '"dropped":true' "$tmp/drop.jsonl" && ok "SYN_DROPPED: drop frame recorded" ||
		bad "SYN_DROPPED: no dropped frame"
	grep -q '"resync":true' "$tmp/drop.jsonl" && ok "SYN_DROPPED: resync frames recorded" ||
		bad "SYN_DROPPED: no resync frame"
	grep -q '"kind":"drops"' "$tmp/drop.jsonl" && ok "SYN_DROPPED: drops marker" ||
		bad "SYN_DROPPED: no drops marker"
	grep -q 'SYN_DROPPED' "$tmp/drop.jsonl.err" || bad "SYN_DROPPED: not in the exit summary"
	# Replaying every recorded frame (resync included) over the device
	# record must end in the injected final state.
	"$model" --final "$tmp/drop.jsonl" 0 >"$tmp/drop.final"
	grep -q '^slot 0 tracking 7 x 4000 y 3000$' "$tmp/drop.final" &&
		grep -q '^slot 3 tracking -1 ' "$tmp/drop.final" &&
		ok "SYN_DROPPED: resynced state is the device's final state" ||
		{ bad "SYN_DROPPED: final state wrong"; cat "$tmp/drop.final"; }
	"$TOUCHTAPE" validate "$tmp/drop.jsonl" >"$tmp/drop.val" 2>&1 &&
		ok "SYN_DROPPED: validates ($(tail -n1 "$tmp/drop.val"))" ||
		{ bad "SYN_DROPPED: does not validate"; cat "$tmp/drop.val"; }
	kill "$fdev_pid"; wait "$fdev_pid" 2>/dev/null
}

# --- 6. keyboard masking ------------------------------------------------------
make_dev kbd "$keyboard_desc" && {
	# "hello": KEY_H 35, KEY_E 18, KEY_L 38 twice, KEY_O 24, each with a
	# scan code of 1000 + the key code.
	: >"$tmp/hello.ev"
	for code in 35 18 38 38 24; do
		scan=$((code + 1000))
		printf 'E: 0.000001 0004 0004 %d\nE: 0.000001 0001 %04x 0001\nE: 0.000001 0000 0000 0000\n' "$scan" "$code" >>"$tmp/hello.ev"
		printf 'E: 0.000001 0004 0004 %d\nE: 0.000001 0001 %04x 0000\nE: 0.000001 0000 0000 0000\n' "$scan" "$code" >>"$tmp/hello.ev"
	done
	for mode in masked shown; do
		flag=""; [[ $mode == shown ]] && flag=--show-keycodes
		start_rec "$tmp/kbd-$mode.jsonl" $flag "$kbd"
		evemu-play "$kbd" <"$tmp/hello.ev"
		settle "$tmp/kbd-$mode.jsonl"
		stop_rec
		"$model" --keys "$tmp/kbd-$mode.jsonl" 0 >"$tmp/kbd-$mode.keys"
	done
	# KEY_H 35, KEY_E 18, KEY_L 38, KEY_O 24; scan codes as injected.
	if grep -qE '^key (35|18|38|24) ' "$tmp/kbd-masked.keys" || grep -qvE '^(key [0-9]+ [0-9]|scan 0$)' "$tmp/kbd-masked.keys"; then
		bad "masking: real key or scan codes in the masked recording"; cat "$tmp/kbd-masked.keys"
	else
		ok "masking: $(grep -c '^key' "$tmp/kbd-masked.keys") key events, all masked, scan codes 0"
	fi
	[[ "$(grep -c '^key' "$tmp/kbd-masked.keys")" == 10 ]] || bad "masking: press/release structure lost"
	grep -q '"keycodes_masked":true' "$tmp/kbd-masked.jsonl" || bad "masking: header does not say keycodes_masked"
	[[ "$(grep '^key' "$tmp/kbd-shown.keys" | awk '$3 == 1 { print $2 }' | tr '\n' ' ')" == "35 18 38 38 24 " ]] &&
		ok "--show-keycodes: h e l l o recorded" || { bad "--show-keycodes: keys wrong"; cat "$tmp/kbd-shown.keys"; }
	grep -q '^scan 1035$' "$tmp/kbd-shown.keys" || bad "--show-keycodes: scan codes masked"
	grep -q '"keycodes_masked":false' "$tmp/kbd-shown.jsonl" || bad "--show-keycodes: header says masked"
	kill "$kbd_pid"; wait "$kbd_pid" 2>/dev/null
}

# --- 7. list, --frames, --duration, --all-touch, patterns ---------------------
make_dev ldev "$atmel_desc" && {
	"$TOUCHTAPE" list >"$tmp/list.out" 2>&1
	grep -q "$ldev .*touchscreen .*MT B .*direct .*Atmel maXTouch Touchscreen" "$tmp/list.out" &&
		ok "list: the touchscreen is listed" || { bad "list"; cat "$tmp/list.out"; }
	"$TOUCHTAPE" list --json >"$tmp/list.json" 2>&1
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert any(e.get("mt_protocol")=="B" and e.get("touch_mode")=="direct" for e in d)' "$tmp/list.json" &&
		ok "list --json parses" || { bad "list --json"; cat "$tmp/list.json"; }

	"$TOUCHTAPE" record -q --frames 5 "$ldev" -o "$tmp/frames.jsonl" &
	fp=$!
	sleep 1
	evemu-play "$ldev" <"$atmel_ev"
	wait "$fp"; st=$?
	[[ $st == 0 && "$(grep -c '"type":"frame"' "$tmp/frames.jsonl")" == 5 ]] &&
		grep -q '"text":"frames"' "$tmp/frames.jsonl" && ok "--frames 5 stops after 5 frames" ||
		bad "--frames: exit $st, $(grep -c '"type":"frame"' "$tmp/frames.jsonl") frames"

	t0=$SECONDS
	"$TOUCHTAPE" record -q --duration 1 --all-touch -o "$tmp/dur.jsonl"; st=$?
	[[ $st == 0 ]] && grep -q '"text":"duration"' "$tmp/dur.jsonl" && ((SECONDS - t0 < 5)) &&
		ok "--duration 1 --all-touch" || bad "--duration: exit $st"
	grep -q '"name":"Atmel maXTouch Touchscreen"' "$tmp/dur.jsonl" || bad "--all-touch missed the touchscreen"

	"$TOUCHTAPE" record -q --duration 0.5 'atmel maxtouch' -o "$tmp/pat.jsonl" &&
		grep -q '"name":"Atmel maXTouch Touchscreen"' "$tmp/pat.jsonl" && ok "name pattern" || bad "name pattern"
	"$TOUCHTAPE" record -q --duration 0.5 'No Such Device' -o "$tmp/none.jsonl" 2>"$tmp/none.err"
	[[ $? == 2 ]] && grep -q "no input device name matches" "$tmp/none.err" && ok "unknown pattern refused" ||
		bad "unknown pattern"
	"$TOUCHTAPE" record </dev/null >"$tmp/notty.out" 2>&1
	[[ $? == 2 ]] && grep -q "no terminal" "$tmp/notty.out" && ok "no device, no terminal: clear error" ||
		bad "no-terminal case: $(cat "$tmp/notty.out")"

	# --grab: list sees the grab, a second --grab is refused, and only
	# the grabbing recorder gets the events. A recorder does not try a
	# grab to find out (the moment it held one, every other reader of
	# the device would miss events): its record says nothing of it.
	start_rec "$tmp/grab.jsonl" --grab "$ldev"
	grabber=$recpid
	start_rec "$tmp/grabbed.jsonl" "$ldev"
	evemu-play "$ldev" <"$atmel_ev"
	settle "$tmp/grab.jsonl"
	"$TOUCHTAPE" list --json >"$tmp/grab-list.json"
	stop_rec
	"$py" -c 'import json, sys; d = [e for e in json.load(open(sys.argv[1])) if e.get("node") == sys.argv[2]]; sys.exit(not (d and d[0].get("grabbed_by_other") is True))' \
		"$tmp/grab-list.json" "$ldev" && ok "grab by another recorder shown by list" || bad "list: grab not shown"
	grep -q '"grabbed_by_other"' "$tmp/grabbed.jsonl" && bad "record probed for a grab"
	grep -q '"type":"frame"' "$tmp/grabbed.jsonl" && bad "grab: events reached the second recorder"
	"$TOUCHTAPE" record -q --grab --duration 0.5 "$ldev" -o "$tmp/grab2.jsonl" 2>"$tmp/grab2.err"
	[[ $? == 2 ]] && grep -q 'grabbed' "$tmp/grab2.err" && ok "--grab of a grabbed device refused" ||
		bad "second --grab: $(cat "$tmp/grab2.err")"
	recpid=$grabber
	stop_rec
	grep -q '"grabbed_by_other"' "$tmp/grab.jsonl" && bad "grab: own grab reported as another's"
	check_model "--grab" "$tmp/grab.jsonl" 0 "$atmel_ev"

	# --autorestart: one burst, a pause, another burst: two files.
	start_rec "$tmp/auto.jsonl" --autorestart 1 "$ldev"
	evemu-play "$ldev" <"$atmel_ev"
	sleep 2.5
	evemu-play "$ldev" <"$atmel_ev"
	settle "$tmp/auto.jsonl.1"
	stop_rec
	grep -q '"text":"inactivity"' "$tmp/auto.jsonl" && [[ -s "$tmp/auto.jsonl.1" ]] &&
		grep -q '"type":"frame"' "$tmp/auto.jsonl.1" && ok "--autorestart: FILE then FILE.1" ||
		bad "--autorestart: $(ls "$tmp"/auto.jsonl*)"
	validate "$tmp/auto.jsonl.1" "autorestart second file"

	# Write error: a full disk (a 64 KiB tmpfs).
	mkdir -p "$tmp/full" && mount -t tmpfs -o size=16k none "$tmp/full" && {
		"$TOUCHTAPE" record -q "$ldev" -o "$tmp/full/out.jsonl" 2>"$tmp/full.err" &
		wp=$!
		sleep 1
		for _ in $(seq 40); do [[ -d "/proc/$wp" ]] || break; evemu-play "$ldev" <"$atmel_ev"; done
		wait_for 20 test ! -d "/proc/$wp"
		wait "$wp"; st=$?
		[[ $st == 2 ]] && grep -q "No space left" "$tmp/full.err" && ok "disk full: reported, exit 2" ||
			bad "disk full: exit $st: $(cat "$tmp/full.err")"
		"$TOUCHTAPE" validate -q "$tmp/full/out.jsonl" >/dev/null 2>&1 &&
			ok "disk full: what was written validates" || bad "disk full: file invalid"
		umount "$tmp/full"
	}
	kill "$ldev_pid"; wait "$ldev_pid" 2>/dev/null
}

if ((failures)); then
	echo "$failures failure(s)"
	exit 1
fi
echo "PASS: vm-record"
