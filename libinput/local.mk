# The libinput layer: libinput's events and gestures above the kernel's
# frames. Its model, names, counts and timeline records (library parts);
# what analyze, diff and inspect show of it, replay --libinput, and the
# libinput context record and replay share (command parts). libinput's
# YAML file format stays in formats/.

libtouchtape_sources += \
	libinput/li-names.c libinput/model-li.c libinput/model-li.h \
	libinput/li-counts-print.c libinput/li-counts-print.h \
	libinput/timeline-li.c libinput/timeline-writer-li.c \
	libinput/records-li.c libinput/checker-li.c

touchtape_sources += \
	libinput/li-replay.c libinput/li-replay.h \
	libinput/li-summary.c libinput/li-summary.h \
	libinput/li-analyze.c libinput/li-analyze.h libinput/diff-li.c \
	libinput/index-li.c libinput/print-li.c

# The libinput side that record --libinput and replay --libinput share:
# the libinput context on the live devices, its events as timeline
# records, and the configuration it reports and applies.
touchtape_sources += \
	libinput/li-capture.c libinput/li-capture.h \
	libinput/li-config.c libinput/li-private.h \
	libinput/li-source.c libinput/li-source.h

# The libinput layer's model (libinput/model-li.c) on the samples' kernel layers.
libinput_tests_test_model_li_SOURCES = libinput/tests/test-model-li.c tests/test-common.c tests/test-common.h
libinput_tests_test_model_li_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
libinput_tests_test_model_li_LDADD = libtouchtape.la -lm
check_PROGRAMS += libinput/tests/test-model-li
TESTS += libinput/tests/test-model-li
if HAVE_SANITIZERS
libinput_tests_test_model_li_san_SOURCES = $(libinput_tests_test_model_li_SOURCES)
libinput_tests_test_model_li_san_CPPFLAGS = $(libinput_tests_test_model_li_CPPFLAGS)
libinput_tests_test_model_li_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
libinput_tests_test_model_li_san_LDADD = libtouchtape-san.la -lm
libinput_tests_test_model_li_san_LDFLAGS = $(SANITIZE_FLAGS)
check_PROGRAMS += libinput/tests/test-model-li-san
TESTS += libinput/tests/test-model-li-san
endif

# The timeline's libinput records (libinput/timeline-li.c, libinput/timeline-writer-li.c), plain and with ASan+UBSan.
libinput_tests_test_li_records_SOURCES = libinput/tests/test-li-records.c $(tests_common_sources)
libinput_tests_test_li_records_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
libinput_tests_test_li_records_LDADD = libtouchtape.la -lm
check_PROGRAMS += libinput/tests/test-li-records
TESTS += libinput/tests/test-li-records
if HAVE_SANITIZERS
libinput_tests_test_li_records_san_SOURCES = $(libinput_tests_test_li_records_SOURCES)
libinput_tests_test_li_records_san_CPPFLAGS = $(libinput_tests_test_li_records_CPPFLAGS)
libinput_tests_test_li_records_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
libinput_tests_test_li_records_san_LDADD = libtouchtape-san.la -lm
libinput_tests_test_li_records_san_LDFLAGS = $(SANITIZE_FLAGS)
check_PROGRAMS += libinput/tests/test-li-records-san
TESTS += libinput/tests/test-li-records-san
endif
