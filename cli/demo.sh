#!/bin/bash
# make demo: the whole product on a bundled sample. In the VM rig (a real
# kernel with uinput and a real Xorg), touchtape replay plays the sample
# through a new uinput touchscreen while touchtape record captures the
# kernel frames and the X server's XI 2.2 touch events, with a gesture
# grab that rejects each touch after 50 ms and an application window
# below it (an ownership scenario). The recording is validated and shown
# with the inspector's text views; from a terminal, the inspector then
# opens on it.
#
# Usage: demo.sh BUILDDIR SRCDIR
set -uo pipefail
builddir=$1
srcdir=$2
tt="$builddir/touchtape"
sample="$srcdir/samples/3m-two-finger.jsonl"
out="$builddir/demo"
rec="$out/demo-recording.jsonl"
export TOUCHTAPE="$tt" TT_DEMO_SAMPLE="$sample" TT_DEMO_OUT="$out"
: "${TT_VM_CACHE:=$builddir/vm-cache}"
export TT_VM_CACHE
mkdir -p "$out"
rm -f "$rec"

say() { printf '\n== %s\n' "$*"; }

say "touchtape validate $sample"
"$tt" validate "$sample" || exit 1

say "booting the VM rig (kernel with uinput, Xorg with XI 2.2): replay + record"
"$srcdir/tests/vm/run" --xorg --timeout 240 --rw "$out" -- bash "$srcdir/cli/demo-guest.sh"
status=$?
if [ "$status" -eq 77 ]; then
	echo "demo: QEMU cannot run here; showing the bundled sample instead of a fresh recording"
	rec="$sample"
elif [ "$status" -ne 0 ] || [ ! -s "$rec" ]; then
	echo "demo: the VM part failed (status $status)" >&2
	exit 1
fi

say "touchtape validate $(basename "$rec")"
"$tt" validate "$rec" || exit 1
say "touchtape inspect --summary"
"$tt" inspect --summary "$rec" || exit 1
say "touchtape inspect --text --width 100 (the lane view, as pasted into a bug report)"
"$tt" inspect --text --width 100 "$rec" | head -n 60

if [ -t 0 ] && [ -t 1 ]; then
	say "opening the inspector on $rec (press ? for help, q to quit)"
	sleep 1
	"$tt" inspect "$rec"
else
	echo
	echo "demo: recording kept at $rec; open it with: $tt inspect $rec"
fi
