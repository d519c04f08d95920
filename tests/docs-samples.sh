#!/bin/bash
# samples/README.md tells the truth: its "Key facts" table against what
# inspect --summary --json, analyze --json and validate say of each sample,
# and every bundled sample is in the table.
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
command -v jq >/dev/null || { echo "SKIP: no jq"; exit 77; }
readme=$samples/README.md

# The table's rows, one per line: file and its columns, tab-separated.
awk '/^### Key facts/ { on = 1; next } on && /^#/ { exit }
     on && /^\| `/ { gsub(/ *\| */, "\t"); gsub(/`/, ""); sub(/^\t/, ""); sub(/\t$/, ""); print }' \
	"$readme" >"$tmp/facts"
[ -s "$tmp/facts" ] || { fail "samples/README.md has no Key facts table"; finish; }

# measure FILE: the same columns, measured.
measure() {
	local f=$samples/$1 v
	v=$("$TOUCHTAPE" validate -q "$f" | sed -n 's/.*records, \([0-9]*\) errors\{0,1\}, \([0-9]*\) warning.*/\1\t\2/p')
	"$TOUCHTAPE" inspect --summary --json "$f" | jq -r --arg v "$v" --arg a \
		"$("$TOUCHTAPE" analyze --json "$f" | jq .anomaly_counts.total)" \
		'[(.devices | map(.frames) | add), (.devices | map(.touch_sequences) | add),
		  (.devices | map(.max_simultaneous) | max),
		  ([.xi_touch_sequences[]? | .touch + .raw] | add // 0)] | map(tostring) | join("\t")
		 + "\t" + $v + "\t" + $a'
}

columns=(frames "touch sequences" "max simultaneous" "XI touch sequences"
	"validate errors" "validate warnings" "analyze anomalies")
while IFS=$'\t' read -r file want; do
	[ -f "$samples/$file" ] || { fail "samples/README.md lists $file, which is not in samples/"; continue; }
	got=$(measure "$file")
	IFS=$'\t' read -ra w <<<"$want"
	IFS=$'\t' read -ra g <<<"$got"
	for i in "${!columns[@]}"; do
		if [ "${w[i]:-}" = "${g[i]:-}" ]; then pass "$file: ${columns[i]} ${g[i]}"; else
			fail "samples/README.md says $file has ${columns[i]} ${w[i]:-(none)}, it has ${g[i]:-(none)}"; fi
	done
done <"$tmp/facts"
for f in "$samples"/*.jsonl; do
	grep -q "^$(basename "$f")	" "$tmp/facts" ||
		fail "samples/README.md's Key facts table lacks $(basename "$f")"
done
finish
