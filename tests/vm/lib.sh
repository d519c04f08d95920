# shellcheck shell=bash disable=SC2034 # (sourced; sets variables for the tests)
# Shared by the VM tests (sourced; bash).  On the host, vm_reexec boots
# the VM and runs the sourcing script again inside it; in the guest
# (TT_VM_GUEST=1) the script continues past that call.

# Locate the source tree from the test's own path when make did not say.
: "${abs_top_srcdir:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${abs_top_builddir:=$PWD}"
export abs_top_srcdir abs_top_builddir
vm_data="$abs_top_srcdir/tests/vm/data"

fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }
note() { printf '# %s\n' "$*"; }

# The system python3: the guest scripts' modules (python3-libevdev, ...)
# are installed for it, and a pyenv shim first on PATH may not see the
# guest's /dev.
py=/usr/bin/python3
[[ -x $py ]] || py=python3

# node_named NAME: prints the evdev node of the input device named
# exactly NAME (guest side).
node_named() {
	local e
	for e in /sys/class/input/event*; do
		[[ "$(cat "$e/device/name" 2>/dev/null)" == "$1" ]] && { echo "/dev/input/${e##*/}"; return 0; }
	done
	return 1
}

# vm_boot NAME [run options...] -- COMMAND...: host side; boots the VM for
# COMMAND and exits with 0, 1 or 77.
vm_boot() {
	local name="$1" rc=0 t0=$SECONDS
	shift
	"$abs_top_srcdir/tests/vm/run" "$@" || rc=$?
	note "$name: VM status $rc after $((SECONDS - t0)) s"
	case "$rc" in
	0) exit 0 ;;
	77) exit 77 ;;
	*) exit 1 ;;
	esac
}

# vm_reexec SCRIPT [run options...]: host side; runs SCRIPT again in the VM
# and exits with 0, 1 or 77.
vm_reexec() {
	[[ "${TT_VM_GUEST:-}" == 1 ]] && return 0
	local script="$1"
	shift
	vm_boot "$(basename "$script")" "$@" -- bash "$script"
}

# vm_enter BINARY HINT SCRIPT [run options...]: the preamble of a VM test
# that drives BINARY with python3 helpers. On the host: fails with HINT
# when BINARY is not built, skips (77) without python3, else re-runs
# SCRIPT in the VM (vm_reexec, which exits). In the guest: returns.
vm_enter() {
	[[ "${TT_VM_GUEST:-}" == 1 ]] && return 0
	local bin=$1 hint=$2
	shift 2
	[[ -x "$bin" ]] || fail "$hint"
	command -v python3 >/dev/null || { note "no python3"; exit 77; }
	vm_reexec "$@"
}

# vm_xi_probe: sets $probe to tests/vm/xi-ownership-probe. Run outside make
# (no probe in the build tree), it builds one into a scratch folder the
# guest can read and exports it as XI_OWNERSHIP_PROBE for the guest.
vm_xi_probe() {
	probe="${XI_OWNERSHIP_PROBE:-$abs_top_builddir/tests/vm/xi-ownership-probe}"
	[[ "${TT_VM_GUEST:-}" == 1 || -x "$probe" ]] && return 0
	pdir="$(mktemp -d "${TMPDIR:-/tmp}/xi-probe.XXXXXX")"
	trap 'rm -rf "$pdir"' EXIT
	# shellcheck disable=SC2046 # pkg-config output is a word list
	cc -O2 -o "$pdir/xi-ownership-probe" "$abs_top_srcdir/tests/vm/xi-ownership-probe.c" \
		$(pkg-config --cflags --libs x11 xi) || fail "cannot build xi-ownership-probe"
	export XI_OWNERSHIP_PROBE="$pdir/xi-ownership-probe"
	probe="$XI_OWNERSHIP_PROBE"
}

# wait_for SECONDS COMMAND...: poll COMMAND every 0.05 s.
wait_for() {
	local limit="$1" t0=$SECONDS
	shift
	until "$@"; do
		((SECONDS - t0 < limit)) || return 1
		sleep 0.05
	done
}

# make_touchscreen DESC: creates the uinput device, sets $node and $devpid.
make_touchscreen() {
	evemu-device "$1" >"$tmp/evemu-device.out" 2>&1 &
	devpid=$!
	node=""
	_node_ready() {
		node="$(grep -o '/dev/input/event[0-9]*' "$tmp/evemu-device.out" | head -n1 || true)"
		[[ -n "$node" && -c "$node" ]]
	}
	wait_for 15 _node_ready || {
		cat "$tmp/evemu-device.out" >&2
		fail "evemu-device created no device node"
	}
	note "uinput touchscreen at $node"
}

# A replay that waits, and recorders of its device (guest side). The
# caller defines bad MESSAGE (a failure that lets the test go on).
#
# vm_replay FILE [replay options]: creates the replay's devices, which
# wait for vm_go; $rpid. (Started at once, a replay under a loaded
# emulated guest would be over before the recorders run.)
vm_replay() {
	local file=$1
	shift
	rm -f "$tmp/go"
	mkfifo "$tmp/go"
	"${TOUCHTAPE:-$abs_top_builddir/touchtape}" replay --quiet --wait "$@" "$file" <"$tmp/go" >"$tmp/replay.out" 2>&1 &
	rpid=$!
	exec 3>"$tmp/go"
	_vm_replay_dev() { "${TOUCHTAPE:-$abs_top_builddir/touchtape}" list 2>/dev/null | grep -q "touchtape replay:"; }
	wait_for 20 _vm_replay_dev || { cat "$tmp/replay.out"; fail "$file: no replay device"; }
}

# vm_go: the replay starts playing.
vm_go() {
	echo >&3
	exec 3>&-
}

# vm_record_replay OUT WANT [record options]: a recorder of the replay's
# device, started when OUT has a line matching WANT; $recpid.
vm_record_replay() {
	local o=$1 want=$2
	shift 2
	"${TOUCHTAPE:-$abs_top_builddir/touchtape}" record --quiet "$@" -o "$o" "touchtape replay:*" 2>"$o.err" &
	recpid=$!
	_vm_started() { grep -q "$want" "$o" 2>/dev/null; }
	wait_for 30 _vm_started || { cat "$o.err"; bad "$o: the recorder did not start"; }
}

# vm_finish PID...: waits for the replay, then stops the recorders (they
# may have ended with their device).
vm_finish() {
	wait "$rpid" || { cat "$tmp/replay.out"; bad "the replay failed"; }
	sleep 1
	local p
	for p in "$@"; do
		kill -INT "$p" 2>/dev/null || true
		wait "$p" || bad "a recorder exited with $?"
	done
}

# vm_san_env: the options for touchtape-san (ASan+UBSan): LeakSanitizer on,
# the first report fatal with status 66 (touchtape itself exits 0, 1, 2 or
# 128+N), no colours in the logs.
vm_san_env() {
	export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=0:exitcode=66:color=never"
	export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=66:color=never"
}

# In the guest: scratch dir in the throw-away overlay.
if [[ "${TT_VM_GUEST:-}" == 1 ]]; then
	tmp="$(mktemp -d)"
fi
