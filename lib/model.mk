# The touch-sequence model (shared by analyze, diff and the inspector) and
# the analyze and diff commands.
libtouchtape_sources += \
	lib/model.c lib/model.h lib/model-private.h \
	lib/model-link.c \
	lib/detect.c lib/detect.h lib/detect-run.c lib/detect-print.c \
	lib/model-json.c lib/model-json.h \
	lib/model-plot.c lib/model-plot.h

# tools/cmd-analyze.c and tools/cmd-diff.c are in tools/local.mk.
dist_man_MANS += man/touchtape-analyze.1 man/touchtape-diff.1

# Unit tests of the model, plain and with ASan+UBSan.
tests_test_model_SOURCES = tests/test-model.c tests/test-common.c tests/test-common.h
tests_test_model_LDADD = libtouchtape.la -lm
check_PROGRAMS += tests/test-model
TESTS += tests/test-model
if HAVE_SANITIZERS
tests_test_model_san_SOURCES = $(tests_test_model_SOURCES)
tests_test_model_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
tests_test_model_san_LDADD = libtouchtape-san.la -lm
tests_test_model_san_LDFLAGS = $(SANITIZE_FLAGS)
check_PROGRAMS += tests/test-model-san
TESTS += tests/test-model-san
endif

# The commands, on hand-made timelines and corpus files.
tt_analyze_tests = \
	tests/analyze-anomalies.sh \
	tests/analyze-numbers.sh \
	tests/analyze-plot.sh \
	tests/analyze-answers.sh \
	tests/diag-consistency.sh \
	tests/diag-drop-vm.sh \
	tests/diff-changes.sh \
	tests/diff-replay-vm.sh
TESTS += $(tt_analyze_tests)
EXTRA_DIST += $(tt_analyze_tests) tests/data/analyze tests/diag-consistency.py \
	tests/diag-drop-guest.py
