#!/bin/sh
# make check's share of fuzzing: every saved crash input replayed, then a
# short run of the harness per format (FUZZ_SECONDS each, default 5).
FUZZ_SECONDS=${FUZZ_SECONDS:-5} exec bash "${abs_top_srcdir:-$(dirname "$0")/../..}/tests/fuzz/run.sh"
