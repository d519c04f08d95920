#!/bin/bash
# The 93 multitouch report descriptors of hid-tools' tests
# (lib/tests/data/hid-tools-multitouch.hid) given to the kernel through
# uhid by replay --hid (tests/vm/run, one VM boot): each one as a
# hid-recorder file with no report (N:, R:, I: with the USB vendor and
# product hid-tools' test gives it), all created at once and held with
# --wait while they are looked at. For every descriptor:
#  1. hid-multitouch binds it and makes evdev devices;
#  2. a descriptor with a touchscreen or touchpad application collection
#     gives an evdev device with ABS_MT_POSITION_X/Y;
#  3. every device with ABS_MT_SLOT has the slot count the descriptor
#     implies: replay has no recorded feature report to answer the
#     driver's GET_REPORT of Contact Count Maximum, so it answers EIO and
#     hid-multitouch takes the field's logical maximum (or its default of
#     10, or its class's own count; see hid-descriptors.py).
# One line per descriptor says what the kernel made of it; a failure
# names the descriptor. Skipped (77) when QEMU cannot start.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -uo pipefail
. "${abs_top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}/tests/vm/lib.sh"

: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
vm_enter "$TOUCHTAPE" "build touchtape first" "${BASH_SOURCE[0]}" --timeout 300
. "$abs_top_srcdir/replay/tests/hid-vm-lib.sh"

T=$TOUCHTAPE
helper="/usr/bin/python3 $abs_top_srcdir/replay/tests/hid-descriptors.py"
failures=0
bad() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }

mkdir -p "$tmp/desc"
$helper make "$abs_top_srcdir/lib/tests/data/hid-tools-multitouch.hid" "$tmp/desc" >"$tmp/expected" ||
	fail "cannot read the descriptors"
total=$(wc -l <"$tmp/expected")
((total == 93)) || fail "$total descriptors in the data file, 93 expected"

hid_modules

declare -A pid fd fifo probeof
# A batch of descriptors replayed at once (their drivers bind in
# parallel), each held at its Enter; all 93 at once outgrow replay's
# 5 s wait for the binding under emulation.
BATCH=24

# start IDX: replay of descriptor IDX, held at its Enter.
start() {
	hid_start "$1" "$tmp/desc/$1.hid"
	pid[$1]=$hpid fd[$1]=$hfd fifo[$1]=$hfifo
}

# up IDX: replay printed its device, or ended.
up() { grep -q '^HID device' "$tmp/$1.log" || ! kill -0 "${pid[$1]}" 2>/dev/null; }

# stop IDX: Enter (no report to send: it destroys the device), and its exit.
stop() {
	local f=${fd[$1]} rc=0
	echo >&"$f"
	exec {f}>&-
	rm -f "${fifo[$1]}"
	wait "${pid[$1]}" || rc=$?
	echo "$rc" >"$tmp/$1.rc"
}

# batch N IDX...: the kernel's evdev devices of these descriptors, probed
# into $tmp/probe.N while they exist (event numbers are reused after), by
# one python3 for all (it starts slowly under emulation).
batch() {
	local n=$1 idx
	shift
	for idx; do start "$idx"; done
	for idx; do wait_for 60 up "$idx"; done
	for idx; do
		grep -o '/dev/input/event[0-9]*' "$tmp/$idx.log"
		probeof[$idx]=$tmp/probe.$n
	done >"$tmp/nodes"
	: >"$tmp/probe.$n"
	# shellcheck disable=SC2046 # one node a word
	[[ -s $tmp/nodes ]] && $helper probe $(cat "$tmp/nodes") >"$tmp/probe.$n" 2>&1
	for idx; do stop "$idx"; done
}

# check IDX NAME KINDS SLOTS: the kernel's devices of one descriptor.
check() {
	local idx=$1 name=$2 kinds=$3 want=$4 line driver nodes probe mt slots
	line=$(grep -m1 '^HID device' "$tmp/$idx.log")
	if [[ -z $line ]]; then
		bad "$name: no device: $(tr '\n' ' ' <"$tmp/$idx.log")"
		return
	fi
	[[ $(cat "$tmp/$idx.rc") == 0 ]] || bad "$name: replay exit $(cat "$tmp/$idx.rc"): $(tail -n 3 "$tmp/$idx.log")"
	driver=$(sed -n 's/.*, driver \([^:]*\).*/\1/p' <<<"$line")
	mapfile -t nodes < <(grep -o '/dev/input/event[0-9]*' <<<"$line")
	probe=$(for n in "${nodes[@]}"; do grep "^$n	" "${probeof[$idx]}"; done)
	mt=$(awk -F'\t' '$2 == 1' <<<"$probe" | wc -l)
	slots=$(awk -F'\t' '$3 > 0 { print $3 }' <<<"$probe" | sort -u | paste -sd/)
	printf '%s: driver %s, %d evdev device(s), %d with ABS_MT_POSITION_X/Y, slots %s (expected %s)\n' \
		"$name" "$driver" "${#nodes[@]}" "$mt" "${slots:-none}" "$want"
	[[ $driver == hid-multitouch ]] || bad "$name: driver $driver, not hid-multitouch"
	((${#nodes[@]} > 0)) || bad "$name: no evdev device"
	if [[ $kinds == *touchscreen* || $kinds == *touchpad* ]]; then
		((mt > 0)) || bad "$name ($kinds): no evdev device with ABS_MT_POSITION_X/Y: $probe"
	fi
	[[ -z $slots || $slots == "$want" ]] || bad "$name: $slots slots, $want expected"
	[[ -n $slots || $kinds == - ]] || bad "$name ($kinds): no ABS_MT_SLOT"
}

t0=$SECONDS
mapfile -t all < <(cut -f1 "$tmp/expected")
for ((i = 0; i < total; i += BATCH)); do
	batch "$i" "${all[@]:i:BATCH}"
done
while IFS=$'\t' read -r idx name kinds slots; do
	check "$idx" "$name" "$kinds" "$slots"
done <"$tmp/expected"
note "$total descriptors in $((SECONDS - t0)) s"
# The EIO replay answered reached the driver: it warns and goes on.
eio=$(dmesg | grep -c 'hid-multitouch .*: failed to fetch feature')
((eio > 0)) && note "hid-multitouch: $eio feature reports answered EIO" ||
	bad "hid-multitouch never met an unanswered GET_REPORT (dmesg has no 'failed to fetch feature')"

if ((failures)); then
	echo "$failures failure(s)"
	exit 1
fi
echo "PASS: $total multitouch descriptors through uhid and hid-multitouch"
