#!/bin/bash
# touchtape regress --vm --bless as an unprivileged user (nobody, when
# this runs as root): no root, no /dev/kvm (TCG), no /dev/uinput on the
# host, the VM cache another user's (read, not written), one boot.
#  - --bless writes the HID case's NAME.expected.jsonl (it had none: a
#    hid-recorder file has no evdev frames of its own) and replaces the
#    kernel case's, saying which it wrote and which it replaced, with no
#    temporary file left; the written one matches the committed golden
#    file (regress/tests/data), so --bless is what made it.
#  - on a terminal (script(1) gives it one) stderr shows the progress:
#    case N of M, the guest's kernel, the time elapsed; the TAP on stdout
#    holds none of it and stays TAP 14.
#  - the rig leaves no run folder behind, in the cache or in $TMPDIR.
set -euo pipefail
: "${abs_top_srcdir:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${abs_top_builddir:=$PWD}"
: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"

[[ "${TT_SKIP_VM:-}" == 1 ]] && { echo "SKIP: TT_SKIP_VM=1"; exit 77; }
command -v "${TT_VM_QEMU:-qemu-system-x86_64}" >/dev/null || { echo "SKIP: no QEMU"; exit 77; }
command -v script >/dev/null || { echo "SKIP: script(1) missing (bsdutils)"; exit 77; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }
T=$TOUCHTAPE
cache="${TT_VM_CACHE:-$abs_top_builddir/vm-cache}"
# The cache built by the user running make check (as a CI image has it).
kdir=$(TT_VM_CACHE="$cache" "$abs_top_srcdir/tests/vm/mkcache") || { echo "SKIP: no VM kernel cache"; exit 77; }
kernel=$(cat "$kdir/kver")

# as_user COMMAND...: COMMAND as nobody when we are root, else as we are.
as_user() {
	if ((EUID == 0)); then
		command -v setpriv >/dev/null || fail "setpriv missing (util-linux)"
		setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/nonexistent "$@"
	else
		"$@"
	fi
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/regress-nobody.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
home="$tmp/user"
mkdir -p "$home/suite/kernel" "$home/tmp"
cp "$abs_top_srcdir/tests/corpus/hid-recorder/touchtape-touchpad.hid" "$home/suite/"
cp "$abs_top_srcdir/samples/ntrig-type-a.jsonl" "$home/suite/kernel/"
# An expected file that is not what the kernel makes: --bless replaces it.
sed -n '1,2p' "$abs_top_srcdir/samples/ntrig-type-a.jsonl" >"$home/suite/kernel/ntrig-type-a.expected.jsonl"
cp "$home/suite/kernel/ntrig-type-a.expected.jsonl" "$tmp/old-expected"
((EUID == 0)) && chown -R 65534:65534 "$home"
as_user test -w "$home/suite" -a ! -w "$cache" || fail "the suite must be the user's and the cache not"
as_user test -w /dev/uinput && echo "# note: this user can write /dev/uinput; --vm does not use it"

rc=0
as_user env -u CI TMPDIR="$home/tmp" TT_VM_CACHE="$cache" TOUCHTAPE="$T" \
	script -qfec "cd '$home' && '$T' regress --vm --bless suite >tap" "$home/terminal" >/dev/null || rc=$?
cat "$home/tap"
tr '\r' '\n' <"$home/terminal" | grep -v '^$' | tail -n 30
grep -q 'QEMU cannot start here' "$home/terminal" && { echo "SKIP: QEMU cannot start"; exit 77; }
[[ $rc == 0 ]] || fail "want exit 0 (both cases run and blessed), got $rc"

# The TAP: TAP 14, two passes on the guest's kernel, nothing of the progress.
[[ "$(head -n2 "$home/tap")" == $'TAP version 14\n1..2' ]] || fail "TAP version and plan"
grep -qx 'ok 2 - touchtape-touchpad.hid' "$home/tap" || fail "the HID case was not run"
grep -qx 'ok 1 - kernel/ntrig-type-a.jsonl' "$home/tap" || fail "the kernel case was not run"
[[ "$(grep -c "^  kernel: \"$kernel\"$" "$home/tap")" == 2 ]] || fail "a verdict does not name the kernel $kernel"
grep -q 'elapsed\|\[K' "$home/tap" && fail "progress in the TAP"
# The progress, on the terminal.
grep -Eq "case 1 of 2, kernel $kernel, [0-9]+:[0-9]{2} elapsed" "$home/terminal" || fail "no progress on the terminal"
# What --bless says it wrote, and what it replaced.
grep -q "touchtape regress: --bless: wrote suite/touchtape-touchpad.expected.jsonl" "$home/terminal" || fail "--bless does not say what it wrote"
grep -q "touchtape regress: --bless: replaced suite/kernel/ntrig-type-a.expected.jsonl" "$home/terminal" ||
	fail "--bless replaced an expected file without saying so"
grep -q '^  blessed: "replaced suite/kernel/ntrig-type-a.expected.jsonl"$' "$home/tap" || fail "the TAP does not say what was replaced"
# The files: the user's, whole, no temporary left.
new="$home/suite/touchtape-touchpad.expected.jsonl"
[[ -s "$new" ]] || fail "no $new"
cmp -s "$tmp/old-expected" "$home/suite/kernel/ntrig-type-a.expected.jsonl" && fail "the old expected file is still there"
"$T" validate "$new" "$home/suite/kernel/ntrig-type-a.expected.jsonl" >/dev/null || fail "a blessed file is not valid"
[[ -z "$(find "$home/suite" -name '*.expected.jsonl.*')" ]] || fail "a temporary file of --bless is left"
((EUID == 0)) && [[ "$(stat -c %u "$new")" != 65534 ]] && fail "the blessed file is not the user's"
# The same evdev frames as the golden file it made (timing aside).
"$T" diff -T 300ms "$abs_top_srcdir/regress/tests/data/touchtape-touchpad.expected.jsonl" "$new" >"$tmp/diff" ||
	{ cat "$tmp/diff"; fail "the blessed HID recording differs from the committed one"; }
# No run folder left behind.
left=$(find "$home/tmp" "$cache" -maxdepth 1 -name 'run.*' -user "$(as_user id -u)" | head -n1)
[[ -z "$left" ]] || fail "the rig left $left"
[[ -z "$(ls -A "$home/tmp")" ]] || fail "left in TMPDIR: $(ls -A "$home/tmp")"
exit 0
