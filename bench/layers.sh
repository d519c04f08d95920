#!/bin/sh
# The layer stack's cost: validate, analyze --json and inspect --summary of
# one recording with binaries side by side, each run interleaved with the
# others' so a busy machine slows all alike. Prints one row per binary and
# command: median wall time and median peak RSS of RUNS runs.
#
# Usage: layers.sh FILE RUNS NAME=BINARY...
#   sh bench/layers.sh h2.jsonl 5 old=/tmp/tt-83f38da new=./touchtape
set -eu
file=$1
runs=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmds="validate -q|analyze --json|inspect --summary"
i=0
while [ "$i" -lt "$runs" ]; do
	for pair in "$@"; do
		name=${pair%%=*}
		bin=${pair#*=}
		echo "$cmds" | tr '|' '\n' | while read -r cmd; do
			key=$(echo "$name $cmd" | tr ' -' '__')
			/usr/bin/time -f "%e %M" -o "$tmp/one" "$bin" $cmd "$file" >/dev/null 2>&1 || true
			cat "$tmp/one" >> "$tmp/$key"
		done
	done
	i=$((i + 1))
done

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf '%-10s %-20s %10s %12s\n' binary command "time (s)" "peak (MiB)"
for pair in "$@"; do
	name=${pair%%=*}
	echo "$cmds" | tr '|' '\n' | while read -r cmd; do
		key=$(echo "$name $cmd" | tr ' -' '__')
		t=$(cut -d' ' -f1 "$tmp/$key" | median)
		m=$(cut -d' ' -f2 "$tmp/$key" | median)
		printf '%-10s %-20s %10.3f %12.1f\n' "$name" "$cmd" "$t" "$(echo "$m / 1024" | bc -l)"
	done
done
