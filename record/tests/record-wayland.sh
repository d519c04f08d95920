#!/bin/bash
# touchtape record --wayland against real Weston compositors on the host (no
# kernel device; the touches themselves need the VM rig):
#   1. Weston's X11 backend inside Xvfb, output scale 2: the client connects,
#      maps its fullscreen surface, and records the seat's capabilities (the
#      X11 backend's seat has a pointer and a keyboard), the output's mode,
#      scale and geometry and the surface's size, and the pointer moved and
#      clicked through XTest (xtest-pointer.py) with the compositor's
#      timestamps in ms and µs; then weston is killed: the
#      Wayland source ends with a wayland-lost marker while the XI side (the
#      same Xvfb, a native X server) keeps recording to the end, and the
#      file is valid;
#   2. Weston's headless backend with Xwayland: with --wayland, --xi may
#      record from the session's Xwayland (alone it is refused:
#      xi-refuse.sh);
#   3. no compositor: exit status 2, a message, no file.
# Skips (77) only when weston is missing.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}/tests/lib.sh"

command -v weston >/dev/null || { echo "SKIP: weston is not installed" >&2; exit 77; }
for tool in Xvfb Xwayland jq; do
	command -v "$tool" >/dev/null ||
		{ echo "FAIL: $tool is missing: install xvfb, xwayland and jq (./bootstrap does)" >&2; exit 1; }
done

. "$abs_top_srcdir/record/tests/servers-lib.sh"

# check WHAT JQ-FILTER FILE: the filter (over all records, slurped) is true.
check() {
	if jq -se "$2" "$3" >/dev/null 2>&1; then pass "$1"; else
		fail "$1: not ($2)"; grep -E '"(wl|marker)"' "$3" | head -20 | sed 's/^/  | /' >&2; fi
}

mkdir -m 700 "$tmp/xdg"
[[ -d /tmp/.X11-unix ]] || mkdir -m 1777 /tmp/.X11-unix

# --- 1. X11 backend in Xvfb: seat, output, surface; weston killed ----------
Xvfb -displayfd 3 -nolisten tcp -screen 0 1024x768x24 3>"$tmp/xvfb.display" >"$tmp/xvfb.log" 2>&1 &
pids+=($!)
wait_for 30 grep -qs '[0-9]' "$tmp/xvfb.display" || { fail "Xvfb did not start"; tail "$tmp/xvfb.log" >&2; finish; }
xvfb=":$(head -n1 "$tmp/xvfb.display")"
sock="tt-wl-x11-$$"
DISPLAY="$xvfb" XDG_RUNTIME_DIR="$tmp/xdg" weston --backend=x11-backend.so --use-pixman \
	--shell=kiosk-shell.so --width=800 --height=600 --scale=2 --socket="$sock" --idle-time=0 \
	--log="$tmp/weston-x11.log" >"$tmp/weston-x11.out" 2>&1 &
weston_pid=$!
pids+=($weston_pid)
if ! wait_for 30 test -S "$tmp/xdg/$sock"; then
	fail "weston (X11 backend) did not make its socket"; tail "$tmp/weston-x11.log" >&2
else
	f="$tmp/x11.jsonl"
	XDG_RUNTIME_DIR="$tmp/xdg" WAYLAND_DISPLAY="$sock" timeout 60 "$TOUCHTAPE" record --wayland \
		--xi="$xvfb" --duration 4 -o "$f" 2>"$tmp/x11.err" &
	rec=$!
	wait_for 30 grep -qs '"wayland-connected"' "$f" || fail "no wayland-connected marker within 30 s"
	# The pointer moved and clicked in weston's window (X coordinates are
	# twice the logical ones at scale 2).
	python3 "$abs_top_srcdir/record/tests/xtest-pointer.py" "$xvfb" 200 100 ||
		fail "XTest could not move the pointer"
	wait_for 10 grep -qs '"ev":"button".*"state":"released"' "$f" ||
		fail "no wl_pointer button release recorded within 10 s"
	kill "$weston_pid"
	rc=0
	wait "$rec" || rc=$?
	sed 's/^/  record: /' "$tmp/x11.err"
	[[ $rc == 0 ]] && pass "record --wayland --xi: exit 0 though weston went away" ||
		fail "record --wayland --xi: exit status $rc"
	check "the seat's capabilities: pointer and keyboard" \
		'any(.[]; .type=="wl" and .wl=="wl_seat" and .ev=="capabilities" and .client=="wayland"
		     and (.capabilities|sort)==["keyboard","pointer"])' "$f"
	check "the output: scale 2, current mode 1600x1200, geometry" \
		'any(.[]; .wl=="wl_output" and .ev=="scale" and .scale==2) and
		 any(.[]; .wl=="wl_output" and .ev=="mode" and .size==[1600,1200] and (.flags % 2)==1) and
		 any(.[]; .wl=="wl_output" and .ev=="geometry" and .make=="weston-X11" and .transform==0) and
		 any(.[]; .wl=="wl_output" and .ev=="done")' "$f"
	check "the surface: configured fullscreen 800x600 (logical), mapped at that size" \
		'any(.[]; .wl=="xdg_toplevel" and .ev=="configure" and .size==[800,600]) and
		 any(.[]; .kind=="wayland-connected" and (.text|test("fullscreen surface 800x600")))' "$f"
	check "the pointer: motion at the logical position, button 272 pressed and released, frames" \
		'any(.[]; .wl=="wl_pointer" and .ev=="motion" and .xy==[105,50] and (.time_ms|type)=="number") and
		 any(.[]; .wl=="wl_pointer" and .ev=="button" and .button==272 and .state=="pressed") and
		 any(.[]; .wl=="wl_pointer" and .ev=="button" and .button==272 and .state=="released") and
		 any(.[]; .wl=="wl_pointer" and .ev=="frame")' "$f"
	check "input timestamps: each pointer motion and button has a time_us matching its time_ms" \
		'[.[] | select(.wl=="wl_pointer" and (.ev=="motion" or .ev=="button"))] |
		 length > 0 and all(.time_us != null and
		   ((.time_us / 1000 | floor) - .time_ms) as $d | ($d - ($d / 4294967296 | round) * 4294967296 | fabs) <= 1)' "$f"
	check "weston killed: wayland-lost after wayland-connected, then the stop at the duration" \
		'([.[] | select(.type=="marker") | .kind] | index("wayland-connected") < index("wayland-lost")) and
		 (.[-1] | .kind=="stop" and .text=="duration" and .t >= 3900000) and
		 any(.[]; .kind=="wayland-lost" and (.text|test("closed the connection")))' "$f"
	check "the XI side recorded on (x-connected, no x-lost)" \
		'any(.[]; .kind=="x-connected") and (any(.[]; .kind=="x-lost")|not)' "$f"
	expect_exit 0 "the recording is valid" -- "$TOUCHTAPE" validate "$f"
	"$TOUCHTAPE" print "$f" >"$tmp/x11.txt" 2>&1
	expect_grep 'WL +wl_seat@[0-9]+\.capabilities\(capabilities pointer\|keyboard\)' "$tmp/x11.txt" \
		"print: the seat's capabilities, WAYLAND_DEBUG style"
	expect_grep 'WL +wl_output@[0-9]+\.mode\(1600x1200, flags 0x3, 60\.000 Hz\)' "$tmp/x11.txt" \
		"print: the output's mode"
fi

# --- 2. headless with Xwayland: --xi may record from it with --wayland ------
sock="tt-wl-xw-$$"
XDG_RUNTIME_DIR="$tmp/xdg" weston --backend=headless-backend.so --shell=kiosk-shell.so --xwayland \
	--socket="$sock" --idle-time=0 --log="$tmp/weston-xw.log" >"$tmp/weston-xw.out" 2>&1 &
pids+=($!)
if ! wait_for 30 grep -qs 'xserver listening on display :[0-9]' "$tmp/weston-xw.log"; then
	fail "weston did not start Xwayland's socket"; tail "$tmp/weston-xw.log" >&2
else
	xw=$(sed -n 's/.*xserver listening on display \(:[0-9]*\).*/\1/p' "$tmp/weston-xw.log" | head -n1)
	f="$tmp/xw.jsonl"
	expect_exit 0 "record --wayland --xi=$xw (the session's Xwayland)" -- \
		env XDG_RUNTIME_DIR="$tmp/xdg" WAYLAND_DISPLAY="$sock" timeout 60 \
		"$TOUCHTAPE" record --wayland --xi="$xw" --duration 0.5 -o "$f"
	check "Xwayland and the compositor side by side: x-connected, wayland-connected, wl_output" \
		'any(.[]; .kind=="x-connected") and any(.[]; .kind=="wayland-connected") and
		 any(.[]; .wl=="wl_output" and .ev=="mode" and .size==[1024,640])' "$f"
	grep -q "Spawned Xwayland" "$tmp/weston-xw.log" || fail "weston's log does not say that Xwayland ran"
	check "auto: no layer-shell in Weston, so the fullscreen toplevel" \
		'any(.[]; .wl=="xdg_toplevel" and .ev=="configure") and
		 any(.[]; .kind=="wayland-connected" and (.text|test("; fullscreen surface [0-9]+x[0-9]+;")))' "$f"
	expect_exit 2 "--wayland-surface=overlay without layer-shell: exit status 2" -- \
		env XDG_RUNTIME_DIR="$tmp/xdg" WAYLAND_DISPLAY="$sock" timeout 60 \
		"$TOUCHTAPE" record --wayland --wayland-surface=overlay --duration 0.5 -o "$tmp/overlay.jsonl"
	expect_grep "does not offer zwlr_layer_shell_v1 \\(layer-shell\\)" "$tmp/err" "no layer-shell: said so"
	[[ -e "$tmp/overlay.jsonl" ]] && fail "no layer-shell: a file was left" || pass "no layer-shell: no file"
	expect_exit 0 "--wayland-surface=toplevel" -- \
		env XDG_RUNTIME_DIR="$tmp/xdg" WAYLAND_DISPLAY="$sock" timeout 60 \
		"$TOUCHTAPE" record --wayland --wayland-surface=toplevel --duration 0.5 -o "$tmp/toplevel.jsonl"
fi

# --- 3. no compositor --------------------------------------------------------
expect_exit 2 "no compositor: exit status 2" -- env XDG_RUNTIME_DIR="$tmp/xdg" \
	"$TOUCHTAPE" record --wayland=tt-wl-none-$$ --duration 0.5 -o "$tmp/none.jsonl"
expect_grep "cannot connect to Wayland compositor tt-wl-none-$$" "$tmp/err" "no compositor: said so"
[[ -e "$tmp/none.jsonl" ]] && fail "no compositor: a file was left" || pass "no compositor: no file"

finish
