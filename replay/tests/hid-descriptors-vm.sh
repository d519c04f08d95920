#!/bin/bash
# The 93 multitouch report descriptors of hid-tools' tests
# (hid/tests/data/hid-tools-multitouch.hid) given to the kernel through
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
$helper make "$abs_top_srcdir/hid/tests/data/hid-tools-multitouch.hid" "$tmp/desc" >"$tmp/expected" ||
	fail "cannot read the descriptors"
total=$(wc -l <"$tmp/expected")
((total == 93)) || fail "$total descriptors in the data file, 93 expected"

hid_modules

declare -A pid fd fifo
# A batch of descriptors replayed at once (their drivers bind in
# parallel), each held at its Enter; all 93 at once outgrow replay's
# 5 s wait for the binding under emulation, and so may a batch on a busy
# host: a descriptor the kernel did not bind in time is tried again alone.
BATCH=16

# start IDX: replay of descriptor IDX, held at its Enter.
start() {
	hid_start "$1" "$tmp/desc/$1.hid"
	pid[$1]=$hpid fd[$1]=$hfd fifo[$1]=$hfifo
}

# up IDX: replay printed its device, or ended.
up() { grep -q '^HID device' "$tmp/$1.log" || ! kill -0 "${pid[$1]}" 2>/dev/null; }

# release IDX: Enter (no report to send: it destroys the device).
release() {
	local f=${fd[$1]}
	echo >&"$f"
	exec {f}>&-
	rm -f "${fifo[$1]}"
}

# reap IDX: the replay's exit status into $tmp/IDX.rc.
reap() {
	local rc=0
	wait "${pid[$1]}" || rc=$?
	echo "$rc" >"$tmp/$1.rc"
}

# batch IDX...: the kernel's evdev devices of these descriptors, probed
# into $tmp/IDX.probe while they exist (event numbers are reused after),
# by one python3 for all (it starts slowly under emulation).
batch() {
	local idx t=$SECONDS
	for idx; do start "$idx"; done
	for idx; do wait_for 60 up "$idx"; done
	local t_up=$((SECONDS - t))
	$helper probe "$tmp" "$@" || bad "probing the evdev devices of $1-$idx failed"
	local t_probe=$((SECONDS - t))
	# Destroyed in parallel too.
	for idx; do release "$idx"; done
	for idx; do reap "$idx"; done
	note "descriptors $1-$idx: up after $t_up s, probed after $t_probe s, gone after $((SECONDS - t)) s"
}

t0=$SECONDS
mapfile -t all < <(cut -f1 "$tmp/expected")
for ((i = 0; i < total; i += BATCH)); do
	batch "${all[@]:i:BATCH}"
done
mapfile -t again < <(cd "$tmp" && grep -L '^HID device' "${all[@]/%/.log}" | sed 's/\.log$//')
if ((${#again[@]})); then
	note "not bound within 5 s in a batch, tried again alone: ${again[*]}"
	for idx in "${again[@]}"; do batch "$idx"; done
fi
# One line per descriptor, and what fails (in python3: a few forks per
# descriptor in bash take minutes under emulation).
$helper check "$tmp/expected" "$tmp" || failures=$((failures + 1))
note "$total descriptors in $((SECONDS - t0)) s"
# The EIO replay answered reached the driver: it warns and goes on.
eio=$(dmesg | grep -c 'hid-multitouch .*: failed to fetch feature')
if ((eio > 0)); then
	note "hid-multitouch: $eio feature reports answered EIO"
else
	bad "hid-multitouch never met an unanswered GET_REPORT (dmesg has no 'failed to fetch feature')"
fi

if ((failures)); then
	echo "$failures failure(s)"
	exit 1
fi
echo "PASS: $total multitouch descriptors through uhid and hid-multitouch"
