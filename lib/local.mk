libtouchtape_sources += \
	lib/bitmap.h \
	lib/checker.c lib/checker.h \
	lib/diag.c lib/diag.h \
	lib/device.c \
	lib/device-state.c lib/device-state.h \
	lib/evnames.c lib/evnames.h \
	lib/hid-desc.c lib/hid-desc.h lib/hid-desc-private.h \
	lib/hid-decode.c lib/hid-usages.c \
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
	lib/util-strings.c lib/util-strings.h \
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
