#!/bin/sh
# Hostile recordings through every command that reads files: numbers
# beyond 64 bits, NaN, wrong JSON types, nesting 100000 deep, a 100 MB
# line, a million device records, a frame of a million events, time
# backwards, codes out of range, duplicate and undeclared devices,
# invalid UTF-8, NUL bytes, truncated, empty and binary files, YAML
# aliases ("billion laughs") and huge scalars, in the timeline, evemu and
# libinput-record formats. tests/hostile-recordings.py makes the files,
# and says what each must do, in a temporary folder at test time.
#
# For each file and command: the exact exit status its class calls for,
# the FILE:LINE: message of the lines at fault, no crash (exit below 128,
# no sanitizer report), at most TIME_LIMIT seconds and MEM_LIMIT_KB of
# peak memory. Everything runs with $TOUCHTAPE and, at the same time on
# the other core, with the ASan+UBSan build $TOUCHTAPE_SAN where it was
# built.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

# The 100 MB line and the million records take about 4 s alone (validate
# of a million device records, measured); the limit catches a hang or a
# quadratic reader (minutes), not a slow machine: make check -j2 runs this
# beside a TCG guest, where 20 s was seen to be too little.
TIME_LIMIT=${TT_HOSTILE_TIME_LIMIT:-60}
# A reader holds one line (at most 4 MiB, in a buffer of 8 MiB) and one
# line's json-c tree, which TT_MAX_JSON_VALUES keeps under 40 MiB; the
# program and its libraries take 4 MiB, and the commands' state for the
# few valid records of these files is small. A reader that kept a 100 MB
# line or scalar, built the json-c tree of a line of [], or kept a
# million devices would need far more.
MEM_LIMIT_KB=$((64 * 1024))

sample="$samples/touchpad-two-finger-swipe.jsonl"
san=
if [ -x "${TOUCHTAPE_SAN:-}" ]; then
	san=$TOUCHTAPE_SAN
else
	echo "no sanitized build (\$TOUCHTAPE_SAN): the plain build only"
fi
# Peak memory from GNU time; without it, a hard address-space limit
# (allocation failure aborts, which counts as a crash).
gnutime=
/usr/bin/time -q -f %M -o /dev/null true 2>/dev/null && gnutime=/usr/bin/time
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}print_stacktrace=1:exitcode=86"

command -v python3 >/dev/null || { fail "python3 is needed to make the hostile files"; finish; }
h="$tmp/h"
mkdir -p "$h"
start=$SECONDS
python3 "$abs_top_srcdir/tests/hostile-recordings.py" "$h" || { fail "making the hostile files"; finish; }
echo "hostile files made in $((SECONDS - start)) s ($(du -sm "$h" | cut -f1) MB)"
cd "$h" || exit 1

# The commands (@ is the file; without @ it comes last), and what each
# must return for a file of each class:
# "added": codes the description lacks that the kernel can create (the
# device delivered them): errors for validate, but replay adds them to
# the device it creates, says so and replays (issue 23); codes out of
# range and codes uinput cannot create stay refused ("bad", "semantic").
# validate and analyze: a warning (no devices) is not a finding, a file
# they cannot read is trouble (2), as touchtape(1) says under EXIT STATUS.
# "header": a timeline whose header cannot be read: the rest means nothing
# without it, so the file is unreadable (trouble, 2), with one message at
# line 1.
# The HID layer's classes: "h..." files hold only the HID layer (a
# hid-recorder file), "hid..." files both layers. A file with no evdev
# layer cannot be written as evemu or libinput-record, nor replayed
# without --hid (trouble 2, and findings 1 as for nodev; a recording of
# nothing, nodev, is no evemu or libinput-record file either); a file with no
# HID layer cannot be written as hid-recorder, nor replayed with --hid.
# "hsem"/"hidsem": every line reads, the HID layer breaks the format's
# rules (a descriptor the parser refuses, reports it does not declare,
# time backwards): validate and analyze fail, the rest show it as
# recorded and replay --hid sends it as recorded (the kernel judges).
classes=(bad semantic warn ok nodev unreadable added header hbad hsem hok hidbad hidsem hidok)
commands=(
	"validate|validate --max 0|1 1 0 0 0 2 1 2 1 1 0 1 1 0"
	"print|print|1 0 0 0 0 2 0 2 1 0 0 1 0 0"
	"analyze|analyze|1 1 0 0 0 2 1 2 1 1 0 1 1 0"
	# (No --device here: an id the file lacks is trouble, exit 2, and
	# many of these files have no device 0.)
	"analyze-json|analyze --json --no-link|1 1 0 0 0 2 1 2 1 1 0 1 1 0"
	"analyze-plot|analyze --plot PLOT --jump-units 100|1 1 0 0 0 2 1 2 1 1 0 1 1 0"
	"diff-sample|diff @ $sample|2 1 1 1 1 2 1 2 2 1 1 2 1 1"
	"diff-self|diff @ @|2 0 0 0 0 2 0 2 2 0 0 2 0 0"
	"convert|convert -o CONV|1 0 0 0 0 2 0 2 1 0 0 1 0 0"
	"convert-evemu|convert --to evemu -o CONV|1 0 0 0 2 2 0 2 2 2 2 1 0 0"
	"convert-libinput|convert --to libinput -o CONV|1 0 0 0 2 2 0 2 2 2 2 1 0 0"
	"convert-hidrec|convert --to hid-recorder -o CONV|2 2 2 2 2 2 2 2 1 0 0 1 0 0"
	"inspect-text|inspect --text --width 80|1 0 0 0 0 2 0 2 1 0 0 1 0 0"
	"inspect-summary|inspect --summary|1 0 0 0 0 2 0 2 1 0 0 1 0 0"
	"inspect-json|inspect --summary --json|1 0 0 0 0 2 0 2 1 0 0 1 0 0"
	"inspect-ui|inspect|1 0 0 0 0 2 0 2 1 0 0 1 0 0"
	"replay-dry|replay --dry-run --max-gap 0.1|1 1 0 0 1 2 0 2 1 1 1 1 0 0"
	"replay-hid-dry|replay --hid --dry-run --max-gap 0.1|1 1 1 1 1 2 1 2 1 0 0 1 0 0"
	# Without --dry-run: refused before anything opens /dev/uinput.
	# The host has none, and a file that passed would fail there, so
	# only files that must be refused are tried ("-": not run).
	"replay|replay|1 1 - - - 2 - 2 1 1 1 1 - -"
)

# run BIN LABEL ARGS...: runs one command on $name and checks it neither
# crashed nor took too long nor too much memory; its status is in $rc,
# its output in $o.out and $o.err.
run() {
	local bin=$1 label=$2; shift 2
	local pre=()
	[ "$label" = inspect-ui ] &&
		pre=(env TOUCHTAPE_INSPECT_HEADLESS=80x24 "TOUCHTAPE_INSPECT_KEYS=jjL<Right>+a<Dump>/#5<Enter>q")
	if [ "$bin" != "$TOUCHTAPE" ]; then
		# The sanitizers slow it down a few times.
		"${pre[@]}" timeout "$((TIME_LIMIT * 3))" "$bin" "$@" >"$o.out" 2>"$o.err"
		rc=$?
		if grep -qE 'Sanitizer|runtime error:' "$o.err"; then
			fail "$name $label: sanitizer report"
			grep -m 20 -E 'ERROR|runtime error|#[0-9] ' "$o.err" | sed 's/^/  | /' >&2
		fi
	elif [ -n "$gnutime" ]; then
		"${pre[@]}" timeout "$TIME_LIMIT" $gnutime -q -o "$o.mem" -f %M "$bin" "$@" >"$o.out" 2>"$o.err"
		rc=$?
		local kb=
		read -r kb <"$o.mem"
		if [[ "$kb" =~ ^[0-9]+$ ]]; then
			[ "$kb" -gt "$maxkb" ] && maxkb=$kb && maxwhat="$label $name"
			[ "$kb" -le "$MEM_LIMIT_KB" ] ||
				fail "$name $label: peak memory $((kb / 1024)) MiB, over $((MEM_LIMIT_KB / 1024)) MiB"
		fi
	else
		"${pre[@]}" timeout "$TIME_LIMIT" prlimit --as=$((4 * MEM_LIMIT_KB * 1024)) "$bin" "$@" \
			>"$o.out" 2>"$o.err"
		rc=$?
	fi
	[ "$rc" -eq 124 ] && fail "$name $label: still running after the time limit"
	[ "$rc" -ge 128 ] && fail "$name $label: crashed (exit $rc)"
}

# has_line LINE: a "$name:LINE: " message on stderr.
has_line() {
	grep -qE "^(touchtape( [a-z]+)?: )?${name//./\\.}:$1: " "$o.err"
}

# check BIN LABEL ARGV WANT: runs the command on $name and checks its
# exit status and its messages for a file of class $cls.
check() {
	local bin=$1 label=$2 argv=$3 want=$4
	local args=() a l first=${lines%%,*}
	for a in $argv; do
		case $a in
		@) args+=("$name") ;;
		PLOT) args+=("$o.svg") ;;
		CONV) args+=("$o.conv") ;;
		*) args+=("$a") ;;
		esac
	done
	[[ "$argv" == *@* ]] || args+=("$name")
	rm -f "$o.conv"
	run "$bin" "$label" "${args[@]}"
	# A bad file of which nothing past the header (or no device, for
	# evemu and libinput-record) reads is refused whole by convert
	# (issue 34): no header-only output, exit 2.
	if [ "$cls/$rc/$want" = bad/2/1 ] && [[ $label == convert* ]] &&
		grep -qE "(: nothing could be read; no output written| has no device to write as [a-z-]+)$" "$o.err"; then
		[ ! -e "$o.conv" ] || fail "$name $label: refused, yet $o.conv written"
		want=2
	fi
	if [ "$rc" -ne "$want" ]; then
		fail "$name $label (${bin##*/}): exit $rc, want $want"
		head -5 "$o.err" | cut -c1-200 | sed 's/^/  | /' >&2
		return
	fi
	case $cls/$label in
	bad/validate | semantic/validate | added/validate | \
	hbad/validate | hsem/validate | hidbad/validate | hidsem/validate)
		for l in ${lines//,/ }; do
			has_line "$l" || fail "$name validate: no message for line $l"
		done ;;
	bad/* | header/* | semantic/replay | semantic/replay-dry | hbad/* | hidbad/*)
		has_line "$first" || { fail "$name $label: no '$name:$first:' message"
			head -3 "$o.err" | cut -c1-200 | sed 's/^/  | /' >&2; } ;;
	added/replay-dry)
		grep -q ": the description lacks .*, used by the recording: added$" "$o.err" ||
			fail "$name $label: no 'the description lacks ...: added' warning" ;;
	semantic/analyze | added/analyze)
		grep -q "^  $name:$first: " "$o.out" || fail "$name analyze: no anomaly at line $first" ;;
	warn/validate | nodev/validate)
		[ "$first" = - ] || grep -qE "^(touchtape validate: )?$name:$first: warning: " "$o.err" ||
			fail "$name validate: no warning for line $first" ;;
	unreadable/*)
		grep -qE "^(touchtape [a-z]+: )?$name: " "$o.err" || fail "$name $label: no '$name: ' message" ;;
	esac
	if [ "$label" = replay ] && grep -q uinput "$o.err"; then
		fail "$name replay: got as far as uinput"
	fi
}

# sweep BIN: every file through every command its tier asks for. The
# sanitized build runs "big" files through validate only (it is slow and
# finds nothing the small files would not show), "huge" ones not at all.
sweep() {
	local bin=$1 ci c entry label argv wants want before t0
	o="$tmp/${bin##*/}"
	while IFS=$'\t' read -r name cls tier lines; do
		ncases=$((ncases + 1))
		ci=
		for c in "${!classes[@]}"; do [ "${classes[$c]}" = "$cls" ] && ci=$c; done
		[ -n "$ci" ] || { fail "$name: unknown class $cls"; continue; }
		before=$failures
		t0=$SECONDS
		for entry in "${commands[@]}"; do
			IFS='|' read -r label argv wants <<<"$entry"
			read -ra want <<<"$wants"
			[ "${want[$ci]}" = - ] && continue
			if [ "$bin" = "$TOUCHTAPE" ]; then
				[ "$tier" = huge ] && [ "$label" != validate ] && continue
			else
				[ "$tier" = huge ] && continue
				[ "$tier" = big ] && [ "$label" != validate ] && continue
			fi
			check "$bin" "$label" "$argv" "${want[$ci]}"
			nruns=$((nruns + 1))
		done
		[ "$failures" -eq "$before" ] && pass "$name ($cls, ${bin##*/}, $((SECONDS - t0)) s)"
	done <cases.tsv
	echo "${bin##*/}: $ncases files, $nruns runs in $((SECONDS - start)) s"
}

# check_names FILE SHOWN: print and inspect --summary show the device
# name of FILE (control characters and invalid UTF-8 in it) as SHOWN;
# no view lets a control character but newline and tab, or bytes that
# are not UTF-8, through to a terminal.
check_names() {
	local file=$1 shown=$2 label out
	for label in print inspect-text inspect-summary inspect-ui; do
		out="$tmp/names.$label"
		case $label in
		print) "$TOUCHTAPE" print "$file" >"$out" 2>&1 ;;
		inspect-text) "$TOUCHTAPE" inspect --text --width 200 "$file" >"$out" 2>&1 ;;
		inspect-summary) "$TOUCHTAPE" inspect --summary "$file" >"$out" 2>&1 ;;
		inspect-ui) env TOUCHTAPE_INSPECT_HEADLESS=200x40 "TOUCHTAPE_INSPECT_KEYS=<Dump>q" \
			"$TOUCHTAPE" inspect "$file" >"$out" 2>&1 ;;
		esac
		case $label in print | inspect-summary)
			grep -qF -- "$shown" "$out" || fail "$file $label: the name is not shown as '$shown'" ;;
		esac
		LC_ALL=C grep -qaP '[\x00-\x08\x0b-\x1f\x7f]' "$out" &&
			fail "$file $label: control characters reach the terminal"
		iconv -f UTF-8 -t UTF-8 "$out" >/dev/null 2>&1 || fail "$file $label: output is not UTF-8"
	done
}

maxkb=0
maxwhat=
ncases=0
nruns=0
sanpid=
if [ -n "$san" ]; then
	(sweep "$san"; exit $((failures > 99 ? 99 : failures))) >"$tmp/san.log" 2>&1 &
	sanpid=$!
fi
sweep "$TOUCHTAPE"
[ "$ncases" -ge 60 ] || fail "only $ncases hostile files were made"
# hid-recorder's N: line holds raw bytes, the timeline's name JSON escapes.
# (U+FFFD, the replacement character, as UTF-8 bytes.)
r=$'\357\277\275'
before=$failures
check_names h-names.hid "bad $r$r$r$r utf8 ?[2J esc? bel"
check_names t-hid-names.jsonl "esc ?[2J?nul $r lone ? nl ?"
[ "$failures" -eq "$before" ] && pass "HID device names sanitized in print and inspect"
[ -n "$gnutime" ] && echo "peak memory $((maxkb / 1024)) MiB ($maxwhat)"
if [ -n "$sanpid" ]; then
	wait "$sanpid"
	n=$?
	cat "$tmp/san.log"
	failures=$((failures + n))
fi
echo "done in $((SECONDS - start)) s"
finish
