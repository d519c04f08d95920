# The live-device side that record, print and replay --verify share: the
# event loop (epoll, signalfd, timers), the evdev capture with its
# SYN_DROPPED resync (the mask that keeps typed keys out of files is
# lib/tables/keymask.c: convert --redact masks as record does), and the capture
# source interface record's sources implement (capture-source.h).
touchtape_evdev_capture_sources = \
	evdev/evdev-capture.c evdev/evdev-capture.h \
	evdev/evdev-state.c evdev/evdev-state.h
touchtape_sources += \
	$(touchtape_evdev_capture_sources) \
	evdev/event-loop.c evdev/event-loop.h \
	evdev/capture-source.c evdev/capture-source.h

# Host unit test: the loop's timers (past deadlines, order, spin) and
# signals (plain and ASan+UBSan).
evdev_tests_test_event_loop_SOURCES = evdev/tests/test-event-loop.c \
	evdev/event-loop.c evdev/event-loop.h $(tests_common_sources)
evdev_tests_test_event_loop_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
evdev_tests_test_event_loop_LDADD = libtouchtape.la -lm
check_PROGRAMS += evdev/tests/test-event-loop
TESTS += evdev/tests/test-event-loop
if HAVE_SANITIZERS
evdev_tests_test_event_loop_san_SOURCES = $(evdev_tests_test_event_loop_SOURCES)
evdev_tests_test_event_loop_san_CPPFLAGS = $(evdev_tests_test_event_loop_CPPFLAGS)
evdev_tests_test_event_loop_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
evdev_tests_test_event_loop_san_LDFLAGS = $(SANITIZE_FLAGS)
evdev_tests_test_event_loop_san_LDADD = libtouchtape-san.la -lm
check_PROGRAMS += evdev/tests/test-event-loop-san
TESTS += evdev/tests/test-event-loop-san
endif

# Host unit test: the start state read until consistent (a fake device
# that moves while read), events applied to a state, the resync frames.
evdev_tests_test_evstate_SOURCES = evdev/tests/test-evstate.c \
	evdev/evdev-state.c evdev/evdev-state.h $(tests_common_sources)
evdev_tests_test_evstate_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
evdev_tests_test_evstate_LDADD = libtouchtape.la -lm
check_PROGRAMS += evdev/tests/test-evstate
TESTS += evdev/tests/test-evstate
if HAVE_SANITIZERS
evdev_tests_test_evstate_san_SOURCES = $(evdev_tests_test_evstate_SOURCES)
evdev_tests_test_evstate_san_CPPFLAGS = $(evdev_tests_test_evstate_CPPFLAGS)
evdev_tests_test_evstate_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
evdev_tests_test_evstate_san_LDFLAGS = $(SANITIZE_FLAGS)
evdev_tests_test_evstate_san_LDADD = libtouchtape-san.la -lm
check_PROGRAMS += evdev/tests/test-evstate-san
TESTS += evdev/tests/test-evstate-san
endif

# The start state read while the device moves, in the VM.
TESTS += evdev/tests/start-state-vm.sh
EXTRA_DIST += evdev/tests/start-state-vm.sh evdev/tests/start-state-guest.py

# Host unit test: the registry of record's capture sources (plain and
# ASan+UBSan).
evdev_tests_test_capture_source_SOURCES = evdev/tests/test-capture-source.c \
	evdev/capture-source.c evdev/capture-source.h $(tests_common_sources)
evdev_tests_test_capture_source_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
evdev_tests_test_capture_source_LDADD = libtouchtape.la -lm
check_PROGRAMS += evdev/tests/test-capture-source
TESTS += evdev/tests/test-capture-source
if HAVE_SANITIZERS
evdev_tests_test_capture_source_san_SOURCES = $(evdev_tests_test_capture_source_SOURCES)
evdev_tests_test_capture_source_san_CPPFLAGS = $(evdev_tests_test_capture_source_CPPFLAGS)
evdev_tests_test_capture_source_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
evdev_tests_test_capture_source_san_LDFLAGS = $(SANITIZE_FLAGS)
evdev_tests_test_capture_source_san_LDADD = libtouchtape-san.la -lm
check_PROGRAMS += evdev/tests/test-capture-source-san
TESTS += evdev/tests/test-capture-source-san
endif
