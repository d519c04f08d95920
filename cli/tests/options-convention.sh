#!/bin/sh
# One convention for every command (issue 16): one meaning per option
# letter and long name, the same reading options everywhere, exit 2 for
# trouble, messages that name the command and the file once.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
. "${abs_top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/lib.sh"

T=$TOUCHTAPE
s="$samples/3m-two-finger.jsonl"
commands="print validate list record replay convert analyze diff inspect"
readers="print validate analyze diff inspect convert replay"

# One meaning per letter: the "-X, --name" pairs of every --help.
for c in $commands; do
	"$T" "$c" --help | grep -oE '^ +-[A-Za-z], --[a-z-]+' | sed "s/^ */$c /; s/,//"
done >"$tmp/pairs"
[ "$(wc -l <"$tmp/pairs")" -ge 15 ] && pass "option pairs found in --help" || fail "too few option pairs"
awk '{ if (($2 in long) && long[$2] != $3) { print "-" $2 " is " long[$2] " and " $3; bad = 1 }
       if (($3 in short) && short[$3] != $2) { print $3 " is " short[$3] " and " $2; bad = 1 }
       long[$2] = $3; short[$3] = $2 } END { exit bad }' "$tmp/pairs" >"$tmp/clash" &&
	pass "one meaning per letter and per long name" || { fail "clashes:"; cat "$tmp/clash" >&2; }
for opt in -t -p; do
	expect_exit 2 "diff $opt is gone (it meant other things elsewhere)" -- "$T" diff "$opt" 1 "$s" "$s"
done
expect_exit 0 "diff -T/-P" -- "$T" diff -T 50ms -P 2mm "$s" "$s"

# --to is a time everywhere; convert's format is --format/-F (a format
# name after --to still works: it is no time).
"$T" convert "$s" >"$tmp/all.jsonl"
expect_exit 0 "convert -F evemu" -- "$T" convert -F evemu "$s"
expect_grep '^E: ' "$tmp/out" "-F evemu writes evemu"
expect_exit 2 "convert --format bogus" -- "$T" convert --format bogus "$s"
expect_exit 0 "convert --from/--to" -- "$T" convert --from 1s --to 1.5s "$s"
"$T" print "$tmp/out" | grep -oE '^[0-9]+\.[0-9]+ dev' | sort -n | sed -n '1p;$p' >"$tmp/range"
awk 'NR == 1 && $1 < 1.0 { exit 1 } NR == 2 && $1 > 1.5 { exit 1 }' "$tmp/range" &&
	[ -s "$tmp/range" ] && pass "convert --from/--to keeps 1 s .. 1.5 s as print shows them" ||
	fail "convert --from/--to kept $(tr '\n' ' ' <"$tmp/range")"
expect_exit 0 "print --from/--to" -- "$T" print --from 2s --to 2.1s "$s"
awk '/^[0-9]+\.[0-9]+ dev/ && ($1 < 2.0 || $1 > 2.1) { exit 1 }' "$tmp/out" &&
	grep -q '^2\.0' "$tmp/out" && pass "print --from/--to: the same times" || fail "print --from/--to range"
expect_exit 2 "--to before --from" -- "$T" print --from 2s --to 1s "$s"

# A --device the file does not have is an error everywhere that takes it.
for c in print validate analyze convert "replay --dry-run"; do
	expect_exit 2 "$c --device 7 (not in the file)" -- "$T" $c --device 7 "$s"
	expect_grep 'no device 7|no device with id 7' "$tmp/err" "$c names the missing device"
done
expect_exit 2 "diff --device 7 (not in the files)" -- "$T" diff --device 7 "$s" "$s"
expect_grep 'no device 7' "$tmp/err" "diff names the missing device"
expect_exit 0 "diff -d 0 --from/--to (on both files)" -- "$T" diff -d 0 --from 2s --to 2.1s "$s" "$s"
expect_exit 0 "print -d 0" -- "$T" print -d 0 "$s"
expect_exit 0 "validate -d 0" -- "$T" validate -d 0 "$s"
# Every reading command takes every reading option.
for c in $readers; do
	case $c in
	diff) args=("$s" "$s") ;;
	inspect) args=(--text "$s") ;;
	replay) args=(--dry-run "$s") ;;
	*) args=("$s") ;;
	esac
	for o in "--device 0" "--from 1s" "--to 2s"; do
		"$T" "$c" $o "${args[@]}" >/dev/null 2>"$tmp/err"
		[ $? -lt 2 ] && pass "$c accepts $o" || { fail "$c refuses $o"; sed 's/^/  | /' "$tmp/err" >&2; }
	done
	"$T" "$c" --desc "$s" "${args[@]}" >/dev/null 2>"$tmp/err"
	grep -qE 'unrecognized option|is not an option of' "$tmp/err" && fail "$c refuses --desc" || pass "$c accepts --desc"
done
# An option a command does not take names the commands that take it
# (touchtape(1), COMMON OPTIONS; tests/docs-claims.py checks them against
# every --help); an option's value is no option, whatever it looks like.
expect_exit 2 "print --plot" -- "$T" print --plot x.svg "$s"
expect_grep "^touchtape print: --plot is not an option of print; analyze takes it$" "$tmp/err" "print --plot names analyze"
expect_exit 2 "validate -qj (a cluster)" -- "$T" validate -qj "$s"
expect_grep "^touchtape validate: -j is not an option of validate; analyze, diff and inspect take it$" "$tmp/err" \
	"-j in a cluster is named"
expect_exit 2 "print -d --json (a value)" -- "$T" print -d --json "$s"
grep -q 'is not an option' "$tmp/err" && fail "print -d --json: the value of -d taken for an option" ||
	pass "print -d --json: the value of -d is no option"
expect_exit 0 "print --dev 0 (an abbreviation)" -- "$T" print --dev 0 "$s"
# --desc is accepted by every reader; on a timeline it is an error, said once.
for c in print validate analyze inspect convert; do
	expect_exit 2 "$c --desc on a timeline" -- "$T" $c --desc "$s" "$s"
	expect_grep 'desc is for evemu events-only files' "$tmp/err" "$c --desc explained"
done
expect_exit 0 "diff --desc (only for the evemu side)" -- "$T" diff --desc /dev/null "$s" "$s"

# Exit status: a missing file is trouble (2) for every command, in one
# line that names the command and the file once.
for c in $readers; do
	args=("$tmp/nope.jsonl")
	[ "$c" = diff ] && args+=("$s")
	[ "$c" = inspect ] && args=(--summary "${args[@]}")
	[ "$c" = replay ] && args=(--dry-run "${args[@]}")
	expect_exit 2 "$c: missing file" -- "$T" "$c" "${args[@]}"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qE "^touchtape $c: [^ ]*nope.jsonl: No such file" "$tmp/err" &&
		[ "$(grep -o 'nope.jsonl' "$tmp/err" | wc -l)" -eq 1 ] &&
		pass "$c: one line, the command and the file named once" ||
		{ fail "$c: missing-file message"; sed 's/^/  | /' "$tmp/err" >&2; }
done
for c in $commands; do
	expect_exit 2 "$c --bogus" -- "$T" "$c" --bogus
	expect_grep "Try 'touchtape $c --help'" "$tmp/err" "$c points to its --help"
done

# A bad header is one error, not one per line after it.
{ echo '{"type":"hdr"}'; tail -n +2 "$s"; } >"$tmp/badhead.jsonl"
for c in print validate analyze "convert -o /dev/null" "inspect --summary" "replay --dry-run"; do
	$T $c "$tmp/badhead.jsonl" >/dev/null 2>"$tmp/err"
	n=$(grep -cE 'badhead\.jsonl:[0-9]+: ' "$tmp/err")
	[ "$n" -eq 1 ] && grep -q 'badhead\.jsonl:1: ' "$tmp/err" && pass "$c: a bad header is one error" ||
		fail "$c: $n FILE:LINE errors for a bad header"
done

# replay: a dry run says what it would do; impossible values are usage errors.
expect_exit 0 "replay --dry-run" -- "$T" replay --dry-run "$s"
expect_grep '^would replay 488 frames' "$tmp/out" "dry run: 'would replay'"
grep -q 'lateness' "$tmp/out" && fail "dry run reports a lateness" || pass "dry run: no lateness"
expect_exit 2 "replay --max-gap 0" -- "$T" replay --dry-run --max-gap 0 "$s"
expect_exit 2 "replay --from past the end" -- "$T" replay --dry-run --from 10s "$s"
expect_grep 'past the end' "$tmp/err" "--from past the end explained"

# inspect --json implies --summary.
expect_exit 0 "inspect --json" -- "$T" inspect --json "$s"
expect_grep '^\{"file":' "$tmp/out" "inspect --json prints the summary"

# The version line says the format version the writer writes.
v=$(head -1 "$tmp/all.jsonl" | grep -oE '"version":[0-9]+' | cut -d: -f2)
expect_exit 0 "--version" -- "$T" --version
expect_grep "timeline format version $v\)" "$tmp/out" "--version matches the written header"

finish
