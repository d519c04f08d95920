#!/bin/bash
# touchtape record --xi refuses the X servers it cannot record from, on the
# host (no kernel device is needed):
#   1. Xwayland, started by weston's headless backend: its input devices are
#      the compositor's seat, not the kernel's;
#   2. a server without the XInput extension, and ones offering only XI 2.0
#      or 2.1 (no touch events): Debian's X servers cannot be made to lack
#      XInput (-extension XInputExtension is refused) and all offer XI 2.4,
#      so these are record/tests/xi-fake-server.py, a protocol fixture that
#      answers the connection setup and the version queries only;
# and, as controls, records from Xvfb (a native X server) and gets past the
# version check of the fixture offering XI 2.2.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}/tests/lib.sh"
here="$abs_top_srcdir/record/tests"

for tool in weston Xwayland Xvfb python3; do
	command -v "$tool" >/dev/null ||
		{ echo "FAIL: $tool is missing: install weston, xwayland and xvfb (./bootstrap does)" >&2; exit 1; }
done

. "$abs_top_srcdir/record/tests/servers-lib.sh"

# record_xi NAME DISPLAY: touchtape record --xi=DISPLAY for 0.5 s into
# $tmp/NAME.jsonl; exit status in $tmp/NAME.rc, messages in $tmp/NAME.err.
record_xi() {
	local rc=0
	timeout 60 "$TOUCHTAPE" record --xi="$2" --duration 0.5 -o "$tmp/$1.jsonl" \
		>"$tmp/$1.out" 2>"$tmp/$1.err" || rc=$?
	echo "$rc" >"$tmp/$1.rc"
	sed "s/^/  $1: /" "$tmp/$1.err"
}

# refused NAME DISPLAY PATTERN WHAT: exit status 2, PATTERN in the message,
# no recording left behind.
refused() {
	record_xi "$1" "$2"
	local rc
	rc=$(cat "$tmp/$1.rc")
	if [[ "$rc" != 2 ]]; then
		fail "$4: exit status $rc, want 2"
	elif ! grep -qE -- "$3" "$tmp/$1.err"; then
		fail "$4: /$3/ not in the message"
	elif [[ -s "$tmp/$1.jsonl" ]]; then
		fail "$4: a recording was written: $(head -c 200 "$tmp/$1.jsonl")"
	else
		pass "$4"
	fi
}

# --- 1. Xwayland -----------------------------------------------------------
# weston binds the X socket in /tmp/.X11-unix itself (it does not create
# the directory, which X servers do) and starts Xwayland at the first
# client. Its own runtime directory must be private.
[[ -d /tmp/.X11-unix ]] || mkdir -m 1777 /tmp/.X11-unix
mkdir -m 700 "$tmp/xdg"
start=$SECONDS
XDG_RUNTIME_DIR="$tmp/xdg" weston --backend=headless-backend.so --shell=kiosk-shell.so \
	--xwayland --socket="tt-xi-refuse-$$" --idle-time=0 --log="$tmp/weston.log" \
	>"$tmp/weston.out" 2>&1 &
pids+=($!)
if ! wait_for 30 grep -qs 'xserver listening on display :[0-9]' "$tmp/weston.log"; then
	fail "weston did not start Xwayland's socket"
	cat "$tmp/weston.out" "$tmp/weston.log" 2>/dev/null | tail -20 >&2
else
	xw=$(sed -n 's/.*xserver listening on display \(:[0-9]*\).*/\1/p' "$tmp/weston.log" | head -n1)
	refused xwayland "$xw" "X server $xw is Xwayland \(" "Xwayland ($xw) is refused, saying so"
	grep -q "Spawned Xwayland" "$tmp/weston.log" ||
		fail "weston's log does not say that Xwayland ran: the refusal did not come from Xwayland"
	echo "# Xwayland: refused in $((SECONDS - start)) s (weston and Xwayland start included)"
fi

# --- 2. control: a native X server is not refused ---------------------------
Xvfb -displayfd 3 -nolisten tcp -screen 0 640x480x24 3>"$tmp/xvfb.display" \
	>"$tmp/xvfb.log" 2>&1 &
pids+=($!)
if ! wait_for 30 grep -q '[0-9]' "$tmp/xvfb.display"; then
	fail "Xvfb did not start"; tail -20 "$tmp/xvfb.log" >&2
else
	xvfb=":$(head -n1 "$tmp/xvfb.display")"
	record_xi xvfb "$xvfb"
	if [[ "$(cat "$tmp/xvfb.rc")" == 0 ]] && grep -q '"kind":"x-connected"' "$tmp/xvfb.jsonl" &&
		! grep -qi xwayland "$tmp/xvfb.err"; then
		pass "Xvfb ($xvfb) is recorded from"
	else
		fail "Xvfb ($xvfb): exit status $(cat "$tmp/xvfb.rc"), no x-connected marker or refused"
	fi
fi

# --- 3. no XInput, XI 2.0, XI 2.1 (the protocol fixture) -------------------
# fake NAME VERSION: starts the fixture; its display in $fake.
fake() {
	rm -f "$tmp/$1.ready"
	python3 "$here/xi-fake-server.py" "$2" "$tmp/$1.ready" 2>"$tmp/$1.server.err" &
	pids+=($!)
	wait_for 20 test -s "$tmp/$1.ready" || { fail "$1: the fixture did not start"; cat "$tmp/$1.server.err" >&2; return 1; }
	fake=":$(cat "$tmp/$1.ready")"
}
fake noxi none &&
	refused noxi "$fake" "X server $fake has no XInput extension" "a server without XInput is refused"
fake xi20 2.0 &&
	refused xi20 "$fake" "X server $fake supports XInput 2\.0; touch events need XInput 2\.2" \
		"a server with XI 2.0 is refused"
fake xi21 2.1 &&
	refused xi21 "$fake" "X server $fake supports XInput 2\.1; touch events need XInput 2\.2" \
		"a server with XI 2.1 is refused"
# The same fixture offering XI 2.2 passes the checks (and then fails on
# the first request it does not implement): the refusals above are the
# version's.
if fake xi22 2.2; then
	record_xi xi22 "$fake"
	if grep -qE "XInput|Xwayland" "$tmp/xi22.err" || ! grep -q "selecting raw touch events" "$tmp/xi22.err"; then
		fail "the fixture with XI 2.2: not past the checks"
	else
		pass "the fixture with XI 2.2 gets past the version and Xwayland checks"
	fi
fi

finish
