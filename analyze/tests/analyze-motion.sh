#!/bin/sh
# Jumps judged against the touch's own motion on every device, and stalls
# (tests/data/analyze/make-data.py): a 10%-of-the-range jump out and back
# is two jumps with and without resolution, the fastest straight swipe is
# none; a moving touch silent for 200 ms and then elsewhere is a stall, a
# touch at rest for 1 s is not. validate, analyze, inspect and diff count
# them alike, through the one catalog.
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
data="$abs_top_srcdir/tests/data/analyze"

# Out and back on a device without resolution (no --jump-units) and on
# one with (10 mm, under the 20 mm threshold).
for f in jump-range-yes jump-small-yes; do
	expect_exit 1 "$f: a finding" -- "$TOUCHTAPE" analyze "$data/$f.jsonl"
	expect_grep "$f.jsonl:11: 0\\.090000 s device 0 slot 0 tracking ID 1: error: moved .* \\(10\\.5% of the axis range\\) in one frame.*\\[jump\\]" \
		"$tmp/out" "$f: the step out"
	expect_grep "$f.jsonl:14: 0\\.120000 s device 0 slot 0 tracking ID 1: error: moved .* \\(9\\.5% of the axis range\\) in one frame.*\\[jump\\]" \
		"$tmp/out" "$f: the step back"
	[ "$(grep -c '\[jump\]' "$tmp/out")" = 2 ] && pass "$f: two jumps" || fail "$f: not two jumps"
done
expect_exit 0 "the fastest swipe is no jump" -- "$TOUCHTAPE" analyze --strict "$data/jump-swipe-no.jsonl"
# --jump-units still sets the threshold without resolution: the swipe's
# steps of up to 226 units are over 100.
expect_exit 1 "--jump-units 100 flags the swipe's 160-unit steps" -- \
	"$TOUCHTAPE" analyze --jump-units 100 "$data/jump-swipe-no.jsonl"
expect_grep 'moved 226\.3 units in one frame \(threshold 100\.0\) \[jump\]' "$tmp/out" "--jump-units: the threshold named"

# Stalls: a warning (exit 1 only with --strict), where the frames resume.
expect_exit 0 "stall: a warning" -- "$TOUCHTAPE" analyze "$data/stall-yes.jsonl"
expect_grep 'stall-yes.jsonl:18: 0\.350000 s device 0 slot 0 tracking ID 1: warning: no frame for 200\.0 ms while moving \(median interval 10\.00 ms\), then 20\.0 mm \(20\.0% of the axis range\) away \[stall\]' \
	"$tmp/out" "stall: the gap, the median and the distance"
expect_grep 'longest frame interval while touching: 200\.00 ms, ending at 0\.350000 s \(line 18\)' "$tmp/out" \
	"the longest frame interval and where it ends"
expect_exit 1 "stall: --strict" -- "$TOUCHTAPE" analyze --strict "$data/stall-yes.jsonl"
expect_exit 0 "rest is no stall" -- "$TOUCHTAPE" analyze --strict "$data/stall-no.jsonl"
expect_exit 0 "analyze --json" -- "$TOUCHTAPE" analyze --json "$data/stall-yes.jsonl"
expect_grep '"max":200000,"max_at_us":350000,"max_line":18' "$tmp/out" "the longest interval in JSON"

# One catalog: every command counts the same jumps and stalls.
count_all() {
	f=$1 kind=$2 want=$3
	"$TOUCHTAPE" validate "$f" >"$tmp/v" 2>&1
	v=$(grep -c "\\[$kind\\]" "$tmp/v")
	"$TOUCHTAPE" analyze --json "$f" >"$tmp/a" 2>&1
	a=$(grep -o "\"kind\":\"$kind\"" "$tmp/a" | wc -l)
	"$TOUCHTAPE" inspect --summary "$f" >"$tmp/i" 2>&1
	i=$(sed -n "s/^  [a-z]* $kind: \\([0-9]*\\)\$/\\1/p" "$tmp/i")
	"$TOUCHTAPE" diff "$data/jump-no.jsonl" "$f" >"$tmp/d" 2>&1
	d=$(sed -n "s/.*: $kind ([a-z]*): 0 in [^,]*, \\([0-9]*\\) in .*/\\1/p" "$tmp/d")
	if [ "$v $a ${i:-0} ${d:-0}" = "$want $want $want $want" ]; then
		pass "$(basename "$f"): $want $kind in validate, analyze --json, inspect --summary, diff"
	else
		fail "$(basename "$f"): $kind counted validate $v, analyze $a, inspect ${i:-0}, diff ${d:-0}; want $want"
	fi
}
count_all "$data/jump-range-yes.jsonl" jump 2
count_all "$data/jump-small-yes.jsonl" jump 2
count_all "$data/stall-yes.jsonl" stall 1
count_all "$data/stall-no.jsonl" stall 0
count_all "$data/jump-swipe-no.jsonl" jump 0

# The jump rules count steps, not time: the same positions with every
# frame interval stretched or shrunk (0.5..1.5, seeded) give the same jumps,
# as a replay that bunches frames must.
jumps() {
	"$TOUCHTAPE" analyze --json "$1" 2>/dev/null | grep -o '"kind":"jump"' | wc -l
}
jitter() {
	python3 -c '
import json, random, sys
random.seed(int(sys.argv[3]))
last = new = None
with open(sys.argv[1]) as f, open(sys.argv[2], "w") as o:
    for line in f:
        r = json.loads(line)
        if r.get("type") == "frame":
            if last is not None:
                new += max(1, round((r["t"] - last) * random.uniform(0.5, 1.5)))
            else:
                new = r["t"]
            last, r["t"] = r["t"], new
        o.write(json.dumps(r, separators=(",", ":")) + "\n")
' "$1" "$2" "$3"
}
if command -v python3 >/dev/null; then
	python3 "$abs_top_srcdir/tests/mutate.py" jump "$abs_top_srcdir/samples/touchpad-two-finger-swipe.jsonl" \
		"$tmp/swipe-jump.jsonl" >/dev/null
	for f in "$data/jump-range-yes.jsonl" "$data/jump-small-yes.jsonl" "$data/jump-swipe-no.jsonl" \
		"$abs_top_srcdir/samples/touchpad-two-finger-swipe.jsonl" "$tmp/swipe-jump.jsonl"; do
		want=$(jumps "$f")
		for seed in 1 2 3; do
			jitter "$f" "$tmp/jit.jsonl" "$seed"
			got=$(jumps "$tmp/jit.jsonl")
			[ "$got" = "$want" ] && pass "$(basename "$f") jittered ($seed): $want jumps" ||
				fail "$(basename "$f") jittered ($seed): $got jumps, want $want"
		done
	done
	[ "$(jumps "$tmp/swipe-jump.jsonl")" = 4 ] && pass "mutate.py jump on the swipe sample: 4 jumps" ||
		fail "mutate.py jump on the swipe sample: $(jumps "$tmp/swipe-jump.jsonl") jumps, want 4"
fi
finish
