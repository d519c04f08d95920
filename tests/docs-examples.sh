#!/bin/sh
# Every example of README.md and of the man pages runs and exits as it
# should: those that need no device on the host against the bundled
# samples, those that need a kernel device, uinput or X in one boot of the
# VM rig. How examples are found and marked: tests/docs-examples.py.
# DOCS_EXAMPLES=host runs only the host part.
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
python3 "$abs_top_srcdir/tests/docs-examples.py" "$abs_top_srcdir" "$TOUCHTAPE" "$tmp" || exit $?
exit 0
