libtouchtape_sources += \
	formats/json-get.c formats/json-get.h \
	formats/linebuf.c formats/linebuf.h \
	formats/gzip-out.c formats/gzip-out.h \
	formats/reader.c formats/reader.h formats/reader-private.h \
	formats/timeline-reader.c formats/timeline-reader-private.h \
	formats/timeline-device.c \
	formats/timeline-fastpath.c formats/timeline-fastpath.h \
	formats/hex.c formats/hex.h \
	formats/timeline-surroundings.c formats/timeline-surroundings.h \
	formats/timeline-writer.c formats/writer.h formats/writer-private.h \
	formats/records-core.c formats/records-evdev.c \
	formats/evemu-reader.c formats/evemu-private.h formats/evemu-desc.c formats/evemu-lines.c \
	formats/hidrec-reader.c \
	formats/libinput-reader.c formats/libinput-reader-private.h formats/libinput-yaml.c \
	formats/libinput-device.c formats/libinput-states.c \
	formats/libinput-li.c formats/libinput-li.h \
	formats/export.c formats/export.h formats/export-private.h \
	formats/evemu-writer.c formats/libinput-writer.c formats/hidrec-writer.c
EXTRA_DIST += formats/timeline.md formats/timeline.schema.json
dist_pkgdata_DATA = formats/timeline.schema.json

# The importers' tests.
check_PROGRAMS += tests/test-import
TESTS += tests/test-import
tests_test_import_SOURCES = tests/test-import.c $(tests_common_sources)
tests_test_import_LDADD = libtouchtape.la -lm
if HAVE_SANITIZERS
check_PROGRAMS += tests/test-import-san
TESTS += tests/test-import-san
tests_test_import_san_SOURCES = $(tests_test_import_SOURCES)
tests_test_import_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
tests_test_import_san_LDADD = libtouchtape-san.la -lm
tests_test_import_san_LDFLAGS = $(SANITIZE_FLAGS)
endif

# hid-recorder files: hostile and pasted input, several devices.
TESTS += formats/tests/hidrec-hostile.sh
EXTRA_DIST += formats/tests/hidrec-hostile.sh

# The surroundings keys of header and device records.
check_PROGRAMS += formats/tests/test-surroundings
TESTS += formats/tests/test-surroundings
formats_tests_test_surroundings_SOURCES = formats/tests/test-surroundings.c $(tests_common_sources)
formats_tests_test_surroundings_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
formats_tests_test_surroundings_LDADD = libtouchtape.la -lm
if HAVE_SANITIZERS
check_PROGRAMS += formats/tests/test-surroundings-san
TESTS += formats/tests/test-surroundings-san
formats_tests_test_surroundings_san_SOURCES = $(formats_tests_test_surroundings_SOURCES)
formats_tests_test_surroundings_san_CPPFLAGS = $(formats_tests_test_surroundings_CPPFLAGS)
formats_tests_test_surroundings_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
formats_tests_test_surroundings_san_LDADD = libtouchtape-san.la -lm
formats_tests_test_surroundings_san_LDFLAGS = $(SANITIZE_FLAGS)
endif
