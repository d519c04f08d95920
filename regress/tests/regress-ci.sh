#!/bin/bash
# The CI examples of touchtape-regress(1), run as written: the GitLab CI
# job's script lines and the GitHub Actions job's run steps are read from
# the man page (regress/tests/ci-examples.py) and executed here, in the
# folders their runners would use, as shard 1/4 (GitLab) and 2/4 (GitHub)
# of a suite of three recordings, each on the two kernels the examples
# name, with no /dev/uinput. What a fresh runner would fetch from the
# network is stood in for: "git clone" of the example's URL clones this
# source tree's committed HEAD, "apt-get" only checks that what it would
# install is here, nproc says 2 (this machine's share), and the VM cache
# is the build tree's (a CI caches it between jobs).
# Each job exits 0 with a JUnit report of one testsuite per kernel, named
# by its uname -r, holding exactly the cases of its shard; TAP has one
# subtest per kernel.
set -euo pipefail
# shellcheck source=regress/tests/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_vm
need xmllint python3
python3 -c 'import yaml' 2>/dev/null || { echo "SKIP: python3-yaml missing (./bootstrap installs it)"; exit 77; }
git -C "$abs_top_srcdir" rev-parse --verify -q HEAD >/dev/null 2>&1 ||
	{ echo "SKIP: the examples clone touchtape: $abs_top_srcdir is not a git checkout"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/regress-ci.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# --- the runners' stand-ins ------------------------------------------------
mkdir -p "$tmp/bin"
real_git=$(command -v git)
cat >"$tmp/bin/git" <<EOF
#!/bin/bash
# git clone URL [DIR]: this source tree, as committed.
if [[ \$1 == clone && \$2 == https://example.org/touchtape.git ]]; then
	exec "$real_git" clone -q "$abs_top_srcdir" "\${3:-touchtape}"
fi
exec "$real_git" "\$@"
EOF
real_apt=$(command -v apt-get)
cat >"$tmp/bin/apt-get" <<EOF
#!/bin/bash
# The rig's own apt (fetch-kernel's private configuration, given with -o)
# is the real one.
for a in "\$@"; do [[ \$a == -o ]] && exec "$real_apt" "\$@"; done
EOF
cat >>"$tmp/bin/apt-get" <<'EOF'
# update: nothing; install: every package named must be installed here.
[[ $1 == update ]] && exit 0
for p in "$@"; do
	[[ $p == -* || $p == install ]] && continue
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		{ echo "apt-get stand-in: $p is not installed here" >&2; exit 100; }
done
EOF
printf '#!/bin/sh\necho 2\n' >"$tmp/bin/nproc"
chmod +x "$tmp/bin/git" "$tmp/bin/apt-get" "$tmp/bin/nproc"
export PATH="$tmp/bin:$PATH"

# No /dev/uinput in a CI container: where this machine has one, it is
# hidden from the jobs (a mount namespace, as root), else the test says so.
no_uinput=()
if [[ -e /dev/uinput ]]; then
	if ((EUID != 0)) || ! command -v unshare >/dev/null; then
		echo "SKIP: /dev/uinput exists and cannot be hidden (needs root and unshare)"
		exit 77
	fi
	: >"$tmp/no-uinput"
	# shellcheck disable=SC2016 # expanded by the inner sh
	no_uinput=(unshare --mount sh -c 'mount --bind "$0" /dev/uinput && chmod 000 /dev/uinput && exec "$@"' "$tmp/no-uinput")
fi

# --- the project: three recordings, in shards 3, 1 and 2 of 4 -------------
make_project() {
	mkdir -p "$1/recordings"
	cp "$abs_top_srcdir/samples/3m-two-finger.jsonl" "$1/recordings/bug-1.jsonl"
	cp "$abs_top_srcdir/samples/ntrig-type-a.jsonl" "$1/recordings/bug-2.jsonl"
	cp "$abs_top_srcdir/samples/touchpad-two-finger-swipe.jsonl" "$1/recordings/bug-3.jsonl"
	# TCG on a loaded machine: frames can be late, the rate uneven.
	for i in 1 2 3; do printf 'time-tolerance = 300ms\nignore = rhythm\n' >"$1/recordings/bug-$i.regress"; done
}
make_project "$tmp/gitlab"
for k in 1 2 3; do
	want=bug-$k.jsonl
	got=$("$TOUCHTAPE" regress --list --shard "$k/4" "$tmp/gitlab/recordings" | xargs -rn1 basename)
	[[ "$got" == "$want" ]] || fail "shard $k/4 holds '$got', not '$want'"
done
make_project "$tmp/github"
mkdir -p "$tmp/runner-temp"
python3 "$abs_top_srcdir/regress/tests/ci-examples.py" "$abs_top_srcdir/man/touchtape-regress.1" "$tmp" 1/4 2/4 \
	"$tmp/runner-temp" || fail "the CI examples cannot be read from the man page"
grep -q -- '--shard' "$tmp/gitlab.sh" || fail "the GitLab example runs no shard"
[[ $(grep -o -- '--kernel [^ ]*' "$tmp/gitlab.sh" | wc -l) == 2 ]] || fail "the GitLab example does not run two kernels"

# --- GitLab: one shell for the script, in $CI_PROJECT_DIR -------------------
t0=$SECONDS
rc=0
(cd "$tmp/gitlab" && CI=true GITLAB_CI=true CI_PROJECT_DIR="$tmp/gitlab" "${no_uinput[@]}" bash "$tmp/gitlab.sh") \
	>"$tmp/gitlab.out" 2>&1 || rc=$?
tail -n 40 "$tmp/gitlab.out"
[[ $rc == 0 ]] || fail "the GitLab job failed ($rc)"
echo "# GitLab job: $((SECONDS - t0)) s"

# --- GitHub: each run step its own sh -e, in the workspace ---------------------
t0=$SECONDS
for step in "$tmp"/github-*.sh; do
	rc=0
	(cd "$tmp/github" && CI=true GITHUB_ACTIONS=true GITHUB_WORKSPACE="$tmp/github" "${no_uinput[@]}" sh -e "$step") \
		>>"$tmp/github.out" 2>&1 || rc=$?
	[[ $rc == 0 ]] || { tail -n 40 "$tmp/github.out"; fail "the GitHub step $(basename "$step") failed ($rc)"; }
done
tail -n 20 "$tmp/github.out"
echo "# GitHub job: $((SECONDS - t0)) s"

# --- what the CI systems read ------------------------------------------------
stock=$(printf '%s\n' "$TT_VM_CACHE"/debs/linux-image-6.1.*-amd64_*.deb | sort -V | tail -n1 | sed 's|.*/linux-image-||; s|_.*||')
backports=$(printf '%s\n' "$TT_VM_CACHE"/debs/linux-image-6.12.*-amd64_*.deb | sort -V | tail -n1 | sed 's|.*/linux-image-||; s|_.*||')
check_report() { # JOB XML CASE
	local xml=$2
	junit_kernels "$xml" "$stock" "$backports"
	[[ "$(xmllint --xpath 'count(//testcase)' "$xml")" == 2 ]] || fail "$1: not its shard's one case on each kernel"
	[[ "$(xmllint --xpath 'count(//testcase[@name="'"$3"'"])' "$xml")" == 2 ]] || fail "$1: $3 is not its case"
	[[ "$(xmllint --xpath 'string(/testsuites/@failures)' "$xml")$(xmllint --xpath 'string(/testsuites/@errors)' "$xml")" == 00 ]] ||
		fail "$1: a case failed"
}
check_report GitLab "$tmp/gitlab/regress.xml" bug-1.jsonl
check_report GitHub "$tmp/github/regress.xml" bug-2.jsonl
grep -qx "# Subtest: $backports" "$tmp/gitlab.out" || fail "GitLab: no TAP subtest for $backports"
grep -qx "ok 2 - $backports" "$tmp/github.out" || fail "GitHub: the TAP verdict on $backports"
exit 0
