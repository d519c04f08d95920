#!/bin/bash
# VM smoke test: a uinput touchscreen (tests/vm/data/touchscreen.desc) gets a
# two-finger sequence (evemu-play) that evemu-record reads back through evdev;
# the recording must equal tests/vm/data/two-finger.expected, which is the
# injected sequence less what the kernel filters (a leading ABS_MT_SLOT 0,
# repeated values, frames left empty).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
vm_reexec "${BASH_SOURCE[0]}" --timeout 90

make_touchscreen "$vm_data/touchscreen.desc"

stdbuf -oL evemu-record "$node" >"$tmp/rec" 2>"$tmp/rec.err" &
recpid=$!
# Once the description is out, the device is open: no event can be missed.
wait_for 10 grep -q '^N:' "$tmp/rec" || fail "evemu-record did not start: $(cat "$tmp/rec.err")"

evemu-play "$node" <"$vm_data/two-finger.events" || fail "evemu-play failed"
# The last injected event is BTN_TOUCH 0: wait for it to be recorded.
last_seen() { grep -q '^E: [0-9.]* 0001 014a 0*0\b' "$tmp/rec"; }
wait_for 10 last_seen || note "BTN_TOUCH 0 not recorded within 10 s"
kill "$recpid" 2>/dev/null || true
wait "$recpid" 2>/dev/null || true

# "E: TIME TYPE CODE VALUE" -> "TYPE CODE VALUE" (value as a plain integer).
grep '^E:' "$tmp/rec" | awk '{ print $3, $4, $5 + 0 }' >"$tmp/got"
if ! diff -u "$vm_data/two-finger.expected" "$tmp/got" >"$tmp/diff"; then
	cat "$tmp/diff"
	fail "recorded events differ from two-finger.expected"
fi
# Spell out the key facts too, so a changed expectation file cannot hide them.
grep -qx '0003 0039 11' "$tmp/got" || fail "tracking id 11 missing"
grep -qx '0003 0039 22' "$tmp/got" || fail "tracking id 22 missing"
grep -qx '0003 0035 1000' "$tmp/got" && grep -qx '0003 0036 1500' "$tmp/got" || fail "finger A position missing"
grep -qx '0003 0035 3000' "$tmp/got" && grep -qx '0003 0036 2500' "$tmp/got" || fail "finger B position missing"
[[ "$(grep -c '^0003 0039 -1$' "$tmp/got")" == 2 ]] || fail "expected two tracking id -1 (touch end)"
[[ "$(grep '^0001 014a ' "$tmp/got" | awk '{ print $3 }' | tr '\n' ' ')" == "1 0 " ]] || fail "BTN_TOUCH not 1 then 0"
# Kernel filtering, explicitly: no leading slot 0, 7 frames injected, 6 arrive.
[[ "$(head -n1 "$tmp/got")" == "0003 0039 11" ]] || fail "first event should be tracking id 11 (leading ABS_MT_SLOT 0 dropped)"
[[ "$(grep -c '^0000 0000 0$' "$tmp/got")" == 6 ]] || fail "expected 6 SYN_REPORTs (the all-repeat frame is dropped)"
kill "$devpid" 2>/dev/null || true
echo "PASS: smoke-uinput: $(wc -l <"$tmp/got") events recorded as expected"
