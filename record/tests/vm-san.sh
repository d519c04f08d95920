#!/bin/bash
# The kernel and X paths of touchtape under ASan+UBSan+LeakSanitizer
# (touchtape-san, built by cli/local.mk), in one VM boot with Xorg:
#   1. list and list --json while a replayed device exists;
#   2. record of a replayed multi-touch stream, ended by SIGINT;
#   3. replay (--verify; --exact for the touchpad) of the touchscreen and the touchpad
#      sample, and a replay ended by SIGINT;
#   4. record --xi (observer, then --xi-grab --xi-window) of a replayed
#      touchscreen hot-added to X, and --xi alone with --duration;
#   5. print, validate, convert (all three formats), analyze, inspect
#      --text and diff of what was recorded.
# Every command must exit as expected and no sanitizer may report anything,
# leaks included. Every run's stderr goes to a file under $tmp, and all of
# them are searched for reports at the end (UBSan ignores log_path in GCC's
# combined runtime, so stderr is the one place every report lands).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -uo pipefail
. "${abs_top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}/tests/vm/lib.sh"

: "${TOUCHTAPE_SAN:=$abs_top_builddir/touchtape-san}"
vm_enter "$TOUCHTAPE_SAN" "build touchtape-san first (make touchtape-san)" "${BASH_SOURCE[0]}" --xorg --timeout 400

TS=$TOUCHTAPE_SAN
samples="$abs_top_srcdir/samples"
vm_san_env
export LSAN_OPTIONS="report_objects=1"
san_report='runtime error:|ERROR: (Address|Leak)Sanitizer|SUMMARY: (Address|UndefinedBehavior|Leak)Sanitizer'
failures=0
bad() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }
ok() { printf 'ok: %s\n' "$*"; }

# run NAME WANT ARGS...: touchtape-san ARGS, output in $tmp/NAME.{out,err};
# WANT is an exit status or several ("0|1").
run() {
	local name=$1 want=$2 rc=0
	shift 2
	"$TS" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
	if [[ "|$want|" == *"|$rc|"* ]]; then
		ok "$name: exit $rc"
	else
		bad "$name: exit $rc, want $want"
		tail -n 20 "$tmp/$name.out" "$tmp/$name.err" | sed 's/^/  | /'
	fi
}

# [rin=FILE] replay_bg NAME ARGS...: touchtape-san replay in the
# background, stdin from $rin; sets $rpid and $node (the first device's).
replay_bg() {
	local name=$1
	shift
	"$TS" replay "$@" <"${rin:-/dev/null}" >"$tmp/$name.out" 2>&1 &
	rpid=$!
	node=""
	_replay_node() {
		node=$(grep -o '/dev/input/event[0-9]*' "$tmp/$name.out" | head -n1)
		[[ -n "$node" && -c "$node" ]]
	}
	wait_for 30 _replay_node || { bad "$name: no device: $(cat "$tmp/$name.out")"; return 1; }
}

# stop PID NAME WANT: SIGINT, then the exit status must be WANT.
stop() {
	local rc=0
	kill -INT "$1"
	wait "$1" || rc=$?
	[[ $rc == "$3" ]] && ok "$2: SIGINT, exit $rc" || bad "$2: SIGINT, exit $rc, want $3"
}

has() { grep -q "$1" "$2" 2>/dev/null; }
# count PATTERN FILE: lines matching so far (0 before FILE exists).
count() {
	local n
	n=$(grep -c "$1" "$2" 2>/dev/null)
	echo "${n:-0}"
}
frames() { count '"type":"frame"' "$1"; }

# --- 1, 2: list and record of a replayed touchscreen ---------------------------
if replay_bg rep-3m --loop 0 "$samples/3m-two-finger.jsonl"; then
	run list 0 list
	grep -q "$node .*MT B .*touchtape replay: 3M" "$tmp/list.out" &&
		ok "list shows the replayed device" || bad "list: $(cat "$tmp/list.out")"
	run list-json 0 list --json
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert any(e.get("mt_protocol")=="B" for e in d)' \
		"$tmp/list-json.out" && ok "list --json parses" || bad "list --json: $(head -c 300 "$tmp/list-json.out")"

	rec=$tmp/rec.jsonl
	"$TS" record "$node" -o "$rec" 2>"$tmp/rec.err" &
	recpid=$!
	_enough() { (($(frames "$rec") >= 300)); }
	wait_for 60 _enough || bad "record: only $(frames "$rec") frames"
	stop "$recpid" record 0
	grep -q '"kind":"stop".*"SIGINT"' "$rec" && ok "record: stop marker" || bad "record: no stop marker"
	stop "$rpid" "replay --loop 0" 130
fi

# --- 3: replay of the two samples, and one stopped half-way -------------------
# Without --exact: under Xorg, udev's libinput rule (libinput-fuzz-to-zero)
# sets the new device's kernel fuzz to 0 a moment after it appears, in the
# middle of the replay; --verify must follow the change (it reads the fuzz
# back while any is left) and find no unexplained difference.
run replay-3m 0 replay --verify "$samples/3m-two-finger.jsonl"
sed 's/^/  replay-3m: /' "$tmp/replay-3m.out" "$tmp/replay-3m.err"
run replay-touchpad 0 replay --verify --exact "$samples/touchpad-two-finger-swipe.jsonl"
if replay_bg rep-int "$samples/touchpad-two-finger-swipe.jsonl" --loop 5; then
	sleep 0.5
	stop "$rpid" "replay (touchpad)" 130
fi

# --- 4: record --xi ------------------------------------------------------------
xname="touchtape replay: touchtape VM test touchscreen"
xi_sample="$samples/xi-touchscreen-two-finger.jsonl"
in_x() { grep -qxF "$xname" <<<"$(xinput list --name-only 2>/dev/null)"; }
gone_from_x() { ! in_x; }
# FIFOs live in the guest's own tmpfs: on the 9p share they never connect.
fifos=$(mktemp -d /dev/shm/tt-san.XXXXXX)

# X only, no kernel device: it sees the replayed touchscreen hot-added and
# ends after --duration (before the next recorder: only one client may
# select touch events on the root window).
"$TS" record --xi --duration 8 -o "$tmp/x-only.jsonl" 2>"$tmp/x-only.err" &
xonly=$!
wait_for 30 has '"type":"xi_device"' "$tmp/x-only.jsonl" || bad "--xi alone did not start"
if replay_bg rep-x-only --loop 0 "$xi_sample"; then
	wait_for 30 in_x || bad "the replayed touchscreen was not added to X"
	rc=0
	wait "$xonly" || rc=$?
	[[ $rc == 0 ]] && ok "record --xi --duration: exit 0" ||
		bad "record --xi --duration: exit $rc: $(cat "$tmp/x-only.err")"
	grep -qF "\"name\":\"$xname\"" "$tmp/x-only.jsonl" && ok "--xi alone saw the device hot-added" ||
		bad "--xi alone: no record of the hot-added device"
	stop "$rpid" "replay --loop 0 (X only)" 130
	wait_for 30 gone_from_x || bad "the replayed touchscreen stayed in X"
fi

# xi_rec NAME ARGS...: a replayed touchscreen waits (--wait) until the
# recorder has its X side set up, so every XI touch begins in the file;
# recorded until X delivered 4 TouchEnds, then SIGINT to both.
xi_rec() {
	local name=$1 out=$tmp/$1.jsonl pid
	shift
	mkfifo "$fifos/$name"
	exec 3<>"$fifos/$name"	# read-write: opening it does not block
	rin=$fifos/$name replay_bg "rep-$name" --wait --loop 0 "$xi_sample" || { exec 3>&-; return; }
	wait_for 30 in_x || bad "$name: the replayed touchscreen was not added to X"
	"$TS" record "$node" "$@" -o "$out" 2>"$tmp/$name.err" 3>&- &
	pid=$!
	# Said once every X client (observer, grab, window) is set up.
	wait_for 30 has 'recording XInput touch events' "$tmp/$name.err" ||
		bad "$name: the recorder did not start: $(cat "$tmp/$name.err")"
	echo >&3
	exec 3>&-
	_xi_touches() { (($(count '"xi":"TouchEnd"' "$out") >= 4)); }
	wait_for 90 _xi_touches || bad "$name: $(count '"xi":"TouchEnd"' "$out") XI TouchEnd events"
	stop "$pid" "$name" 0
	stop "$rpid" "replay --loop 0 ($name)" 130
	wait_for 30 gone_from_x || bad "$name: the replayed touchscreen stayed in X"
}
xi_rec xi --xi
xi_rec xi-grab --xi-grab=reject-after=50 --xi-window

# --- 5: the other commands on what was recorded ----------------------------------
for f in rec xi xi-grab x-only; do
	file=$tmp/$f.jsonl
	[[ -s "$file" ]] || { bad "$f.jsonl missing"; continue; }
	run "$f-validate" 0 validate "$file"
	run "$f-print" 0 print "$file"
	# analyze: 1 = anomalies found (a recording that starts mid-touch).
	run "$f-analyze" "0|1" analyze "$file"
	run "$f-inspect" 0 inspect --text "$file"
	run "$f-convert" 0 convert "$file" -o "$tmp/$f.copy.jsonl"
	run "$f-diff" 0 diff "$file" "$tmp/$f.copy.jsonl"
	[[ $f == x-only ]] && continue	# no kernel device: nothing for evemu/libinput
	# What evemu and libinput record cannot hold (XI events) is listed on
	# stderr; the exit status is still 0.
	run "$f-evemu" 0 convert --to evemu "$file" -o "$tmp/$f.evemu"
	run "$f-libinput" 0 convert --to libinput "$file" -o "$tmp/$f.yaml"
	run "$f-from-evemu" 0 convert "$tmp/$f.evemu" -o "$tmp/$f.from-evemu.jsonl"
	run "$f-from-libinput" "0|1" analyze "$tmp/$f.yaml"
done
grep -q '"xi":"TouchOwnership"' "$tmp/xi-grab.jsonl" && ok "--xi-grab: ownership recorded" ||
	bad "--xi-grab: no TouchOwnership"

# --- the sanitizers' verdict --------------------------------------------------
reports=$(grep -lE "$san_report" "$tmp"/*.out "$tmp"/*.err 2>/dev/null)
if [[ -n "$reports" ]]; then
	for r in $reports; do
		bad "sanitizer report in $(basename "$r"):"
		sed 's/^/  | /' "$r" | head -60
	done
else
	ok "no ASan, UBSan or LeakSanitizer report from $(ls "$tmp"/*.err "$tmp"/*.out | wc -l) outputs"
fi
if ((failures)); then
	echo "$failures failure(s)"
	exit 1
fi
echo "PASS: vm-san"
