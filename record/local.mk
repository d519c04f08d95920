# touchtape record (kernel evdev side) and touchtape list.
touchtape_sources += \
	record/input-devices.c record/input-devices.h \
	record/recorder.c record/recorder.h \
	record/surroundings.c record/surroundings.h \
	record/evdev-source.c record/evdev-source.h \
	record/guide.c record/guide.h record/guide-source.c record/guide-source.h \
	record/cmd-record.c record/cmd-list.c
dist_man_MANS += man/touchtape-record.1 man/touchtape-list.1

# Host unit test: tt_capture through a pipe (plain and ASan+UBSan).
record_tests_test_capture_SOURCES = record/tests/test-capture.c \
	$(touchtape_evdev_capture_sources) $(tests_common_sources)
record_tests_test_capture_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
record_tests_test_capture_LDADD = libtouchtape.la -lm
check_PROGRAMS += record/tests/test-capture
TESTS += record/tests/test-capture
if HAVE_SANITIZERS
record_tests_test_capture_san_SOURCES = $(record_tests_test_capture_SOURCES)
record_tests_test_capture_san_CPPFLAGS = $(record_tests_test_capture_CPPFLAGS)
record_tests_test_capture_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
record_tests_test_capture_san_LDFLAGS = $(SANITIZE_FLAGS)
record_tests_test_capture_san_LDADD = libtouchtape-san.la -lm
check_PROGRAMS += record/tests/test-capture-san
TESTS += record/tests/test-capture-san
endif

# Host unit test: a device's surroundings gathered from fake sysfs, udev
# and os-release trees, and libinput quirks through a stand-in tool.
record_tests_test_surroundings_SOURCES = record/tests/test-surroundings.c \
	record/surroundings.c record/surroundings.h hid/hidraw-sysfs.c hid/hidraw-sysfs.h $(tests_common_sources)
record_tests_test_surroundings_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests -I$(top_srcdir)/record
record_tests_test_surroundings_LDADD = libtouchtape.la -lm
check_PROGRAMS += record/tests/test-surroundings
TESTS += record/tests/test-surroundings
# What record stored of the surroundings against udevadm, libinput quirks
# list and os-release, for the replay VM test (issue 24's one VM boot).
EXTRA_DIST += record/tests/surroundings-check.py

# The kernel-filtering model the VM test compares recordings against.
check_PROGRAMS += record/tests/model-check
record_tests_model_check_SOURCES = record/tests/model-check.c \
	replay/kernel-model.c replay/kernel-model.h replay/evbuf.c replay/evbuf.h
record_tests_model_check_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/replay
record_tests_model_check_LDADD = libtouchtape.la -lm

# Kernel tests in the VM rig (one boot for all scenarios).
TESTS += record/tests/vm-record.sh
EXTRA_DIST += record/tests/vm-record.sh
# record --guide: alone, with --libinput and --hid in one boot; with --xi
# in the Xorg group's (tests/vm/local.mk).
TESTS += record/tests/guide-vm.sh record/tests/guide-xi-vm.sh
EXTRA_DIST += record/tests/guide-vm.sh record/tests/guide-xi-vm.sh record/tests/guide-guest.py \
	record/tests/guide-fixture.py record/tests/guide-check.py
# The device picker on a terminal (no DEVICE given).
TESTS += record/tests/picker-vm.sh
EXTRA_DIST += record/tests/picker-vm.sh
TESTS += record/tests/cli-record.sh
EXTRA_DIST += record/tests/cli-record.sh
# record --hid: its usage on the host, and against a HID multitouch device
# made through uhid in the VM.
TESTS += record/tests/record-hid-cli.sh
EXTRA_DIST += record/tests/record-hid-cli.sh
TESTS += record/tests/record-hid-vm.sh
EXTRA_DIST += record/tests/record-hid-vm.sh record/tests/uhid-device.py \
	record/tests/record-hid-check.py record/tests/record-hid-keys.py

# record --wayland against Weston on the host (X11 backend in Xvfb, headless
# with Xwayland): seat, outputs, surface, the compositor killed mid-way.
TESTS += record/tests/record-wayland.sh
EXTRA_DIST += record/tests/record-wayland.sh record/tests/servers-lib.sh \
	record/tests/xtest-pointer.py

# record --xi refuses Xwayland (weston's headless backend) and servers
# without XInput 2.2 (a protocol fixture), on the host.
TESTS += record/tests/xi-refuse.sh
EXTRA_DIST += record/tests/xi-refuse.sh record/tests/xi-fake-server.py

# Crash safety: recorders SIGKILLed at 100 random moments while recording;
# every file valid up to its last complete line (the checks: kill-guest.py).
TESTS += record/tests/kill-vm.sh
EXTRA_DIST += record/tests/kill-vm.sh record/tests/kill-guest.py
# The kernel and X paths under ASan+UBSan+LeakSanitizer (touchtape-san).
if HAVE_SANITIZERS
TESTS += record/tests/vm-san.sh
endif
EXTRA_DIST += record/tests/vm-san.sh
# record --libinput in the VM, with udevd (one boot).
TESTS += record/tests/record-libinput-vm.sh
EXTRA_DIST += record/tests/record-libinput-vm.sh record/tests/li-vm-check.py
TESTS += record/tests/cli-libinput.sh
EXTRA_DIST += record/tests/cli-libinput.sh

# Host unit test: record --guide's exercises, keys and markers.
record_tests_test_guide_SOURCES = record/tests/test-guide.c record/guide.c record/guide.h \
	$(tests_common_sources)
record_tests_test_guide_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests -I$(top_srcdir)/record
record_tests_test_guide_LDADD = libtouchtape.la -lm
check_PROGRAMS += record/tests/test-guide
TESTS += record/tests/test-guide
if HAVE_SANITIZERS
record_tests_test_guide_san_SOURCES = $(record_tests_test_guide_SOURCES)
record_tests_test_guide_san_CPPFLAGS = $(record_tests_test_guide_CPPFLAGS)
record_tests_test_guide_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
record_tests_test_guide_san_LDFLAGS = $(SANITIZE_FLAGS)
record_tests_test_guide_san_LDADD = libtouchtape-san.la -lm
check_PROGRAMS += record/tests/test-guide-san
TESTS += record/tests/test-guide-san
endif

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
