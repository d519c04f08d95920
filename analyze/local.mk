# touchtape analyze and touchtape diff: the numbers and anomalies of one
# recording, and the differences between two (the model they read is in
# lib/model.mk).
touchtape_sources += analyze/cmd-analyze.c analyze/cmd-diff.c analyze/diff.h \
	analyze/diff-diag.c analyze/diff-output.c
dist_man_MANS += man/touchtape-analyze.1 man/touchtape-diff.1

tt_analyze_tests = \
	analyze/tests/analyze-anomalies.sh \
	analyze/tests/analyze-numbers.sh \
	analyze/tests/analyze-plot.sh \
	analyze/tests/analyze-answers.sh \
	analyze/tests/diff-changes.sh \
	analyze/tests/diff-anomalies.sh \
	analyze/tests/diff-xi-pairing.sh \
	analyze/tests/diff-replay-vm.sh
TESTS += $(tt_analyze_tests)
EXTRA_DIST += $(tt_analyze_tests) tests/data/analyze
