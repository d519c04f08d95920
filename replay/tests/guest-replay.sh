#!/bin/bash
# Runs inside the VM (tests/vm/run), as root with real uinput: every replay
# scenario of vm-replay.sh in one boot. Writes "key value" lines to
# $1/results and the logs next to it; vm-replay.sh asserts on them.
#   guest-replay.sh DIR   (DIR holds the *.jsonl prepared by vm-replay.sh)
set -u
dir=$1
T=${TOUCHTAPE:?}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The system python: a pyenv shim may not see the guest's /dev.
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
res=$dir/results
# FIFOs and flags live in the guest's own tmpfs: a FIFO on the 9p share
# never connects its two ends.
fifos=$(mktemp -d /dev/shm/tt-replay.XXXXXX)
: >"$res"
put() { echo "$*" >>"$res"; }

# wait_node LOG: the node the replay printed for device 0.
wait_node() {
	local i
	for i in $(seq 200); do
		node=$(grep -o '/dev/input/event[0-9]*' "$1" | head -n1)
		[ -n "$node" ] && [ -c "$node" ] && return 0
		sleep 0.05
	done
	return 1
}

# 1. --verify on the corpus, default fuzz and --exact: zero unexplained.
for name in ntrig atmel synaptics wacom 3m; do
	for mode in fuzz exact; do
		# synaptics --exact is verified by the timing run below.
		[ $name-$mode = synaptics-exact ] && continue
		flag=; [ $mode = exact ] && flag=--exact
		$T replay --verify $flag --report "$dir/$name-$mode.json" "$dir/$name.jsonl" \
			>"$dir/$name-$mode.log" 2>&1
		put "verify-$name-$mode-exit $?"
	done
done

# watched KEY ARGS...: runs "touchtape replay --wait ARGS" with a second,
# independent reader (evstate.py) on its node; Enter is only sent once the
# reader has the node open, so it sees every frame. Sets $pid; the reader's
# findings go to $dir/KEY.state when it ends (the device is destroyed).
watched() {
	local key=$1 i
	shift
	mkfifo "$fifos/$key"
	$T replay --wait "$@" <"$fifos/$key" >"$dir/$key.log" 2>&1 &
	pid=$!
	exec 3>"$fifos/$key"
	if ! wait_node "$dir/$key.log"; then
		put "$key-exit no-node"; exec 3>&-; return 1
	fi
	$PY "$here/evstate.py" "$node" "$fifos/$key.ready" >"$dir/$key.state" &
	spid=$!
	for i in $(seq 400); do [ -e "$fifos/$key.ready" ] && break; sleep 0.05; done
	echo >&3
	exec 3>&-
}
collect() { # KEY: after the replay ended
	wait $spid
	sed "s/=/ /; s/^/$1-/" "$dir/$1.state" >>"$res"
}

# 2. SIGINT while ten fingers are down (3M from 17 s: the preparation frame
# puts them down), seen by the independent reader until the device is gone.
if watched sigint --from 17s --to 19s "$dir/3m.jsonl"; then
	sleep 1
	kill -INT $pid
	wait $pid; put "sigint-exit $?"
	collect sigint
fi

# 3. SIGTERM and SIGHUP during an endless loop.
for sig in TERM HUP; do
	if watched sig$sig --loop 0 "$dir/atmel.jsonl"; then
		sleep 1.3
		kill -$sig $pid
		wait $pid; put "sig$sig-exit $?"
		collect sig$sig
	fi
done

# 4. --loop 3 with neutral state between loops, verified and counted.
if watched loop --loop 3 --verify "$dir/atmel.jsonl"; then
	wait $pid; put "loop-exit $?"
	collect loop
fi

# 5. A recording that starts mid-touch (4 fingers down at time 0).
if watched mid --verify "$dir/mid.jsonl"; then
	wait $pid; put "mid-exit $?"
	collect mid
fi

# 6. Timing against the recording, read back by evemu-record, beside
# evemu-play on the same recording (both with fuzz 0, so the kernel only
# drops, never smooths). touchtape first, then evemu.
rec_back() { # NODE OUT: evemu-record in the background, $rpid
	stdbuf -oL evemu-record "$1" >"$2" 2>/dev/null &
	rpid=$!
	for i in $(seq 100); do grep -q '^N:' "$2" 2>/dev/null && break; sleep 0.05; done
}
for name in synaptics; do
	mkfifo "$fifos/timing"
	$T replay --wait --exact --verify --report "$dir/timing-$name-tt.json" "$dir/$name.jsonl" \
		<"$fifos/timing" >"$dir/timing-$name-tt.log" 2>&1 &
	pid=$!
	exec 3>"$fifos/timing"
	wait_node "$dir/timing-$name-tt.log" && rec_back "$node" "$dir/timing-$name-tt.evemu"
	echo >&3; exec 3>&-
	wait $pid; put "verify-$name-exact-exit $?"
	cp "$dir/timing-$name-tt.log" "$dir/$name-exact.log"
	cp "$dir/timing-$name-tt.json" "$dir/$name-exact.json"
	sleep 0.2; kill -INT $rpid 2>/dev/null; wait $rpid 2>/dev/null
	$PY "$here/timing.py" touchtape "$dir/$name.event" "$dir/timing-$name-tt.evemu" >>"$dir/timing.txt" 2>&1

	awk '/^A:/ { $5 = 0 } { print }' "$dir/$name.desc.in" | grep -v '^E:' >"$dir/$name.desc"
	evemu-device "$dir/$name.desc" >"$dir/evemu-device.out" 2>&1 &
	dpid=$!
	for i in $(seq 200); do
		enode=$(grep -o '/dev/input/event[0-9]*' "$dir/evemu-device.out" | head -n1)
		[ -n "$enode" ] && [ -c "$enode" ] && break
		sleep 0.05
	done
	rec_back "$enode" "$dir/timing-$name-evemu.evemu"
	timeout 120 evemu-play "$enode" <"$dir/$name.event" >/dev/null 2>&1
	sleep 0.2; kill -INT $rpid 2>/dev/null; wait $rpid 2>/dev/null
	kill $dpid 2>/dev/null; wait $dpid 2>/dev/null
	$PY "$here/timing.py" evemu-play "$dir/$name.event" "$dir/timing-$name-evemu.evemu" >>"$dir/timing.txt" 2>&1
done
cat "$dir/timing.txt"
exit 0
