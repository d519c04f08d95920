#!/bin/bash
# No contact left down after replay --hid is stopped, in the VM rig: the
# touchscreen (hid-recorder, through uhid and hid-multitouch: the real
# ILITEK one when the corpus has it, $TT_CORPUS, else the project's own,
# tests/corpus/make-hid.py) is
# replayed in a loop with idle gaps cut to 50 ms and stopped by SIGINT or
# SIGTERM at a random moment, twice each. A second reader of the
# evdev device the driver made (evstate.py, independent of touchtape) must
# see no slot active and BTN_TOUCH up when the device goes away; the exit
# status is 128+N. TT_STUCK_SEED=N repeats a run (the seed is printed).
# Skipped (77) when QEMU cannot start.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -uo pipefail
. "${abs_top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}/tests/vm/lib.sh"

: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
vm_enter "$TOUCHTAPE" "build touchtape first" "${BASH_SOURCE[0]}" --timeout 300
. "$abs_top_srcdir/replay/tests/hid-vm-lib.sh"

T=$TOUCHTAPE
src=${TT_CORPUS:-$abs_top_srcdir/tests/corpus}/hid-recorder/ilitek-iltp7807-222a-fff1-touchscreen.hid
name="ILTP7807:00 222A:FFF1"
if [[ ! -f $src ]]; then
	note "the ILITEK hid-recorder file is not in tests/corpus (its licence is unclear; TT_CORPUS=the public corpus runs it): the project's own touchscreen instead"
	src=$abs_top_srcdir/tests/corpus/hid-recorder/touchtape-touchscreen-keyboard.hid
	name="touchtape-ts 1D6B:7701"
fi
PY=/usr/bin/python3
[[ -x $PY ]] || PY=python3
seed=${TT_STUCK_SEED:-$$}
RANDOM=$seed
note "seed $seed"
failures=0
down_at_kill=0
bad() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }
ok() { printf 'ok: %s\n' "$*"; }

hid_modules

# round SIG RUN: stopped by SIG after a random 0.3-3.3 s of playing.
round() {
	local sig=$1 run=$2 key=stop-$2 ms rc want=$((128 + $(kill -l "$1"))) st spid
	hid_start "$key" "$src" --loop 0 --max-gap 50ms
	hid_node "$key" "$name" || { bad "$key: no device: $(cat "$tmp/$key.log")"; kill "$hpid"; wait "$hpid"; return; }
	# -I -S: no site packages, half a second less to start under TCG.
	"$PY" -I -S "$abs_top_srcdir/replay/tests/evstate.py" "$node" "$tmp/$key.ready" >"$tmp/$key.state" &
	spid=$!
	wait_for 30 test -e "$tmp/$key.ready" || { bad "$key: the reader did not start"; return; }
	ms=$((300 + RANDOM % 3000))
	echo >&"$hfd"
	exec {hfd}>&-
	rm -f "$hfifo"
	sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
	kill -"$sig" "$hpid"
	rc=0
	wait "$hpid" || rc=$?
	local what="$key (SIG$sig at $ms ms)"
	[[ $rc == "$want" ]] || bad "$what: exit $rc, want $want: $(tail -n 5 "$tmp/$key.log")"
	wait_for 10 test ! -d "/proc/$spid" || { bad "$what: the device outlived the replay"; kill "$spid"; }
	wait "$spid"
	st=$tmp/$key.state
	val() { sed -n "s/^$1=//p" "$st"; }
	if [[ "$(val active_at_end)" == 0 && "$(val btn_touch_at_end)" == 0 ]]; then
		ok "$what: $(val frames) frames, $(val active_before_last_frame) contacts down at the stop, none after"
	else
		bad "$what: stuck: $(tr '\n' ' ' <"$st")"
		sed 's/^/  | /' "$tmp/$key.log"
	fi
	(($(val active_before_last_frame) > 0)) && down_at_kill=$((down_at_kill + 1))
	gone() { [[ ! -e "$node" ]]; }
	wait_for 10 gone || bad "$what: $node still exists"
}

run=0
for sig in INT TERM; do
	for _ in 1 2; do
		run=$((run + 1))
		round "$sig" "$run"
	done
done
# The stops must have caught contacts down often enough to mean something.
((down_at_kill >= 2)) && ok "$down_at_kill of 4 stops came with contacts down" ||
	bad "only $down_at_kill of 4 stops came with contacts down"
if ((failures)); then
	echo "$failures failure(s)"
	exit 1
fi
echo "PASS: no contact down after SIGINT, SIGTERM"
