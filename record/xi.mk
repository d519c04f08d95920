# touchtape record --xi: the XInput 2.2 side of the recorder (X clients,
# ownership scenarios) and its pure conversion of XI structs to records.
touchtape_xi_convert_sources = record/xi-convert.c record/xi-convert.h
touchtape_sources += $(touchtape_xi_convert_sources) \
	record/xi-recorder.c record/xi-recorder.h record/xi-private.h \
	record/xi-connect.c record/xi-select.c

# Host unit test of the conversion with hand-built structs (plain and
# ASan+UBSan). Needs only the X headers, no X server.
record_tests_test_xi_convert_SOURCES = record/tests/test-xi-convert.c $(touchtape_xi_convert_sources) \
	$(tests_common_sources)
record_tests_test_xi_convert_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/record -I$(top_srcdir)/tests
record_tests_test_xi_convert_CFLAGS = $(AM_CFLAGS) $(X11_CFLAGS) $(XI_CFLAGS)
record_tests_test_xi_convert_LDADD = libtouchtape.la -lm
check_PROGRAMS += record/tests/test-xi-convert
TESTS += record/tests/test-xi-convert
if HAVE_SANITIZERS
record_tests_test_xi_convert_san_SOURCES = $(record_tests_test_xi_convert_SOURCES)
record_tests_test_xi_convert_san_CPPFLAGS = $(record_tests_test_xi_convert_CPPFLAGS)
record_tests_test_xi_convert_san_CFLAGS = $(AM_CFLAGS) $(X11_CFLAGS) $(XI_CFLAGS) $(SANITIZE_FLAGS)
record_tests_test_xi_convert_san_LDFLAGS = $(SANITIZE_FLAGS)
record_tests_test_xi_convert_san_LDADD = libtouchtape-san.la -lm
check_PROGRAMS += record/tests/test-xi-convert-san
TESTS += record/tests/test-xi-convert-san
endif

# The kernel-to-X link of a recording as JSON lines (lib/model.h), for the
# VM test to assert on.
check_PROGRAMS += record/tests/xi-link
record_tests_xi_link_SOURCES = record/tests/xi-link.c
record_tests_xi_link_LDADD = libtouchtape.la -lm

# VM test (tests/vm/run --xorg): every --xi scenario in one boot; the
# checks are in xi-vm-check.py.
TESTS += record/tests/xi-vm.sh
EXTRA_DIST += record/tests/xi-vm.sh record/tests/xi-vm-check.py

# The ownership chains (issue 22) in one Xorg boot: chains of two and three
# --xi-grab stages, a pending end, --xi-pointer-grab; the checks, on the
# records and on analyze's chains, are in xi-chain-check.py.
TESTS += record/tests/xi-chain-vm.sh
EXTRA_DIST += record/tests/xi-chain-vm.sh record/tests/xi-chain-check.py
# The chain options' usage and their set-up on Xvfb, on the host.
TESTS += record/tests/xi-chain-cli.sh
EXTRA_DIST += record/tests/xi-chain-cli.sh
