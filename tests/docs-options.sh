#!/bin/sh
# Every option of `touchtape CMD --help` is in man/touchtape-CMD.1 and the
# reverse; every command has an installed page that touchtape(1) names.
# See tests/docs-options.py.
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
python3 "$abs_top_srcdir/tests/docs-options.py" "$abs_top_srcdir" "$TOUCHTAPE" || exit $?
exit 0
