libtouchtape_sources += \
	lib/bitmap.h \
	lib/checker.c lib/checker.h \
	lib/diag.c lib/diag.h \
	lib/device.c \
	lib/device-state.c lib/device-state.h \
	lib/evnames.c lib/evnames.h \
	lib/hid-desc.c lib/hid-desc.h lib/hid-desc-private.h \
	lib/hid-decode.c lib/hid-usages.c \
	lib/hid-keymask.c lib/hid-keymask.h \
	lib/keymask.c lib/keymask.h \
	lib/privacy.c lib/privacy.h \
	lib/json-emit.c lib/json-emit.h \
	lib/li-names.c \
	lib/wl-names.c \
	lib/log.c lib/log.h \
	lib/surroundings.c \
	lib/surroundings-print.c lib/surroundings-print.h \
	lib/timeline.h \
	lib/util-mem.c lib/util-mem.h \
	lib/util-io.c lib/util-io.h \
	lib/util-plural.h \
	lib/util-stats.c lib/util-stats.h \
	lib/util-strings.c lib/util-strings.h lib/tolerance.c lib/tolerance.h \
	lib/util-time.h \
	lib/xi-names.c lib/xi-names.h

# The HID descriptor parser and report decoder on real descriptors (the
# corpus's hid-recorder files when TT_CORPUS is set, hid-tools' multitouch
# descriptors in lib/tests/data) and hostile ones, plain and with
# ASan+UBSan.
lib_tests_test_hid_desc_SOURCES = lib/tests/test-hid-desc.c tests/test-common.c tests/test-common.h
lib_tests_test_hid_desc_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
lib_tests_test_hid_desc_LDADD = libtouchtape.la -lm
check_PROGRAMS += lib/tests/test-hid-desc
TESTS += lib/tests/test-hid-desc
EXTRA_DIST += lib/tests/data/hid-tools-multitouch.hid
if HAVE_SANITIZERS
lib_tests_test_hid_desc_san_SOURCES = $(lib_tests_test_hid_desc_SOURCES)
lib_tests_test_hid_desc_san_CPPFLAGS = $(lib_tests_test_hid_desc_CPPFLAGS)
lib_tests_test_hid_desc_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
lib_tests_test_hid_desc_san_LDADD = libtouchtape-san.la -lm
lib_tests_test_hid_desc_san_LDFLAGS = $(SANITIZE_FLAGS)
check_PROGRAMS += lib/tests/test-hid-desc-san
TESTS += lib/tests/test-hid-desc-san
endif

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

# Masking keys in HID reports (lib/hid-keymask.h), plain and with
# ASan+UBSan.
lib_tests_test_hid_keymask_SOURCES = lib/tests/test-hid-keymask.c tests/test-common.c tests/test-common.h
lib_tests_test_hid_keymask_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
lib_tests_test_hid_keymask_LDADD = libtouchtape.la -lm
check_PROGRAMS += lib/tests/test-hid-keymask
TESTS += lib/tests/test-hid-keymask
if HAVE_SANITIZERS
lib_tests_test_hid_keymask_san_SOURCES = $(lib_tests_test_hid_keymask_SOURCES)
lib_tests_test_hid_keymask_san_CPPFLAGS = $(lib_tests_test_hid_keymask_CPPFLAGS)
lib_tests_test_hid_keymask_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
lib_tests_test_hid_keymask_san_LDADD = libtouchtape-san.la -lm
lib_tests_test_hid_keymask_san_LDFLAGS = $(SANITIZE_FLAGS)
check_PROGRAMS += lib/tests/test-hid-keymask-san
TESTS += lib/tests/test-hid-keymask-san
endif
