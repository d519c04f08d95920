#!/bin/bash
# The VM benchmarks (tests/vm/run), called by bench/run: the recording
# flood (touchtape record, evemu-record, libinput record on 4 uinput screens
# written by bench/uinput-flood at 25 k, 100 k, 400 k events/s and as fast as
# it can; SYN_DROPPED seen and CPU time), then replay timing of
# touchtape replay, evemu-play and libinput replay on the 3M touchscreen
# (two re-timed copies, 60 s) and the Apple bcm5974 touchpad (six copies,
# 61 s), idle and with a CPU hog on every core. Prints table rows (figure,
# touchtape, anchors, ratio, target, met) on stdout, tab-separated.
# Environment: TOUCHTAPE, BENCH_DATA, TT_CORPUS, abs_top_srcdir as for
# bench/run; BENCH_VM_COPIES="3M-copies pad-copies" (default "2 6");
# BENCH_VM_LOAD=0 skips the loaded run, BENCH_VM_FLOOD=0 the recording
# flood, BENCH_VM_REPLAY=0 the replay timing; BENCH_VM_LOADED_TOOLS (default
# all three) limits the replayers of the loaded run.
# HID replay: touchtape replay --hid next to hid-tools' hid-replay on the
# corpus touchscreen's hid-recorder file (BENCH_HID_FILE), in the same VM
# run; hid-tools is not packaged in Debian: --hid-tools DIR (or HID_TOOLS)
# names a copy of its source, without it its figures are n/a.
# BENCH_VM_HID=0 skips it.
set -u
while [ $# -gt 0 ]; do
	case $1 in
	--hid-tools) HID_TOOLS=$(cd "$2" && pwd); shift 2 ;;
	--hid-tools=*) HID_TOOLS=$(cd "${1#*=}" && pwd); shift ;;
	*) echo "vm-bench.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
export HID_TOOLS=${HID_TOOLS:-}
here=$(cd "$(dirname "$0")" && pwd)
: "${abs_top_srcdir:=$(cd "$here/.." && pwd)}"
: "${TT_CORPUS:=$abs_top_srcdir/../shared/corpus}"
read -r c3m cpad <<< "${BENCH_VM_COPIES:-2 6}"
: "${BENCH_HID_FILE:=$TT_CORPUS/hid-recorder/ilitek-iltp7807-222a-fff1-touchscreen.hid}"
export BENCH_HID_FILE
log() { printf 'bench: %s\n' "$*" >&2; }
na_rows() {
	printf 'replay %s\tn/a (%s)\t-\t-\tmedian < 50 us, p99 < 500 us, drift < 1 ms\tn/a\n' timing "$1"
	exit 0
}
vm=$abs_top_srcdir/tests/vm/run
[ -x "$vm" ] || na_rows "no VM rig"
"$TOUCHTAPE" replay --help >/dev/null 2>&1 || na_rows "no touchtape replay"
dir=$BENCH_DATA/vm
rm -rf "$dir"; mkdir -p "$dir"

# NAME SOURCE COPIES: NAME.jsonl with fuzz 0, and its evemu and libinput
# versions, so all three replayers create the same device.
prep() {
	sh "$here/gen-long.sh" "$2" "$3" 1000000 >"$dir/$1.src" &&
	"$TOUCHTAPE" convert "$dir/$1.src" -o "$dir/$1.fz.jsonl" 2>/dev/null &&
	sed '/"type":"device"/ s/"fuzz":[0-9]*/"fuzz":0/g' "$dir/$1.fz.jsonl" >"$dir/$1.jsonl" &&
	"$TOUCHTAPE" convert --to evemu "$dir/$1.jsonl" -o "$dir/$1.evemu" 2>/dev/null &&
	"$TOUCHTAPE" convert --to libinput "$dir/$1.jsonl" -o "$dir/$1.yml" 2>/dev/null
	rm -f "$dir/$1.src" "$dir/$1.fz.jsonl"
}
prep 3m "$TT_CORPUS/evemu/evemu__data_3m.event" "$c3m" || na_rows "cannot prepare the 3M recording"
prep pad "$TT_CORPUS/evemu/evemu__data_bcm5974.event" "$cpad" || na_rows "cannot prepare the touchpad recording"

# The flood injector, built here (the guest runs the host's compiler-less root
# just as well, but the build dir is where binaries belong).
${CC:-cc} -O2 -o "$dir/uinput-flood" "$here/uinput-flood.c" 2>"$dir/uinput-flood.err" ||
	log "cannot build uinput-flood: no recording flood"

log "VM: recording flood, then replay timing (about $(( (c3m * 30 + cpad * 10) * 3 * 2 / 60 + 1 )) min under TCG)"
"$vm" --timeout 3000 --rw "$dir" -- bash "$here/vm-guest.sh" "$dir" 3m pad >"$dir/vm.log" 2>&1
rc=$?
log "VM exit $rc; log in $dir/vm.log"

# flood.txt: "RECORDER RATE WRITTEN SECONDS CPU_TICKS DROPS FRAMES KEPT",
# CLK_TCK last.
if [ -s "$dir/flood.txt" ]; then
	tck=$(awk '$1 == "CLK_TCK" { print $2 }' "$dir/flood.txt")
	for rec in touchtape evemu-record libinput; do
		# Sustained: no SYN_DROPPED and at least 99.9 % of the frames kept.
		awk -v r=$rec -v tck="${tck:-100}" '$1 == r && $4 > 0 {
			rate = $3 / $4
			if ($6 == 0 && $8 >= 0.999 * $7 && rate > best) best = rate
			if ($2 == 0) { cpu = $5 / tck / ($3 / 1e6); max = rate; d = $6; kept = $7 ? 100 * $8 / $7 : 0 }
		} END {
			printf "%s\t%.0f ev/s sustained (flood %.0f ev/s: %d drops, %.1f%% frames kept, %.1f CPU s/M events)\n", r, best, max, d, kept, cpu
		}' "$dir/flood.txt"
	done >"$dir/flood.sum"
	tt=$(awk -F'\t' '$1 == "touchtape" { print $2 }' "$dir/flood.sum")
	ev=$(awk -F'\t' '$1 == "evemu-record" { print $2 }' "$dir/flood.sum")
	li=$(awk -F'\t' '$1 == "libinput" { print $2 }' "$dir/flood.sum")
	printf 'record flood, 4 uinput screens (VM)\t%s\tevemu-record %s; libinput record %s\t-\tno drops at the highest rate, least CPU\t-\n' "$tt" "$ev" "$li"
fi
# hid-timing.txt: "TOOL: N/M reports matched, lateness median A us, p99 B
# us, max C us, drift at end +D us after S s"
if [ -s "$dir/hid-timing.txt" ]; then
	hfig() { # TOOL -> "A/B/C/D" or n/a
		awk -v t="$1:" '$1 == t && $0 ~ /median/ {
			for (i = 1; i <= NF; i++) {
				if ($i == "median") a = $(i + 1)
				if ($i == "p99") b = $(i + 1)
				if ($i == "max") c = $(i + 1)
				if ($i == "end") d = $(i + 1)
			}
			printf "%s/%s/%s/%s", a, b, c, d; found = 1
		} END { if (!found) print "n/a" }' "$dir/hid-timing.txt"
	}
	tt=$(hfig touchtape)
	hr=$(hfig hid-replay)
	met=n/a
	[ "$tt" != n/a ] && [ "$hr" != n/a ] && met=$(echo "$tt $hr" | awk '{
		split($1, t, "/"); split($2, h, "/"); ok = 1
		for (i = 1; i <= 4; i++) { x = t[i] < 0 ? -t[i] : t[i]; y = h[i] < 0 ? -h[i] : h[i]; if (x > y) ok = 0 }
		print ok ? "yes" : "NO" }')
	printf 'HID replay %s, idle (us: median/p99/max/drift)\t%s\thid-replay %s\t-\tbetter than hid-replay\t%s\n' \
		"$(basename "$BENCH_HID_FILE")" "$tt" "$hr" "$met"
fi
[ -s "$dir/timing.txt" ] || na_rows "VM run failed ($rc)"

# timing.txt: "LOAD NAME TOOL: N/M frames matched, |error| median A us,
# p99 B us, max C us, drift at end +D us"
fig() { # LOAD NAME TOOL -> "A/B/C/D" or n/a
	awk -v l="$1" -v n="$2" -v t="$3:" '$1 == l && $2 == n && $3 == t {
		for (i = 1; i <= NF; i++) {
			if ($i == "median") a = $(i + 1)
			if ($i == "p99") b = $(i + 1)
			if ($i == "max") c = $(i + 1)
			if ($i == "end") d = $(i + 1)
		}
		if (a != "") { printf "%s/%s/%s/%s", a, b, c, d; found = 1 }
	} END { if (!found) print "n/a" }' "$dir/timing.txt"
}
for load in idle loaded; do
	for name in 3m pad; do
		tt=$(fig $load $name touchtape)
		ev=$(fig $load $name evemu-play)
		li=$(fig $load $name libinput)
		[ "$tt" = n/a ] && [ $load = loaded ] && [ "${BENCH_VM_LOAD:-1}" != 1 ] && continue
		met=n/a
		if [ "$tt" != n/a ]; then
			met=$(echo "$tt $ev $li" | awk '{
				split($1, t, "/"); ok = t[1] < 50 && t[2] < 500 && (t[4] < 0 ? -t[4] : t[4]) < 1000
				for (k = 2; k <= 3; k++) if ($k != "n/a") {
					split($k, a, "/")
					for (i = 1; i <= 4; i++) {
						x = t[i] < 0 ? -t[i] : t[i]; y = a[i] < 0 ? -a[i] : a[i]
						if (i < 4 && x > y) ok = 0
						if (i == 4 && x > y && x > 100) ok = 0
					}
				}
				print ok ? "yes" : "NO" }')
		fi
		label="3M touchscreen $((c3m * 30)) s"; [ $name = pad ] && label="bcm5974 touchpad $((cpad * 10)) s"
		printf 'replay %s, %s (us: median/p99/max/drift)\t%s\tevemu-play %s; libinput replay %s\t-\tmedian < 50, p99 < 500, drift < 1000, better than both\t%s\n' \
			"$label" "$load" "$tt" "$ev" "$li" "$met"
	done
done
exit 0
