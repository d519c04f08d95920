# shellcheck shell=bash
# Shared by the tests of touchtape regress (sourced): paths, skips, and
# the checks of a report on several kernels.
: "${abs_top_srcdir:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${abs_top_builddir:=$PWD}"
: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

# need TOOL...: skips (77) without one of them.
need() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null || { echo "SKIP: $t missing (./bootstrap installs it)"; exit 77; }
	done
}

# need_vm: skips (77) where the VM rig cannot boot; sets the VM cache.
need_vm() {
	[[ "${TT_SKIP_VM:-}" == 1 ]] && { echo "SKIP: TT_SKIP_VM=1"; exit 77; }
	command -v "${TT_VM_QEMU:-qemu-system-x86_64}" >/dev/null || { echo "SKIP: no QEMU"; exit 77; }
	export TT_VM_CACHE="${TT_VM_CACHE:-$abs_top_builddir/vm-cache}"
}

# tap_kernels TAP VERDICT KERNEL...: the TAP has one subtest per KERNEL,
# in that order, each with VERDICT ("ok" or "not ok"); VERDICT may be
# given again before a KERNEL.
tap_kernels() {
	local tap=$1 verdict n=0
	shift
	while (($#)); do
		case $1 in ok | "not ok") verdict=$1; shift; continue ;; esac
		n=$((n + 1))
		grep -qx "# Subtest: $1" "$tap" || fail "TAP: no subtest named $1"
		grep -qx "$verdict $n - $1" "$tap" || fail "TAP: the verdict on $1 is not '$verdict $n'"
		shift
	done
	[[ "$(head -n2 "$tap")" == $'TAP version 14\n1..'"$n" ]] || fail "TAP version and plan"
	[[ $(grep -c '^TAP version' "$tap") == 1 ]] || fail "TAP: the subtests keep their version lines"
}

# junit_kernels XML KERNEL...: valid JUnit, one testsuite per KERNEL, in
# that order, named so.
junit_kernels() {
	local xml=$1 i=0
	shift
	xmllint --noout --schema "$abs_top_srcdir/regress/tests/junit.xsd" "$xml" || fail "$xml: not valid JUnit"
	[[ "$(xmllint --xpath 'count(//testsuite)' "$xml")" == "$#" ]] || fail "$xml: not one testsuite per kernel"
	for k in "$@"; do
		i=$((i + 1))
		[[ "$(xmllint --xpath "string(//testsuite[$i]/@name)" "$xml")" == "$k" ]] || fail "$xml: testsuite $i is not named $k"
	done
}
