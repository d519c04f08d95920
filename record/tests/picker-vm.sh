#!/bin/bash
# touchtape record without DEVICE on a terminal: it lists the devices and
# records the ones picked (by number, or 't' for every touch device). The
# terminal is a pty from script(1); the answer comes on its input.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../tests/vm/lib.sh"
: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
export TOUCHTAPE
vm_reexec "${BASH_SOURCE[0]}" --timeout 90

make_touchscreen "$vm_data/touchscreen.desc"
status=0
for answer in t "$(printf '1\n')"; do
	rm -f "$tmp/picked.jsonl"
	# script gives the recorder a terminal on stdin and stderr; the
	# answer is typed when it asks, then touches arrive.
	( sleep 1.5; printf '%s\n' "$answer"; sleep 1; evemu-play "$node" <"$vm_data/two-finger.events"; sleep 3 ) |
		script -qec "exec '$TOUCHTAPE' record --duration 4 -o '$tmp/picked.jsonl'" /dev/null >"$tmp/term.out" 2>&1 || true
	if ! grep -q 'Record which?' "$tmp/term.out"; then
		echo "FAIL: no question on the terminal for answer '$answer'" >&2; cat "$tmp/term.out" >&2; status=1; continue
	fi
	if [ -s "$tmp/picked.jsonl" ] && grep -q '"type":"device"' "$tmp/picked.jsonl" &&
	   grep -q '"type":"frame"' "$tmp/picked.jsonl" && "$TOUCHTAPE" validate -q "$tmp/picked.jsonl" >/dev/null; then
		note "ok: answer '$answer' recorded $(grep -c '"type":"frame"' "$tmp/picked.jsonl") frames"
	else
		echo "FAIL: answer '$answer' gave no valid recording" >&2; cat "$tmp/term.out" >&2; status=1
	fi
done
kill "$devpid" 2>/dev/null || true
exit $status
