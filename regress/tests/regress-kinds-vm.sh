#!/bin/bash
# touchtape regress --vm runs every kind of case, in ONE boot: a HID
# recording (uhid, with hid-multitouch, wacom and hid-generic loaded), a
# kernel (evdev) recording, one with a libinput layer (udevd, replay
# --libinput), an XI recording (Xorg) and one with a Wayland layer
# (Weston), each started by regress in the guest as the first case needing
# it runs, once (Weston and Xorg take turns). Each kind is there twice:
# as it is (passes), and with its expected file changed, which fails with
# the difference of its own layer named in the TAP diagnostics and the
# JUnit failure. Every verdict names the guest's kernel (uname -r) and
# what ran, in TAP 14 (tap-parser reads it) and in JUnit properties.
set -euo pipefail
# shellcheck source=regress/tests/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_vm
need tap-parser xmllint python3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/regress-kinds.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
T=$TOUCHTAPE
data="$abs_top_srcdir/regress/tests/data"
corpus_hid="$abs_top_srcdir/tests/corpus/hid-recorder"
samples="$abs_top_srcdir/samples"
suite="$tmp/suite"
mkdir -p "$suite"/{hid,kernel,libinput,wayland,xi}

# shift_frames FROM_US IN OUT: the evdev frames from FROM_US on come 1 s
# later in OUT: a touch the replay makes is not at its time in OUT.
shift_frames() {
	awk -F'"t":' -v from="$1" '/"type":"frame"/ { split($2, a, ","); if (a[1] + 0 >= from) { sub(/"t":[0-9]+/, "\"t\":" a[1] + 1000000) } } { print }' "$2" >"$3"
	cmp -s "$2" "$3" && fail "$3 was not changed"
	return 0
}
# TCG on a loaded machine: frames can be late, and the guest can stall
# for a tenth of a second (the largest interval in a touch's motion, the
# frames per half second). What this test checks is which layer differs,
# not timing: regress-vm.sh and diff-replay-vm.sh check the replay's.
tolerant() {
	local stem=${1%.gz}
	printf 'time-tolerance = 300ms\nstall-tolerance = 1s\nignore = rhythm\n' >"${stem%.*}.regress"
}

# HID: compared with its expected recording (written by --bless).
cp "$corpus_hid/touchtape-touchpad.hid" "$data/touchtape-touchpad.expected.jsonl" "$suite/hid/"
cp "$corpus_hid/touchtape-touchpad.hid" "$suite/hid/touchpad-changed.hid"
shift_frames 500000 "$data/touchtape-touchpad.expected.jsonl" "$suite/hid/touchpad-changed.expected.jsonl"
# Kernel: the N-Trig sample.
cp "$samples/ntrig-type-a.jsonl" "$suite/kernel/ntrig.jsonl"
cp "$samples/ntrig-type-a.jsonl" "$suite/kernel/ntrig-changed.jsonl"
shift_frames 50000 "$samples/ntrig-type-a.jsonl" "$suite/kernel/ntrig-changed.expected.jsonl"
# libinput: the changed one's libinput made one touch of the two.
cp "$data/libinput-3m-two-finger.jsonl.gz" "$suite/libinput/3m.jsonl.gz"
cp "$data/libinput-3m-two-finger.jsonl.gz" "$suite/libinput/3m-changed.jsonl.gz"
gzip -dc "$data/libinput-3m-two-finger.jsonl.gz" | grep -v '"li":"TOUCH_[A-Z]*".*"slot":1,' \
	>"$suite/libinput/3m-changed.expected.jsonl"
# XI: the changed one's X server delivered one touch of two.
cp "$samples/xi-touchscreen-two-finger.jsonl" "$suite/xi/two-finger.jsonl"
cp "$samples/xi-touchscreen-two-finger.jsonl" "$suite/xi/two-finger-changed.jsonl"
grep -v '"xi":"Touch[A-Za-z]*".*"detail":2,' "$samples/xi-touchscreen-two-finger.jsonl" \
	>"$suite/xi/two-finger-changed.expected.jsonl"
# Wayland: compared with what regress --bless made of it in the rig (the
# client's events depend on when the device reached the compositor); the
# changed one's client saw one wl_touch.down of two.
cp "$data/wayland-3m-two-finger.jsonl.gz" "$data/wayland-3m-two-finger.expected.jsonl.gz" "$suite/wayland/"
cp "$data/wayland-3m-two-finger.jsonl.gz" "$suite/wayland/3m-changed.jsonl.gz"
gzip -dc "$data/wayland-3m-two-finger.expected.jsonl.gz" | awk '/"ev":"down"/ { n++; if (n == 2) next } { print }' \
	>"$suite/wayland/3m-changed.expected.jsonl"
for f in "$suite"/*/*; do
	case "$f" in *.expected.jsonl* | *.regress) ;; *) tolerant "$f" ;; esac
done
# Under TCG Weston's frame anomalies come and go from run to run, and the
# client's latency is 10 ms in one run and 17 ms in the next.
for f in "$suite"/wayland/*.regress; do printf 'ignore = anomalies\nlatency-tolerance = 50ms\n' >>"$f"; done

rc=0
(cd "$tmp" && "$T" regress --vm --junit "$tmp/report.xml" --keep "$tmp/keep" "$suite") >"$tmp/tap" 2>"$tmp/err" || rc=$?
cat "$tmp/tap" "$tmp/err"
grep -q 'QEMU cannot start here' "$tmp/err" && { echo "SKIP: QEMU cannot start"; exit 77; }
[[ $rc == 1 ]] || fail "want exit 1 (the changed cases differ, nothing else), got $rc"

kernel=$(sed -n 's/^  kernel: "\(.*\)"$/\1/p' "$tmp/tap" | sort -u)
[[ -n "$kernel" && "$kernel" != *$'\n'* ]] || fail "every verdict names one kernel, not '$kernel'"
[[ "$kernel" == "$(cat "$(TT_VM_CACHE="${TT_VM_CACHE:-$abs_top_builddir/vm-cache}" "$abs_top_srcdir/tests/vm/mkcache")/kver")" ]] ||
	fail "the kernel named ($kernel) is not the guest's"
[[ "$(head -n2 "$tmp/tap")" == $'TAP version 14\n1..10' ]] || fail "TAP version and plan"

# verdict N OK NAME RAN: the TAP line and what the case says it ran on.
verdict() {
	grep -qx "$2 $1 - $3" "$tmp/tap" || fail "want '$2 $1 - $3'"
	awk -v n="$1" '/^(not )?ok / { cur = $0 ~ "ok " n " - " } cur' "$tmp/tap" >"$tmp/case$1"
	grep -qx "  ran: \"$4\"" "$tmp/case$1" || fail "case $1 ($3) does not say it ran on $4"
	grep -qx "  kernel: \"$kernel\"" "$tmp/case$1" || fail "case $1 ($3) names no kernel"
}
# differs N REGEX: the changed case's difference, in TAP and JUnit. (No
# grep -q after a pipe: under pipefail the writer's SIGPIPE would fail it.)
differs() {
	grep -Eq "^    - \".*$2" "$tmp/case$1" || fail "case $1: the difference '$2' is not named"
	local name
	name=$(sed -n "s/^not ok $1 - //p" "$tmp/tap")
	xmllint --xpath "string(//testcase[@name=\"$name\"]/failure)" "$tmp/report.xml" | grep -E "$2" >/dev/null ||
		fail "case $1: the JUnit failure does not name '$2'"
}
hid="uhid with hid-multitouch, wacom, hid-generic"
verdict 1 'not ok' hid/touchpad-changed.hid "$hid"
verdict 2 ok hid/touchtape-touchpad.hid "$hid"
verdict 3 'not ok' kernel/ntrig-changed.jsonl uinput
verdict 4 ok kernel/ntrig.jsonl uinput
verdict 5 'not ok' libinput/3m-changed.jsonl.gz "uinput, udevd"
verdict 6 ok libinput/3m.jsonl.gz "uinput, udevd"
verdict 7 'not ok' wayland/3m-changed.jsonl.gz "uinput, Weston"
verdict 8 ok wayland/wayland-3m-two-finger.jsonl.gz "uinput, Weston"
verdict 9 'not ok' xi/two-finger-changed.jsonl "uinput, Xorg :0"
verdict 10 ok xi/two-finger.jsonl "uinput, Xorg :0"
# versions N REGEX: what the case ran on, with its versions, in TAP and JUnit.
versions() {
	grep -Eqx "  versions: \"$2\"" "$tmp/case$1" || fail "case $1: no versions like '$2'"
	local name
	name=$(sed -En "s/^(not )?ok $1 - //p" "$tmp/tap")
	xmllint --xpath "string(//testcase[@name=\"$name\"]/properties/property[@name=\"versions\"]/@value)" \
		"$tmp/report.xml" | grep -Ex "$2" >/dev/null || fail "case $1: the JUnit versions are not like '$2'"
}
versions 6 'libinput [0-9][0-9.]*'
versions 8 'Weston [0-9][0-9.]*'
versions 10 'Xorg [0-9][0-9.]*'
grep -q '^  versions:' "$tmp/case4" && fail "case 4 (uinput alone) names versions"
differs 1 'device 0 slot 0 touch at \+[0-9.]+ s'
differs 3 'device 0 slot 3 touch at \+0\.0[0-9]+ s .* is only in '
differs 5 'libinput device 0: touches 1 vs 2'
differs 7 'wayland: wl_touch.down events 1 vs 2'
differs 9 'XI touch \[observer\] at \+[0-9.]+ s is only in '
grep -Eq "10 cases: 5 passed, 5 failed, 0 errors, 0 skipped in [0-9.]* s on $kernel" "$tmp/err" || fail "the summary line"

# What a case needs was started once in the boot (services.log, kept
# with --keep): the drivers, udevd, Weston, then Xorg (which stopped it).
log="$tmp/keep/services.log"
for s in 'modprobe -a uhid' 'guest-udevd' 'guest-weston" start' 'guest-xorg" start'; do
	[[ "$(grep -c "^== .*$s" "$log")" == 1 ]] || { cat "$log"; fail "'$s' did not run exactly once"; }
done
# The rig removed its boot folder (it left one per boot in the cache).
cache="${TT_VM_CACHE:-$abs_top_builddir/vm-cache}"
left=$(find "$cache" -maxdepth 1 -name 'run.*' -newer "$suite" | head -n1)
[[ -z "$left" ]] || fail "the rig left $left in its cache"
# The re-recordings hold the layer compared.
grep -q '"type":"wl"' "$tmp/keep/wayland_3m-changed.jsonl.gz/replayed.jsonl" || fail "no Wayland events recorded again"
grep -q '"type":"li"' "$tmp/keep/libinput_3m-changed.jsonl.gz/replayed.jsonl" || fail "no libinput events recorded again"
grep -q '"type":"xi"' "$tmp/keep/xi_two-finger-changed.jsonl/replayed.jsonl" || fail "no XI events recorded again"

# TAP 14 read by a consumer: 10 tests, 5 failed, every one with its kernel.
NODE_PATH=/usr/share/nodejs tap-parser -j <"$tmp/tap" >"$tmp/parsed.json" || true
python3 - "$tmp/parsed.json" "$kernel" <<'PY' || fail "tap-parser does not read the TAP as it should"
import json, sys
ev = json.load(open(sys.argv[1]))
asserts = [e[1] for e in ev if e[0] == "assert"]
complete = [e[1] for e in ev if e[0] == "complete"][0]
assert [e for e in ev if e[0] == "version"][0][1] == 14
assert complete["count"] == 10 and complete["fail"] in (5, 6), complete
assert all(a["diag"]["kernel"] == sys.argv[2] for a in asserts), asserts
PY
# JUnit: valid; the kernel a property of the suite and of each case.
xmllint --noout --schema "$abs_top_srcdir/regress/tests/junit.xsd" "$tmp/report.xml" || fail "the JUnit XML is not valid"
[[ "$(xmllint --xpath 'string(/testsuites/testsuite/properties/property[@name="kernel"]/@value)' "$tmp/report.xml")" == "$kernel" ]] ||
	fail "JUnit: the suite's kernel property"
[[ "$(xmllint --xpath 'count(//testcase/properties/property[@name="kernel"])' "$tmp/report.xml")" == 10 ]] ||
	fail "JUnit: a case without its kernel property"
[[ "$(xmllint --xpath 'string(//testcase[@name="xi/two-finger.jsonl"]/properties/property[@name="ran"]/@value)' "$tmp/report.xml")" == "uinput, Xorg :0" ]] ||
	fail "JUnit: what the XI case ran on"
exit 0
