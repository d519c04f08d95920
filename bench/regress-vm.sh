#!/bin/bash
# regress --vm under TCG: cases per minute on a small corpus suite, what a
# boot costs per suite and per case, and how --shard K/N divides a
# 100-case suite over N jobs.
#
# Usage: bench/regress-vm.sh [CORPUS]
#   CORPUS: the corpus folder (default $TT_CORPUS, else ../shared/corpus
#   beside the source tree); its evemu/ touch recordings named below make
#   the suite. Environment: TOUCHTAPE (default ./touchtape), TT_VM_CACHE,
#   BENCH_SINGLE (how many cases also run one boot each, default 3).
#
# The "# vm:" line of each boot (tests/vm/run) splits its time into the
# wait for the VM lock (left out: other users of the machine), the boot
# up to the command, the command and the power-off.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${abs_top_srcdir:=$(cd "$here/.." && pwd)}"
: "${TOUCHTAPE:=$abs_top_srcdir/touchtape}"
corpus=${1:-${TT_CORPUS:-$abs_top_srcdir/../shared/corpus}}
single=${BENCH_SINGLE:-3}
export TT_VM_ACCEL=tcg TT_VM_CACHE="${TT_VM_CACHE:-$abs_top_srcdir/vm-cache}"

# Touchscreens and touchpads of the corpus, 0.5 to 2.1 s each (9.5 s).
files=(
	"evemu-devices__touchscreens_EP0430M09.2-fingers-touch-release.events"
	"evemu-devices__touchscreens_Atmel maXTouch Touchscreen.4-finger-drag-down.events"
	"evemu-devices__tablets_Wacom ISDv4 E6 Finger.single-center-circle.events"
	"evemu-devices__touchscreens_QUANTA OpticalTouchScreen.touch-on-left.events"
	"evemu-devices__tablets_Wacom Bamboo 16FG 4x5 Finger single-top-swipe.events"
	"xit__recordings_touchpads_SynPS2-Synaptics-TouchPad-Clickpad.two-finger-scroll-down.events"
	"evemu-devices__touchscreens_Atmel maXTouch Touchscreen.1-finger-fast-taps.events"
	"evemu-devices__tablets_Wacom Bamboo 16FG 4x5 Finger double-top-swipe.events"
)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-regress-vm.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/suite"
for f in "${files[@]}"; do
	[[ -f "$corpus/evemu/$f" ]] || { echo "bench/regress-vm.sh: no $corpus/evemu/$f" >&2; exit 2; }
	cp "$corpus/evemu/$f" "$tmp/suite/"
done
n=${#files[@]}

# vm_parts ERRFILE: "boot run halt" seconds of each boot in ERRFILE.
vm_parts() {
	sed -n 's/^# vm: wait [0-9]* s, boot \([0-9.]*\) s, run \([0-9.]*\) s, halt \([0-9.]*\) s$/\1 \2 \3/p' "$1"
}
# suite_s ERRFILE: the suite's own time in the guest (regress's summary).
suite_s() {
	sed -n 's/^touchtape regress: .* cases\{0,1\}: .* in \([0-9.]*\) s.*/\1/p' "$1" | tail -n1
}

# 1. The whole suite in one boot.
(cd "$tmp" && "$TOUCHTAPE" regress --vm suite) >"$tmp/one.tap" 2>"$tmp/one.err" || true
read -r b r h < <(vm_parts "$tmp/one.err")
s=$(suite_s "$tmp/one.err")
verdicts=$(grep -c '^ok' "$tmp/one.tap" || true)
awk -v n="$n" -v b="$b" -v r="$r" -v h="$h" -v s="$s" -v ok="$verdicts" 'BEGIN {
	t = b + r + h
	printf "one boot, %d cases (%d pass): boot %.1f s, regress in the guest %.1f s (%.1f s a case), halt %.1f s\n", n, ok, b, s, s / n, h
	printf "  %.1f s in all: %.1f cases per minute (%.1f without the boot)\n", t, n * 60 / t, n * 60 / s
}'

# 2. Cases one boot each: the boot per case.
for ((i = 0; i < single && i < n; i++)); do
	rm -rf "$tmp/alone" && mkdir -p "$tmp/alone"
	cp "$tmp/suite/${files[$i]}" "$tmp/alone/"
	(cd "$tmp" && "$TOUCHTAPE" regress --vm alone) >/dev/null 2>"$tmp/alone.$i.err" || true
	printf '%s %s\n' "$(vm_parts "$tmp/alone.$i.err")" "$(suite_s "$tmp/alone.$i.err")"
done >"$tmp/alone.txt"
awk -v n="$n" -v s1="$s" -v b1="$b" -v h1="$h" '
	{ boot += $1 + $3; other += $2 - $4; cases += $4; k++ }
	END {
		if (!k) exit
		printf "one boot per case (%d cases): boot + halt %.1f s, rig and regress start %.1f s, the case %.1f s\n",
			k, boot / k, other / k, cases / k
		per = (boot + other + cases) / k
		printf "  %.1f s a case: %.1f cases per minute; one boot per suite of %d: %.1f s a case\n",
			per, 60 / per, n, (b1 + h1 + s1) / n
	}' "$tmp/alone.txt"

# 3. --shard K/N over a 100-case suite: cases per job (no boot: --list).
mkdir -p "$tmp/hundred"
for ((i = 0; i < 100; i++)); do cp "$tmp/suite/${files[$((i % n))]}" "$tmp/hundred/case-$(printf %03d "$i").evemu"; done
for jobs in 2 4 8 16; do
	counts=()
	for ((k = 1; k <= jobs; k++)); do
		counts+=("$("$TOUCHTAPE" regress --list --shard "$k/$jobs" "$tmp/hundred" | wc -l)")
	done
	printf '%s\n' "${counts[@]}" | awk -v jobs="$jobs" -v b="$b" -v h="$h" -v s="$s" -v n="$n" '
		{ c[NR] = $1; sum += $1; if (NR == 1 || $1 < min) min = $1; if ($1 > max) max = $1; list = list (NR > 1 ? " " : "") $1 }
		END {
			printf "--shard K/%d of 100 cases: %s (sum %d; fewest %d, most %d); the slowest job about %.0f s\n",
				jobs, list, sum, min, max, b + h + max * s / n
		}'
done
