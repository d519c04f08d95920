#!/bin/bash
# Device names are untrusted: uinput devices named with terminal escape
# sequences, newlines, printf directives and UTF-8 cut short by the
# kernel's 80-byte limit. list, list --json, record, print, inspect and
# analyze must show them sanitized (no control character, valid UTF-8,
# one line per record) and never misbehave. One VM boot for all of it.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/vm/lib.sh"
: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
export TOUCHTAPE
vm_reexec "${BASH_SOURCE[0]}" --timeout 180

py=/usr/bin/python3
maker="$abs_top_srcdir/tests/hostile-device-maker.py"
# Every output must be valid UTF-8 without control characters other than
# newline and tab.
clean() {
	"$py" -c '
import sys
data = open(sys.argv[1], "rb").read()
try:
    text = data.decode("utf-8")
except UnicodeDecodeError as e:
    sys.exit("invalid UTF-8 at byte %d" % e.start)
bad = [c for c in text if (ord(c) < 32 and c not in "\n\t") or 0x7f <= ord(c) < 0xa0]
if bad:
    sys.exit("control characters: %r" % sorted(set(bad)))
' "$1"
}

status=0
check() {	# check WHAT FILE
	if clean "$2" 2>"$tmp/why"; then note "ok: $1"; else
		printf 'FAIL: %s: %s\n' "$1" "$(cat "$tmp/why")" >&2; status=1; fi
}

# Hex of each hostile name (the first marker makes it findable).
names=(
	"$(printf 'TTHOSTILE-esc\033[2J\033]0;pwned\007%%s%%n%%x' | od -An -v -tx1 | tr -d ' \n')"
	"$(printf 'TTHOSTILE-nl\nsecond line\rback' | od -An -v -tx1 | tr -d ' \n')"
	# 11 bytes, then three-byte characters: the kernel keeps 79 bytes, so
	# the 23rd character is cut after its second byte.
	"$( { printf 'TTHOSTILE--'; printf '\xe2\x82\xac%.0s' $(seq 30); } | od -An -v -tx1 | tr -d ' \n')"
	"$(printf 'TTHOSTILE-bad\xff\xfe\xc0\x80-utf8' | od -An -v -tx1 | tr -d ' \n')"
)

for hex in "${names[@]}"; do
	coproc MAKER { "$py" "$maker" "$hex"; }
	read -r node <&"${MAKER[0]}"
	[[ -c "$node" ]] || { echo "FAIL: no device for $hex" >&2; status=1; continue; }
	note "device at $node"

	"$TOUCHTAPE" list >"$tmp/list.txt" 2>&1 || true
	check "list" "$tmp/list.txt"
	grep -q TTHOSTILE "$tmp/list.txt" || { echo "FAIL: list does not show the device" >&2; status=1; }
	"$TOUCHTAPE" list --json >"$tmp/list.json"
	if jq -e '.' "$tmp/list.json" >/dev/null; then note "ok: list --json is valid JSON"; else
		echo "FAIL: list --json is not JSON" >&2; status=1; fi
	check "list --json" "$tmp/list.json"

	rm -f "$tmp/rec.jsonl"	# record never overwrites a recording
	"$TOUCHTAPE" record --duration 2 -o "$tmp/rec.jsonl" "$node" 2>"$tmp/rec.err" &
	rec=$!
	sleep 0.7
	echo go >&"${MAKER[1]}"
	wait "$rec" || { cat "$tmp/rec.err"; echo "FAIL: record" >&2; status=1; }
	check "record's messages" "$tmp/rec.err"
	check "the recording" "$tmp/rec.jsonl"
	note "recorded name: $(jq -r 'select(.type == "device") | .name' "$tmp/rec.jsonl")"
	grep -q 'TTHOSTILE' "$tmp/rec.jsonl" || { echo "FAIL: the device name is not in the recording" >&2; status=1; }
	if [ "$(wc -l <"$tmp/rec.jsonl")" -ne "$(jq -c . "$tmp/rec.jsonl" | wc -l)" ]; then
		echo "FAIL: a record spans lines" >&2; status=1; fi
	"$TOUCHTAPE" validate "$tmp/rec.jsonl" >"$tmp/val.txt" 2>&1 || { cat "$tmp/val.txt"; status=1; }
	grep -q '"type":"frame"' "$tmp/rec.jsonl" || { echo "FAIL: no frame recorded" >&2; status=1; }

	for cmd in "print" "inspect --summary" "inspect --text" "analyze" "analyze --json"; do
		# shellcheck disable=SC2086
		"$TOUCHTAPE" $cmd "$tmp/rec.jsonl" >"$tmp/out.txt" 2>&1 || true
		check "$cmd" "$tmp/out.txt"
	done
	"$TOUCHTAPE" analyze --json "$tmp/rec.jsonl" 2>/dev/null | jq -e . >/dev/null ||
		{ echo "FAIL: analyze --json is not JSON" >&2; status=1; }
	echo done >&"${MAKER[1]}"
	wait "$MAKER_PID" 2>/dev/null || true
done
exit $status
