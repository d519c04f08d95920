#!/bin/bash
# The VM rig's two smoke tests in one boot with Xorg (tests/vm/group):
# smoke-uinput.sh (uinput in, evdev out, against two-finger.expected), then
# smoke-xorg.sh (the same device hot-added to X: XI 2.2 touch and raw
# events, TouchOwnership after a reject). Each still runs alone, in a boot
# of its own, by hand; `make check` runs this one.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
vm_xi_probe
here="$abs_top_srcdir/tests/vm"
vm_group smoke --xorg --timeout 210 -- "$here/smoke-uinput.sh" "$here/smoke-xorg.sh"
