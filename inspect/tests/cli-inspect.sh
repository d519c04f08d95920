#!/bin/sh
# touchtape inspect without a terminal: --summary (text and JSON), --text,
# the summary when stdout is not a terminal, usage errors, hostile files.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

own="$abs_top_srcdir/inspect/tests/data/ownership.jsonl"

expect_exit 0 "--help" -- "$TOUCHTAPE" inspect --help
expect_grep "Examples:" "$tmp/out" "--help has examples"
expect_grep "--summary" "$tmp/out" "--help lists --summary"
expect_exit 2 "no file" -- "$TOUCHTAPE" inspect
expect_exit 2 "two files" -- "$TOUCHTAPE" inspect a b
expect_exit 2 "--json without --summary" -- "$TOUCHTAPE" inspect --json "$own"
expect_exit 2 "--from without --text" -- "$TOUCHTAPE" inspect --from 1 "$own"
expect_exit 2 "bad --width" -- "$TOUCHTAPE" inspect --text --width 5 "$own"
expect_exit 2 "bad --from" -- "$TOUCHTAPE" inspect --text --from soon "$own"
expect_exit 1 "missing file" -- "$TOUCHTAPE" inspect --summary /nonexistent/x.jsonl
expect_grep "nonexistent" "$tmp/err" "missing file is named"

expect_exit 0 "--summary" -- "$TOUCHTAPE" inspect --summary "$own"
expect_grep '^device 0 "Test Touchscreen": MT protocol B, 10 slots' "$tmp/out" "summary: device"
expect_grep '14 frames, 62 events, 3 touch sequences, max 2 simultaneous' "$tmp/out" "summary: per device"
expect_grep '1 SYN_DROPPED, removed at 0.130000 s' "$tmp/out" "summary: drop and removal"
expect_grep 'ownership outcomes: owned 2 accepted 1 rejected 1 lost 1 unresolved 1' "$tmp/out" "summary: outcomes"
expect_grep 'kernel to XI: 3 linked \(mean latency 1.50 ms\), 0 not delivered' "$tmp/out" "summary: links"
expect_grep 'warning syn-dropped: 1' "$tmp/out" "summary: anomalies"

expect_exit 0 "--summary --json" -- "$TOUCHTAPE" inspect --summary --json "$own"
if python3 - "$tmp/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["duration_us"] == 175000, d["duration_us"]
assert [x["touch_sequences"] for x in d["devices"]] == [3, 2]
assert [x["max_simultaneous"] for x in d["devices"]] == [2, 2]
assert d["ownership"]["accepted"] == 1 and d["ownership"]["unresolved"] == 1
assert d["xi_touch_sequences"]["grab"]["touch"] == 3
assert d["links"]["linked"] == 3 and d["links"]["mean_latency_us"] == 1500
assert d["anomaly_counts"]["total"] == 5 and d["anomaly_counts"]["xi-touch-never-ended"] == 2 and d["anomaly_counts"]["syn-dropped"] == 1
PY
then pass "JSON summary parses and says the same"; else fail "JSON summary"; fi

expect_exit 0 "--text" -- "$TOUCHTAPE" inspect --text --width 90 "$own"
expect_grep '^dev0 s0 #10 +\[' "$tmp/out" "text: kernel lane"
expect_grep '^ `xi11 t1 grab \+1.5ms +O.*A' "$tmp/out" "text: XI lane with latency, ownership and accept"
expect_grep '^ `xi11 t2 grab \+1.5ms +OR' "$tmp/out" "text: reject"
expect_grep '^ `xi11 t3 window .*>$' "$tmp/out" "text: still down at the end"
if head -n -3 "$tmp/out" | awk 'length > 90 { exit 1 }'; then pass "text: width"; else fail "text: lines wider than 90"; fi
expect_exit 0 "--text --from --to" -- "$TOUCHTAPE" inspect --text --from 0.1 --to 0.175 "$own"
if grep -q 'dev0 s0 #10' "$tmp/out"; then fail "text: --from leaves out earlier touches"; else pass "text: --from leaves out earlier touches"; fi
expect_grep '^dev0 s0 #12' "$tmp/out" "text: --from/--to keeps later touches"

# Not a terminal: the summary instead of failing.
expect_exit 0 "no terminal" -- "$TOUCHTAPE" inspect "$own"
expect_grep 'touch sequences' "$tmp/out" "no terminal: summary"
# A pipe.
"$TOUCHTAPE" inspect --summary - <"$own" >"$tmp/pipe" 2>"$tmp/err" && pass "pipe" || fail "pipe"
expect_grep '3 linked' "$tmp/pipe" "pipe: summary"

# Hostile: garbage, a truncated file, escape sequences in names.
printf 'not a recording\n' >"$tmp/junk"
expect_exit 1 "junk" -- "$TOUCHTAPE" inspect --summary "$tmp/junk"
head -c 3000 "$own" >"$tmp/trunc.jsonl"
expect_exit 0 "truncated last line" -- "$TOUCHTAPE" inspect --summary "$tmp/trunc.jsonl"
sed '5s/^.*$/{"type":"frame","dev":0,"t":"x"}/' "$own" >"$tmp/bad.jsonl"
expect_exit 1 "bad line" -- "$TOUCHTAPE" inspect --summary "$tmp/bad.jsonl"
expect_grep 'bad.jsonl:5:' "$tmp/err" "bad line: FILE:LINE"
expect_grep 'device 0' "$tmp/out" "bad line: the rest is read"
sed 's/"Test Touchscreen"/"Evil\\u001b[2J\\u0007%n%s"/' "$own" >"$tmp/evil.jsonl"
"$TOUCHTAPE" inspect --summary "$tmp/evil.jsonl" >"$tmp/out" 2>&1
if LC_ALL=C grep -q "$(printf '\033')" "$tmp/out"; then fail "escape sequence reached the output"; else pass "names sanitized"; fi
TOUCHTAPE_INSPECT_HEADLESS=100x30 "$TOUCHTAPE" inspect "$tmp/evil.jsonl" >"$tmp/out" 2>&1
if LC_ALL=C grep -q "$(printf '\033')" "$tmp/out"; then fail "escape sequence reached the screen"; else pass "names sanitized on screen"; fi
expect_exit 2 "bad headless size" -- env TOUCHTAPE_INSPECT_HEADLESS=big "$TOUCHTAPE" inspect "$own"
expect_exit 2 "bad key script" -- env TOUCHTAPE_INSPECT_HEADLESS=80x24 TOUCHTAPE_INSPECT_KEYS='<Nope>' "$TOUCHTAPE" inspect "$own"

# Corpus: every recording gives a summary (evemu files through the reader).
corpus="${TT_CORPUS:-$abs_top_srcdir/../shared/corpus}"
if [ -d "$corpus/evemu" ]; then
	n=0 bad=0
	for f in "$corpus"/evemu/*; do
		"$TOUCHTAPE" inspect --summary "$f" >"$tmp/c.out" 2>"$tmp/c.err"
		rc=$?
		n=$((n + 1))
		# 0, or 1 with a FILE:LINE message; never a crash.
		if [ "$rc" -gt 1 ]; then bad=$((bad + 1)); echo "  $f: exit $rc" >&2; fi
		"$TOUCHTAPE" inspect --text "$f" >/dev/null 2>&1
		rc=$?
		if [ "$rc" -gt 1 ]; then bad=$((bad + 1)); echo "  $f: --text exit $rc" >&2; fi
	done
	[ "$bad" -eq 0 ] && pass "corpus: $n files, no crash" || fail "corpus: $bad crashes"
fi
finish
