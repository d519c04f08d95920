# touchtape replay (issue 6): small files, one job each.
#   schedule: deadlines from the recording     player: plays steps via a clock
#   frame-steps, hid-player: evdev frames, HID reports as the player's steps
#   neutral:  state tracker, release/prepare    clock: the live clock, a
#                                               spinning timer on evdev/'s loop
#   uinput-device: device creation              kernel-model: what --verify expects
replay_core_sources = \
	replay/evbuf.c replay/evbuf.h \
	replay/neutral.c replay/neutral.h \
	replay/schedule.c replay/schedule.h \
	replay/keyguard.c replay/keyguard.h \
	replay/undeclared.c replay/undeclared.h \
	replay/player.c replay/player.h \
	replay/frame-steps.c replay/frame-steps.h \
	hid/hid-player.c hid/hid-player.h \
	replay/clock.c replay/clock.h \
	replay/kernel-model.c replay/kernel-model.h

# --verify: the one comparison (verify.c) of what is expected of a write
# (verify-written.c) or of a recording (hid-verify.c); report: its verdict.
replay_verify_sources = \
	replay/verify.c replay/verify.h replay/verify-reader.h replay/verify-written.c \
	hid/hid-verify.c hid/hid-verify.h \
	replay/report.c replay/report.h

touchtape_sources += \
	$(replay_core_sources) \
	replay/uinput-device.c replay/uinput-device.h \
	$(replay_verify_sources) \
	replay/side.h replay/pipeline.c replay/pipeline.h \
	replay/side-uinput.c replay/side-uinput.h replay/hwdb-abs.c replay/hwdb-abs.h \
	replay/replay-surroundings.c replay/replay-surroundings.h \
	replay/cmd-replay.c

dist_man_MANS += man/touchtape-replay.1

# Host tests: the pure parts, with a fake clock and a buffer sink.
check_PROGRAMS += replay/tests/test-replay
TESTS += replay/tests/test-replay
replay_tests_test_replay_SOURCES = replay/tests/test-replay.c $(replay_core_sources) \
	evdev/event-loop.c evdev/event-loop.h \
	tests/test-common.c tests/test-common.h
replay_tests_test_replay_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/replay -I$(top_srcdir)/tests -I$(top_srcdir)
replay_tests_test_replay_LDADD = libtouchtape.la -lm
if HAVE_SANITIZERS
check_PROGRAMS += replay/tests/test-replay-san
TESTS += replay/tests/test-replay-san
replay_tests_test_replay_san_SOURCES = $(replay_tests_test_replay_SOURCES)
replay_tests_test_replay_san_CPPFLAGS = $(replay_tests_test_replay_CPPFLAGS)
replay_tests_test_replay_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
replay_tests_test_replay_san_LDADD = libtouchtape-san.la -lm
replay_tests_test_replay_san_LDFLAGS = $(SANITIZE_FLAGS)
endif

# The one pipeline over a fake device side: the order of its ops, the
# devices destroyed on every path, --dry-run, the --report pieces.
check_PROGRAMS += replay/tests/test-pipeline
TESTS += replay/tests/test-pipeline
replay_tests_test_pipeline_SOURCES = replay/tests/test-pipeline.c \
	replay/pipeline.c replay/pipeline.h replay/side.h replay/report.c replay/report.h \
	cli/output.c cli/output.h $(replay_core_sources) \
	evdev/event-loop.c evdev/event-loop.h \
	tests/test-common.c tests/test-common.h
replay_tests_test_pipeline_CPPFLAGS = $(replay_tests_test_replay_CPPFLAGS)
replay_tests_test_pipeline_LDADD = libtouchtape.la -lm
if HAVE_SANITIZERS
check_PROGRAMS += replay/tests/test-pipeline-san
TESTS += replay/tests/test-pipeline-san
replay_tests_test_pipeline_san_SOURCES = $(replay_tests_test_pipeline_SOURCES)
replay_tests_test_pipeline_san_CPPFLAGS = $(replay_tests_test_pipeline_CPPFLAGS)
replay_tests_test_pipeline_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
replay_tests_test_pipeline_san_LDADD = libtouchtape-san.la -lm
replay_tests_test_pipeline_san_LDFLAGS = $(SANITIZE_FLAGS)
endif

# The one --verify comparison, both kinds, with readers filled by hand.
check_PROGRAMS += replay/tests/test-verify
TESTS += replay/tests/test-verify
replay_tests_test_verify_SOURCES = replay/tests/test-verify.c $(replay_verify_sources) \
	$(touchtape_evdev_capture_sources) \
	$(replay_core_sources) evdev/event-loop.c evdev/event-loop.h \
	tests/test-common.c tests/test-common.h
replay_tests_test_verify_CPPFLAGS = $(replay_tests_test_replay_CPPFLAGS)
replay_tests_test_verify_LDADD = libtouchtape.la -lm $(LIBEVDEV_LIBS)
if HAVE_SANITIZERS
check_PROGRAMS += replay/tests/test-verify-san
TESTS += replay/tests/test-verify-san
replay_tests_test_verify_san_SOURCES = $(replay_tests_test_verify_SOURCES)
replay_tests_test_verify_san_CPPFLAGS = $(replay_tests_test_verify_CPPFLAGS)
replay_tests_test_verify_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
replay_tests_test_verify_san_LDADD = libtouchtape-san.la -lm $(LIBEVDEV_LIBS)
replay_tests_test_verify_san_LDFLAGS = $(SANITIZE_FLAGS)
endif

# The surroundings (a udev rule, libinput quirks) in a scratch folder.
check_PROGRAMS += replay/tests/test-surroundings
TESTS += replay/tests/test-surroundings
replay_tests_test_surroundings_SOURCES = replay/tests/test-surroundings.c \
	replay/replay-surroundings.c replay/replay-surroundings.h tests/test-common.c tests/test-common.h
replay_tests_test_surroundings_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/replay -I$(top_srcdir)/tests
replay_tests_test_surroundings_LDADD = libtouchtape.la

TESTS += replay/tests/cli-replay.sh replay/tests/vm-replay.sh replay/tests/stuck-vm.sh
EXTRA_DIST += replay/tests/cli-replay.sh replay/tests/vm-replay.sh replay/tests/stuck-vm.sh \
	replay/tests/guest-replay.sh replay/tests/evemu2timeline.py \
	replay/tests/evstate.py replay/tests/timing.py replay/tests/percentile.py
# Real recordings (tests/corpus, or $TT_CORPUS): every evemu file --dry-run on the host;
# a sample with --verify, and the key guard seen by a second reader, in
# the VM.
TESTS += replay/tests/corpus-dry.sh replay/tests/real-vm.sh replay/tests/replay-hwdb-abs.sh
EXTRA_DIST += replay/tests/corpus-dry.sh replay/tests/real-vm.sh replay/tests/evkeys.py replay/tests/replay-hwdb-abs.sh
# replay --hid: the schedule, the lift and the refusals on the host
# (--dry-run).
TESTS += replay/tests/cli-hid.sh
EXTRA_DIST += replay/tests/cli-hid.sh
# In the VM: the corpus hid-recorder files through uhid and the kernel's
# drivers (evdev devices, record, diff of two replays, --verify), and no
# contact left down after SIGINT/SIGTERM.
TESTS += replay/tests/hid-replay-vm.sh replay/tests/hid-stop-vm.sh
EXTRA_DIST += replay/tests/hid-replay-vm.sh replay/tests/hid-stop-vm.sh \
	replay/tests/hid-vm-lib.sh
# In the VM: hid-tools' 93 multitouch descriptors through uhid, each bound
# by hid-multitouch with the evdev devices and slots it implies.
TESTS += replay/tests/hid-descriptors-vm.sh
EXTRA_DIST += replay/tests/hid-descriptors-vm.sh replay/tests/hid-descriptors.py
# --libinput: gestures, taps (tap on/off diffed), touches linked, in the VM.
TESTS += replay/tests/replay-libinput-vm.sh
EXTRA_DIST += replay/tests/replay-libinput-vm.sh replay/tests/libinput-tap.jsonl
# The device's surroundings (issue 24) in the VM with udevd and Xorg: the
# recorded udev properties and quirks on the replayed device, the rule and
# quirks gone after SIGINT and SIGKILL, --isolate, record's side.
TESTS += replay/tests/surroundings-vm.sh
EXTRA_DIST += replay/tests/surroundings-vm.sh
