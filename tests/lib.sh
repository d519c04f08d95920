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

# corpus_lacks PATH: true, saying so, when the corpus file PATH is missing
# because the project's corpus (tests/corpus, read when $TT_CORPUS is
# unset) leaves out the public recordings whose licence is unclear; false
# when it is there, or when the whole public corpus ($TT_CORPUS) should
# have it (the caller's check then fails). Only for a file whose checks
# the caller also runs on one of the project's own files.
corpus_lacks() {
	[ ! -e "$1" ] && [ -z "${TT_CORPUS:-}" ] || return 1
	echo "# ${1##*/}: only in the public corpus (licence unclear; TT_CORPUS names it), not read; the project's own files stand in"
}

finish() { [ "$failures" -eq 0 ] || { echo "$failures failure(s)" >&2; exit 1; }; exit 0; }
