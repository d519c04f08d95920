# Fuzzing (libFuzzer + ASan + UBSan, with clang). `make fuzz` runs each
# harness for FUZZ_SECONDS (default 60); `make check` runs the short test.
EXTRA_DIST += tests/fuzz/run.sh tests/fuzz/fuzz-reader.c tests/fuzz/fuzz-short.sh \
	tests/fuzz/seeds tests/fuzz/regressions
# The HID descriptor parser and report decoder's harness and its seeds.
EXTRA_DIST += tests/fuzz/fuzz-hid-desc.c tests/fuzz/seeds-hid tests/fuzz/fuzz-grade-profile.c tests/fuzz/seeds-grade
if HOSTILE_TESTS
TESTS += tests/fuzz/fuzz-short.sh
endif
tt_fuzz_env = TT_FUZZ_SOURCES='$(libtouchtape_sources)' \
	TT_FUZZ_CFLAGS='$(LIBEVDEV_CFLAGS) $(JSONC_CFLAGS) $(YAML_CFLAGS) $(ZLIB_CFLAGS)' \
	TT_FUZZ_LIBS='$(LIBEVDEV_LIBS) $(JSONC_LIBS) $(YAML_LIBS) $(ZLIB_LIBS)' \
	abs_top_srcdir='$(abs_top_srcdir)' abs_top_builddir='$(abs_top_builddir)'
AM_TESTS_ENVIRONMENT += export $(tt_fuzz_env);
fuzz:
	$(tt_fuzz_env) $(SHELL) $(top_srcdir)/tests/fuzz/run.sh
.PHONY: fuzz

# The harness, its growing corpus and its findings live in the build tree.
clean-local: clean-fuzz
clean-fuzz:
	rm -rf tests/fuzz/corpus-* tests/fuzz/found-* tests/fuzz/fuzz-reader tests/fuzz/fuzz-hid-desc tests/fuzz/fuzz-grade-profile
.PHONY: clean-fuzz
