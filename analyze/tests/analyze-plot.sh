#!/bin/sh
# touchtape analyze --plot: one trajectory and one slot/tracking-ID label
# per touch sequence (and per HID contact), one red circle per jump, a
# timeline track per device of each layer (kernel, HID, XI, libinput,
# Wayland), axes in mm where the device has a resolution (device units
# otherwise) spanning its full range, a time axis, and a panel of x, y
# and pressure per touch (capped, and the SVG says so). Over every
# sample, fixture and corpus file: every label inside its panel and none
# over another (plot-geometry.py), valid XML, rendered by rsvg-convert
# without an error to a PNG of its size.
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
data="$abs_top_srcdir/tests/data/analyze"
corpus="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}"
max_panels=16	# TT_PLOT_MAX_TOUCH_PANELS

count() { grep -o "$1" "$2" | wc -l | tr -d ' '; }
same() { [ "$2" = "$3" ] && pass "$1: $2" || fail "$1: $2, want $3"; }
# The tick labels of one axis, in order.
tick_values() { sed -n "s/.*data-axis=\"$1\"[^>]*>\([-0-9.]*\)<.*/\1/p" "$2"; }

render_check() {
	what=$1 svg=$2
	if command -v xmllint >/dev/null; then
		xmllint --noout "$svg" && pass "$what: valid XML" || fail "$what: xmllint rejects the SVG"
	elif command -v python3 >/dev/null; then
		python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$svg" &&
			pass "$what: well-formed XML" || fail "$what: not well-formed XML"
	fi
	if ! command -v rsvg-convert >/dev/null; then
		echo "skip: $what: no rsvg-convert (librsvg2-bin)"
		return
	fi
	rsvg-convert "$svg" -o "$tmp/p.png" 2>"$tmp/rsvg.err" && [ ! -s "$tmp/rsvg.err" ] && pass "$what: renders" ||
		{ fail "$what: rsvg-convert failed"; cat "$tmp/rsvg.err" >&2; return; }
	# PNG header: width and height, big-endian, at bytes 16-23.
	png=$(od -An -tu1 -j16 -N8 "$tmp/p.png" | awk '{ print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8 }')
	svg_size=$(sed -n 's/^<svg [^>]*width="\([0-9]*\)" height="\([0-9]*\)".*/\1x\2/p' "$svg")
	same "$what: PNG size" "$png" "$svg_size"
}

# The panels are the longest touches (serial: begin order), as analyze
# --json times them.
longest_check() {
	python3 - "$tmp/p.json" "$tmp/p.svg" "$max_panels" <<'EOF' && pass "$1: panels of the longest touches" ||
import json, re, sys
report, svg, most = json.load(open(sys.argv[1])), open(sys.argv[2]).read(), int(sys.argv[3])
drawn = [int(x) for x in re.findall(r'class="title"><tspan fill="[^"]*">touch (\d+) \(', svg)]
t = sorted(report["touches"], key=lambda x: (x["begin_line"], x["begin_us"], x["slot"]))
longest = sorted(range(len(t)), key=lambda i: (-t[i]["duration_us"], i))[:most]
sys.exit(0 if drawn == sorted(i + 1 for i in longest) else 1)
EOF
		fail "$1: the panels are not the $max_panels longest touches"
}

# Every text inside the picture, every label inside its panel (a touch's
# in its surface, a track's in its lane) and none over another, no panel
# over another, read from the SVG's geometry.
geometry_check() {
	python3 "$abs_top_srcdir/analyze/tests/plot-geometry.py" "$2" >"$tmp/geometry.out" &&
		pass "$1: every label inside its panel, none over another" ||
		{ fail "$1: the SVG's geometry"; cat "$tmp/geometry.out" >&2; }
}

# The timeline on top: its lanes end above the first surface (moved down
# by its group's translate).
timeline_check() {
	python3 - "$tmp/p.svg" <<'EOF' && pass "$1: the timeline above the surfaces" ||
import re, sys
svg = open(sys.argv[1]).read()
lanes = [float(y) for pts in re.findall(r'<polyline class="count"[^>]*points="([^"]*)"', svg)
         for y in re.findall(r',([-0-9.]+)', pts)]
shift = float(re.search(r'<g class="surfaces" transform="translate\(0 ([-0-9.]+)\)"', svg).group(1))
tops = [float(y) + shift for y in re.findall(r'<rect class="surface"[^>]* y="([^"]*)"', svg)]
sys.exit(0 if lanes and tops and max(lanes) < min(tops) else 1)
EOF
		fail "$1: the timeline is not above the surfaces"
}

# Each touch panel's position axis is fitted to its touch: its x and y
# together reach from near the frame's bottom to near its top (a touch
# that moves less than 1/50 of the device excepted), read from the SVG's
# geometry.
fitted_check() {
	python3 - "$tmp/p.svg" <<'EOF' && pass "$1: panel axes fitted to their touch" ||
import re, sys
svg = open(sys.argv[1]).read()
bad = 0
for g in re.findall(r'<g class="touch-panel".*?</g>', svg, re.S):
    frame = re.search(r'<rect class="frame" x="[^"]*" y="([^"]*)" width="[^"]*" height="([^"]*)"', g)
    top, h = float(frame.group(1)), float(frame.group(2))
    ys = [float(y) for cls in ("series-x", "series-y")
          for pts in re.findall(r'<polyline class="%s" points="([^"]*)"' % cls, g)
          for y in re.findall(r',([-0-9.]+)', pts)]
    if ys and (max(ys) - min(ys)) < 0.8 * h:
        bad += 1
sys.exit(1 if bad else 0)
EOF
		fail "$1: a touch panel's axis spans far more than its touch"
}

plot_check() {
	what=$1; shift
	"$TOUCHTAPE" analyze --json --plot "$tmp/p.svg" "$@" >"$tmp/p.json" 2>/dev/null
	touches=$(count '"synthetic_id"' "$tmp/p.json")
	jumps=$(count '"kind":"jump"' "$tmp/p.json")
	devices=$(count '"touch_sequences":[0-9]*,"max_simultaneous"' "$tmp/p.json")
	same "$what: trajectories" "$(count '<polyline class="touch"' "$tmp/p.svg")" "$touches"
	same "$what: touch labels" "$(count '<text class="touch-label"' "$tmp/p.svg")" "$touches"
	same "$what: jumps circled" "$(count '<circle class="jump"' "$tmp/p.svg")" "$jumps"
	same "$what: kernel tracks" "$(count '<polyline class="count" data-layer="kernel"' "$tmp/p.svg")" "$devices"
	panels=$((touches < max_panels ? touches : max_panels))
	same "$what: touch panels" "$(count '<g class="touch-panel"' "$tmp/p.svg")" "$panels"
	same "$what: x series" "$(count '<polyline class="series-x"' "$tmp/p.svg")" "$panels"
	if [ "$touches" -gt "$max_panels" ]; then
		expect_grep "$((touches - max_panels)) more touches without a panel.*the $max_panels longest of $touches" \
			"$tmp/p.svg" "$what: says how many touches have no panel"
		longest_check "$what"
	fi
	[ "$(tick_values time "$tmp/p.svg" | wc -l)" -ge 3 ] && pass "$what: time axis ticks" ||
		fail "$what: fewer than 3 time ticks"
	expect_grep '>time \(s\)</text>' "$tmp/p.svg" "$what: time axis title"
	geometry_check "$what" "$tmp/p.svg"
	timeline_check "$what"
	render_check "$what" "$tmp/p.svg"
}

# The surface frame is the device's full range: in mm, the x ticks run
# from 0 to within one step of the width in mm.
mm_check() {
	what=$1 file=$2
	res=$(jq -r 'select(.type=="device") | .absinfo.ABS_MT_POSITION_X | "\(.max - .min) \(.resolution)"' "$file" | head -1)
	width_mm=$(echo "$res" | awk '{ printf "%d", $1 / $2 }')
	"$TOUCHTAPE" analyze --plot "$tmp/mm.svg" "$file" >/dev/null 2>&1
	expect_grep '>x \(mm\)</text>' "$tmp/mm.svg" "$what: x axis in mm"
	expect_grep '>y \(mm\)</text>' "$tmp/mm.svg" "$what: y axis in mm"
	first=$(tick_values x "$tmp/mm.svg" | head -1)
	step=$(tick_values x "$tmp/mm.svg" | sed -n 2p)
	last=$(tick_values x "$tmp/mm.svg" | tail -1)
	same "$what: x ticks start at" "$first" 0
	if [ "$last" -le "$width_mm" ] && [ "$((last + step))" -gt "$width_mm" ]; then
		pass "$what: x ticks reach $last of $width_mm mm"
	else
		fail "$what: last x tick $last (step $step), the surface is $width_mm mm"
	fi
	expect_grep "full range, $width_mm \\S+ [0-9]+ mm" "$tmp/mm.svg" "$what: title gives the size in mm"
	# Pressure has a right-hand axis in the touch panels.
	[ "$(tick_values touch-pressure "$tmp/mm.svg" | wc -l)" -ge 2 ] && pass "$what: pressure axis" ||
		fail "$what: no pressure ticks"
}

plot_check "jump sample" "$data/jump-yes.jsonl"
plot_check "Type A pairing" "$data/type-a-pairing.jsonl"
expect_grep '<text class="touch-label"[^>]*>touch [0-9]+ · slot [0-9]+</text>' "$tmp/p.svg" \
	"Type A: labelled with the touch number and slot"
plot_check "3M sample" "$samples/3m-two-finger.jsonl"
expect_grep '>x \(device units\)</text>' "$tmp/p.svg" "3M sample: no resolution, device units"
for id in $(jq -r 'select(.type=="frame") | .ev[] | select(.[1]==57 or .[1]=="ABS_MT_TRACKING_ID") | .[2]' \
		"$samples/3m-two-finger.jsonl" 2>/dev/null | grep -v '^-1$' | sort -u); do
	expect_grep "<text class=\"touch-label\"[^>]*>slot [0-9]+ · ID $id</text>" "$tmp/p.svg" "3M sample: tracking ID $id labelled"
done
plot_check "touchpad sample" "$samples/touchpad-two-finger-swipe.jsonl"
mm_check "touchpad sample" "$samples/touchpad-two-finger-swipe.jsonl"
# A device name with XML metacharacters.
sed 's/"name":"test touchscreen"/"name":"<b>\&amp; \\"x\\"<\/b>"/' "$data/jump-yes.jsonl" >"$tmp/name.jsonl"
plot_check "hostile name" "$tmp/name.jsonl"
if [ -d "$corpus" ]; then
	plot_check "3M 10-finger" "$corpus/evemu/evemu__data_3m.event"
fitted_check "3M 10-finger"
	plot_check "bcm5974 with --jump-units" --jump-units 150 "$corpus/evemu/evemu__data_bcm5974.event"
fi
# A HID-only recording (a hid-recorder file) plots its contacts: a HID
# surface with a trajectory and a label per contact, a HID track, and
# touch panels of its longest contacts.
hid_check() {
	what=$1 file=$2
	"$TOUCHTAPE" analyze --json --plot "$tmp/h.svg" "$file" >"$tmp/h.json" 2>/dev/null
	contacts=$(jq '.hid_contacts | length' "$tmp/h.json")
	devices=$(jq '[.hid_contacts[].hid_device] | unique | length' "$tmp/h.json")
	[ "$contacts" -gt 0 ] || { fail "$what: no HID contacts in the report"; return; }
	same "$what: HID trajectories" "$(count '<polyline class="touch" data-layer="HID"' "$tmp/h.svg")" "$contacts"
	same "$what: HID surfaces" "$(count '<rect class="surface" data-layer="HID"' "$tmp/h.svg")" "$devices"
	same "$what: HID tracks" "$(count '<polyline class="count" data-layer="HID"' "$tmp/h.svg")" "$devices"
	panels=$((contacts < max_panels ? contacts : max_panels))
	same "$what: contact panels" "$(count '<g class="touch-panel"' "$tmp/h.svg")" "$panels"
	# The most contacts down at once, from their begins and ends (an
	# end before a begin at one time).
	max=$(jq '[.hid_contacts[] | select(.hid_device == 0) | [.begin_us, 1], [.end_us, -1]] | sort_by(.[0], .[1]) |
		reduce .[] as $s ({n: 0, max: 0}; .n += $s[1] | .max = ([.max, .n] | max)) | .max' "$tmp/h.json")
	expect_grep "class=\"lane-label\"[^>]*>HID device 0 &quot;[^<]*&quot;: max $max down<" "$tmp/h.svg" \
		"$what: the HID track's label"
	geometry_check "$what" "$tmp/h.svg"
	render_check "$what" "$tmp/h.svg"
}
# The project's own touchscreen (with a keyboard) and ghost-finger
# touchpad always; the real ILITEK touchscreen and Synaptics touchpad they
# stand in for with the corpus that has them ($TT_CORPUS).
own="$abs_top_srcdir/tests/corpus/hid-recorder"
hid_check "own HID touchscreen" "$own/touchtape-touchscreen-keyboard.hid"
hid_check "own HID touchpad" "$own/touchtape-touchpad-ghost.hid"
for f in ilitek-iltp7807-222a-fff1-touchscreen.hid:touchscreen synaptics-dll0945-06cb-ce26-touchpad.hid:touchpad; do
	if [ -e "$corpus/hid-recorder/${f%%:*}" ] || [ -n "${TT_CORPUS:-}" ]; then
		hid_check "HID ${f##*:}" "$corpus/hid-recorder/${f%%:*}"
	else
		echo "# ${f%%:*} is only in the public corpus (\$TT_CORPUS): its plot is checked on the own HID ${f##*:}"
	fi
done

# Every layer gets a track: the kernel, XI (raw and each client),
# libinput and Wayland, each with the most touches it had down at once.
{ cat "$abs_top_srcdir/tests/data/wayland/xwayland.jsonl"; cat <<'LI'
{"type":"li","li":"TOUCH_DOWN","t":10500,"dev":0,"slot":0,"seat_slot":0,"mm":[1,1],"norm":[0.1,0.1]}
{"type":"li","li":"TOUCH_DOWN","t":20500,"dev":0,"slot":1,"seat_slot":1,"mm":[1,1],"norm":[0.1,0.1]}
{"type":"li","li":"TOUCH_UP","t":40500,"dev":0,"slot":1,"seat_slot":1}
{"type":"li","li":"TOUCH_UP","t":50500,"dev":0,"slot":0,"seat_slot":0}
LI
} >"$tmp/layers.jsonl"
plot_check "every layer" "$tmp/layers.jsonl"
for track in 'kernel device 0 &quot;test touchscreen&quot;' 'XI device 7, raw events' \
	'XI device 7, client &quot;window&quot;' 'libinput device 0' 'Wayland, client &quot;wayland&quot;'; do
	expect_grep "class=\"lane-label\"[^>]*>$track: max 2 down<" "$tmp/p.svg" "every layer: a track '$track'"
done
same "every layer: tracks" "$(count '<rect class="lane"' "$tmp/p.svg")" 5
# In the timeline's order: the kernel, XI, libinput, Wayland.
order=$(sed -n 's/.*<rect class="lane" data-layer="\([A-Za-z]*\)".*/\1/p' "$tmp/p.svg" | uniq | tr '\n' ' ')
same "every layer: track order" "$order" "kernel XI libinput Wayland "

# A device name too long for its track's row is cut there, not past the
# picture's edge.
long=$(printf 'touchscreen%.0s' $(seq 20))
sed "s/\"name\":\"test touchscreen\"/\"name\":\"$long\"/" "$data/jump-yes.jsonl" >"$tmp/long.jsonl"
plot_check "long device name" "$tmp/long.jsonl"
expect_grep 'class="lane-label"[^>]*>kernel device 0 &quot;(touchscreen)+[^<]*…&quot;: max 1 down<' "$tmp/p.svg" \
	"long device name: cut in the track's label"

# Every sample, fixture and corpus file: the geometry and the rendering.
all_files() {
	ls "$samples"/*.jsonl
	find "$abs_top_srcdir/tests/data" -name '*.jsonl'
	[ -d "$corpus" ] && find "$corpus/evemu" "$corpus/hid-recorder" "$corpus/libinput-record" "$corpus/other" \
		-type f ! -name '*.tsv' ! -name '*.md' 2>/dev/null
}
nplots=0
all_files | sort >"$tmp/files"
while IFS= read -r f; do
	rm -f "$tmp/a.svg"
	"$TOUCHTAPE" analyze --plot "$tmp/a.svg" "$f" >/dev/null 2>&1
	[ -f "$tmp/a.svg" ] || continue	# a file analyze cannot read (an events-only evemu file)
	nplots=$((nplots + 1))
	name=${f#"$abs_top_srcdir/"}
	name=${name#"$corpus/"}
	python3 "$abs_top_srcdir/analyze/tests/plot-geometry.py" "$tmp/a.svg" >"$tmp/geometry.out" ||
		{ fail "$name: the SVG's geometry"; cat "$tmp/geometry.out" >&2; }
	command -v rsvg-convert >/dev/null || continue
	rsvg-convert "$tmp/a.svg" -o "$tmp/a.png" 2>"$tmp/rsvg.err" && [ ! -s "$tmp/rsvg.err" ] ||
		{ fail "$name: rsvg-convert reports an error"; cat "$tmp/rsvg.err" >&2; }
done <"$tmp/files"
[ "$nplots" -ge 20 ] && pass "the geometry of $nplots plots checked" || fail "only $nplots plots written"

expect_exit 2 "unwritable plot path" -- "$TOUCHTAPE" analyze --plot /nonexistent/dir/x.svg "$data/jump-no.jsonl"
finish
