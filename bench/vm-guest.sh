#!/bin/bash
# Runs inside the VM (tests/vm/run), as root with real uinput: the replay
# timing benchmark. Each recording is replayed by touchtape replay,
# evemu-play and libinput replay, one after the other, while a second
# process (evemu-record) reads the device back; replay/tests/timing.py then
# compares the kernel timestamps of what it read with the recording:
# per-frame lateness (median, p99, max of |error|) and the drift at the end.
# All three replayers get the same description with fuzz 0, so the kernel
# drops only unchanged values and smooths nothing. Then the same again with
# a CPU hog on every core.
#   vm-guest.sh DIR NAME...   (DIR holds NAME.jsonl, NAME.evemu, NAME.yml)
# Writes DIR/timing.txt: "LOAD NAME TOOL: <timing.py line>".
set -u
dir=$1; shift
T=${TOUCHTAPE:?}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# Lateness and drift of each replay, from the frames read back
# (replay/tests/timing.py, shared with the replay test).
timing=$here/../replay/tests/timing.py
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
out=$dir/timing.txt
: >"$out"
fifos=$(mktemp -d /dev/shm/tt-bench.XXXXXX)

# udevd for libinput replay (it waits for its devices to be tagged).
for c in /lib/systemd/systemd-udevd /usr/lib/systemd/systemd-udevd; do
	[ -x "$c" ] && { pgrep -x systemd-udevd >/dev/null || "$c" --daemon >/dev/null 2>&1; break; }
done

# node_of NAME [SECONDS [PID]]: the event node of a device with exactly
# NAME; gives up early when PID (the replayer) has exited.
node_of() {
	local f end=$((SECONDS + ${2:-10}))
	# Bounded by time: under TCG each pass over sysfs is slow.
	while [ $SECONDS -lt $end ]; do
		[ -n "${3:-}" ] && ! kill -0 "$3" 2>/dev/null && break
		for f in /sys/class/input/event*/device/name; do
			[ "$(cat "$f" 2>/dev/null)" = "$1" ] || continue
			node=/dev/input/$(basename "$(dirname "$(dirname "$f")")")
			[ -c "$node" ] && return 0
		done
		sleep 0.05
	done
	node=""
	return 1
}
# The reader writes to the guest's tmpfs: line-buffered writes to the 9p
# share are slow enough under TCG to make evemu-record fall behind
# (SYN_DROPPED), which would measure the reader, not the replayer.
rec_back() { # NODE OUT: evemu-record in the background, $rpid
	recout=$2
	# Not holding the replayer's FIFO (fd 3) open: libinput replay asks
	# for Enter again after each pass and must see EOF to exit.
	stdbuf -oL evemu-record "$1" >"$fifos/rec.evemu" 2>/dev/null 3>&- &
	rpid=$!
	for i in $(seq 100); do grep -q '^N:' "$fifos/rec.evemu" 2>/dev/null && break; sleep 0.05; done
}
stop_rec() {
	sleep 0.3; kill -INT $rpid 2>/dev/null; wait $rpid 2>/dev/null
	cp "$fifos/rec.evemu" "$recout"
}

# play LOAD NAME TOOL: one replay, read back, timed.
play() {
	local load=$1 name=$2 tool=$3 key=$1-$2-$3 devname pid
	devname=$(sed -n 's/^N: //p' "$dir/$name.evemu" | head -1)
	rm -f "$fifos/$key"; mkfifo "$fifos/$key"
	case $tool in
	touchtape)
		$T replay --wait --exact --force --report "$dir/$key.json" "$dir/$name.jsonl" \
			<"$fifos/$key" >"$dir/$key.log" 2>&1 &
		pid=$!; exec 3>"$fifos/$key"
		node_of "touchtape replay: $devname" ;;
	evemu-play)
		evemu-device "$dir/$name.desc" >"$dir/$key.dev" 2>&1 &
		dpid=$!
		node_of "$devname" ;;
	libinput)
		# libinput replay as is, but its YAML loaded with libyaml's C
		# loader (pure Python takes minutes under TCG); the replay loop is
		# unchanged.
		$PY -c 'import runpy, sys, yaml
yaml.safe_load = lambda s: yaml.load(s, Loader=yaml.CSafeLoader)
sys.argv = ["libinput-replay"] + sys.argv[1:]
runpy.run_path("/usr/libexec/libinput/libinput-replay", run_name="__main__")' "$dir/$name.yml" \
			<"$fifos/$key" >"$dir/$key.log" 2>&1 &
		pid=$!; exec 3>"$fifos/$key"
		# It parses the YAML in Python first: minutes under TCG.
		node_of "$devname" 300 $pid ;;
	esac
	if [ -z "$node" ]; then
		echo "$load $name $tool: no device node" >>"$out"
		exec 3>&- 2>/dev/null; kill $pid ${dpid:-} 2>/dev/null; return
	fi
	rec_back "$node" "$dir/$key.evemu"
	case $tool in
	evemu-play)
		grep "^E:" "$dir/$name.evemu" | timeout 300 evemu-play "$node" >/dev/null 2>&1
		stop_rec; kill $dpid 2>/dev/null; wait $dpid 2>/dev/null ;;
	*)
		echo >&3; exec 3>&-
		wait $pid; stop_rec ;;
	esac
	printf '%s %s ' "$load" "$name" >>"$out"
	$PY "$timing" "$tool" "$dir/$name.evemu" "$dir/$key.evemu" 2>&1 | tr -d '\n' >>"$out"
	echo ", reader SYN_DROPPED $(grep -c '^E: [0-9.]* 0000 0003' "$dir/$key.evemu")" >>"$out"
}

# Recording flood: uinput-flood writes 4 ten-finger screens at RATE events/s
# in total (0: as fast as it can) for 2 s while one recorder records all
# four; then the recorder's CPU time and the SYN_DROPPED it saw.
# Writes DIR/flood.txt: "RECORDER RATE WRITTEN_EVENTS SECONDS CPU_TICKS DROPS
# WRITTEN_FRAMES RECORDED_FRAMES".
flood() { # RECORDER RATE
	local rec=$1 rate=$2 f=$fifos/flood pids=() nodes=() i sys n ticks=0 drops=0 p
	rm -f "$f" "$fifos"/rec.*; mkfifo "$f"
	"$dir/uinput-flood" 4 "$rate" 2 <"$f" >"$fifos/flood.out" 2>&1 &
	local fpid=$!
	exec 4>"$f"
	for i in $(seq 200); do [ "$(grep -c '^sys ' "$fifos/flood.out")" = 4 ] && break; sleep 0.05; done
	for sys in $(sed -n 's/^sys //p' "$fifos/flood.out"); do
		for i in $(seq 100); do n=$(ls -d "$sys"/event* 2>/dev/null | head -1); [ -n "$n" ] && [ -c "/dev/input/${n##*/}" ] && break; sleep 0.05; done
		nodes+=("/dev/input/${n##*/}")
	done
	case $rec in
	touchtape) $T record -q -o "$fifos/rec.jsonl" "${nodes[@]}" 2>/dev/null & pids+=($!) ;;
	evemu-record) for n in "${nodes[@]}"; do evemu-record "$n" >"$fifos/rec.${n##*/}" 2>/dev/null & pids+=($!); done ;;
	libinput) libinput record -o "$fifos/rec.yml" "${nodes[@]}" >/dev/null 2>&1 & pids+=($!) ;;
	esac
	sleep 1.5
	echo >&4
	for i in $(seq 600); do grep -q '^wrote' "$fifos/flood.out" && break; sleep 0.05; done
	sleep 1
	for p in "${pids[@]}"; do
		# libinput record runs as a child of its wrapper: count the whole tree.
		for q in $p $(pgrep -P $p); do
			set -- $(sed 's/^.*) //' /proc/$q/stat 2>/dev/null)
			[ $# -ge 13 ] && ticks=$((ticks + ${12} + ${13}))
		done
		kill -INT $p $(pgrep -P $p) 2>/dev/null
	done
	for p in "${pids[@]}"; do wait $p 2>/dev/null; done
	echo >&4; exec 4>&-
	wait $fpid
	# SYN_DROPPED seen, and frames that reached the file (lost frames show
	# even where a recorder does not write SYN_DROPPED out).
	local got=0
	case $rec in
	touchtape) drops=$(grep -c '"dropped":true' "$fifos/rec.jsonl")
		got=$(grep -c '"type":"frame"' "$fifos/rec.jsonl") ;;
	evemu-record) drops=$(cat "$fifos"/rec.event* | grep -c '^E: [0-9.]* 0000 0003')
		got=$(cat "$fifos"/rec.event* | grep -c '^E: [0-9.]* 0000 0000') ;;
	libinput) drops=$(grep -c 'SYN_DROPPED' "$fifos/rec.yml")
		got=$(grep -c 'SYN_REPORT' "$fifos/rec.yml") ;;
	esac
	set -- $(sed -n 's/^wrote \([0-9]*\) events in \([0-9.]*\) s.*, \([0-9]*\) frames$/\1 \2 \3/p' "$fifos/flood.out")
	echo "$rec $rate ${1:-0} ${2:-0} $ticks $drops ${3:-0} $got" >>"$dir/flood.txt"
}
if [ -x "$dir/uinput-flood" ] && [ "${BENCH_VM_FLOOD:-1}" = 1 ]; then
	: >"$dir/flood.txt"
	for rate in 25000 100000 400000 0; do
		for rec in touchtape evemu-record libinput; do flood $rec $rate; done
	done
	echo "CLK_TCK $(getconf CLK_TCK)" >>"$dir/flood.txt"
	cat "$dir/flood.txt"
fi
# HID replay timing: touchtape replay --hid and hid-tools' hid-replay (from
# $HID_TOOLS, a copy of its source; n/a without it) replay the same
# hid-recorder file ($BENCH_HID_FILE) through uhid, one after the other,
# while hid-timing.py reads the device's hidraw node: every report either
# sends arrives there, one read each. Writes DIR/hid-timing.txt:
# "TOOL: <hid-timing.py line>".
# hidraw_of NAME SECONDS: $hnode, the hidraw node of a HID device NAME.
hidraw_of() {
	local end=$((SECONDS + $2)) f
	hnode=""
	while [ $SECONDS -lt $end ]; do
		for f in /sys/class/hidraw/hidraw*/device/uevent; do
			grep -qx "HID_NAME=$1" "$f" 2>/dev/null || continue
			hnode=/dev/$(basename "$(dirname "$(dirname "$f")")")
			[ -c "$hnode" ] && return 0
		done
		sleep 0.05
	done
	return 1
}
hid_play() { # TOOL
	local tool=$1 key=hid-$1 f=$BENCH_HID_FILE name count pid rpid i
	name=$(sed -n 's/^N: *//p' "$f" | head -1)
	count=$(grep -c '^E:' "$f")
	rm -f "$fifos/$key" "$fifos/$key".*; mkfifo "$fifos/$key"
	case $tool in
	touchtape)
		$T replay --hid --wait --max-gap 2s "$f" <"$fifos/$key" >"$dir/$key.log" 2>&1 & ;;
	hid-replay)
		# hid-replay's own classes and replay loop (inject_events), one
		# pass, started by a file instead of Enter.
		PYTHONPATH=$HID_TOOLS $PY -c 'import os, sys, time
from hidtools.cli.replay import HIDReplay
with HIDReplay(sys.argv[1]) as r:
    while not os.path.exists(sys.argv[2]):
        time.sleep(0.01)
    r.inject_events()' "$f" "$fifos/$key.go" <"$fifos/$key" >"$dir/$key.log" 2>&1 & ;;
	esac
	pid=$!; exec 3>"$fifos/$key"
	# Importing hid-tools (pyroute2) takes minutes under TCG.
	if ! hidraw_of "$name" 600; then
		echo "$tool: no hidraw node" >>"$hout"; exec 3>&-; kill $pid; wait $pid; return
	fi
	$PY "$here/hid-timing.py" read "$hnode" "$count" "$fifos/$key.read" "$fifos/$key.ready" &
	rpid=$!
	for i in $(seq 600); do [ -e "$fifos/$key.ready" ] && break; sleep 0.05; done
	echo >&3; exec 3>&-
	touch "$fifos/$key.go"
	wait $pid
	for i in $(seq 100); do kill -0 $rpid 2>/dev/null || break; sleep 0.1; done
	kill $rpid 2>/dev/null; wait $rpid 2>/dev/null
	$PY "$here/hid-timing.py" score "$tool" "$f" "$fifos/$key.read" >>"$hout" 2>&1
}
if [ "${BENCH_VM_HID:-1}" = 1 ] && [ -r "${BENCH_HID_FILE:-}" ]; then
	hout=$dir/hid-timing.txt
	: >"$hout"
	modprobe -a uhid hid-multitouch wacom hid-generic
	hid_play touchtape
	if [ -x "${HID_TOOLS:-}/hid-replay" ]; then hid_play hid-replay; else echo "hid-replay: n/a (no HID_TOOLS)" >>"$hout"; fi
	cat "$hout"
fi
[ "${BENCH_VM_REPLAY:-1}" = 1 ] || exit 0

for name in "$@"; do
	# evemu-device reads the description only.
	grep -v '^E:' "$dir/$name.evemu" >"$dir/$name.desc"
done
for load in idle loaded; do
	hogs=()
	if [ $load = loaded ]; then
		for c in $(seq "$(nproc)"); do sh -c 'while :; do :; done' & hogs+=($!); done
	fi
	for name in "$@"; do
		tools="touchtape evemu-play libinput"
		[ $load = loaded ] && tools=${BENCH_VM_LOADED_TOOLS:-$tools}
		for tool in $tools; do
			play $load "$name" $tool
		done
	done
	[ ${#hogs[@]} -gt 0 ] && kill "${hogs[@]}"
	[ "${BENCH_VM_LOAD:-1}" = 1 ] || break
done
cat "$out"
exit 0
