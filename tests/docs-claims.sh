#!/bin/sh
# The man pages' claims of exit statuses and messages hold. See
# tests/docs-claims.py.
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
python3 "$abs_top_srcdir/tests/docs-claims.py" "$abs_top_srcdir" "$TOUCHTAPE" || exit $?
exit 0
