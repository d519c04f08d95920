#!/bin/bash
# The grade's fuzz suggestion works (tests/vm/run, one boot): a finger held
# still with 0.9 mm of noise fails the touchscreen's stationary jitter;
# replayed through uinput and recorded again it still fails, and replayed
# with the hwdb entry analyze suggests (replay --hwdb-abs, as udev would
# apply it) and recorded again its jitter is within the limit. The host
# makes the fixture and judges; the guest replays and records.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../../tests/vm/lib.sh"
: "${TOUCHTAPE:=$abs_top_builddir/touchtape}"
failures=0
bad() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }
ok() { printf 'ok: %s\n' "$*"; }

if [[ "${TT_VM_GUEST:-}" == 1 ]]; then
	dir=$1
	note "replaying as recorded"
	vm_replay "$dir/shaky.jsonl"
	vm_record_replay "$dir/plain.jsonl" '"kind":"start"'
	vm_go
	vm_finish "$recpid"
	note "replaying with $(cat "$dir/entries")"
	mapfile -t entries <"$dir/entries"
	args=()
	for e in "${entries[@]}"; do args+=(--hwdb-abs "$e"); done
	vm_replay "$dir/shaky.jsonl" "${args[@]}"
	vm_record_replay "$dir/fuzzed.jsonl" '"kind":"start"'
	vm_go
	vm_finish "$recpid"
	exit $((failures > 0))
fi

command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/tt-grade-vm.XXXXXX")
trap '[[ $failures == 0 ]] && rm -rf "$dir" || echo "# files kept in $dir"' EXIT
python3 "$abs_top_srcdir/grade/tests/grade-fixtures.py" "$TOUCHTAPE" "$dir" >/dev/null ||
	bad "the fixtures could not be made"

jitter() {	# FILE: the stationary jitter and its verdict
	"$TOUCHTAPE" analyze --json --grade touchscreen "$1" | python3 -c 'import json, sys
g = json.load(sys.stdin)["grade"]
m = [m for m in g["metrics"] if m["name"] == "stationary-jitter"][0]
print(m["value"], m["verdict"])
for s in g["suggestions"]:
    if s["kind"] == "hwdb":
        open(sys.argv[1], "w").write("\n".join(l.strip() for l in s["text"].splitlines()[1:]) + "\n")
        open(sys.argv[1] + ".expected", "w").write("%s\n" % s["expected_jitter"])' "$dir/entries"
}
read -r before verdict < <(jitter "$dir/shaky.jsonl")
expected=$(cat "$dir/entries.expected" 2>/dev/null)
[[ $verdict == fail && -s $dir/entries ]] && ok "the original fails ($before mm) with a suggestion: $(tr '\n' ' ' <"$dir/entries")" ||
	bad "the original should fail with an hwdb suggestion: $before $verdict"

rc=0
"$abs_top_srcdir/tests/vm/run" --timeout 240 --rw "$dir" -- bash "${BASH_SOURCE[0]}" "$dir" || rc=$?
[[ $rc == 77 ]] && exit 77
[[ $rc == 0 ]] || bad "the guest's replays and recordings failed (VM status $rc)"

read -r plain verdict < <(jitter "$dir/plain.jsonl")
[[ $verdict == fail ]] && ok "replayed as recorded, it still fails: $plain mm" ||
	bad "replayed as recorded it should fail: $plain $verdict"
read -r fuzzed verdict < <(jitter "$dir/fuzzed.jsonl")
[[ $verdict == pass ]] && ok "replayed with the suggested fuzz, it passes: $fuzzed mm" ||
	bad "replayed with the suggested fuzz it should pass: $fuzzed $verdict"
# The kernel filtered as analyze's simulation of it said it would.
python3 -c 'import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(abs(a - b) > max(0.05, 0.1 * b))' \
	"$fuzzed" "${expected:-nan}" && ok "the kernel's filter gave the jitter analyze predicted ($expected mm)" ||
	bad "analyze predicted $expected mm, the kernel gave $fuzzed mm"
grep -q '"ABS_MT_POSITION_X":{[^}]*"fuzz":'"$(sed -n 's/^EVDEV_ABS_35=::://p' "$dir/entries")" "$dir/fuzzed.jsonl" &&
	ok "the re-recorded device has the fuzz" || bad "the re-recorded device lacks the fuzz"
exit $((failures > 0))
