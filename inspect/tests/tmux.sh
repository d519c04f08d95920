#!/bin/sh
# The inspector in a real terminal: tmux runs `touchtape inspect FILE` at a
# fixed size; keys go in with send-keys, the screen comes back with
# capture-pane. Checks moving, zooming, help, quitting with the terminal
# restored, resizing, and following a growing pipe.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

command -v tmux >/dev/null || { echo "tmux not installed: skipped"; exit 77; }
own="$abs_top_srcdir/inspect/tests/data/ownership.jsonl"
sock="tt-inspect-$$"
tm() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
# A session that outlives the others: killing the last session stops the
# server, and a new-session racing with that shutdown fails.
tm new-session -d -s keep "sleep 600"

# wait_for PATTERN WHAT: until the screen shows PATTERN (5 s).
wait_for() {
	for _ in $(seq 50); do
		tm capture-pane -p -t tt >"$tmp/screen" 2>/dev/null
		if grep -qE -- "$1" "$tmp/screen"; then pass "$2"; return 0; fi
		sleep 0.1
	done
	fail "$2: /$1/ not on screen"; sed 's/^/  | /' "$tmp/screen" >&2
	return 1
}
wait_file() {
	for _ in $(seq 50); do [ -s "$1" ] && return 0; sleep 0.1; done
	return 1
}
# exited_clean EXIT_FILE STTY_FILE WHAT: exit status 0, canonical input and
# echo on again in the terminal it ran in.
exited_clean() {
	if ! wait_file "$2"; then fail "$3: inspect did not end"; return; fi
	expect_grep '^0$' "$1" "$3: exit status 0"
	if grep -qE '(^| )-icanon|(^| )-echo( |$)' "$2"; then fail "$3: terminal left in raw mode"
	else pass "$3: terminal restored"; fi
}

# After inspect exits, the same terminal reports its mode: restored means
# canonical input and echo again.
tm new-session -d -s tt -x 100 -y 30 \
	"TERM=xterm-256color '$TOUCHTAPE' inspect '$own'; echo \$? >'$tmp/exit'; stty -a >'$tmp/stty'; sleep 60"
wait_for '^>dev0 s0 #10 ' "opens with the first lane selected"
expect_grep ' `xi11 t1 grab \+1.5ms' "$tmp/screen" "XI lane under its kernel lane"
# The panes are drawn after the lanes: under load the capture that showed
# the lanes may precede them, so poll.
wait_for 'slots: slot id x y' "slot pane"
# The scale is on the first line; under load it may not be drawn yet when
# the previous check matched, so poll for it.
scale=""
for _ in $(seq 100); do
	tm capture-pane -p -t tt >"$tmp/screen"
	scale=$(sed -n '1s/.*  \([0-9.]*[mu]*s\)\/col.*/\1/p' "$tmp/screen")
	[ -n "$scale" ] && break
	sleep 0.1
done

tm send-keys -t tt j j Right Right
wait_for '^> `xi11 t1 window' "Down moves the selection"
wait_for 't=0\.011500' "Right moves the cursor by frame/event"
expect_grep 'touch xi11 t1 window' "$tmp/screen" "touch pane follows the selection"

tm send-keys -t tt +
for _ in $(seq 100); do
	tm capture-pane -p -t tt >"$tmp/screen"
	newscale=$(sed -n '1s/.*  \([0-9.]*[mu]*s\)\/col.*/\1/p' "$tmp/screen")
	[ "$newscale" != "$scale" ] && break
	sleep 0.1
done
[ -n "$scale" ] && [ "$scale" != "$newscale" ] && pass "zoom changed the scale ($scale -> $newscale)" ||
	fail "zoom: scale $scale -> $newscale"

tm send-keys -t tt '?'
wait_for 'touchtape inspect: keys' "help screen"
tm send-keys -t tt x
wait_for 'time \(s\)' "help closes"

tm resize-window -t tt -x 70 -y 20 2>/dev/null || tm resize-pane -t tt -x 70 -y 20
# 70 columns: labels take 17, the time axis starts at column 18.
wait_for '^time \(s\) {10}[|v]' "redrawn after a resize"
if awk 'length > 70 { exit 1 }' "$tmp/screen"; then pass "fits the new width"; else fail "wider than 70 after resize"; fi

tm send-keys -t tt q
exited_clean "$tmp/exit" "$tmp/stty" "q"
tm kill-session -t tt

# Ctrl-C ends it like q, and restores the terminal.
tm new-session -d -s tt -x 80 -y 24 \
	"TERM=xterm '$TOUCHTAPE' inspect '$own'; echo \$? >'$tmp/exit3'; stty -a >'$tmp/stty3'; sleep 60"
wait_for 'time \(s\)' "opens again"
tm send-keys -t tt C-c
exited_clean "$tmp/exit3" "$tmp/stty3" "Ctrl-C"
tm kill-session -t tt

# Following a pipe: the first part of a recording, then the rest.
mkfifo "$tmp/fifo"
head -n 20 "$own" >"$tmp/part1"
tail -n +21 "$own" >"$tmp/part2"
tm new-session -d -s tt -x 100 -y 30 \
	"TERM=xterm '$TOUCHTAPE' inspect - <'$tmp/fifo'; echo \$? >'$tmp/exit2'; sleep 60"
exec 3>"$tmp/fifo"
cat "$tmp/part1" >&3
wait_for '\[live\]' "live: follows standard input"
wait_for 'dev0 s0 #10' "live: the first touch shows"
if grep -q 'dev0 s0 #12' "$tmp/screen"; then fail "live: a touch from the future"; else pass "live: only what came"; fi
cat "$tmp/part2" >&3
exec 3>&-
wait_for 'dev0 s0 #12' "live: the index grows"
wait_for 't=0\.175000' "live: the cursor follows the end"
tm send-keys -t tt q
wait_file "$tmp/exit2" && expect_grep '^0$' "$tmp/exit2" "live: quits cleanly" || fail "live: no exit"
finish
