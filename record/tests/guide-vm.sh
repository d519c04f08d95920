#!/bin/bash
# record --guide driven headless (tests/vm/run, one boot): the guest replays
# a touchscreen (record/tests/guide-fixture.py: a still finger, a stroke, a
# tap) while a script plays the person at a pseudo-terminal
# (guide-guest.py), three times: the replay through uinput recorded alone
# and with --libinput, then the corpus's ILITEK touchscreen (with
# $TT_CORPUS; else the project's own, tests/corpus/make-hid.py) through uhid
# (hid-multitouch) recorded with --hid, its keyboard pressing a key while
# the finger is held. The host checks (guide-check.py) that each
# exercise's markers bracket its touch (and with --hid, every HID report
# of it), the skipped ones have none, the progress line showed one touch
# (the key lifted no finger), the file validates and the grade measured
# the guided touches. guide-xi-vm.sh does it with --xi under Xorg.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../tests/vm/lib.sh"
: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
here="$abs_top_srcdir/record/tests"
ilitek="${TT_CORPUS:-$abs_top_srcdir/../shared/corpus}/hid-recorder/ilitek-iltp7807-222a-fff1-touchscreen.hid"
failures=0
bad() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }
ok() { printf 'ok: %s\n' "$*"; }

# guided NAME IN DEVICE [RECORD OPTIONS...]: one guided recording into
# $dir/NAME.jsonl, its status in NAME.rc (guest side). It is written to
# the guest's memory first: a write to the 9p share can stall while the
# host is busy, and the recorder with it.
guided() {
	local name=$1 in=$2 dev=$3 rc=0
	shift 3
	"$py" "$here/guide-guest.py" "$TOUCHTAPE" "$dir/$in" "/dev/shm/$name.jsonl" "$dev" "$@" || rc=$?
	cp /dev/shm/"$name".jsonl* "$dir/"
	echo "$rc" >"$dir/$name.rc"
}

if [[ "${TT_VM_GUEST:-}" == 1 ]]; then
	dir=$1
	guided out in.jsonl "touchtape replay:*"
	# Again beside the libinput layer (it takes only what udev tagged).
	for d in /lib/systemd /usr/lib/systemd; do
		[[ -x $d/systemd-udevd ]] && { "$d/systemd-udevd" --daemon >/dev/null 2>&1; break; }
	done
	guided out-li in.jsonl "touchtape replay:*" --libinput
	if [[ -f $dir/in.hid ]]; then
		modprobe -a uhid hid-multitouch || echo "cannot load uhid and hid-multitouch"
		guided out-hid in.hid "$(cat "$dir/in.hid.name")" --hid
	fi
	exit 0
fi

command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/tt-guide-vm.XXXXXX")
trap '[[ $failures == 0 ]] && rm -rf "$dir" || echo "# files kept in $dir"' EXIT
python3 "$here/guide-fixture.py" evdev "$dir/in.jsonl" || exit 2
if [[ -f $ilitek ]]; then
	python3 "$here/guide-fixture.py" hid "$ilitek" "$dir/in.hid" || exit 2
	echo "ILTP7807:00 222A:FFF1" >"$dir/in.hid.name"
else
	echo "# no corpus file $ilitek: the --hid pass replays the project's own touchscreen"
	python3 "$here/guide-fixture.py" hid "$abs_top_srcdir/tests/corpus/hid-recorder/touchtape-touchscreen-keyboard.hid" \
		"$dir/in.hid" || exit 2
	echo "touchtape-ts 1D6B:7701" >"$dir/in.hid.name"
fi
rc=0
"$abs_top_srcdir/tests/vm/run" --timeout 300 --rw "$dir" -- bash "${BASH_SOURCE[0]}" "$dir" || rc=$?
[[ $rc == 77 ]] && exit 77
[[ $rc == 0 ]] || bad "the guest failed (VM status $rc)"

# check NAME INPUT LAYER WHAT: one guided recording's outcome.
check() {
	local name=$1 in=$2 layer=$3 what=$4
	[[ -s $dir/$name.jsonl.tty ]] &&
		tr '\r' '\n' <"$dir/$name.jsonl.tty" | grep -a "Exercise\|grade\|Done\|Skipped" | sed 's/^/  | /' | head -20
	[[ "$(cat "$dir/$name.rc" 2>/dev/null)" == 0 ]] || { bad "$what: the guided recording failed"; return; }
	if python3 "$here/guide-check.py" "$TOUCHTAPE" "$dir/$name.jsonl" "$dir/$in.expect.json" "$layer"; then
		ok "$what: the markers bracket the touches, the grade measured them"
	else
		bad "$what"
	fi
}
check out in.jsonl evdev "record --guide"
check out-li in.jsonl libinput "record --guide --libinput"
[[ -f $dir/in.hid ]] && check out-hid in.hid hid "record --guide --hid"
exit $((failures > 0))
