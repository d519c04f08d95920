#!/bin/sh
# make check's share of fuzzing: every saved crash input replayed, then a
# short run of each harness (FUZZ_SECONDS, default 20).
FUZZ_SECONDS=${FUZZ_SECONDS:-20} exec bash "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/fuzz/run.sh"
