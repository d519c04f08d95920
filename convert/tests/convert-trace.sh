#!/bin/sh
# convert --format trace: the Trace Event Format checked by its rules
# (trace-check.py: every event's fields by phase, slices nested per track,
# flows paired, counters numeric) over every sample, test fixture and
# corpus file, with one slice per touch and one flow per link as analyze
# --json counts them; what the slices, flows and instants say on files
# made for it; gzip, standard output and the usage errors.
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

check="$abs_top_srcdir/convert/tests/trace-check.py"
data="$abs_top_srcdir/tests/data"

# jq-less look at one trace: "PH NAME PID" per event, for greps.
events() {
	python3 -c 'import gzip,json,sys
p=sys.argv[1]
d=json.load((gzip.open if p.endswith(".gz") else open)(p,"rt"))
for e in d["traceEvents"]:
    print(e["ph"], e["name"].replace(" ","_"), e["pid"], e.get("cat",""))' "$1"
}

# The rules and analyze's counts for one file: 0 when both agree.
check_file() {
	local f=$1 rel=$2
	"$TOUCHTAPE" analyze --json "$f" >"$tmp/an.json" 2>/dev/null
	local arc=$?
	"$TOUCHTAPE" convert -F trace "$f" -o "$tmp/t.json" >/dev/null 2>"$tmp/err"
	local crc=$?
	if [ "$arc" -eq 2 ]; then
		[ "$crc" -eq 2 ] && pass "$rel: unreadable for analyze and for the trace" ||
			fail "$rel: analyze exit 2, convert exit $crc"
		return
	fi
	[ "$crc" -eq "$arc" ] || [ "$crc" -eq 0 ] || fail "$rel: convert exit $crc (analyze $arc)"
	python3 "$check" "$tmp/t.json" "$tmp/an.json" >"$tmp/problems" &&
		pass "$rel: the format's rules, a slice per touch, a flow per link" ||
		{ fail "$rel: trace"; sed 's/^/  | /' "$tmp/problems" >&2; }
}

for f in "$samples"/*.jsonl "$data"/*/*.jsonl; do
	check_file "$f" "${f#"$abs_top_srcdir"/}"
done

# libinput: a kernel touch per slot and libinput's touches of them.
awk '{ print }
/"type":"device"/ { print "{\"type\":\"li_device\",\"dev\":0,\"sysname\":\"event5\",\"capabilities\":[\"touch\"]}" }
/"type":"frame".*"t":10000,/ { print "{\"type\":\"li\",\"li\":\"TOUCH_DOWN\",\"t\":10000,\"dev\":0,\"slot\":0,\"seat_slot\":0}" }
/"type":"frame".*"t":20000,/ { print "{\"type\":\"li\",\"li\":\"TOUCH_DOWN\",\"t\":20000,\"dev\":0,\"slot\":1,\"seat_slot\":1}" }
/"type":"frame".*"t":40000,/ { print "{\"type\":\"li\",\"li\":\"TOUCH_UP\",\"t\":40000,\"dev\":0,\"slot\":0,\"seat_slot\":0}" }
/"type":"frame".*"t":50000,/ { print "{\"type\":\"li\",\"li\":\"TOUCH_UP\",\"t\":50000,\"dev\":0,\"slot\":1,\"seat_slot\":1}" }
' "$data/wayland/wl-clean.jsonl" >"$tmp/li.jsonl"
check_file "$tmp/li.jsonl" "libinput and Wayland over one touchscreen"
events "$tmp/t.json" >"$tmp/ev"
[ "$(grep -c '^X .* libinput$' "$tmp/ev")" -eq 2 ] && pass "two libinput slices" || fail "libinput slices"
[ "$(grep -c '^s kernel_to_libinput 200000 ' "$tmp/ev")" -eq 2 ] && pass "two flows kernel to libinput" ||
	fail "kernel to libinput flows"
[ "$(grep -c '^s kernel_to_Wayland 200000 ' "$tmp/ev")" -eq 2 ] && pass "two flows kernel to Wayland" ||
	fail "kernel to Wayland flows"

# XI: each kernel touch flows into its XI touch, on the XI device's process.
expect_exit 0 "XI recording to a gzip trace" -- "$TOUCHTAPE" convert --format trace \
	"$samples/xi-touchscreen-two-finger.jsonl" -o "$tmp/xi.json.gz"
[ "$(head -c2 "$tmp/xi.json.gz" | od -An -tx1 | tr -d ' ')" = 1f8b ] && pass "a .gz name writes gzip" ||
	fail "not gzip"
events "$tmp/xi.json.gz" >"$tmp/ev"
[ "$(grep -c '^f kernel_to_XI 3000' "$tmp/ev")" -eq 2 ] && pass "two flows end on XI processes" ||
	fail "kernel to XI flows"
expect_grep '^C slot_0_x 200000 position' "$tmp/ev" "x counter of slot 0"
expect_grep '^C slot_0_y 200000 position' "$tmp/ev" "y counter of slot 0, a track of its own"
expect_grep '^M process_name 3000[0-9][0-9] ' "$tmp/ev" "a process for the XI source device"

# Diagnostics are instants named by the catalog; markers too.
expect_exit 0 "to standard output" -- "$TOUCHTAPE" convert -F trace "$data/analyze/syn-dropped-yes.jsonl"
cp "$tmp/out" "$tmp/sd.json"
events "$tmp/sd.json" >"$tmp/ev"
expect_grep '^i syn-dropped 1 diagnostic$' "$tmp/ev" "SYN_DROPPED is an instant named by the catalog"
expect_exit 0 "touchpad with a marker" -- "$TOUCHTAPE" convert -F trace "$samples/touchpad-two-finger-swipe.jsonl" -o "$tmp/m.json"
events "$tmp/m.json" >"$tmp/ev"
expect_grep '^i .* 1 marker$' "$tmp/ev" "a marker is an instant"

# Usage.
expect_exit 2 "--redact has nothing to redact in a trace" -- "$TOUCHTAPE" convert -F trace --redact \
	"$samples/3m-two-finger.jsonl" -o "$tmp/r.json"
[ ! -e "$tmp/r.json" ] && pass "no output on a usage error" || fail "output written"
expect_exit 2 "an unknown format" -- "$TOUCHTAPE" convert -F traces "$samples/3m-two-finger.jsonl"
expect_grep "hid-recorder or trace" "$tmp/err" "the formats listed"

corpus="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}"
if [ ! -f "$corpus/SOURCES.tsv" ]; then
	echo "no corpus at $corpus: skipping its part"
	finish
fi
find "$corpus" -type f ! -name SOURCES.tsv ! -name README.md | sort >"$tmp/files"
while IFS= read -r f; do
	check_file "$f" "${f#"$corpus"/}"
done <"$tmp/files"
finish
