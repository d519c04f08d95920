# touchtape analyze and touchtape diff: the numbers and anomalies of one
# recording, and the differences between two (the model they read is in
# lib/model.mk).
touchtape_sources += \
	analyze/cmd-analyze.c analyze/analyze-private.h \
	analyze/analyze-lists.c analyze/analyze-report.c analyze/analyze-grade.c analyze/cmd-diff.c analyze/diff.h \
	analyze/diff-diag.c analyze/diff-output.c \
	analyze/diff-sur.c analyze/diff-options.c analyze/diff-samples.c analyze/diff-path.c \
	analyze/diff-axes.c analyze/diff-rhythm.c analyze/diff-keys.c analyze/diff-explain.c analyze/diff-devaxes.c \
	analyze/diff-pair.c analyze/diff-grade.c \
	analyze/model-plot.c analyze/model-plot.h analyze/plot-private.h analyze/plot-timeline.c \
	analyze/plot-svg.c analyze/plot-svg.h analyze/analyze-plot-layers.c
dist_man_MANS += man/touchtape-analyze.1 man/touchtape-diff.1

tt_analyze_tests = \
	analyze/tests/analyze-anomalies.sh \
	analyze/tests/analyze-motion.sh \
	analyze/tests/analyze-numbers.sh \
	analyze/tests/analyze-plot.sh \
	analyze/tests/analyze-answers.sh \
	analyze/tests/analyze-window.sh \
	analyze/tests/analyze-hid.sh analyze/tests/analyze-hid-contacts.sh \
	analyze/tests/analyze-hid-link-vm.sh \
	analyze/tests/analyze-libinput.sh \
	analyze/tests/analyze-xi-chains.sh \
	analyze/tests/wayland.sh \
	analyze/tests/diff-changes.sh \
	analyze/tests/diff-stream.sh \
	analyze/tests/surroundings.sh \
	analyze/tests/diff-anomalies.sh \
	analyze/tests/diff-xi-pairing.sh \
	analyze/tests/diff-mutations.sh \
	analyze/tests/diff-mutants-vm.sh \
	analyze/tests/diff-regressions.sh \
	analyze/tests/diff-replay-vm.sh
TESTS += $(tt_analyze_tests)
EXTRA_DIST += $(tt_analyze_tests) analyze/tests/plot-geometry.py tests/data/analyze analyze/tests/hid-expect.py tests/mutate.py tests/data/wayland tests/data/xi-chains

# The comparison of two recordings' anomalies that diff and replay --verify
# make (lib/analysis/diag-tally.h), on the real pass, plain and with ASan+UBSan.
analyze_tests_test_diag_compare_SOURCES = analyze/tests/test-diag-compare.c $(tt_stack_run_sources) tests/test-common.c tests/test-common.h
analyze_tests_test_diag_compare_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
analyze_tests_test_diag_compare_LDADD = libtouchtape.la -lm
check_PROGRAMS += analyze/tests/test-diag-compare
TESTS += analyze/tests/test-diag-compare
if HAVE_SANITIZERS
analyze_tests_test_diag_compare_san_SOURCES = $(analyze_tests_test_diag_compare_SOURCES)
analyze_tests_test_diag_compare_san_CPPFLAGS = $(analyze_tests_test_diag_compare_CPPFLAGS)
analyze_tests_test_diag_compare_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
analyze_tests_test_diag_compare_san_LDADD = libtouchtape-san.la -lm
analyze_tests_test_diag_compare_san_LDFLAGS = $(SANITIZE_FLAGS)
check_PROGRAMS += analyze/tests/test-diag-compare-san
TESTS += analyze/tests/test-diag-compare-san
endif
