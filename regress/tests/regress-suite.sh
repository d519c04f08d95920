#!/bin/bash
# touchtape regress on the host (no device is created): the cases found
# in a directory of samples and corpus files (every format; companions
# and other files are not cases), shards 1/3 2/3 3/3 covering each case
# exactly once, sidecar errors named FILE:LINE, skip=, a case that cannot
# be run, TAP read by prove and JUnit XML valid against
# regress/tests/junit.xsd, and the exit codes. TAP 14 is read by node's
# tap-parser; prove (Test::Harness 3.44 knows TAP 13 at most) reads the
# --tap-version 13 output.
. "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
xsd="$abs_top_srcdir/regress/tests/junit.xsd"
export TMPDIR="$tmp"	# the folders of kept cases

suite="$tmp/suite"
mkdir -p "$suite/samples" "$suite/corpus"
cp "$abs_top_srcdir"/samples/*.jsonl "$suite/samples/"
cp "$abs_top_srcdir/samples/README.md" "$suite/samples/"	# not a recording
gzip -c "$abs_top_srcdir/samples/ntrig-type-a.jsonl" >"$suite/samples/ntrig-gz.jsonl.gz"
cp "$abs_top_srcdir/samples/ntrig-type-a.jsonl" "$suite/samples/3m-two-finger.expected.jsonl"
printf 'time-tolerance = 50ms\n' >"$suite/samples/3m-two-finger.regress"
# The corpus (tests/corpus, or the whole public one with $TT_CORPUS): a
# few files of each format.
corpus=${TT_CORPUS:-$abs_top_srcdir/tests/corpus}
if [ -d "$corpus" ]; then
	for d in evemu libinput-record hid-recorder; do
		find "$corpus/$d" -maxdepth 1 -type f | sort | head -n 4 | while read -r f; do
			mkdir -p "$suite/corpus/$d"
			cp "$f" "$suite/corpus/$d/"
		done
	done
else
	fail "no corpus at $corpus"
fi

# --list: every recording, once; the companions and README are not cases.
expect_exit 0 "--list" -- "$TOUCHTAPE" regress --list "$suite"
sort "$tmp/out" >"$tmp/all"
n=$(wc -l <"$tmp/all")
want=$(( $(ls "$abs_top_srcdir"/samples/*.jsonl | wc -l) + 1 ))
[ "$n" -ge "$want" ] || fail "--list: $n cases, want at least $want"
grep -q 'ntrig-gz.jsonl.gz$' "$tmp/all" || fail "--list: the gzipped timeline is not a case"
grep -Eq '(README.md|\.expected\.jsonl|\.regress)$' "$tmp/all" && fail "--list: a companion or README is a case"
if [ -d "$suite/corpus/evemu" ]; then
	for d in evemu libinput-record hid-recorder; do
		grep -q "/corpus/$d/" "$tmp/all" || fail "--list: no $d case"
	done
fi
[ "$(uniq -d "$tmp/all")" = "" ] || fail "--list names a case twice"

# Shards 1/3 2/3 3/3: each case exactly once, and stable run to run.
: >"$tmp/shards"
for k in 1 2 3; do
	expect_exit 0 "--shard $k/3" -- "$TOUCHTAPE" regress --list --shard "$k/3" "$suite"
	[ -s "$tmp/out" ] || fail "shard $k/3 is empty"
	cat "$tmp/out" >>"$tmp/shards"
	"$TOUCHTAPE" regress --list --shard "$k/3" "$suite" | cmp -s - "$tmp/out" || fail "shard $k/3 changes between runs"
done
sort "$tmp/shards" | cmp -s - "$tmp/all" || fail "shards 1..3 do not cover every case exactly once"
# The shard key is the path under DIR: the same cases wherever DIR is.
cp -r "$suite" "$tmp/moved"
"$TOUCHTAPE" regress --list --shard 2/3 "$tmp/moved" | sed "s|^$tmp/moved|$suite|" >"$tmp/moved.list"
"$TOUCHTAPE" regress --list --shard 2/3 "$suite" | cmp -s - "$tmp/moved.list" || fail "a moved suite shards differently"

for bad in 0/3 4/3 3 a/b 1/0; do
	expect_exit 2 "--shard $bad" -- "$TOUCHTAPE" regress --list --shard "$bad" "$suite"
	expect_grep "shard takes K/N" "$tmp/err" "--shard $bad is named"
done
expect_exit 2 "no DIR" -- "$TOUCHTAPE" regress
expect_exit 2 "a missing DIR" -- "$TOUCHTAPE" regress --list "$tmp/nowhere"
expect_grep "nowhere: No such file" "$tmp/err" "the missing DIR is named"
expect_exit 2 "--kernel without --vm" -- "$TOUCHTAPE" regress --kernel x "$suite"
expect_exit 2 "a file that is no recording" -- "$TOUCHTAPE" regress --list "$suite/samples/README.md"

# Bad sidecars: FILE:LINE: what, exit 2, before anything runs.
bad="$tmp/bad"
mkdir -p "$bad"
cp "$abs_top_srcdir/samples/ntrig-type-a.jsonl" "$bad/case.jsonl"
check_sidecar() {
	printf '# a comment\n\n%s\n' "$1" >"$bad/case.regress"
	expect_exit 2 "sidecar '$1'" -- "$TOUCHTAPE" regress "$bad"
	expect_grep "^touchtape regress: $bad/case.regress:3: $2" "$tmp/err" "sidecar '$1' is named"
	[ -s "$tmp/out" ] && fail "sidecar '$1': TAP written before the sidecars were read"
}
check_sidecar 'tolerance = 5' 'unknown key'
check_sidecar 'time-tolerance 20ms' 'want key = value'
check_sidecar 'time-tolerance = fast' 'not a duration'
check_sidecar 'timeout = 0' 'timeout must be above 0'
check_sidecar 'time-tolerance = 50' 'needs a unit: us, ms, s: 50'
check_sidecar 'stall-tolerance = -5ms' 'not a duration'
check_sidecar 'units-tolerance = 2' 'not a fraction 0..1'
check_sidecar 'position-tolerance = -1mm' 'not a distance'
check_sidecar 'position-tolerance = 1' 'needs a unit: mm or %: 1'
check_sidecar 'path-tolerance = nan' 'not a distance'
check_sidecar 'axis-tolerance = 150%' 'not a fraction'
check_sidecar 'rate-tolerance = fast' 'not a fraction'
check_sidecar 'layers = kernel,wayland' 'layers are kernel, xi, libinput; not: wayland'
check_sidecar 'ignore = everything' 'ignore takes'
check_sidecar 'ignore = path, tempo' 'ignore takes'
check_sidecar 'skip =' 'skip needs a reason'
check_sidecar 'xi-window = maybe' 'xi-window takes yes or no'

# tap_parse FILE: a TAP 14 consumer's reading (node's tap-parser), as
# "count pass fail skip" and the YAML messages it parsed.
tap_parse() {
	NODE_PATH=/usr/share/nodejs tap-parser -j <"$1" | python3 -c '
import json, sys
ev = json.load(sys.stdin)
c = [e[1] for e in ev if e[0] == "complete"][0]
v = [e[1] for e in ev if e[0] == "version"]
print("version", v[0] if v else None, "count", c["count"], "pass", c["pass"], "fail", c["fail"], "skip", c.get("skip", 0))
for e in ev:
    if e[0] == "assert" and "diag" in e[1]:
        print("message:", e[1]["diag"]["message"])
'
}
command -v tap-parser >/dev/null || { echo "SKIP: tap-parser missing (./bootstrap installs node-tap-parser)"; exit 77; }

# skip=: a suite of skipped cases passes; TAP says SKIP; the TAP
# consumers and the XSD agree.
cp "$abs_top_srcdir/samples/3m-two-finger.jsonl" "$bad/other.jsonl"
printf 'skip = needs a real N-Trig # and a hash\n' >"$bad/case.regress"
printf 'timeout = 5s\nskip = flaky on TCG\n' >"$bad/other.regress"
expect_exit 0 "all skipped" -- "$TOUCHTAPE" regress --junit "$tmp/skip.xml" "$bad"
cp "$tmp/out" "$tmp/skip.tap"
expect_grep '^TAP version 14$' "$tmp/skip.tap" "TAP version line"
expect_grep '^1\.\.2$' "$tmp/skip.tap" "TAP plan"
expect_grep '^ok 1 - case.jsonl # SKIP needs a real N-Trig \\# and a hash$' "$tmp/skip.tap" "skip reason, '#' escaped"
expect_grep '^ok 2 - other.jsonl # SKIP flaky on TCG$' "$tmp/skip.tap" "second skip"
expect_grep '2 cases: 0 passed, 0 failed, 0 errors, 2 skipped' "$tmp/err" "summary line"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "the summary is not one line on stderr"
tap_parse "$tmp/skip.tap" >"$tmp/parsed"
expect_grep '^version 14 count 2 pass 2 fail 0 skip 2$' "$tmp/parsed" "tap-parser reads TAP 14: 2 skips"
# Debian 12's prove knows TAP up to 13: --tap-version 13, the same lines.
"$TOUCHTAPE" regress --tap-version 13 "$bad" >"$tmp/skip13.tap" 2>/dev/null
[ "$(tail -n +2 "$tmp/skip13.tap")" = "$(tail -n +2 "$tmp/skip.tap")" ] || fail "--tap-version 13 changes more than the version line"
if prove -e cat "$tmp/skip13.tap" >"$tmp/prove" 2>&1; then pass "prove reads the skips"; else fail "prove: $(cat "$tmp/prove")"; fi
expect_grep 'Tests=2, ' "$tmp/prove" "prove sees both tests"
expect_exit 0 "JUnit of skips validates" -- xmllint --noout --schema "$xsd" "$tmp/skip.xml"
expect_grep 'tests="2" failures="0" errors="0" skipped="2"' "$tmp/skip.xml" "JUnit counts the skips"
expect_grep '<skipped message="flaky on TCG"/>' "$tmp/skip.xml" "JUnit skip reason"

# A case that cannot be run (nothing to compare: a description without
# frames and no expected file) is trouble: not ok, exit 2, an <error>.
sed -n '1,2p' "$abs_top_srcdir/samples/ntrig-type-a.jsonl" >"$bad/empty.jsonl"
expect_exit 2 "a case that cannot run" -- "$TOUCHTAPE" regress --junit "$tmp/err.xml" "$bad"
cp "$tmp/out" "$tmp/err.tap"
expect_grep '^not ok 2 - empty.jsonl$' "$tmp/err.tap" "the case is not ok"
expect_grep '^  message: "no evdev frames to compare with' "$tmp/err.tap" "its reason in the YAML block"
expect_grep '^  severity: error$' "$tmp/err.tap" "severity"
expect_grep '^  \.\.\.$' "$tmp/err.tap" "the YAML block ends"
expect_grep "1 errors, 2 skipped in [0-9.]* s on $(uname -r)$" "$tmp/err" "no folder named: nothing was kept; the kernel named"
tap_parse "$tmp/err.tap" >"$tmp/parsed"
expect_grep '^version 14 count 3 pass 2 fail 1 skip 2$' "$tmp/parsed" "tap-parser reads the failure"
expect_grep '^message: no evdev frames to compare with' "$tmp/parsed" "tap-parser reads the YAML block"
"$TOUCHTAPE" regress --tap-version 13 "$bad" >"$tmp/err13.tap" 2>/dev/null
prove -e cat "$tmp/err13.tap" >"$tmp/prove" 2>&1 && fail "prove passes a failing suite"
expect_grep 'Failed 1/3 subtests' "$tmp/prove" "prove reads the failure"
grep -qi 'parse error' "$tmp/prove" && fail "prove: parse errors: $(cat "$tmp/prove")"
expect_exit 0 "JUnit of an error validates" -- xmllint --noout --schema "$xsd" "$tmp/err.xml"
expect_grep '<error type="trouble" message="no evdev frames' "$tmp/err.xml" "JUnit error"
# The schema is not a rubber stamp: a testcase without its time is refused.
sed 's/ time="[0-9.]*">/>/' "$tmp/err.xml" >"$tmp/broken.xml"
expect_exit 3 "the XSD refuses a testcase without time" -- xmllint --noout --schema "$xsd" "$tmp/broken.xml"

# --junit refuses '-' (stdout is TAP) and never writes onto a case.
expect_exit 2 "--tap-version 12" -- "$TOUCHTAPE" regress --tap-version 12 "$bad"
expect_exit 2 "--junit -" -- "$TOUCHTAPE" regress --junit - "$bad"
# --vm without a rig (an installed touchtape): said, exit 2.
expect_exit 2 "--vm without the rig" -- env TOUCHTAPE_VM_RIG="$tmp/no/tests/vm/run" "$TOUCHTAPE" regress --vm "$bad"
expect_grep "needs the VM rig of touchtape's source tree" "$tmp/err" "--vm says it needs the source tree"
# The --junit and --keep targets are checked before the first case
# runs (issue 34): a run of an hour does not end in "cannot write".
expect_exit 2 "--junit into a missing folder" -- "$TOUCHTAPE" regress --junit "$tmp/no/such/r.xml" "$bad"
[ ! -s "$tmp/out" ] && pass "--junit refused before any case" || fail "--junit refused after $(grep -c '^ok\|^not ok' "$tmp/out") cases"
expect_grep "touchtape regress: $tmp/no/such/r\.xml: " "$tmp/err" "--junit: says which file"
: >"$tmp/afile"
expect_exit 2 "--keep onto a file" -- "$TOUCHTAPE" regress --keep "$tmp/afile" "$bad"
[ ! -s "$tmp/out" ] && pass "--keep refused before any case" || fail "--keep refused after $(grep -c '^ok\|^not ok' "$tmp/out") cases"
expect_grep "touchtape regress: $tmp/afile: .*not a directory|Not a directory" "$tmp/err" "--keep: says why"
# Replaying needs uinput, and uhid for a HID case: checked before the
# first case, with the hint to --vm (issue 34), on a machine without them.
# Cases that replay nothing (skipped, no frames) need neither: above.
check_node() {	# NODE NAME CASE-FILE
	local node=$1 name=$2 dir="$tmp/needs-$2"
	if [ -r "$node" ] && [ -w "$node" ]; then
		echo "# $node can be opened here: its check is not run"
		return
	fi
	mkdir -p "$dir"
	cp "$3" "$dir/"
	# (a HID recording has no evdev frames: it is compared with one)
	cp "$abs_top_srcdir/samples/ntrig-type-a.jsonl" "$dir/$(basename "${3%.*}").expected.jsonl"
	printf 'skip = needs nothing\n' >"$dir/skipped.regress"
	cp "$abs_top_srcdir/samples/ntrig-type-a.jsonl" "$dir/skipped.jsonl"
	expect_exit 2 "without $name" -- "$TOUCHTAPE" regress --junit "$tmp/needs-$name.xml" "$dir"
	[ ! -s "$tmp/out" ] && pass "without $name: refused before any case" ||
		fail "without $name: refused after $(grep -c '^ok\|^not ok' "$tmp/out") cases"
	expect_grep "^touchtape regress: $node: .*: case $(basename "$3") replays through $name; .* --vm" "$tmp/err" \
		"without $name: the node, the case and the hint to --vm"
	[ -e "$tmp/needs-$name.xml" ] && fail "without $name: a JUnit file was written"
}
check_node /dev/uinput uinput "$abs_top_srcdir/samples/3m-two-finger.jsonl"
check_node /dev/uhid uhid "$abs_top_srcdir/tests/fuzz/seeds/hid-recorder-two-devices.hid"
expect_exit 0 "--help" -- "$TOUCHTAPE" regress --help
expect_grep 'Usage: touchtape regress' "$tmp/out" "usage"
finish
