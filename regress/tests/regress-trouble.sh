#!/bin/bash
# touchtape regress --vm when no case could run is trouble, exit 2 (not 1,
# which says a case differs), and the TAP says so with a "Bail out!" so a
# CI's TAP reader does not see an empty, passing run:
#  - QEMU fails to start (a stand-in QEMU that exits 1);
#  - the guest gives no exit status (a stand-in QEMU that exits 0 at once);
#  - the rig's lock cannot be opened (a lock file the user may not read:
#    as nobody when this runs as root).
# No VM boots: the rig runs with a stand-in kernel cache (mkcache finds it
# built) and a lock of its own, so it never waits for another test's VM.
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
chmod 755 "$tmp"
suite="$tmp/suite"
mkdir -p "$suite"
cp "$samples/3m-two-finger.jsonl" "$suite/"

# A kernel cache mkcache takes as built: its stamp is that of the guest
# init, and the package linux-image-amd64 depends on is remembered.
cache="$tmp/cache"
kdir="$cache/kernels/0.0.0-stand-in"
mkdir -p "$kdir/root/lib/modules/0.0.0-stand-in" "$cache/debs"
md5sum <"$abs_top_srcdir/tests/vm/guest-init" >"$kdir/stamp"
echo 0.0.0-stand-in >"$kdir/kver"
: >"$kdir/vmlinux"
: >"$kdir/initrd"
echo linux-image-0.0.0-stand-in >"$cache/meta-package"
touch -d '+1 day' "$cache/meta-package"
printf '#!/bin/sh\nexit 1\n' >"$tmp/qemu-fails"
printf '#!/bin/sh\nexit 0\n' >"$tmp/qemu-quits"
chmod 755 "$tmp/qemu-fails" "$tmp/qemu-quits"
: >"$tmp/lock"
chmod 666 "$tmp/lock"
mkdir -m 1777 "$tmp/scratch"
rig_env=(env -u KERNEL_DEB -u TT_SKIP_VM TT_VM_CACHE="$cache" TT_VM_ACCEL=tcg TT_VM_LOCK="$tmp/lock" TMPDIR="$tmp/scratch")

# no_case_ran WHAT ERR-REGEX COMMAND...: exit 2, a Bail out!, ERR said.
no_case_ran() {
	local what=$1 regex=$2
	shift 2
	expect_exit 2 "$what" -- "$@"
	expect_grep '^Bail out! no case ran' "$tmp/out" "$what: the TAP bails out"
	expect_grep "$regex" "$tmp/err" "$what: said why"
	grep -q '^ok ' "$tmp/out" && fail "$what: a case passed"
	return 0
}
no_case_ran "QEMU fails to start" 'QEMU cannot start here' \
	"${rig_env[@]}" TT_VM_QEMU="$tmp/qemu-fails" "$TOUCHTAPE" regress --vm "$suite"
no_case_ran "no status from the guest" 'the VM rig failed \(status 125\)' \
	"${rig_env[@]}" TT_VM_QEMU="$tmp/qemu-quits" "$TOUCHTAPE" regress --vm "$suite"

# A lock the user may not open (root may open anything: nobody then).
chmod 000 "$tmp/lock"
as_user=()
if [ "$(id -u)" = 0 ]; then
	if command -v setpriv >/dev/null; then
		as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/nonexistent)
	else
		as_user=(false)
	fi
fi
if [ "${as_user[0]:-}" = false ]; then
	echo "# setpriv missing: the lock check is not run"
else
	no_case_ran "the lock cannot be opened" 'lock.*Permission denied|cannot open the lock' \
		"${as_user[@]}" "${rig_env[@]}" TT_VM_QEMU="$tmp/qemu-quits" "$TOUCHTAPE" regress --vm "$suite"
fi
finish
