#!/bin/sh
# valgrind memcheck over every command that reads files: validate, print,
# analyze (text, --json, --plot), diff, convert (every pair of input and
# output formats, --redact), validate --privacy, inspect (--text,
# --summary --json, the headless UI)
# and replay --dry-run, over every sample and ten (nine in tests/corpus,
# which has no look-alike; the whole public corpus with $TT_CORPUS) varied
# corpus recordings (evemu Type A and B touchscreens, touchpads
# with and without a separate description, one inferred from its events,
# a tablet, the libinput-record file, a look-alike). TT_LEAKS_ALL=1 takes
# every corpus file. Fails on any memcheck error and on any definite or
# indirect leak. Two valgrinds run at a time (TT_LEAKS_JOBS).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

valgrind=${VALGRIND:-$(command -v valgrind || true)}
[ -n "$valgrind" ] || { echo "no valgrind: skipped"; exit 77; }
corpus=${TT_CORPUS:-$abs_top_srcdir/tests/corpus}
jobs=${TT_LEAKS_JOBS:-2}
out="$tmp/vg"
mkdir -p "$out"
start=$SECONDS

n=0
# vg LABEL [VAR=VALUE...] -- ARGS...: queues touchtape ARGS under
# valgrind, run from $out; waits while $jobs others run.
vg() {
	local label=$1 env=()
	shift
	while [ "$1" != -- ]; do env+=("$1"); shift; done
	shift
	n=$((n + 1))
	local id
	id=$(printf '%04d' "$n")
	echo "$label" >"$out/$id.label"
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
	(
		cd "$out" || exit 1
		env "${env[@]}" "$valgrind" -q --leak-check=full --show-leak-kinds=definite,indirect \
			--errors-for-leak-kinds=definite,indirect --error-exitcode=99 \
			--log-file="$out/$id.vg" "$TOUCHTAPE" "$@" >"$out/$id.out" 2>"$out/$id.err"
		echo $? >"$out/$id.rc"
	) &
}

# Every command on one recording. @desc: its evemu description, if any;
# @light: leave out the report modes the samples cover (valgrind is slow).
all_commands() {
	local what=$1 f=$2 desc=${3:-} light=${4:-}
	local d=()
	[ -n "$desc" ] && d=(--desc "$desc")
	local base
	base=$(basename "$f")
	vg "print $what" -- print "$f"
	vg "analyze --json $what" -- analyze --json --device 0 --no-link "${d[@]}" "$f"
	vg "inspect --text $what" -- inspect --text "$f"
	if [ -z "$light" ]; then
		vg "analyze $what" -- analyze "${d[@]}" "$f"
		vg "analyze --plot $what" -- analyze --plot "$base.svg" --jump-units 50 "${d[@]}" "$f"
		vg "inspect --summary --json $what" -- inspect --summary --json "$f"
	fi
	vg "inspect (headless UI) $what" TOUCHTAPE_INSPECT_HEADLESS=100x30 \
		"TOUCHTAPE_INSPECT_KEYS=jjL<Right>+a<Dump>/#1<Enter>wd<Dump>q" -- inspect "$f"
	vg "replay --dry-run $what" -- replay --dry-run --max-gap 0.1 "$f"
	for to in timeline evemu libinput; do
		vg "convert --to $to $what" -- convert --to "$to" "${d[@]}" -o "$base.$to" "$f"
	done
}

samples_list=("$samples"/*.jsonl)
[ "${#samples_list[@]}" -ge 8 ] || fail "only ${#samples_list[@]} samples"
vg "validate, all samples" -- validate "${samples_list[@]}"
# What may identify someone, found and redacted, on a combined touch and
# keyboard recording (evdev keys, HID key reports, serials, addresses).
priv="$abs_top_srcdir/tests/fuzz/seeds/timeline-privacy.jsonl"
vg "validate --privacy" -- validate --privacy "$priv" "${samples_list[@]}"
vg "convert --redact" -- convert --redact -o redacted.jsonl "$priv"
for i in "${!samples_list[@]}"; do
	s=${samples_list[$i]}
	all_commands "$(basename "$s")" "$s"
	next=${samples_list[$(( (i + 1) % ${#samples_list[@]} ))]}
	vg "diff $(basename "$s") $(basename "$next")" -- diff "$s" "$next"
done

# Every pair of formats: evemu and libinput-record copies of a
# touchscreen and a touchpad sample (made without valgrind), converted to
# each format.
for s in "$samples/3m-two-finger.jsonl" "$samples/touchpad-two-finger-swipe.jsonl"; do
	b=$(basename "$s" .jsonl)
	if ! "$TOUCHTAPE" convert --to evemu -o "$tmp/$b.evemu" "$s" 2>/dev/null ||
	   ! "$TOUCHTAPE" convert --to libinput -o "$tmp/$b.yml" "$s" 2>/dev/null; then
		fail "$b: cannot make the evemu and libinput-record copies"
	fi
	for in in evemu yml; do
		for to in timeline evemu libinput; do
			vg "convert $in -> $to ($b)" -- convert --to "$to" -o "$b.$in.$to" "$tmp/$b.$in"
		done
	done
	vg "diff $b.evemu $b.yml" -- diff "$tmp/$b.evemu" "$tmp/$b.yml"
done

if [ -n "$corpus" ] && [ -d "$corpus" ]; then
	# FILE [DESC] per line, relative to the corpus.
	picks=(
		"evemu/evemu__data_ntrig-dell-xt2.event"
		"evemu/evemu__data_wetab.event"
		"evemu/evemu-devices__touchscreens_Atmel maXTouch Touchscreen.1-finger-fast-taps.events"
		"evemu/evemu-devices__touchpads_CyPS2 Cypress Trackpad.two_finger_tap.events"
		"evemu/evemu-devices__touchpads_AlpsPS2-ALPS-DualPoint-TouchPad-non-MT.tap.events"
		"evemu/xit__recordings_touchpads_SynPS2-Synaptics-TouchPad-Clickpad.two-finger-up.events|evemu-desc/xit__recordings_touchpads_SynPS2-Synaptics-TouchPad.desc"
		"evemu/autotest__client_site_tests_firmware_TouchMTB_tests_data_one_finger_swipe.evemu.dat"
		"evemu/evemu-devices__tablets_Wacom Cintiq 13HD touch Finger.events"
		"libinput-record/linux__Documentation_hid_hidintro.rst__example-extracted.yml"
		"other/asus-numberpad-driver__tests_UX582LR.dev"
	)
	# The project's own look-alike, whatever corpus the others come from.
	own_picks=("other/touchtape-proc-bus-input-devices.dev")
	if [ "${TT_LEAKS_ALL:-}" = 1 ]; then
		# Every recording and look-alike, with its description (SOURCES.tsv
		# column 16) where it has one.
		picks=()
		while IFS=$'\t' read -r file desc; do
			case $file in evemu/* | libinput-record/* | other/* | hid-recorder/*) ;; *) continue ;; esac
			picks+=("$file${desc:+|$desc}")
		done < <(awk -F'\t' 'NR > 1 { print $1 "\t" $16 }' "$corpus/SOURCES.tsv")
	fi
	for p in "${picks[@]}"; do
		file=${p%%|*} desc=
		[[ "$p" == *"|"* ]] && desc="$corpus/${p#*|}"
		corpus_lacks "$corpus/$file" && continue
		[ -f "$corpus/$file" ] || { fail "corpus file missing: $file"; continue; }
		all_commands "$file" "$corpus/$file" "$desc" light
	done
	for file in "${own_picks[@]}"; do
		all_commands "$file" "$abs_top_srcdir/tests/corpus/$file" "" light
	done
else
	fail "no corpus at $corpus"
fi

wait
runs=0
for rc in "$out"/*.rc; do
	id=$(basename "$rc" .rc)
	runs=$((runs + 1))
	label=$(cat "$out/$id.label")
	status=$(cat "$rc")
	if [ "$status" -eq 99 ] || [ -s "$out/$id.vg" ]; then
		fail "$label: valgrind found errors or leaks"
		head -40 "$out/$id.vg" | sed 's/^/  | /' >&2
	elif [ "$status" -ge 126 ]; then
		fail "$label: exit $status"
		tail -5 "$out/$id.err" | sed 's/^/  | /' >&2
	fi
done
[ "$runs" -eq "$n" ] || fail "$((n - runs)) valgrind runs left no status"
# The runs did their work: validate saw every sample (a summary line
# each; the synaptics sample has its jumps, samples/README.md).
first="$out/0001.out"
[ "$(grep -Ec ': touchtape timeline, [0-9]+ records, [0-9]+ errors' "$first")" -eq "${#samples_list[@]}" ] ||
	fail "validate under valgrind did not pass every sample: $(cat "$first")"
echo "$runs valgrind runs in $((SECONDS - start)) s"
[ "$failures" -eq 0 ] && pass "no memcheck error, no definite or indirect leak"
finish
