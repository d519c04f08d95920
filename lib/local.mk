# The library every command links, by kind: basics (memory, strings, I/O,
# statistics, JSON, the log), protocol tables (event names, keyboard keys),
# the data model (devices, the kernel touch model, the layer stack) and the
# analysis engine (detectors, checker, diagnostics, tolerances, privacy).
# Each layer folder (hid/, xi/, libinput/, wayland/, grade/) adds its own.
libtouchtape_sources += \
	lib/base/bitmap.h \
	lib/base/json-emit.c lib/base/json-emit.h \
	lib/base/log.c lib/base/log.h \
	lib/base/util-io.c lib/base/util-io.h \
	lib/base/util-mem.c lib/base/util-mem.h \
	lib/base/util-plural.h \
	lib/base/util-stats.c lib/base/util-stats.h \
	lib/base/util-strings.c lib/base/util-strings.h \
	lib/base/util-time.h
libtouchtape_sources += \
	lib/tables/evnames.c lib/tables/evnames.h \
	lib/tables/keymask.c lib/tables/keymask.h
libtouchtape_sources += \
	lib/model/timeline.h \
	lib/model/device.c lib/model/device-state.c lib/model/device-state.h \
	lib/model/surroundings.c \
	lib/model/model.c lib/model/model.h lib/model/model-private.h \
	lib/model/model-type-a.c lib/model/model-single.c \
	lib/model/model-krefs.c lib/model/model-krefs.h \
	lib/model/stack.c lib/model/stack.h \
	lib/model/record-layer.h lib/model/record-layers.c
libtouchtape_sources += \
	lib/analysis/checker.c lib/analysis/checker.h lib/analysis/checker-private.h \
	lib/analysis/detect.c lib/analysis/detect.h \
	lib/analysis/detect-motion.c lib/analysis/detect-motion.h \
	lib/analysis/diag.c lib/analysis/diag.h \
	lib/analysis/diag-tally.c lib/analysis/diag-tally.h \
	lib/analysis/tolerance.c lib/analysis/tolerance.h \
	lib/analysis/privacy.c lib/analysis/privacy.h lib/analysis/privacy-private.h


# The statistics rule (lib/base/util-stats.h): medians, percentiles, the
# histogram path agreeing with the array path, the comparators; plain and
# with ASan+UBSan.
lib_tests_test_util_stats_SOURCES = lib/tests/test-util-stats.c tests/test-common.c tests/test-common.h
lib_tests_test_util_stats_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
lib_tests_test_util_stats_LDADD = libtouchtape.la -lm
check_PROGRAMS += lib/tests/test-util-stats
TESTS += lib/tests/test-util-stats
if HAVE_SANITIZERS
lib_tests_test_util_stats_san_SOURCES = $(lib_tests_test_util_stats_SOURCES)
lib_tests_test_util_stats_san_CPPFLAGS = $(lib_tests_test_util_stats_CPPFLAGS)
lib_tests_test_util_stats_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
lib_tests_test_util_stats_san_LDADD = libtouchtape-san.la -lm
lib_tests_test_util_stats_san_LDFLAGS = $(SANITIZE_FLAGS)
check_PROGRAMS += lib/tests/test-util-stats-san
TESTS += lib/tests/test-util-stats-san
endif

# The record layers: every record type has its kind, found by type and
# by name (plain and with ASan+UBSan).
lib_tests_test_record_layers_SOURCES = lib/tests/test-record-layers.c tests/test-common.c tests/test-common.h
lib_tests_test_record_layers_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
lib_tests_test_record_layers_LDADD = libtouchtape.la -lm
check_PROGRAMS += lib/tests/test-record-layers
TESTS += lib/tests/test-record-layers
if HAVE_SANITIZERS
lib_tests_test_record_layers_san_SOURCES = $(lib_tests_test_record_layers_SOURCES)
lib_tests_test_record_layers_san_CPPFLAGS = $(lib_tests_test_record_layers_CPPFLAGS)
lib_tests_test_record_layers_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
lib_tests_test_record_layers_san_LDADD = libtouchtape-san.la -lm
lib_tests_test_record_layers_san_LDFLAGS = $(SANITIZE_FLAGS)
check_PROGRAMS += lib/tests/test-record-layers-san
TESTS += lib/tests/test-record-layers-san
endif

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

# The detectors over every sample and corpus file (every command agreeing)
# and under SYN_DROPPED made on purpose in the VM.
tt_model_tests = tests/diag-consistency.sh tests/diag-drop-vm.sh tests/diag-noloss-vm.sh
TESTS += $(tt_model_tests)
EXTRA_DIST += $(tt_model_tests) tests/diag-consistency.py tests/diag-drop-guest.py \
	tests/diag-noloss-guest.py
