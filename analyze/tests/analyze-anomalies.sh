#!/bin/sh
# touchtape analyze: every anomaly has a hand-made timeline that triggers it
# (NAME-yes.jsonl: the anomaly listed with the right line; exit 1 for an
# error, for a warning only with --strict) and one that must not
# (NAME-no.jsonl, exit 0 even with --strict, no anomalies at all).
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
data="$abs_top_srcdir/tests/data/analyze"

check_kind() {
	kind=$1 status=$2
	expect_exit "$status" "$kind: triggered" -- "$TOUCHTAPE" analyze --json "$data/$kind-yes.jsonl"
	expect_grep "\"kind\":\"$kind\"" "$tmp/out" "$kind: listed in --json"
	expect_exit "$status" "$kind: triggered (text)" -- "$TOUCHTAPE" analyze "$data/$kind-yes.jsonl"
	expect_grep "\\[$kind\\]\$" "$tmp/out" "$kind: listed in the text report"
	expect_exit 1 "$kind: triggered, --strict" -- "$TOUCHTAPE" analyze --strict "$data/$kind-yes.jsonl"
	expect_exit 0 "$kind: --ignore $kind" -- "$TOUCHTAPE" analyze --ignore "$kind" "$data/$kind-yes.jsonl"
	if grep -q "\\[$kind\\]" "$tmp/out"; then fail "$kind: --ignore still lists it"; else pass "$kind: --ignore leaves it out"; fi
	expect_exit 0 "$kind: clean file" -- "$TOUCHTAPE" analyze --strict --json "$data/$kind-no.jsonl"
	expect_grep '"anomalies":\[\]' "$tmp/out" "$kind: clean file has no anomalies"
}
# Errors: findings (exit 1).
for kind in jump tracking-id-reused slot-out-of-range no-syn-report contact-count-flicker not-delivered; do
	check_kind "$kind" 1
done
# Warnings: reported, exit 0 unless --strict.
for kind in touch-active-at-end value-out-of-range button-state-mismatch syn-dropped stall \
	    xi-touch-never-ended ownership-unresolved; do
	check_kind "$kind" 0
done
expect_exit 0 "BTN_TOOL_DOUBLETAP with one finger" -- \
	"$TOUCHTAPE" analyze "$data/button-state-mismatch-tool-yes.jsonl"
expect_grep 'BTN_TOOL_DOUBLETAP is set with 1 touch down \[button-state-mismatch\]' "$tmp/out" \
	"BTN_TOOL_* mismatch named"

# Where: time, device, slot, tracking ID and the line of the frame.
"$TOUCHTAPE" analyze "$data/jump-yes.jsonl" >"$tmp/jump.txt"
expect_grep 'jump-yes.jsonl:9: 0\.110000 s device 0 slot 0 tracking ID 2: error: moved 30\.0 mm in one frame \(threshold 20\.0\) \[jump\]' \
	"$tmp/jump.txt" "jump: line, time, slot, distance"
expect_grep '"line":9,"time_us":110000,"device":0,"slot":0,"tracking_id":2' \
	"$(cp "$tmp/out" "$tmp/keep"; "$TOUCHTAPE" analyze --json "$data/jump-yes.jsonl" >"$tmp/j.json"; echo "$tmp/j.json")" \
	"jump: where, in JSON"
# Configurable threshold: 40 mm lets the 30 mm jump pass.
expect_exit 0 "--jump 40 accepts a 30 mm step" -- "$TOUCHTAPE" analyze --jump 40 "$data/jump-yes.jsonl"
expect_exit 1 "--jump 4 flags 5 mm steps" -- "$TOUCHTAPE" analyze --jump 4 "$data/jump-no.jsonl"

"$TOUCHTAPE" analyze "$data/syn-dropped-yes.jsonl" >"$tmp/drop.txt"
expect_grep ':4: 0\.020000 s device 0: warning: the kernel dropped events here \(SYN_DROPPED\) \[syn-dropped\]' \
	"$tmp/drop.txt" "SYN_DROPPED where it happened"
"$TOUCHTAPE" analyze "$data/ownership-unresolved-yes.jsonl" >"$tmp/own.txt"
expect_grep 'XI device 2 touch 1 \[window\]: warning: ownership was never resolved' "$tmp/own.txt" "unresolved names client"
"$TOUCHTAPE" analyze "$data/not-delivered-yes.jsonl" >"$tmp/nd.txt"
expect_grep ':4: 0\.010000 s device 0 slot 0 tracking ID 1: error: the X server delivered no touch' "$tmp/nd.txt" \
	"not delivered: the kernel touch"
expect_grep 'XI device 6 touch 7 after 5\.000 ms' "$tmp/nd.txt" "linked touch with its latency"
expect_exit 0 "--no-link: no delivery check" -- "$TOUCHTAPE" analyze --no-link "$data/not-delivered-yes.jsonl"

# --device: only that device's numbers and anomalies.
expect_exit 2 "--device 1 (no such device)" -- "$TOUCHTAPE" analyze --device 1 "$data/jump-yes.jsonl"

# Usage and hostile input.
expect_exit 2 "no file" -- "$TOUCHTAPE" analyze
expect_exit 2 "two files" -- "$TOUCHTAPE" analyze a b
expect_exit 2 "bad --jump" -- "$TOUCHTAPE" analyze --jump -3 "$data/jump-no.jsonl"
expect_exit 2 "bad --device" -- "$TOUCHTAPE" analyze --device x "$data/jump-no.jsonl"
expect_exit 2 "unknown option" -- "$TOUCHTAPE" analyze --frobnicate "$data/jump-no.jsonl"
expect_exit 0 "--help" -- "$TOUCHTAPE" analyze --help
expect_grep 'Examples:' "$tmp/out" "--help has examples"
expect_exit 2 "missing file" -- "$TOUCHTAPE" analyze "$tmp/nope.jsonl"
expect_exit 2 "--ignore with a name not in the catalog" -- "$TOUCHTAPE" analyze --ignore jumps "$data/jump-no.jsonl"
head -3 "$data/jump-yes.jsonl" >"$tmp/bad.jsonl"
printf '{"type":"frame","dev":0,"t":"x","ev":[]}\nnot json at all\n' >>"$tmp/bad.jsonl"
expect_exit 1 "bad lines are anomalies" -- "$TOUCHTAPE" analyze --json "$tmp/bad.jsonl"
expect_grep '"kind":"bad-line","severity":"error","line":5' "$tmp/out" "bad line listed with its line"
# Names with quotes, backslashes and control characters stay valid JSON.
sed 's/"name":"test touchscreen"/"name":"a \\"q\\" \\\\ \\u0007 é"/' "$data/jump-no.jsonl" >"$tmp/name.jsonl"
"$TOUCHTAPE" analyze --json "$tmp/name.jsonl" >"$tmp/name.json"
if command -v python3 >/dev/null; then
	if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["analyze_version"] == 2' "$tmp/name.json"; then
		pass "JSON with a hostile name parses"
	else
		fail "JSON with a hostile name does not parse"
	fi
fi
finish
