# The XI layer: XInput 2.2 touch events and the X server's ownership
# chains above the kernel's frames. The XI names, the model, the
# kernel-to-XI link and the ownership model, the timeline's xi records
# (library parts); what analyze and inspect show of it (command parts);
# then record --xi's X client.

libtouchtape_sources += \
	xi/xi-names.c xi/xi-names.h xi/model-xi.c xi/model-link.c \
	xi/model-xi-own.c xi/model-xi-own.h \
	xi/timeline-xi.c xi/timeline-writer-xi.c xi/records-xi.c \
	xi/checker-xi.c xi/privacy-xi.c

touchtape_sources += \
	xi/xi-chains.c xi/xi-chains.h \
	xi/index-xi.c xi/print-xi.c

# touchtape record --xi: the XInput 2.2 side of the recorder (X clients,
# ownership scenarios) and its pure conversion of XI structs to records.
touchtape_xi_convert_sources = xi/xi-convert.c xi/xi-convert.h
touchtape_sources += $(touchtape_xi_convert_sources) \
	xi/xi-recorder.c xi/xi-recorder.h xi/xi-private.h \
	xi/xi-connect.c xi/xi-select.c

# Host unit test of the conversion with hand-built structs (plain and
# ASan+UBSan). Needs only the X headers, no X server.
xi_tests_test_xi_convert_SOURCES = xi/tests/test-xi-convert.c $(touchtape_xi_convert_sources) \
	$(tests_common_sources)
xi_tests_test_xi_convert_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
xi_tests_test_xi_convert_CFLAGS = $(AM_CFLAGS) $(X11_CFLAGS) $(XI_CFLAGS)
xi_tests_test_xi_convert_LDADD = libtouchtape.la -lm
check_PROGRAMS += xi/tests/test-xi-convert
TESTS += xi/tests/test-xi-convert
if HAVE_SANITIZERS
xi_tests_test_xi_convert_san_SOURCES = $(xi_tests_test_xi_convert_SOURCES)
xi_tests_test_xi_convert_san_CPPFLAGS = $(xi_tests_test_xi_convert_CPPFLAGS)
xi_tests_test_xi_convert_san_CFLAGS = $(AM_CFLAGS) $(X11_CFLAGS) $(XI_CFLAGS) $(SANITIZE_FLAGS)
xi_tests_test_xi_convert_san_LDFLAGS = $(SANITIZE_FLAGS)
xi_tests_test_xi_convert_san_LDADD = libtouchtape-san.la -lm
check_PROGRAMS += xi/tests/test-xi-convert-san
TESTS += xi/tests/test-xi-convert-san
endif

# The kernel-to-X link of a recording as JSON lines (lib/model/model.h), for the
# VM test to assert on.
check_PROGRAMS += xi/tests/xi-link
xi_tests_xi_link_SOURCES = xi/tests/xi-link.c
xi_tests_xi_link_LDADD = libtouchtape.la -lm
