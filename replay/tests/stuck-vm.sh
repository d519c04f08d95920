#!/bin/bash
# No stuck state after touchtape replay is stopped, in the VM rig: a
# touchscreen (samples/3m-two-finger.jsonl) and a touchpad
# (samples/touchpad-two-finger-swipe.jsonl) are replayed side by side in a
# loop and stopped by SIGINT, SIGTERM or SIGHUP at random moments, five
# times per signal. A second reader of each device (evstate.py, independent
# of touchtape) must see no slot active, BTN_TOUCH up and no key or button
# down when the device goes away; the exit status is 128+N; the device is
# gone from /dev/input and /proc/bus/input/devices. The replay runs under
# ASan+UBSan+LeakSanitizer when touchtape-san is built: no report allowed.
# TT_STUCK_SEED=N repeats a run (the seed is printed).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -uo pipefail
. "${abs_top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}/tests/vm/lib.sh"

: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
vm_enter "$TOUCHTAPE" "build touchtape first" "${BASH_SOURCE[0]}" --timeout 480

T=$TOUCHTAPE
[[ -x "${TOUCHTAPE_SAN:-}" ]] && { T=$TOUCHTAPE_SAN; vm_san_env; }
here="$abs_top_srcdir/replay/tests"
samples="$abs_top_srcdir/samples"
# The system python: a pyenv shim may not see the guest's /dev.
PY=/usr/bin/python3
[[ -x $PY ]] || PY=python3
# FIFOs live in the guest's own tmpfs: on the 9p share they never connect.
fifos=$(mktemp -d /dev/shm/tt-stuck.XXXXXX)
seed=${TT_STUCK_SEED:-$$}
RANDOM=$seed
note "seed $seed, replaying with $(basename "$T")"
failures=0
bad() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }
ok() { printf 'ok: %s\n' "$*"; }

declare -A sample=([ts]="$samples/3m-two-finger.jsonl" [tp]="$samples/touchpad-two-finger-swipe.jsonl")
declare -A pid node spid fd
down_at_kill=0
total=0

# start KEY RUN: replay --wait --loop 0 of sample KEY (it starts playing
# when round sends Enter); reader KEY RUN: the second reader on its node.
start() {
	local key=$1 run=$2 f=$fifos/$1-$2 n
	mkfifo "$f"
	exec {n}<>"$f"	# read-write: opening it does not block
	fd[$key]=$n
	"$T" replay --wait --loop 0 "${sample[$key]}" <"$f" >"$tmp/$key-$run.log" 2>&1 {n}>&- &
	pid[$key]=$!
}
reader() {
	local key=$1 run=$2 f=$fifos/$1-$2 log=$tmp/$1-$2.log n=${fd[$1]}
	_node() {
		node[$key]=$(grep -o '/dev/input/event[0-9]*' "$log" | head -n1)
		[[ -n "${node[$key]}" && -c "${node[$key]}" ]]
	}
	wait_for 30 _node || { bad "$key-$run: no device: $(cat "$log")"; return 1; }
	# -I -S: no site packages, half a second less to start under TCG.
	"$PY" -I -S "$here/evstate.py" "${node[$key]}" "$f.ready" >"$tmp/$key-$run.state" {n}>&- &
	spid[$key]=$!
}

# round SIG RUN: both samples, each stopped by SIG after its own random
# 0.1-2.6 s of playing (the touchscreen sample is 2.5 s long, the
# touchpad's 0.8 s, both looped).
round() {
	local sig=$1 run=$2 key ms rc n want=$((128 + $(kill -l "$1")))
	local -A killer after
	start ts "$run"
	start tp "$run"
	reader ts "$run" && reader tp "$run" || return
	for key in ts tp; do
		wait_for 30 test -e "$fifos/$key-$run.ready" || { bad "$key-$run: the reader did not start"; return; }
	done
	for key in ts tp; do
		ms=$((100 + RANDOM % 2500))
		after[$key]=$ms
		n=${fd[$key]}
		echo >&"$n"
		exec {n}>&-
		(sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"; kill -"$sig" "${pid[$key]}") &
		killer[$key]=$!
	done
	for key in ts tp; do
		local what="$key-$run (SIG$sig planned at ${after[$key]} ms)"
		wait "${killer[$key]}"
		rc=0
		wait "${pid[$key]}" || rc=$?
		[[ $rc == "$want" ]] || bad "$what: exit $rc, want $want: $(tail -n 5 "$tmp/$key-$run.log")"
		# The reader ends when the device is destroyed; it must.
		wait_for 10 test ! -d "/proc/${spid[$key]}" ||
			{ bad "$what: the device outlived the replay"; kill "${spid[$key]}"; }
		wait "${spid[$key]}"
		local st=$tmp/$key-$run.state
		val() { sed -n "s/^$1=//p" "$st"; }
		if [[ "$(val active_at_end)" == 0 && "$(val btn_touch_at_end)" == 0 &&
			"$(val keys_down_at_end)" == 0 ]]; then
			ok "$what: $(val frames) frames, $(val active_before_last_frame) touches down at the stop, none after"
		else
			bad "$what: stuck: $(tr '\n' ' ' <"$st")"
			sed 's/^/  | /' "$tmp/$key-$run.log"
		fi
		total=$((total + 1))
		(($(val active_before_last_frame) > 0)) && down_at_kill=$((down_at_kill + 1))
		gone() { [[ ! -e "${node[$key]}" ]]; }
		wait_for 10 gone || bad "$what: ${node[$key]} still exists"
		if grep -qi "uncaught\|runtime error:\|Sanitizer" "$tmp/$key-$run.log"; then
			bad "$what: sanitizer report:"
			sed 's/^/  | /' "$tmp/$key-$run.log" | head -40
		fi
	done
	no_replay_devices() { ! grep -q '^N: Name="touchtape replay: ' /proc/bus/input/devices; }
	wait_for 10 no_replay_devices ||
		bad "run $run: still in /proc/bus/input/devices: $(grep '^N: Name="touchtape replay: ' /proc/bus/input/devices)"
}

run=0
for sig in INT TERM HUP; do
	for _ in 1 2 3 4 5; do
		run=$((run + 1))
		t0=$SECONDS
		round "$sig" "$run"
		note "round $run: $((SECONDS - t0)) s"
	done
done
# The kills must have caught touches down often enough to mean something
# (both samples have fingers down most of the time).
((total == 30)) || bad "only $total of 30 replays ran"
((down_at_kill >= 10)) && ok "$down_at_kill of $total stops came with touches down" ||
	bad "only $down_at_kill of $total stops came with touches down"
if ((failures)); then
	echo "$failures failure(s)"
	exit 1
fi
echo "PASS: no stuck state after SIGINT, SIGTERM, SIGHUP"
