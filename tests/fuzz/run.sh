#!/bin/bash
# Builds the libFuzzer harnesses with clang (ASan + UBSan + libFuzzer) and
# runs each for a while. Used by `make fuzz` (long runs, FUZZ_SECONDS) and
# by the fuzz-short test in `make check` (a short run, plus every saved
# crash input in tests/fuzz/regressions/ replayed).
#
# FUZZ_FORMATS picks the reader runs (default: all five, FUZZ_SECONDS each):
# "any" lets format detection choose the reader, "timeline", "evemu",
# "libinput" and "hid-recorder" hold the harness to one reader
# (TT_FUZZ_FORMAT). The HID descriptor harness (fuzz-hid-desc) then runs
# for FUZZ_SECONDS too.
#
# Environment (set by make): abs_top_srcdir, abs_top_builddir,
# TT_FUZZ_SOURCES (the library's .c files, relative to the source tree),
# TT_FUZZ_CFLAGS (pkg-config cflags), TT_FUZZ_LIBS.
set -euo pipefail

seconds=${FUZZ_SECONDS:-60}
src=${abs_top_srcdir:?}
out=${abs_top_builddir:?}/tests/fuzz
clang=${TT_FUZZ_CC:-clang}
mkdir -p "$out"

if ! command -v "$clang" >/dev/null; then
	echo "fuzz: $clang not found (apt-get install clang libclang-rt-14-dev)"
	exit 77
fi
# Can clang link libFuzzer? Asked in a temporary directory, so nothing is
# left in the build tree (distcheck's distcleancheck counts every file).
probe=$(mktemp -d)
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }' >"$probe/probe.c"
if ! "$clang" -fsanitize=fuzzer "$probe/probe.c" -o "$probe/probe" 2>/dev/null; then
	rm -rf "$probe"
	echo "fuzz: $clang cannot link libFuzzer (apt-get install libclang-rt-14-dev)"
	exit 77
fi
rm -rf "$probe"

flags=(-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
	-I"$src/lib/base" -I"$src/lib/tables" -I"$src/lib/model" -I"$src/lib/analysis" -I"$src/formats" -I"$src/hid" -I"$src/xi" -I"$src/wayland" -I"$src/libinput" -I"$src/grade"
	-I"${abs_top_builddir}" -DTT_DATADIR='"."')
read -r -a extra_cflags <<<"${TT_FUZZ_CFLAGS:-}"
read -r -a libs <<<"${TT_FUZZ_LIBS:-}"
sources=()
for f in ${TT_FUZZ_SOURCES:?}; do
	case "$f" in *.c) sources+=("$src/$f") ;; esac
done
# Made by the build from grade/profiles/ (grade/local.mk).
sources+=("${abs_top_builddir}/grade/builtin-profiles.c")

build() {
	local name=$1
	if [ ! -x "$out/$name" ] || [ -n "$(find "$src/lib" "$src/formats" "$src/hid" "$src/xi" "$src/wayland" "$src/libinput" "$src/grade" "$src/tests/fuzz" -newer "$out/$name" -name '*.[ch]' | head -n1)" ]; then
		echo "fuzz: building $name"
		"$clang" "${flags[@]}" "${extra_cflags[@]}" "$src/tests/fuzz/$name.c" "${sources[@]}" \
			"${libs[@]}" -lm -o "$out/$name"
	fi
}

# One run of harness $1 on corpus folder $2 (created), with seeds in the
# folders after it that exist; the environment says what else it needs.
run() {
	local harness=$1 corpus=$2 name
	shift 2
	name=$(basename "$corpus")
	mkdir -p "$corpus"
	existing=()
	for s in "$@"; do [ -d "$s" ] && existing+=("$s"); done

	echo "fuzz: running ${name#corpus-} for $seconds s"
	# Each run's findings go to a folder of their own, so an old finding
	# does not fail a later run (it is reported by the run that found it).
	found="$out/found-${name#corpus-}-$(date +%Y%m%d-%H%M%S)"
	mkdir -p "$found"
	if ! (cd "$out" && "./$harness" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=1024 \
		-timeout=10 -print_final_stats=1 -artifact_prefix="$found/" \
		"$corpus" "${existing[@]}" 2>&1 | tail -n 25); then
		status=1
	fi
	if [ -n "$(ls -A "$found")" ]; then
		echo "fuzz: $harness found problems; inputs kept in $found (copy them to tests/fuzz/regressions/$harness-NAME)"
		ls -l "$found"
		status=1
	else
		rmdir "$found"
	fi
}

# Every saved crash input of harness $1 must now pass.
regressions() {
	if compgen -G "$src/tests/fuzz/regressions/$1-*" >/dev/null; then
		"$out/$1" -runs=0 "$src"/tests/fuzz/regressions/"$1"-* || status=1
	fi
}

status=0
harness=fuzz-reader
build "$harness"
regressions "$harness"
corpus_dir=${TT_CORPUS:-$src/tests/corpus}
for format in ${FUZZ_FORMATS:-any timeline evemu libinput hid-recorder}; do
	case "$format" in
	any) corpus="$out/corpus-$harness" ;;
	timeline | evemu | libinput | hid-recorder) corpus="$out/corpus-$harness-$format" ;;
	*) echo "fuzz: unknown format '$format' in FUZZ_FORMATS" >&2; exit 2 ;;
	esac
	# Seeds: the bundled samples, the saved regressions, and the public
	# corpus when it is there.
	TT_FUZZ_FORMAT=$format run "$harness" "$corpus" "$src/samples" "$src/tests/fuzz/seeds" \
		"$corpus_dir/evemu" "$corpus_dir/libinput-record" "$corpus_dir/hid-recorder"
done

# The HID descriptor parser and report decoder, seeded with real
# descriptors and reports (tests/fuzz/seeds-hid/README).
harness=fuzz-hid-desc
build "$harness"
regressions "$harness"
run "$harness" "$out/corpus-$harness" "$src/tests/fuzz/seeds-hid"

# Grading profiles (a user's own file), seeded with the built-in ones.
harness=fuzz-grade-profile
build "$harness"
regressions "$harness"
run "$harness" "$out/corpus-$harness" "$src/tests/fuzz/seeds-grade"
exit $status
