#!/bin/bash
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
# A second compositor's view, in one VM boot with sway (tests/vm/run --sway:
# sway 1.7, wlroots 0.15, headless + libinput backends), recorded with
# record --wayland beside the replayed kernel device:
#  1. the corpus touchpad pinch (two fingers, out): the seat announces the
#     pointer capability once libinput adds the touchpad, and the
#     recorder's fullscreen surface gets zwp_pointer_gestures_v1 pinch
#     begin, updates and end with 2 fingers, the scale growing, each event
#     stamped with a kernel frame's time and received after that frame
#     (Weston 10, tests/wayland-vm.sh, offers no pointer gestures);
#  2. the ten-finger touchscreen sample: one wl_touch down...up per kernel
#     touch, in order, linked by analyze.
# analyze, print and validate read both files. The checks are
# tests/wayland-sway-vm-check.py. WAYLAND_SWAY_VM_KEEP=DIR keeps the files.
# Measured under TCG: sway up in 6-18 s, the run 10-20 s, 20-45 s in all
# (tests/vm/README.md, "Sway").
set -uo pipefail
: "${abs_top_srcdir:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
. "$abs_top_srcdir/tests/vm/lib.sh"
keep=()
if [[ -n "${WAYLAND_SWAY_VM_KEEP:-}" && "${TT_VM_GUEST:-}" != 1 ]]; then
	mkdir -p "$WAYLAND_SWAY_VM_KEEP"
	keep=(--rw "$WAYLAND_SWAY_VM_KEEP")
fi
if [[ "${TT_VM_GUEST:-}" != 1 ]]; then
	[[ -x "${abs_top_builddir:-.}/touchtape" ]] || fail "build touchtape first"
	[[ "$("${abs_top_builddir:-.}/touchtape" record --help 2>&1)" == *--wayland* ]] ||
		{ note "record --wayland is not built here"; exit 77; }
	command -v sway >/dev/null && command -v seatd >/dev/null ||
		{ note "no sway or seatd (apt-get install -y sway seatd)"; exit 77; }
fi
vm_enter "${abs_top_builddir:-.}/touchtape" "build touchtape first" "${BASH_SOURCE[0]}" \
	--sway --timeout 180 "${keep[@]}"

: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
T=$TOUCHTAPE
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
out="${WAYLAND_SWAY_VM_KEEP:-$tmp}"
rm -f "$out"/pinch.* "$out"/ts.*
check() { $py "$abs_top_srcdir/tests/wayland-sway-vm-check.py" "$@"; }
samples="$abs_top_srcdir/samples"
pinch="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}/evemu/kwin-gestures__evemu_touchpad_pinch_out_2"
failures=0
bad() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }
[[ -n "${WAYLAND_DISPLAY:-}" ]] || fail "no WAYLAND_DISPLAY: sway not started"

# readers NAME: analyze, print and validate read NAME.jsonl: status 0 or 1
# (findings), never trouble; validate's findings are kept for the check.
readers() {
	local f="$out/$1.jsonl" rc
	"$T" analyze --json "$f" >"$out/$1.analyze.json"
	rc=$?; ((rc <= 1)) || bad "analyze $1: status $rc"
	"$T" print "$f" >"$out/$1.print" 2>&1
	rc=$?; ((rc <= 1)) || bad "print $1: status $rc"
	"$T" validate "$f" >"$out/$1.validate" 2>&1
	rc=$?; ((rc <= 1)) || bad "validate $1: status $rc"
	note "$1: validate status $rc: $(grep -o '\[[a-z-]*\]' "$out/$1.validate" | sort | uniq -c | tr -s ' \n' ' ')"
}

# 1. The touchpad pinch: sway's pointer gestures.
if [[ -f "$pinch" ]]; then
	vm_replay "$pinch"
	vm_record_replay "$out/pinch.jsonl" '"kind":"wayland-connected"' --wayland
	# sway sends a gesture to the surface with pointer focus, and gives
	# focus only on pointer activity: a pinch begin on a cursor that has
	# not moved since the surface was mapped reaches nobody (seen: the
	# updates and end, no begin). The cursor is put on the surface first.
	_entered() { grep -q '"wl":"wl_pointer".*"ev":"enter"' "$out/pinch.jsonl"; }
	swaymsg seat seat0 cursor set 512 384 >/dev/null || bad "swaymsg could not move the cursor"
	wait_for 20 _entered || bad "the recorder's surface got no pointer focus"
	vm_go
	vm_finish "$recpid"
	readers pinch
	check pinch "$out" || bad "the touchpad pinch through sway"
else
	note "no corpus pinch at $pinch: the pinch part skipped"
fi

# 2. The touchscreen.
vm_replay "$samples/xi-touchscreen-ten-finger.jsonl"
vm_record_replay "$out/ts.jsonl" '"kind":"wayland-connected"' --wayland
vm_go
vm_finish "$recpid"
readers ts
check touch "$out" || bad "the touchscreen through sway"

((failures == 0)) || fail "$failures check(s) failed"
echo "PASS: wayland-sway-vm"
