#!/bin/bash
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
# touchtape convert and libinput-record: hand-made edge cases (several
# devices, hid:, udev:, libinput: event sections, comments) on the host;
# then files made by the real `libinput record` in the VM rig from replayed
# corpus recordings (samples/, converted from the corpus): they convert,
# validate, hold the same events as evemu-record saw, and round-trip
# libinput -> timeline -> libinput.
# Last, converted corpus recordings replay with `touchtape replay --verify`.
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"

# Device and frame records (markers: notes that become comments; li:
# libinput's own events, imported, which no writer puts back).
body() { grep -v '"type":"marker"\|"type":"li' "$1" | tail -n +2; }
# Events only, as "type code value" per line, frames joined; frames of
# a lone SYN_REPORT left out (libinput record does not write them, evemu-record
# does).
events_only() { grep '"type":"frame"' "$1" | grep -v '"ev":\[\[0,0,0\]\]' | sed 's/.*"ev":\[\[//; s/\]\]}$//; s/\],\[/\n/g' |
	awk -F, '{ print $1, $2, $3 }'; }

# A YAML section: the line of KEY and the lines below it (deeper, or list
# items at its indentation), comments left out.
section() {
	awk -v k="$1" 'found { match($0, /^ */); i = RLENGTH
		if (i < ki || (i == ki && substr($0, i + 1, 2) != "- ")) exit
		print; next }
	$0 ~ "^ *" k { match($0, /^ */); ki = RLENGTH; found = 1; print }' "$2" | grep -v '^ *#'
}

roundtrip() {
	local in=$1 what=$2
	if ! "$TOUCHTAPE" convert "$in" -o "$tmp/a.jsonl" 2>"$tmp/err"; then
		fail "$what: convert"; sed 's/^/  | /' "$tmp/err" | head >&2; return 1
	fi
	expect_exit 0 "$what: validates" -- "$TOUCHTAPE" validate "$tmp/a.jsonl"
	"$TOUCHTAPE" convert --to libinput "$tmp/a.jsonl" -o "$tmp/b.yml" 2>"$tmp/err" || { fail "$what: to libinput"; return 1; }
	"$TOUCHTAPE" convert "$tmp/b.yml" -o "$tmp/c.jsonl" 2>"$tmp/err" || { fail "$what: back"; cat "$tmp/err" >&2; return 1; }
	if cmp -s <(body "$tmp/a.jsonl") <(body "$tmp/c.jsonl"); then
		pass "$what: libinput -> timeline -> libinput keeps devices and events"
	else
		fail "$what: round trip differs"; diff <(body "$tmp/a.jsonl") <(body "$tmp/c.jsonl") | head -5 >&2
	fi
}

cat >"$tmp/multi.yml" <<'EOF'
# libinput record
# a comment before everything
version: 1
ndevices: 2
libinput:
  version: "1.25.0"
  git: "unknown"
system:
  os: "debian:12"
  kernel: "6.1.0-28-amd64"
  dmi: "dmi:bvnX:"
devices:
- node: /dev/input/event5
  evdev:
    # Name: test touchpad
    name: "test touchpad"
    id: [17, 2, 7, 433]
    codes:
      0: [0, 1, 2] # EV_SYN
      1: [272, 325, 330, 333] # EV_KEY
      3: [0, 1, 47, 53, 54, 57] # EV_ABS
    absinfo:
      0: [0, 1000, 0, 0, 20]
      1: [0, 800, 0, 0, 20]
      47: [0, 1, 0, 0, 0]
      53: [0, 1000, 0, 0, 20]
      54: [0, 800, 0, 0, 20]
      57: [0, 65535, 0, 0, 0]
    properties: [0, 2]
  hid: [5, 1, 9, 2, 161, 1]
  udev:
    properties:
    - ID_INPUT=1
    - ID_INPUT_TOUCHPAD=1
  quirks:
  - ModelSynapticsSerialTouchpad=1
  events:
  # Current time is 10:00:00
  - evdev:
    - [  0,      0,   3,  47,       0] # EV_ABS / ABS_MT_SLOT 0
    - [  0,      0,   3,  57,      10] # EV_ABS / ABS_MT_TRACKING_ID 10
    - [  0,      0,   3,  53,     100] # EV_ABS / ABS_MT_POSITION_X 100
    - [  0,      0,   3,  54,     200] # EV_ABS / ABS_MT_POSITION_Y 200
    - [  0,      0,   1, 330,       1] # EV_KEY / BTN_TOUCH 1
    - [  0,      0,   1, 325,       1] # EV_KEY / BTN_TOOL_FINGER 1
    - [  0,      0,   3,   0,     100] # EV_ABS / ABS_X 100
    - [  0,      0,   3,   1,     200] # EV_ABS / ABS_Y 200
    - [  0,      0,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
  - libinput:
    - {time: 0.000000, type: POINTER_MOTION, delta: [  0.00,   0.00], unaccel: [  0.00,   0.00]}
  - evdev:
    - [  0,  12034,   3,  53,     110] # EV_ABS / ABS_MT_POSITION_X 110
    - [  0,  12034,   3,   0,     110] # EV_ABS / ABS_X 110
    - [  0,  12034,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +12ms
  - evdev:
    - [  0,  24101,   3,  57,      -1] # EV_ABS / ABS_MT_TRACKING_ID -1
    - [  0,  24101,   1, 330,       0] # EV_KEY / BTN_TOUCH 0
    - [  0,  24101,   1, 325,       0] # EV_KEY / BTN_TOOL_FINGER 0
    - [  0,  24101,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +12ms
                                # Touch device in neutral state
- node: /dev/input/event6
  evdev:
    name: "test buttons"
    id: [25, 0, 1, 0]
    codes:
      0: [0, 1] # EV_SYN
      1: [116] # EV_KEY
    properties: []
  udev:
    properties:
    - ID_INPUT=1
  quirks:
  events:
  - evdev:
    - [  1,      5,   1, 116,       1] # EV_KEY / KEY_POWER 1
    - [  1,      5,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +1000ms
EOF
roundtrip "$tmp/multi.yml" "hand-made: two devices, hid, udev, quirks, libinput events, comments"
expect_grep '"name":"test touchpad"' "$tmp/a.jsonl" "first device"
expect_grep '"id":1,"name":"test buttons"' "$tmp/a.jsonl" "second device"
expect_grep '"mt":\{"protocol":"B","slots":2' "$tmp/a.jsonl" "Type B from ABS_MT_SLOT"
expect_grep '"text":"libinput-record hid: \[5, 1, 9, 2, 161, 1\]"' "$tmp/a.jsonl" "hid: kept as a note"
expect_grep '"type":"li","li":"POINTER_MOTION","t":0' "$tmp/a.jsonl" "libinput: event imported as a li record"
expect_grep '"tool":"libinput record 1.25.0","kernel":"6.1.0-28-amd64"' "$tmp/a.jsonl" "header from libinput: and system:"
expect_grep '"t":24101,' "$tmp/a.jsonl" "times from the file"
# udev: and quirks: are the devices' surroundings, system: the header's.
expect_grep '"udev":\{"ID_INPUT":"1","ID_INPUT_TOUCHPAD":"1"\},"hwdb":\{\},"quirks":\["ModelSynapticsSerialTouchpad=1"\]' \
	"$tmp/a.jsonl" "udev: properties and quirks: read into the device"
expect_grep '"id":1,.*"udev":\{"ID_INPUT":"1"\},"hwdb":\{\},"quirks":\[\]\}' "$tmp/a.jsonl" "an empty quirks: is an empty list"
expect_grep '"system":\{"dmi_modalias":"dmi:bvnX:","os_id":"debian","os_version_id":"12","libinput_version":"1.25.0"\}' "$tmp/a.jsonl" \
	"system: os and libinput: version in the header"
expect_grep '^  - ModelSynapticsSerialTouchpad=1$' "$tmp/b.yml" "quirks written back"
expect_grep '^    - ID_INPUT_TOUCHPAD=1$' "$tmp/b.yml" "udev properties written back"
expect_grep '^  os: "debian:12"$' "$tmp/b.yml" "os written back"
expect_grep '^  dmi: "dmi:bvnX:"$' "$tmp/b.yml" "dmi written back"
# Both devices in the libinput output, each with its events.
expect_grep '^ndevices: 2$' "$tmp/b.yml" "ndevices"
# evemu holds one device: the other is reported, --device picks one.
expect_exit 0 "to evemu" -- "$TOUCHTAPE" convert --to evemu "$tmp/multi.yml" -o "$tmp/m.evemu"
expect_grep 'evemu holds one device: 1 other device and their 1 frame were not written' "$tmp/err" "skipped device reported"
expect_grep 'no markers: 3 markers written as comments' "$tmp/err" "markers reported"
expect_grep 'evemu holds no surroundings: the udev properties, hwdb overrides, quirks, sysfs path and driver of 1 device were not written' \
	"$tmp/err" "surroundings evemu cannot hold reported"
expect_grep 'evemu has no system section' "$tmp/err" "system section evemu cannot hold reported"
expect_grep "libinput's own events are not written: 1 libinput record left out" "$tmp/err" "li records reported"
expect_exit 0 "to evemu, --device 1" -- "$TOUCHTAPE" convert --to evemu --device 1 "$tmp/multi.yml" -o "$tmp/m1.evemu"
expect_grep '^N: test buttons$' "$tmp/m1.evemu" "--device 1 written"
expect_grep '^E: 1.000005 0001 0074 0001' "$tmp/m1.evemu" "its event, at its time"

# The published excerpt has tabs: a clear error, not a crash, and no
# header-only output (exit 2: nothing past the header could be read).
corpus="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}"
if [ -d "$corpus/libinput-record" ]; then
	for f in "$corpus"/libinput-record/*; do
		expect_exit 2 "${f##*/}: refused" -- "$TOUCHTAPE" convert "$f"
		[ ! -s "$tmp/out" ] && pass "${f##*/}: nothing on stdout" || fail "${f##*/}: refused, yet output written"
		expect_grep ':33: not valid YAML: .*tab' "$tmp/err" "${f##*/}: FILE:LINE and why"
		# The same content with the tabs expanded converts.
		expand -t 8 "$f" >"$tmp/expanded.yml"
		roundtrip "$tmp/expanded.yml" "${f##*/} with tabs expanded"
		# Its udev: properties, quirks: and system: survive
		# YAML -> timeline -> YAML.
		for key in udev: quirks: os: dmi:; do
			section "$key" "$tmp/expanded.yml" >"$tmp/want"
			section "$key" "$tmp/b.yml" >"$tmp/got"
			if [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got"; then
				pass "${f##*/}: $key kept through the timeline"
			else
				fail "${f##*/}: $key differs after the round trip"
			fi
		done
	done
fi

# A device that starts with slot 1 current (the corpus's kwin-gestures
# touchpad_stroke_n_3): libinput-record has no start state, so its reader
# begins in slot 0; the writer selects slot 1 before the first frame's
# slot events, and the round trip keeps the touch in its slot.
s1="$abs_top_srcdir/tests/data/convert/start-in-slot-1.jsonl"
expect_exit 0 "slot 1 at the start: to libinput" -- "$TOUCHTAPE" convert -F libinput "$s1" -o "$tmp/s1.yml"
first=$(grep -m1 '^    - \[' "$tmp/s1.yml" | awk -F'[][,]+' '{ print $4 + 0, $5 + 0, $6 + 0 }')
[ "$first" = "3 47 1" ] && pass "slot 1 at the start: ABS_MT_SLOT 1 first" ||
	fail "slot 1 at the start: first event '$first'"
expect_exit 0 "slot 1 at the start: the round trip" -- "$TOUCHTAPE" diff "$s1" "$tmp/s1.yml"
expect_grep '^0 differences$' "$tmp/out" "slot 1 at the start: 0 differences"

# ---- real libinput record output, made in the VM ----
vmout="$tmp/convert-vm.out"
rm -rf "$vmout"
mkdir -p "$vmout"
# Short recordings (replay is real time, and the VM emulates the CPU):
# the samples, written as evemu by touchtape itself, so evemu-device and
# evemu-play also check the evemu writer's output.
set --
for s in 3m-two-finger ntrig-type-a touchpad-two-finger-swipe; do
	if ! "$TOUCHTAPE" convert --to evemu "$abs_top_srcdir/samples/$s.jsonl" -o "$vmout/$s.evemu" 2>"$tmp/err"; then
		fail "$s: to evemu"; continue
	fi
	set -- "$@" "$vmout/$s.evemu"
done
# Replayed: a converted timeline (Type B), and an evemu file read directly
# (Type A).
cp "$abs_top_srcdir/samples/3m-two-finger.jsonl" "$vmout/replay-3m.jsonl"
cp "$vmout/ntrig-type-a.evemu" "$vmout/replay-ntrig.evemu"
rc=0
TOUCHTAPE="$TOUCHTAPE" "$abs_top_srcdir/tests/vm/run" --timeout 240 --rw "$vmout" -- \
	bash "$abs_top_srcdir/convert/tests/convert-vm-guest.sh" "$vmout" "$@" || rc=$?
[ "$rc" -eq 77 ] && { echo "VM rig unavailable: VM part skipped"; finish; }
[ "$rc" -eq 0 ] || fail "VM run exited $rc"

i=0
for f in "$@"; do
	i=$((i + 1))
	what="libinput record of ${f##*/}"
	[ -f "$vmout/$i.error" ] && { fail "$what: $(cat "$vmout/$i.error")"; continue; }
	[ -s "$vmout/$i.yml" ] || { fail "$what: no file"; continue; }
	roundtrip "$vmout/$i.yml" "$what"
	# The same events as evemu-record saw at the same time.
	"$TOUCHTAPE" convert "$vmout/$i.evemu" -o "$tmp/ev.jsonl" 2>/dev/null
	events_only "$tmp/a.jsonl" >"$tmp/li.events"
	events_only "$tmp/ev.jsonl" >"$tmp/ev.events"
	if grep -q '^E: [0-9.]* 0000 0003 ' "$vmout/$i.evemu"; then
		# Under an emulated CPU evemu-record may read too slowly and
		# the kernel drops events (SYN_DROPPED): then only check that
		# the drop is kept as such.
		expect_grep '"dropped":true' "$tmp/ev.jsonl" "$what: evemu-record's SYN_DROPPED is a dropped frame"
		continue
	fi
	if [ -s "$tmp/li.events" ] && cmp -s "$tmp/li.events" "$tmp/ev.events"; then
		pass "$what: $(wc -l <"$tmp/li.events") events, the same as evemu-record's"
	else
		fail "$what: events differ from evemu-record's"
		diff "$tmp/li.events" "$tmp/ev.events" | head -5 >&2
	fi
done

for r in replay-3m.jsonl replay-ntrig.evemu; do
	if [ ! -f "$vmout/$r.status" ]; then
		fail "replay --verify of $r did not run"
	elif [ "$(cat "$vmout/$r.status")" = 0 ]; then
		pass "$r replays, replay --verify passes"
	else
		fail "replay --verify of $r: exit $(cat "$vmout/$r.status")"
		tail -20 "$vmout/$r.out" >&2
	fi
done
finish
