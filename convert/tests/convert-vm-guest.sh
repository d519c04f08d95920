#!/bin/bash
# Runs inside the VM rig (convert/tests/convert-libinput.sh starts it): for each
# corpus recording given, creates its device through uinput, replays its
# events with evemu-play, and records them at the same time with
# `libinput record` and evemu-record. Then replays the touchtape
# conversions of recordings with `touchtape replay --verify`.
#
#	convert-vm-guest.sh OUTDIR EVEMU-FILE...
#
# Writes OUTDIR/N.yml, OUTDIR/N.evemu for each file, and replays every
# OUTDIR/replay-* file into replay-*.out and replay-*.status; the host
# side asserts on them.
set -u
# Job control: background jobs then take SIGINT (a non-interactive shell
# would start them with SIGINT ignored, and the recorders stop on SIGINT).
set -m
out=$1
shift
tmp=$(mktemp -d)

wait_for() {
	local limit="$1" t0=$SECONDS
	shift
	until "$@"; do
		((SECONDS - t0 < limit)) || return 1
		sleep 0.05
	done
}

n=0
for f in "$@"; do
	n=$((n + 1))
	: >"$tmp/dev.out"
	evemu-device "$f" >"$tmp/dev.out" 2>&1 &
	devpid=$!
	node=""
	ready() { node=$(grep -o '/dev/input/event[0-9]*' "$tmp/dev.out" | head -n1); [[ -n "$node" && -c "$node" ]]; }
	if ! wait_for 15 ready; then
		echo "no device for $f: $(cat "$tmp/dev.out")" >"$out/$n.error"
		kill "$devpid" 2>/dev/null
		continue
	fi
	libinput record -o "$out/$n.yml" "$node" >"$tmp/li.out" 2>&1 &
	lipid=$!
	stdbuf -oL evemu-record "$node" >"$out/$n.evemu" 2>/dev/null &
	evpid=$!
	# Both are reading once their descriptions are out.
	wait_for 10 grep -q '^N:' "$out/$n.evemu"
	wait_for 10 grep -q 'events:' "$out/$n.yml"
	sleep 0.3
	evemu-play "$node" <"$f" || echo "evemu-play failed" >>"$out/$n.error"
	# The emulated CPU is slow: let the recorders catch up (their
	# output stops growing) before stopping them.
	last=""
	settled() {
		local now
		now=$(stat -c %s "$out/$n.yml" "$out/$n.evemu" | tr '\n' ' ')
		[[ "$now" == "$last" ]] && return 0
		last=$now
		sleep 1
		return 1
	}
	wait_for 60 settled
	kill -INT "$lipid" "$evpid" 2>/dev/null
	stopped() { ! kill -0 "$lipid" 2>/dev/null && ! kill -0 "$evpid" 2>/dev/null; }
	if ! wait_for 30 stopped; then
		kill -0 "$lipid" 2>/dev/null && echo "libinput record did not stop on SIGINT" >>"$out/$n.error"
		kill -0 "$evpid" 2>/dev/null && echo "evemu-record did not stop on SIGINT" >>"$out/$n.error"
		kill -KILL "$lipid" "$evpid" 2>/dev/null
	fi
	wait "$lipid" "$evpid" 2>/dev/null
	kill "$devpid" 2>/dev/null
	wait "$devpid" 2>/dev/null
	cp "$tmp/li.out" "$out/$n.libinput-log"
done

# The converted recordings replay and the kernel delivers what they hold:
# every OUTDIR/replay-* file, in whatever format touchtape reads.
for rf in "$out"/replay-*; do
	[[ -x "${TOUCHTAPE:-}" && -s "$rf" && "$rf" != *.out && "$rf" != *.status ]] || continue
	"$TOUCHTAPE" replay --verify "$rf" >"$rf.out" 2>&1
	echo $? >"$rf.status"
done
exit 0
