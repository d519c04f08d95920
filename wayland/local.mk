# The Wayland layer: a Wayland client's view of the touches. Its model,
# names and timeline records (library parts); what print, analyze, diff
# and inspect show of it (command parts). record --wayland's client and the
# protocol code it is built with are in wayland/capture.mk, included last.

libtouchtape_sources += \
	wayland/wl-names.c wayland/model-wl.c wayland/model-wl.h \
	wayland/timeline-wl.c wayland/timeline-wl.h wayland/records-wl.c

touchtape_sources += \
	wayland/print-wl.c wayland/print-wl.h wayland/print-wl-link.c \
	wayland/print-wl-link.h \
	wayland/wl-summary.c wayland/wl-summary.h wayland/wl-analyze.c \
	wayland/wl-analyze.h wayland/diff-wl.c \
	wayland/index-wl.c

# The timeline's Wayland record.
check_PROGRAMS += wayland/tests/test-wl-records
TESTS += wayland/tests/test-wl-records
wayland_tests_test_wl_records_SOURCES = wayland/tests/test-wl-records.c $(tests_common_sources)
wayland_tests_test_wl_records_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
wayland_tests_test_wl_records_LDADD = libtouchtape.la -lm
if HAVE_SANITIZERS
check_PROGRAMS += wayland/tests/test-wl-records-san
TESTS += wayland/tests/test-wl-records-san
wayland_tests_test_wl_records_san_SOURCES = $(wayland_tests_test_wl_records_SOURCES)
wayland_tests_test_wl_records_san_CPPFLAGS = $(wayland_tests_test_wl_records_CPPFLAGS)
wayland_tests_test_wl_records_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
wayland_tests_test_wl_records_san_LDADD = libtouchtape-san.la -lm
wayland_tests_test_wl_records_san_LDFLAGS = $(SANITIZE_FLAGS)
endif

# The Wayland layer's model (wayland/model-wl.c): the link and the protocol
# rules on hand-made records, plain and with ASan+UBSan.
wayland_tests_test_model_wl_SOURCES = wayland/tests/test-model-wl.c tests/test-common.c tests/test-common.h
wayland_tests_test_model_wl_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
wayland_tests_test_model_wl_LDADD = libtouchtape.la -lm
check_PROGRAMS += wayland/tests/test-model-wl
TESTS += wayland/tests/test-model-wl
if HAVE_SANITIZERS
wayland_tests_test_model_wl_san_SOURCES = $(wayland_tests_test_model_wl_SOURCES)
wayland_tests_test_model_wl_san_CPPFLAGS = $(wayland_tests_test_model_wl_CPPFLAGS)
wayland_tests_test_model_wl_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
wayland_tests_test_model_wl_san_LDADD = libtouchtape-san.la -lm
wayland_tests_test_model_wl_san_LDFLAGS = $(SANITIZE_FLAGS)
check_PROGRAMS += wayland/tests/test-model-wl-san
TESTS += wayland/tests/test-model-wl-san
endif
