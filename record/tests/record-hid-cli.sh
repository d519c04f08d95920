#!/bin/bash
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
# record --hid on the host: what needs no device.
set -uo pipefail
: "${abs_top_builddir:=$PWD}"
: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
failures=0
bad() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }

# --hid follows evdev devices: with --xi alone there are none.
err=$("$TOUCHTAPE" record --hid --xi=:99 -o /dev/null 2>&1)
status=$?
((status == 2)) || bad "--hid --xi without DEVICE: exit $status, want 2"
[[ $err == *"--hid records the HID devices behind evdev devices"* ]] ||
	bad "--hid --xi without DEVICE: message '$err'"

help=$("$TOUCHTAPE" record --help)
[[ $help == *"      --hid "* ]] || bad "--help lacks --hid"
((failures == 0))
