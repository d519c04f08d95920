#!/bin/bash
# Every sample and hand-made fixture (samples/, tests/data/) through the
# sanitized build's reading commands (validate, print, analyze --json,
# inspect --summary): no AddressSanitizer, LeakSanitizer or
# UBSan report. The valid files walk every model's finish path (the
# hostile ones are mostly refused before it), so undefined behaviour there
# shows up on the host in seconds rather than in the VM's vm-san.sh.
# Skips (77) without a sanitized build (configure --disable-sanitized-tests).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}/tests/lib.sh"

san=${TOUCHTAPE_SAN:-}
[ -x "$san" ] || { echo "SKIP: no sanitized build (\$TOUCHTAPE_SAN)" >&2; exit 77; }
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1

nfiles=0
while IFS= read -r -d '' f; do
	nfiles=$((nfiles + 1))
	for argv in "validate" "print" "analyze --json" "inspect --summary"; do
		# Exit status 0 or 1 (findings); the fixtures of anomalies have some.
		# shellcheck disable=SC2086
		"$san" $argv "$f" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if grep -qE 'runtime error|AddressSanitizer|LeakSanitizer' "$tmp/err"; then
			fail "${f#"$abs_top_srcdir"/} $argv: sanitizer report"; head -12 "$tmp/err" | sed 's/^/  | /' >&2
		elif [ "$rc" -gt 1 ]; then
			fail "${f#"$abs_top_srcdir"/} $argv: exit status $rc"; head -5 "$tmp/err" | sed 's/^/  | /' >&2
		fi
	done
done < <(find "$abs_top_srcdir/samples" "$abs_top_srcdir/tests/data" -name '*.jsonl' -print0 | sort -z)
[ "$nfiles" -gt 20 ] || fail "only $nfiles fixtures found"
[ "$failures" -eq 0 ] && pass "$nfiles files, 4 commands each, no sanitizer report"
finish
