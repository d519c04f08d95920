#!/bin/bash
# VM smoke test with Xorg (tests/vm/run --xorg): a uinput touchscreen created
# after X started is hot-added; injected touches must show up as XI 2.2
# TouchBegin/Update/End and RawTouchBegin (xinput test-xi2 --root), and a
# client holding a passive touch grab on the root window that rejects each
# touch must hand ownership to a client selecting TouchOwnership
# (tests/vm/xi-ownership-probe).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

vm_xi_probe
if [[ "${TT_VM_GUEST:-}" != 1 ]]; then
	rc=0
	(vm_reexec "${BASH_SOURCE[0]}" --xorg --timeout 120) || rc=$?
	exit "$rc"
fi

[[ -n "${DISPLAY:-}" ]] || fail "DISPLAY not set: Xorg not started"
make_touchscreen "$vm_data/touchscreen.desc"
name="touchtape VM test touchscreen"
in_x() { xinput list --name-only | grep -qx "$name"; }
wait_for 15 in_x || { xinput list; fail "the touchscreen was not hot-added to X"; }
xinput list --long "$name" | grep -q 'Touch mode: direct' || fail "not an XI direct touch device"

# 1. plain XI 2.2 touch events and raw events on the root window
stdbuf -oL xinput test-xi2 --root >"$tmp/xi2" 2>&1 &
xipid=$!
# test-xi2 prints nothing until events come, so when it has selected them
# shows only in what it prints: play until the touches end there (a loaded
# host can take seconds to start it).
ends() { [[ "$(grep -c '(TouchEnd)' "$tmp/xi2")" -ge 2 ]]; }
for try in 1 2 3 4 5; do
	evemu-play "$node" <"$vm_data/two-finger.events" || fail "evemu-play failed"
	wait_for 4 ends && break
	note "fewer than 2 TouchEnd within 4 s of play $try"
done
kill "$xipid" 2>/dev/null || true
wait "$xipid" 2>/dev/null || true
for ev in TouchBegin TouchUpdate TouchEnd RawTouchBegin; do
	grep -q "EVENT type [0-9]* ($ev)" "$tmp/xi2" || { tail -n 40 "$tmp/xi2"; fail "no $ev from xinput test-xi2"; }
done
note "test-xi2: $(grep -o 'EVENT type [0-9]* ([A-Za-z]*)' "$tmp/xi2" | sort | uniq -c | awk '{ printf "%s%s=%s", sep, $5, $1; sep = " " }')"

# 2. touch ownership: grab + reject, listener gets TouchOwnership
"$probe" -t 30 -n 2 >"$tmp/probe" 2>&1 &
ppid_=$!
wait_for 10 grep -q '^ready$' "$tmp/probe" || { cat "$tmp/probe"; fail "xi-ownership-probe did not get ready"; }
evemu-play "$node" <"$vm_data/two-finger.events" || fail "evemu-play failed"
prc=0
wait "$ppid_" || prc=$?
sed 's/^/  probe: /' "$tmp/probe"
((prc == 0)) || fail "xi-ownership-probe exited with $prc"
touches="$(sed -n 's/^listener TouchBegin touch=\([0-9]*\).*/\1/p' "$tmp/probe")"
[[ "$(wc -w <<<"$touches")" == 2 ]] || fail "listener should see 2 TouchBegin"
for t in $touches; do
	r="$(grep -n "^grabber reject touch=$t\$" "$tmp/probe" | cut -d: -f1 | head -n1)"
	o="$(grep -n "^listener TouchOwnership touch=$t\$" "$tmp/probe" | cut -d: -f1 | head -n1)"
	[[ -n "$r" ]] || fail "grabber did not reject touch $t"
	[[ -n "$o" ]] || fail "no TouchOwnership for touch $t"
	((o > r)) || fail "TouchOwnership for touch $t came before the reject"
	grep -q "^listener TouchEnd touch=$t " "$tmp/probe" || fail "no TouchEnd for touch $t"
done
kill "$devpid" 2>/dev/null || true
echo "PASS: smoke-xorg: touch events, raw events and TouchOwnership after reject"
