#!/bin/bash
# touchtape regress --vm with --kernel given twice, on the host alone: a
# stand-in for the VM rig (TOUCHTAPE_VM_RIG) runs the guest's side as the
# rig would, with a uname that names the kernel it was given and a
# stand-in regress whose second case differs on the second kernel only.
# One TAP subtest and one JUnit testsuite per kernel, each named by the
# kernel's uname -r and the versions its cases ran with; --keep gets a
# folder per kernel; the summary names the case whose verdict differs and
# its first difference; exit 1.
# A kernel whose run never started is trouble (exit 2), said in both.
set -euo pipefail
# shellcheck source=regress/tests/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need xmllint
tmp=$(mktemp -d "${TMPDIR:-/tmp}/regress-kernels.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/bin" "$tmp/suite"
: >"$tmp/suite/a.jsonl"
: >"$tmp/suite/b.jsonl"
# uname -r: the kernel the stand-in rig was asked to boot.
cat >"$tmp/bin/uname" <<'EOF'
#!/bin/sh
echo "$FAKE_KVER"
EOF
# The rig: --kernel K boots "K.0-fake" (kernel "none" fails to boot);
# the command after "--" runs with this uname, the stand-in regress in
# place of touchtape.
cat >"$tmp/rig" <<EOF
#!/bin/bash
while [[ \$1 != -- ]]; do
	[[ \$1 == --kernel ]] && { k=\$(basename "\$2"); shift; }
	shift
done
shift
[[ \$k == none ]] && { echo "rig: cannot boot none" >&2; exit 125; }
cmd=("\$@")
# the stand-in regress in place of touchtape (the word before "regress")
for i in "\${!cmd[@]}"; do [[ \${cmd[i]} == regress ]] && { cmd[i-1]="$tmp/regress"; break; }; done
FAKE_KVER="\$k.0-fake" PATH="$tmp/bin:\$PATH" exec "\${cmd[@]}"
EOF
# regress in the guest: case b differs on 6.12 only; it records its
# arguments (--keep and --junit as the guest got them).
cat >"$tmp/regress" <<'EOF'
#!/bin/bash
k=$(uname -r)
printf '%s\n' "$@" >"$ARGS_LOG.$k"
while (($#)); do
	case $1 in
	--junit) junit=$2; shift ;;
	--keep) mkdir -p "$2"; shift ;;
	esac
	shift
done
# Case a ran with libinput, case b (on 6.12) with libinput and Xorg: the
# kernel's suite names each version once.
li=libinput\ 1.22.1
[[ $k == 6.12.0-fake ]] && li=libinput\ 1.26.0
printf 'TAP version 14\n1..2\nok 1 - a.jsonl\n  ---\n  versions: "%s"\n  ...\n' "$li"
if [[ $k == 6.12.0-fake ]]; then
	printf 'not ok 2 - b.jsonl\n  ---\n  message: "1 difference from its expected recording"\n'
	printf '  severity: fail\n  versions: "%s, Xorg 21.1.13"\n' "$li"
	printf '  differences:\n    - "b.jsonl:12 /keep/b.jsonl/replayed.jsonl:14: slot 2 touch at +0.5 s: path parts by 3.1 mm at 1.204 s"\n  ...\n'
	f=1 r=1
else
	printf 'ok 2 - b.jsonl\n'
	f=0 r=0
fi
cat >"$junit" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="touchtape regress" tests="2" failures="$f" errors="0" skipped="0" time="1.000">
  <testsuite name="touchtape regress" tests="2" failures="$f" errors="0" skipped="0" time="1.000" timestamp="2026-01-01T00:00:00" hostname="guest">
    <testcase classname="touchtape.regress" name="a.jsonl" file="a.jsonl" time="0.500">
    </testcase>
    <testcase classname="touchtape.regress" name="b.jsonl" file="b.jsonl" time="0.500">
    </testcase>
  </testsuite>
</testsuites>
XML
exit $r
EOF
chmod +x "$tmp/bin/uname" "$tmp/rig" "$tmp/regress"
export TOUCHTAPE_VM_RIG="$tmp/rig" ARGS_LOG="$tmp/args"

rc=0
(cd "$tmp" && "$TOUCHTAPE" regress --vm --kernel 6.1 --kernel=6.12 --junit "$tmp/report.xml" --keep "$tmp/keep" suite) \
	>"$tmp/tap" 2>"$tmp/err" || rc=$?
cat "$tmp/tap" "$tmp/err"
[[ $rc == 1 ]] || fail "want exit 1 (a case differs on one kernel), got $rc"
tap_kernels "$tmp/tap" ok "6.1.0-fake (libinput 1.22.1)" "not ok" "6.12.0-fake (libinput 1.26.0, Xorg 21.1.13)"
grep -qx '    1..2' "$tmp/tap" || fail "the subtest's plan is not indented"
grep -qx '    not ok 2 - b.jsonl' "$tmp/tap" || fail "the second kernel's failing case"
want='touchtape regress: b.jsonl: passes on 6.1.0-fake, differs on 6.12.0-fake: slot 2 touch at +0.5 s: path parts by 3.1 mm at 1.204 s'
grep -qxF "$want" "$tmp/err" || fail "the summary does not name the case that differs"
grep -q 'a.jsonl: passes' "$tmp/err" && fail "a case with the same verdict on both is listed"
grep -qF '2 kernels: 6.1.0-fake passed, 6.12.0-fake failed; 1 case with verdicts that differ' "$tmp/err" ||
	fail "the kernels' summary"

# The guest's --keep is a folder per kernel; --junit a file per kernel.
grep -qx "$tmp/keep/6.12.0-fake" "$tmp/args.6.12.0-fake" || fail "--keep is not per kernel"
[[ -d "$tmp/keep/6.1.0-fake" ]] || fail "no kept folder for 6.1.0-fake"
grep -qx -- "--vm" "$tmp/args.6.1.0-fake" && fail "--vm reached the guest"
grep -q -- "--kernel" "$tmp/args.6.1.0-fake" && fail "--kernel reached the guest"

junit_kernels "$tmp/report.xml" "6.1.0-fake (libinput 1.22.1)" "6.12.0-fake (libinput 1.26.0, Xorg 21.1.13)"
grep -q '<testsuites name="touchtape regress" tests="4" failures="1" errors="0" skipped="0"' "$tmp/report.xml" ||
	fail "JUnit: the counts of both kernels"
[[ "$(xmllint --xpath 'count(//testsuite[2]/testcase)' "$tmp/report.xml")" == 2 ]] || fail "JUnit: the cases"

# A JUnit file that cannot be written: said before any kernel boots.
rm -f "$tmp"/args.*
rc=0
(cd "$tmp" && "$TOUCHTAPE" regress --vm --kernel 6.1 --kernel 6.12 --junit "$tmp/no/such/report.xml" suite) \
	>"$tmp/tap3" 2>"$tmp/err3" || rc=$?
[[ $rc == 2 ]] || fail "an unwritable --junit: want exit 2, got $rc"
compgen -G "$tmp/args.*" >/dev/null && fail "a kernel was booted before the JUnit file was found unwritable"
grep -q 'no/such/report.xml' "$tmp/err3" || fail "the unwritable JUnit file is not named"

# A kernel that does not boot: its subtest and testsuite say so, exit 2.
rc=0
(cd "$tmp" && "$TOUCHTAPE" regress --vm --kernel 6.1 --kernel none --junit "$tmp/report2.xml" suite) \
	>"$tmp/tap2" 2>"$tmp/err2" || rc=$?
cat "$tmp/tap2" "$tmp/err2"
[[ $rc == 2 ]] || fail "want exit 2 (a kernel did not run), got $rc"
grep -qx 'not ok 2 - none' "$tmp/tap2" || fail "the kernel that did not boot is not a failed subtest"
grep -qF 'not run on none' "$tmp/err2" || fail "the cases not run on the second kernel are not said"
junit_kernels "$tmp/report2.xml" "6.1.0-fake (libinput 1.22.1)" none
[[ "$(xmllint --xpath 'string(//testsuite[2]/@errors)' "$tmp/report2.xml")" == 1 ]] || fail "JUnit: no error for the kernel that did not boot"
exit 0
