#!/bin/bash
# touchtape record's chain options on the host: their usage errors, and
# the clients they set up on Xvfb (a native X server without touch
# devices: the grabs, nested windows and the pointer grab are made, no
# touch comes). The touches themselves: xi-chain-vm.sh.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}/tests/lib.sh"

expect_exit 2 "five --xi-grab" -- "$TOUCHTAPE" record --xi-grab=accept --xi-grab=accept \
	--xi-grab=accept --xi-grab=accept --xi-grab=accept -o "$tmp/x.jsonl"
expect_grep 'more than 4 times' "$tmp/err" "five --xi-grab: says the limit"
expect_exit 2 "a bad --xi-pointer-grab" -- "$TOUCHTAPE" record --xi-pointer-grab=grab -o "$tmp/x.jsonl"
expect_grep 'sync, async or select' "$tmp/err" "a bad --xi-pointer-grab: names the modes"

command -v Xvfb >/dev/null || { echo "FAIL: Xvfb is missing (./bootstrap installs it)" >&2; exit 1; }
Xvfb -displayfd 3 -nolisten tcp -screen 0 640x480x24 3>"$tmp/xvfb.display" >"$tmp/xvfb.log" 2>&1 &
xvfb_pid=$!
trap 'kill "$xvfb_pid" 2>/dev/null; wait "$xvfb_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do grep -q '[0-9]' "$tmp/xvfb.display" && break; sleep 0.1; done
display=":$(head -n1 "$tmp/xvfb.display")"

expect_exit 0 "a three-stage chain, a window and a sync pointer grab on Xvfb" -- "$TOUCHTAPE" record \
	--xi="$display" --xi-grab=reject-after=30 --xi-grab=accept --xi-grab=reject --xi-window \
	--xi-pointer-grab=sync --duration 1 -q -o "$tmp/chain.jsonl"
expect_grep '"kind":"x-connected".*clients: observer, grab1 \(rejects each touch after 30000 us\), grab2 \(accepts each touch at its begin\), grab3 \(rejects each touch at its begin\), window, pointer \(sync grab\)' \
	"$tmp/chain.jsonl" "the marker names the chain outermost first"
expect_grep '"xi":"GrabDevice".*"client":"pointer".*"detail":0' "$tmp/chain.jsonl" "the sync XIGrabDevice is a record"
expect_grep '"xi":"AllowEvents".*"client":"pointer".*"detail":1' "$tmp/chain.jsonl" \
	"the sync grab's first XIAllowEvents(XISyncDevice) is a record"
expect_exit 0 "the chain's file validates" -- "$TOUCHTAPE" validate "$tmp/chain.jsonl"

expect_exit 0 "a single grab and a pointer selection on Xvfb" -- "$TOUCHTAPE" record \
	--xi="$display" --xi-grab=reject --xi-pointer-grab=select --duration 1 -q -o "$tmp/one.jsonl"
expect_grep 'clients: observer, grab \(rejects each touch at its begin\), pointer \(selection\)' \
	"$tmp/one.jsonl" "a single grab keeps the name grab"
if grep -q '"xi":"GrabDevice"' "$tmp/one.jsonl"; then fail "a pointer selection sent XIGrabDevice"; else
	pass "a pointer selection grabs nothing"; fi
finish
