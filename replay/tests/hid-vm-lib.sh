# shellcheck shell=bash
# Shared by the replay --hid VM tests (sourced, in the guest): the uhid
# drivers, the corpus hid-recorder files, and one replay of a file with a
# second reader attached before its first report.

# The kernel's HID drivers the corpus devices bind to.
hid_modules() {
	modprobe -a uhid hid-multitouch wacom hid-generic || fail "cannot load uhid and the HID drivers"
	[[ -c /dev/uhid ]] || fail "no /dev/uhid after modprobe uhid"
}

# hid_start KEY FILE [replay options...]: touchtape replay --hid --wait of
# FILE in the background ($hpid), its devices printed to $tmp/KEY.log, its
# Enter held in fd $hfd (the FIFO lives in /dev/shm: on the 9p share FIFOs
# never connect).
hid_start() {
	local key=$1 src=$2 f
	shift 2
	f=$(mktemp -u /dev/shm/tt-hid.XXXXXX)
	mkfifo "$f"
	exec {hfd}<>"$f"
	"$T" replay --hid --wait "$@" "$src" <"$f" >"$tmp/$key.log" 2>&1 {hfd}>&- &
	hpid=$!
	hfifo=$f
}

# hid_node KEY NAME: sets $node to the evdev node replay printed for the
# device named exactly NAME, once its devices are up.
hid_node() {
	local key=$1 name=$2
	_hid_up() { grep -q '^HID device' "$tmp/$key.log" || ! kill -0 "$hpid" 2>/dev/null; }
	wait_for 30 _hid_up
	node=$(grep -o '/dev/input/event[0-9]* "[^"]*"' "$tmp/$key.log" |
		awk -v n="\"$name\"" '{ p = $1; $1 = ""; sub(/^ /, ""); if ($0 == n) print p }' | head -n1)
	[[ -n "$node" && -c "$node" ]]
}

# hid_go: Enter, then waits for the replay; sets $hrc.
hid_go() {
	echo >&"$hfd"
	exec {hfd}>&-
	rm -f "$hfifo"
	hrc=0
	wait "$hpid" || hrc=$?
}

# rec_start OUT NODE [record options]: touchtape record of NODE into OUT
# ($rpid), returns once its device record is written.
rec_start() {
	"$T" record -q -o "$1" "${@:3}" "$2" 2>"$1.err" &
	rpid=$!
	_rec_up() { grep -qs '"type":"device"' "$1" || ! kill -0 "$rpid" 2>/dev/null; }
	wait_for 30 _rec_up "$1"
}
# rec_stop: the recording ends when its device goes away, or at SIGINT.
rec_stop() {
	_rec_gone() { ! kill -0 "$rpid" 2>/dev/null; }
	wait_for 5 _rec_gone || kill -INT "$rpid" 2>/dev/null
	wait "$rpid" 2>/dev/null
}

# hid_timeline SRC OUT: the hid-recorder file SRC as a timeline (its HID
# records), as convert writes it.
hid_timeline() {
	"$T" convert "$1" -o "$2" 2>"$2.err" || fail "convert $1: $(cat "$2.err")"
}
