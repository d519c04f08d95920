#!/bin/bash
# The VM part of `make demo` (runs as root in the guest, DISPLAY set by
# tests/vm/run --xorg): replay the sample through uinput and record its
# kernel frames and the X server's touch events with an ownership scenario.
set -euo pipefail
tt=$TOUCHTAPE
rec="$TT_DEMO_OUT/demo-recording.jsonl"

# The replayed device exists from the start; playing begins 2.5 s later,
# which gives the X server time to hot-add it and the recorder time to
# start.
"$tt" replay --start-delay 2.5 "$TT_DEMO_SAMPLE" > "$TT_DEMO_OUT/replay.log" 2>&1 &
replay=$!
# Wait for the device rather than guess: a loaded host runs the VM slowly.
# (grep without -q reads all of list's output: with pipefail, a list cut
# short by grep -q would count as failing.)
for _ in $(seq 200); do
	"$tt" list 2>/dev/null | grep "touchtape replay:" >/dev/null && break
	sleep 0.05
done
# --force: the demo's own file from a previous `make demo` is replaced.
"$tt" record --force --xi --xi-grab=reject-after=50 --xi-window -o "$rec" 'touchtape replay:*' &
record=$!
wait "$replay"
sleep 0.5
kill -INT "$record" 2>/dev/null || true	# it may have ended with its device
wait "$record" || true
cat "$TT_DEMO_OUT/replay.log"
echo "demo: recorded $(wc -l < "$rec") records"
