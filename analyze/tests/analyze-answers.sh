#!/bin/sh
# Answers that were wrong once, each on the file that showed it:
# - ownership outcomes from the XI 2.2 rules: the grab accepts before the
#   window client's TouchBegin reaches the recorder, and the window still
#   lost the touch; a lone listener that got TouchOwnership owned it;
# - an axis the recording never sent is unknown, not 0: no 44.6 mm jump
#   on kwin stroke_n_3 (the touch in slot 1 begins without ABS_MT_POSITION_Y);
# - analyze and inspect --summary give the same duration and the same
#   anomaly counts.
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
corpus="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }

# json FILE EXPR: prints EXPR evaluated on the JSON in FILE as d.
json() {
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

expect_eq() {
	[ "$1" = "$2" ] && pass "$3: $1" || fail "$3: got '$1', want '$2'"
}

# Ownership: outcome per client.
outcomes='",".join(sorted("%s:%s" % (x["client"], x["outcome"]) for x in d["xi_touches"]))'
"$TOUCHTAPE" analyze --json "$samples/xi-ownership-accept.jsonl" >"$tmp/acc.json"
expect_eq "$(json "$tmp/acc.json" "$outcomes")" \
	"grab:accepted,grab:accepted,observer:none,observer:none,window:lost,window:lost" \
	"accept sample: the window lost both touches the grab accepted"
expect_eq "$(json "$tmp/acc.json" 'd["ownership"]')" \
	"{'none': 0, 'owned': 0, 'accepted': 2, 'rejected': 0, 'lost': 2, 'ended-unowned': 0, 'unresolved': 0}" \
	"accept sample: outcome counts (raw sequences are not counted)"
"$TOUCHTAPE" inspect --summary --json "$samples/xi-ownership-accept.jsonl" >"$tmp/acc-i.json" 2>/dev/null
expect_eq "$(json "$tmp/acc-i.json" 'd["ownership"]')" "$(json "$tmp/acc.json" 'd["ownership"]')" \
	"accept sample: inspect --summary says the same"
"$TOUCHTAPE" analyze --json "$samples/xi-touchscreen-ten-finger.jsonl" >"$tmp/ten.json"
expect_eq "$(json "$tmp/ten.json" 'd["ownership"]["owned"]')" 10 "ten fingers: the lone listener owned each touch"
expect_eq "$(json "$tmp/ten.json" 'd["ownership"]["none"]')" 0 "ten fingers: no regular sequence without ownership"
# The man page defines the outcomes the way the code counts them.
man="$abs_top_srcdir/man/touchtape-analyze.1"
expect_grep 'TouchOwnership' "$man" "analyze(1) defines owned by TouchOwnership"
grep -A2 '^\.B lost' "$man" | grep -q 'accepted' && pass "analyze(1): lost = another client accepted" ||
	fail "analyze(1) does not define lost"

# Unknown axes: a touch that begins without ABS_MT_POSITION_Y.
if [ -n "$corpus" ] && [ -d "$corpus/evemu" ]; then
	f="$corpus/evemu/kwin-gestures__evemu_touchpad_stroke_n_3"
	"$TOUCHTAPE" analyze --json "$f" >"$tmp/kwin.json" 2>/dev/null
	expect_eq "$(json "$tmp/kwin.json" 'sum(1 for a in d["anomalies"] if a["kind"] == "jump")')" 0 \
		"kwin stroke_n_3: no jump from an unknown ABS_MT_POSITION_Y"
	expect_eq "$(json "$tmp/kwin.json" 'all(t["max_step"] < 5 for t in d["touches"])')" True \
		"kwin stroke_n_3: no touch moved 5 mm in a frame"
	# Slot 1 begins at Y 892 (44.6 mm from 0 at 20 units/mm), not at 0.
	expect_eq "$(json "$tmp/kwin.json" '[t["start"][1] for t in d["touches"] if t["slot"] == 1][0]')" 44.6 \
		"kwin stroke_n_3: slot 1 starts at its first reported Y"
else
	fail "no corpus at $corpus"
fi
# The same by hand: slot 1 begins with X only; Y comes in the next frame.
hdr='{"format":"touchtape-timeline","version":1,"start":{"monotonic_us":1,"realtime_us":2}}'
dev='{"type":"device","id":0,"name":"pad","input_id":{"bustype":3,"vendor":1,"product":2,"version":3},"properties":["INPUT_PROP_POINTER"],"codes":{"EV_KEY":["BTN_TOUCH","BTN_TOOL_FINGER","BTN_TOOL_DOUBLETAP"]},"absinfo":{"ABS_MT_SLOT":{"min":0,"max":1},"ABS_MT_TRACKING_ID":{"min":0,"max":65535},"ABS_MT_POSITION_X":{"min":0,"max":2000,"resolution":20},"ABS_MT_POSITION_Y":{"min":0,"max":2000,"resolution":20}},"mt":{"protocol":"B","slots":2}}'
{
	printf '%s\n%s\n' "$hdr" "$dev"
	printf '%s\n' '{"type":"frame","dev":0,"t":1000,"ev":[[3,47,1],[3,57,7],[3,53,600],[1,330,1],[1,325,1],[0,0,0]]}'
	printf '%s\n' '{"type":"frame","dev":0,"t":9000,"ev":[[3,53,610],[3,54,900],[0,0,0]]}'
	printf '%s\n' '{"type":"frame","dev":0,"t":17000,"ev":[[3,53,620],[3,54,905],[0,0,0]]}'
	printf '%s\n' '{"type":"frame","dev":0,"t":25000,"ev":[[3,57,-1],[1,330,0],[1,325,0],[0,0,0]]}'
} >"$tmp/noy.jsonl"
expect_exit 0 "a touch without Y at its begin" -- "$TOUCHTAPE" analyze --strict --json "$tmp/noy.jsonl"
expect_eq "$(json "$tmp/out" '[a["kind"] for a in d["anomalies"]]')" "[]" "hand-made: no jump from unknown Y"
expect_eq "$(json "$tmp/out" 'd["touches"][0]["path_length"]')" 0.559 "hand-made: path from the first known position"

# analyze and inspect --summary: one duration, one set of counts.
agree() {
	what=$1; shift
	"$TOUCHTAPE" analyze --json "$@" >"$tmp/a.json" 2>/dev/null
	"$TOUCHTAPE" inspect --summary --json "$@" >"$tmp/i.json" 2>/dev/null
	for key in duration_us start_us end_us frames events anomaly_counts; do
		expect_eq "$(json "$tmp/i.json" "d['$key']")" "$(json "$tmp/a.json" "d['$key']")" "$what: $key"
	done
}
agree "ten fingers" "$samples/xi-touchscreen-ten-finger.jsonl"
expect_eq "$(json "$tmp/a.json" 'd["duration_us"]')" 2521213 "ten fingers: start marker to stop marker"
if [ -n "$corpus" ] && [ -d "$corpus/evemu" ]; then
	agree "3M" "$corpus/evemu/evemu__data_3m.event"
	expect_eq "$(json "$tmp/i.json" 'd["anomaly_counts"]["total"]')" 3 "3M: the cut-short frame and two touches down at the end"
	agree "leftmove" "$corpus/evemu/evemu-devices__touchpads_SynPS2 Synaptics TouchPad.leftmove.events"
fi
# The X server lost while recording (an x-lost marker): the touches after
# it have no XI side to reach, which is not the X server failing to
# deliver them (validate called them not-delivered errors).
f=$samples/xi-touchscreen-two-finger.jsonl
{ sed -n 1,10p "$f"
  echo '{"type":"marker","t":50000,"kind":"x-lost","text":"X server went away"}'
  sed -n '11,$p' "$f" | grep -v '"type":"xi"'; } >"$tmp/x-lost.jsonl"
expect_exit 0 "x-lost: validate finds no undelivered touch" -- "$TOUCHTAPE" validate "$tmp/x-lost.jsonl"
"$TOUCHTAPE" analyze --json "$tmp/x-lost.jsonl" >"$tmp/x-lost.json"
expect_eq "$(json "$tmp/x-lost.json" 'd["links"]["not_delivered"]')" 0 "x-lost: analyze counts no undelivered touch"
finish
