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
expect_exit 0 "--json implies --summary" -- "$TOUCHTAPE" inspect --json "$own"
expect_grep '^{"file":' "$tmp/out" "--json alone prints the JSON summary"
expect_exit 2 "--from without --text" -- "$TOUCHTAPE" inspect --from 1 "$own"
expect_exit 2 "bad --width" -- "$TOUCHTAPE" inspect --text --width 5 "$own"
expect_exit 2 "bad --from" -- "$TOUCHTAPE" inspect --text --from soon "$own"
expect_exit 2 "missing file" -- "$TOUCHTAPE" inspect --summary /nonexistent/x.jsonl
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

# Past either end of the file: a usage error, not an empty axis.
expect_exit 2 "--from after the end" -- "$TOUCHTAPE" inspect --text --from 50 "$own"
expect_grep 'from 50\.000000 is after the end of .*ownership\.jsonl \(0\.000000 to 0\.175000 s\)' \
	"$tmp/err" "--from after the end: says where the file ends"
[ -s "$tmp/out" ] && fail "--from after the end: printed an axis" || pass "--from after the end: no axis"
expect_exit 2 "--to before the start" -- "$TOUCHTAPE" inspect --text --from 0 --to 1ms \
	"$samples/xi-touchscreen-two-finger.jsonl"
expect_grep 'to 0\.001000 is before the start' "$tmp/err" "--to before the start: says so"
expect_exit 0 "--from at the last frame" -- "$TOUCHTAPE" inspect --text --from 0.175 "$own"

# XI latency labels keep their unit at every width: shortened ("+13ms"),
# or left out, never cut ("+12.9m", "+7.33").
ten="$samples/xi-touchscreen-ten-finger.jsonl"
cut=0 shown=0
for w in 40 48 56 64 72 80 90 100 110 120 140; do
	"$TOUCHTAPE" inspect --text --width $w "$ten" >"$tmp/w.out" 2>"$tmp/err" || fail "width $w: exit $?"
	lw=$((w / 4 < 40 ? w / 4 : 40))
	# The label column of the XI lanes ("`"), trailing blanks removed.
	grep '^ `' "$tmp/w.out" | cut -c1-"$lw" | sed 's/ *$//' >"$tmp/labels"
	shown=$((shown + $(grep -cE ' \+[0-9.]+(us|ms|s)$' "$tmp/labels")))
	bad=$(grep -E '\+' "$tmp/labels" | grep -cvE ' \+[0-9.]+(us|ms|s)$')
	[ "$bad" -eq 0 ] || { grep -E '\+' "$tmp/labels" | grep -vE ' \+[0-9.]+(us|ms|s)$' | head -3 >&2; }
	cut=$((cut + bad))
done
[ "$cut" -eq 0 ] && pass "latency labels: no unit cut" || fail "latency labels: $cut cut"
[ "$shown" -gt 60 ] && pass "latency labels: $shown shown" || fail "latency labels: only $shown shown"
"$TOUCHTAPE" inspect --text "$ten" >"$tmp/w.out"
expect_grep '^ `raw7 t3 observer \+13ms ' "$tmp/w.out" "latency label: 12.9 ms shortened to +13ms at width 100"
expect_grep '^ `raw7 t8 observer \+2\.5ms ' "$tmp/w.out" "latency label: 2.51 ms shortened to +2.5ms"
expect_grep '^ `xi7 t3 observer \+14\.7ms ' "$tmp/w.out" "latency label: +14.7ms kept where it fits"

# Not a terminal: the summary instead of failing.
expect_exit 0 "no terminal" -- "$TOUCHTAPE" inspect "$own"
expect_grep 'touch sequences' "$tmp/out" "no terminal: summary"
# A pipe.
"$TOUCHTAPE" inspect --summary - <"$own" >"$tmp/pipe" 2>"$tmp/err" && pass "pipe" || fail "pipe"
expect_grep '3 linked' "$tmp/pipe" "pipe: summary"

# Hostile: garbage, a truncated file, escape sequences in names.
printf 'not a recording\n' >"$tmp/junk"
expect_exit 2 "junk" -- "$TOUCHTAPE" inspect --summary "$tmp/junk"
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
corpus="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}"
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
