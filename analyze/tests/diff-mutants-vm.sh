#!/bin/bash
# The regression gate against a real replay (tests/vm/run, one boot):
# touch recordings (a Type B touchscreen, a Type A one, a clickpad with
# BTN_LEFT, 10 s) replayed by touchtape through uinput and recorded again under
# TCG give 0 differences against their originals with diff's default
# tolerances (no false alarm from a faithful replay), and each
# re-recording still differs from every mutant tests/mutate.py makes of
# its original (the gate's tolerances do not swallow a regression).
# The host prepares the files and judges; the guest only replays and
# records, into a folder shared with it.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../tests/vm/lib.sh"
: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
failures=0
bad() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }
ok() { printf 'ok: %s\n' "$*"; }

if [[ "${TT_VM_GUEST:-}" == 1 ]]; then
	dir=$1
	for f in "$dir"/in-*.jsonl; do
		n=${f##*/in-}
		note "replaying ${n%.jsonl}"
		vm_replay "$f"
		vm_record_replay "$dir/rec-$n" '"kind":"start"'
		vm_go
		vm_finish "$recpid"
	done
	exit $((failures > 0))
fi

corpus="${TT_CORPUS:-$abs_top_srcdir/tests/corpus}"
[[ -f "$corpus/SOURCES.tsv" ]] || { echo "SKIP: no corpus at $corpus"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
mutate="$abs_top_srcdir/tests/mutate.py"
kinds="jump,offset,bow,scale-axis,stall,halve-rate,halve-pressure,lost-click,shift-button,"
dir=$(mktemp -d "${TMPDIR:-/tmp}/tt-mutants-vm.XXXXXX")
# kept when something failed, to look at
trap '[[ $failures == 0 ]] && rm -rf "$dir" || echo "# files kept in $dir"' EXIT

# NAME END CORPUS-FILE: the inputs, as timelines (an events-only file
# with the description SOURCES.tsv names for it), up to END (- for all).
# The clickpad's first 3.9 s hold a click and end with no touch down:
# its 10 s under TCG on a loaded host would risk a dropped frame.
inputs=(
	"typeb-atmel - evemu/evemu-devices__touchscreens_Atmel maXTouch Touchscreen.1-finger-drag-up-down.events"
	"typea-ntrig - evemu/evemu__data_ntrig-dell-xt2.event"
	"clickpad 3.9s evemu/evemu-devices__touchpads_SynPS2 Synaptics TouchPad.hp8470p.edge-scroll-horizontal.events"
)
cp "$abs_top_srcdir/samples/3m-two-finger.jsonl" "$dir/in-typeb-3m.jsonl"
for i in "${inputs[@]}"; do
	read -r name end file <<<"$i"
	desc=$(awk -F'\t' -v f="$file" '$1 == f { print $16 }' "$corpus/SOURCES.tsv")
	args=()
	[[ $desc == evemu-desc/* ]] && args=(--desc "$corpus/$desc")
	[[ $end == - ]] || args+=(--to "$end")
	"$TOUCHTAPE" convert "${args[@]}" "$corpus/$file" -o "$dir/in-$name.jsonl" 2>/dev/null ||
		fail "cannot convert $file"
done

rc=0
"$abs_top_srcdir/tests/vm/run" --timeout 300 --rw "$dir" -- \
	bash "${BASH_SOURCE[0]}" "$dir" || rc=$?
[[ $rc == 77 ]] && exit 77
[[ $rc == 0 ]] || bad "the guest's replays and recordings failed (VM status $rc)"

for f in "$dir"/in-*.jsonl; do
	n=${f##*/in-} n=${n%.jsonl}
	rec="$dir/rec-$n.jsonl"
	[[ -s $rec ]] || { bad "$n: no re-recording"; continue; }
	if "$TOUCHTAPE" diff "$f" "$rec" >"$dir/diff.out" 2>&1; then
		ok "$n: the re-recording matches its original: $(tail -1 "$dir/diff.out")"
	else
		sed 's/^/  | /' "$dir/diff.out"
		bad "$n: a faithful replay differs from its original"
	fi
	python3 "$mutate" "$kinds" "$f" "$dir/m-$n" >"$dir/mutate.out" 2>&1 ||
		{ cat "$dir/mutate.out"; bad "$n: mutate.py failed"; continue; }
	while read -r k what; do
		[[ $what == applied ]] || continue
		"$TOUCHTAPE" diff "$rec" "$dir/m-$n.$k.jsonl" >"$dir/diff.out" 2>&1
		case $? in
		1) ok "$n: the re-recording differs from the $k mutant: $(tail -1 "$dir/diff.out")" ;;
		0) bad "$n: the re-recording equals the $k mutant (0 differences)" ;;
		*) cat "$dir/diff.out"; bad "$n: diff of the $k mutant failed" ;;
		esac
	done <"$dir/mutate.out"
done
exit $((failures > 0))
