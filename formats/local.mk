libtouchtape_sources += \
	formats/json-get.c formats/json-get.h \
	formats/linebuf.c formats/linebuf.h \
	formats/gzip-out.c formats/gzip-out.h \
	formats/reader.c formats/reader.h formats/reader-private.h \
	formats/timeline-reader.c \
	formats/timeline-writer.c formats/writer.h \
	formats/evemu-reader.c formats/libinput-reader.c \
	formats/libinput-li.c formats/libinput-li.h \
	formats/export.c formats/export.h formats/export-private.h \
	formats/evemu-writer.c formats/libinput-writer.c
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
