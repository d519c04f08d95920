libtouchtape_sources += \
	lib/bitmap.h \
	lib/checker.c lib/checker.h \
	lib/diag.c lib/diag.h \
	lib/device.c \
	lib/device-state.c lib/device-state.h \
	lib/evnames.c lib/evnames.h \
	lib/keymask.c lib/keymask.h \
	lib/privacy.c lib/privacy.h \
	lib/json-emit.c lib/json-emit.h \
	lib/log.c lib/log.h \
	lib/surroundings.c \
	lib/surroundings-print.c lib/surroundings-print.h \
	lib/timeline.h \
	lib/util-mem.c lib/util-mem.h \
	lib/util-io.c lib/util-io.h \
	lib/util-plural.h \
	lib/util-stats.c lib/util-stats.h \
	lib/util-strings.c lib/util-strings.h lib/tolerance.c lib/tolerance.h \
	lib/util-time.h

# The statistics rule (lib/util-stats.h): medians, percentiles, the
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
