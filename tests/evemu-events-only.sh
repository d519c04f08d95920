#!/bin/sh
# evemu events-only files read without their description: the device is
# inferred from the events. ABS_MT_TRACKING_ID -1 exists only in the
# slotted (Type B) protocol, so a device that sends it is Type B even
# when its recording never sends ABS_MT_SLOT (only slot 0 used); taken
# for Type A it would get a touch "tracking ID -1" still down at the end.
# A hand-made file first, then every events-only file of the corpus:
# the protocol SOURCES.tsv counted, no tracking ID -1 touch, and validate
# and analyze clean wherever they are clean with the description.
. "${abs_top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

# analyze --json summed up as "PROTOCOLS NEG_TOUCHES ANOMALIES" (anomalies
# other than the reader's warning that the device is inferred).
summary() {
	"$TOUCHTAPE" analyze --json "$@" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print("".join(dev["mt_protocol"] or "-" for dev in d["devices"]),
      sum(t["tracking_id"] == -1 for t in d["touches"]),
      sum(a["kind"] != "reader-warning" for a in d["anomalies"]))'
}

# expect_summary FILE WANT WHAT [analyze options]
expect_summary() {
	local f=$1 want=$2 what=$3; shift 3
	local got
	got=$(summary "$@" "$f")
	if [ "$got" = "$want" ]; then pass "$what"; else fail "$what: analyze says \"$got\", want \"$want\""; fi
}

# One finger on a Type B device, slot 0 only: down, moves, lifts.
cat >"$tmp/b.events" <<'EOT'
E: 0.000000 0003 0039 7
E: 0.000000 0003 0035 100
E: 0.000000 0003 0036 200
E: 0.000000 0001 014a 1
E: 0.000000 0000 0000 0
E: 0.010000 0003 0035 110
E: 0.010000 0000 0000 0
E: 0.020000 0003 0039 -1
E: 0.020000 0001 014a 0
E: 0.020000 0000 0000 0
EOT
expect_summary "$tmp/b.events" "B 0 0" "slot-0-only Type B: one touch, no tracking ID -1, no anomaly"
expect_exit 0 "slot-0-only Type B: validate" -- "$TOUCHTAPE" validate "$tmp/b.events"

# Type A: SYN_MT_REPORT, no tracking IDs; stays Type A.
cat >"$tmp/a.events" <<'EOT'
E: 0.000000 0003 0035 100
E: 0.000000 0003 0036 200
E: 0.000000 0000 0002 0
E: 0.000000 0000 0000 0
E: 0.010000 0000 0002 0
E: 0.010000 0000 0000 0
EOT
expect_summary "$tmp/a.events" "A 0 0" "Type A stays Type A"

# A touchpad recording begun with two fingers down (issue 34): the
# finger-count tool buttons make it a touchpad (INPUT_PROP_POINTER, and
# the BTN_TOOL_FINGER every kernel touchpad has, so that udev and libinput
# take its replay for one), not a touchscreen; the warning says what was
# inferred.
cat >"$tmp/tp.events" <<'EOT'
E: 0.000000 0003 002f 0
E: 0.000000 0003 0039 1
E: 0.000000 0003 0035 1158
E: 0.000000 0003 0036 1018
E: 0.000000 0003 002f 1
E: 0.000000 0003 0039 2
E: 0.000000 0003 0035 800
E: 0.000000 0003 0036 1018
E: 0.000000 0001 014a 1
E: 0.000000 0001 014d 1
E: 0.000000 0003 0000 1158
E: 0.000000 0003 0001 1018
E: 0.000000 0000 0000 0
E: 0.010000 0003 002f 0
E: 0.010000 0003 0035 1160
E: 0.010000 0003 0000 1160
E: 0.010000 0000 0000 0
E: 0.020000 0003 002f 0
E: 0.020000 0003 0039 -1
E: 0.020000 0003 002f 1
E: 0.020000 0003 0039 -1
E: 0.020000 0001 014a 0
E: 0.020000 0001 014d 0
E: 0.020000 0000 0000 0
EOT
expect_exit 0 "touchpad events: print" -- "$TOUCHTAPE" print "$tmp/tp.events"
expect_grep '^#   property INPUT_PROP_POINTER$' "$tmp/out" "BTN_TOOL_DOUBLETAP: a touchpad"
grep -q 'INPUT_PROP_DIRECT' "$tmp/out" && fail "the touchpad is inferred as direct"
expect_grep '^#   EV_KEY: BTN_TOOL_FINGER BTN_TOUCH BTN_TOOL_DOUBLETAP$' "$tmp/out" "the touchpad gets BTN_TOOL_FINGER"
expect_grep 'inferred from the events as a touchpad \(INPUT_PROP_POINTER\): it sends BTN_TOOL_DOUBLETAP' "$tmp/err" \
	"print says what was inferred"
expect_exit 0 "touchpad events: validate" -- "$TOUCHTAPE" validate "$tmp/tp.events"
expect_grep 'as a touchpad \(INPUT_PROP_POINTER\)' "$tmp/err" "validate says what was inferred"
"$TOUCHTAPE" convert -F libinput "$tmp/tp.events" >"$tmp/tp.yaml" 2>/dev/null
expect_grep '^    - ID_INPUT_TOUCHPAD=1$' "$tmp/tp.yaml" "libinput record: a touchpad for libinput replay"
grep -q 'ID_INPUT_TOUCHSCREEN' "$tmp/tp.yaml" && fail "libinput record: tagged a touchscreen"
# hid-ntrig's touchscreens send BTN_TOOL_DOUBLETAP for every touch, in
# Type A frames: still a touchscreen (a kernel touchpad is slotted).
cat >"$tmp/ntrig.events" <<'EOT'
E: 0.000000 0003 0000 2745
E: 0.000000 0003 0001 1639
E: 0.000000 0003 0035 2745
E: 0.000000 0003 0036 1639
E: 0.000000 0000 0002 0
E: 0.000000 0001 014d 1
E: 0.000000 0001 014a 1
E: 0.000000 0000 0000 0
E: 0.010000 0000 0002 0
E: 0.010000 0001 014d 0
E: 0.010000 0001 014a 0
E: 0.010000 0000 0000 0
EOT
expect_exit 0 "N-Trig events: print" -- "$TOUCHTAPE" print "$tmp/ntrig.events"
expect_grep '^#   property INPUT_PROP_DIRECT$' "$tmp/out" "Type A with BTN_TOOL_DOUBLETAP (hid-ntrig): a touchscreen"
expect_grep '^#   EV_KEY: BTN_TOUCH BTN_TOOL_DOUBLETAP$' "$tmp/out" "the N-Trig gets no BTN_TOOL_FINGER"
# A single-touch touchpad (an old Synaptics: ABS_X, ABS_TOOL_WIDTH) begun
# with two fingers down: a touchpad.
cat >"$tmp/st-tp.events" <<'EOT'
E: 0.000000 0003 0000 1500
E: 0.000000 0003 0001 2000
E: 0.000000 0003 0018 40
E: 0.000000 0003 001c 4
E: 0.000000 0001 014a 1
E: 0.000000 0001 014d 1
E: 0.000000 0000 0000 0
E: 0.010000 0003 0001 2100
E: 0.010000 0000 0000 0
E: 0.020000 0001 014a 0
E: 0.020000 0001 014d 0
E: 0.020000 0000 0000 0
EOT
expect_exit 0 "single-touch touchpad events: print" -- "$TOUCHTAPE" print "$tmp/st-tp.events"
expect_grep '^#   property INPUT_PROP_POINTER$' "$tmp/out" "single touch with BTN_TOOL_DOUBLETAP: a touchpad"
# Without tool buttons: a touchscreen, and said so.
expect_exit 0 "touchscreen events: print" -- "$TOUCHTAPE" print "$tmp/b.events"
expect_grep '^#   property INPUT_PROP_DIRECT$' "$tmp/out" "no tool buttons: a touchscreen"
expect_grep 'as a touchscreen \(INPUT_PROP_DIRECT\)' "$tmp/err" "print says a touchscreen was inferred"

corpus="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}"
if [ ! -f "$corpus/SOURCES.tsv" ]; then
	echo "no corpus at $corpus: skipping its part"
	finish
fi

n=0
tab=$(printf '\t')
while IFS="$tab" read -r rel mt desc; do
	f="$corpus/$rel"
	grep -q '^N:' "$f" && continue	# has its own description
	n=$((n + 1))
	got=$(summary "$f")
	case "$mt" in
	A|B) want_proto=$mt ;;
	*) want_proto=${got%% *} ;;	# no MT: whatever the keys and axes say
	esac
	set -- $got
	if [ "$1" = "$want_proto" ] && [ "$2" = 0 ]; then
		pass "$rel: MT protocol $1, no tracking ID -1 touch"
	else
		fail "$rel: analyze says \"$got\"; SOURCES.tsv counted MT protocol $mt"
	fi
	[ -n "$desc" ] || continue
	"$TOUCHTAPE" convert --desc "$corpus/$desc" "$f" -o "$tmp/with.jsonl" 2>/dev/null || continue
	if "$TOUCHTAPE" validate -q "$tmp/with.jsonl" >/dev/null 2>&1; then
		expect_exit 0 "$rel: validate clean without the description too" -- \
			"$TOUCHTAPE" validate -q "$f"
	fi
	with=$(summary --desc "$corpus/$desc" "$f")
	if [ "${with##* }" = 0 ] && [ "$3" != 0 ]; then
		fail "$rel: $3 anomalies without the description, none with it"
	fi
done <<EOT
$(awk -F '\t' 'NR > 1 && $1 ~ /^evemu\// { print $1 "\t" $7 "\t" $16 }' "$corpus/SOURCES.tsv")
EOT
# Files: over 40 in the whole public corpus, 38 in tests/corpus.
want=38; [ -n "${TT_CORPUS:-}" ] && want=41
[ "$n" -ge "$want" ] || fail "only $n events-only corpus files found"
finish
