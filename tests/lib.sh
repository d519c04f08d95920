# Shared by the shell tests: where things are, and small assertions.
set -u
: "${abs_top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${abs_top_builddir:=$PWD}"
: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
samples="$abs_top_srcdir/samples"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

# expect_exit CODE DESCRIPTION -- COMMAND...
expect_exit() {
	local want=$1 what=$2; shift 3
	"$@" >"$tmp/out" 2>"$tmp/err"
	local got=$?
	if [ "$got" -ne "$want" ]; then
		fail "$what: exit $got, want $want"; sed 's/^/  | /' "$tmp/err" | head -20 >&2
	else
		pass "$what"
	fi
}

expect_grep() {
	local pattern=$1 file=$2 what=$3
	if grep -qE -- "$pattern" "$file"; then pass "$what"; else
		fail "$what: /$pattern/ not in $file"; head -20 "$file" | sed 's/^/  | /' >&2; fi
}

finish() { [ "$failures" -eq 0 ] || { echo "$failures failure(s)" >&2; exit 1; }; exit 0; }
