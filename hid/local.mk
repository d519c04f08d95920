# The HID layer: hidraw reports under the kernel's evdev frames. The
# report descriptor parser and decoder, the key masks, the model and its
# diagnostics, the timeline's hid records (library parts); record --hid's
# capture, replay --hid's uhid side, and what print, analyze, diff and
# inspect show of it (command parts). hid-recorder's file format stays in
# formats/ beside the other file formats.

libtouchtape_sources += \
	hid/hid-desc.c hid/hid-desc.h hid/hid-desc-private.h \
	hid/hid-decode.c hid/hid-usages.c hid/hid-keymask.c \
	hid/hid-keymask.h hid/model-hid.c hid/model-hid-frames.c \
	hid/timeline-hid.c hid/timeline-hid.h hid/timeline-writer-hid.c \
	hid/records-hid.c hid/checker-hid.c hid/privacy-hid.c

touchtape_sources += \
	hid/hidraw-sysfs.c hid/hidraw-sysfs.h hid/hidraw-capture.c \
	hid/hidraw-capture.h hid/hidraw-source.c hid/hidraw-source.h \
	hid/uhid-device.c hid/uhid-device.h hid/side-uhid.c \
	hid/side-uhid.h \
	hid/print-hid.c hid/print-hid.h \
	hid/hid-contacts.c hid/diff-hid.c hid/diff-hid-state.c \
	hid/index-hid.c

# The timeline's HID records.
check_PROGRAMS += hid/tests/test-hid-records
TESTS += hid/tests/test-hid-records
hid_tests_test_hid_records_SOURCES = hid/tests/test-hid-records.c $(tests_common_sources)
hid_tests_test_hid_records_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
hid_tests_test_hid_records_LDADD = libtouchtape.la -lm
if HAVE_SANITIZERS
check_PROGRAMS += hid/tests/test-hid-records-san
TESTS += hid/tests/test-hid-records-san
hid_tests_test_hid_records_san_SOURCES = $(hid_tests_test_hid_records_SOURCES)
hid_tests_test_hid_records_san_CPPFLAGS = $(hid_tests_test_hid_records_CPPFLAGS)
hid_tests_test_hid_records_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
hid_tests_test_hid_records_san_LDADD = libtouchtape-san.la -lm
hid_tests_test_hid_records_san_LDFLAGS = $(SANITIZE_FLAGS)
endif

# The HID descriptor parser and report decoder on real descriptors (the
# corpus's hid-recorder files, tests/corpus's or $TT_CORPUS's, hid-tools' multitouch
# descriptors in hid/tests/data) and hostile ones, plain and with
# ASan+UBSan.
hid_tests_test_hid_desc_SOURCES = hid/tests/test-hid-desc.c hid/tests/test-hid-desc-corpus.c \
	hid/tests/test-hid-desc.h tests/test-common.c tests/test-common.h
hid_tests_test_hid_desc_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
hid_tests_test_hid_desc_LDADD = libtouchtape.la -lm
check_PROGRAMS += hid/tests/test-hid-desc
TESTS += hid/tests/test-hid-desc
EXTRA_DIST += hid/tests/data/hid-tools-multitouch.hid
if HAVE_SANITIZERS
hid_tests_test_hid_desc_san_SOURCES = $(hid_tests_test_hid_desc_SOURCES)
hid_tests_test_hid_desc_san_CPPFLAGS = $(hid_tests_test_hid_desc_CPPFLAGS)
hid_tests_test_hid_desc_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
hid_tests_test_hid_desc_san_LDADD = libtouchtape-san.la -lm
hid_tests_test_hid_desc_san_LDFLAGS = $(SANITIZE_FLAGS)
check_PROGRAMS += hid/tests/test-hid-desc-san
TESTS += hid/tests/test-hid-desc-san
endif

# Masking keys in HID reports (hid/hid-keymask.h), plain and with
# ASan+UBSan.
hid_tests_test_hid_keymask_SOURCES = hid/tests/test-hid-keymask.c tests/test-common.c tests/test-common.h
hid_tests_test_hid_keymask_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
hid_tests_test_hid_keymask_LDADD = libtouchtape.la -lm
check_PROGRAMS += hid/tests/test-hid-keymask
TESTS += hid/tests/test-hid-keymask
if HAVE_SANITIZERS
hid_tests_test_hid_keymask_san_SOURCES = $(hid_tests_test_hid_keymask_SOURCES)
hid_tests_test_hid_keymask_san_CPPFLAGS = $(hid_tests_test_hid_keymask_CPPFLAGS)
hid_tests_test_hid_keymask_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
hid_tests_test_hid_keymask_san_LDADD = libtouchtape-san.la -lm
hid_tests_test_hid_keymask_san_LDFLAGS = $(SANITIZE_FLAGS)
check_PROGRAMS += hid/tests/test-hid-keymask-san
TESTS += hid/tests/test-hid-keymask-san
endif

# The HID layer of the model and its diagnostics on a real descriptor
# with hand-made reports, plain and with ASan+UBSan.
hid_tests_test_model_hid_SOURCES = hid/tests/test-model-hid.c tests/test-common.c tests/test-common.h
hid_tests_test_model_hid_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
hid_tests_test_model_hid_LDADD = libtouchtape.la -lm
check_PROGRAMS += hid/tests/test-model-hid
TESTS += hid/tests/test-model-hid
if HAVE_SANITIZERS
hid_tests_test_model_hid_san_SOURCES = $(hid_tests_test_model_hid_SOURCES)
hid_tests_test_model_hid_san_CPPFLAGS = $(hid_tests_test_model_hid_CPPFLAGS)
hid_tests_test_model_hid_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
hid_tests_test_model_hid_san_LDADD = libtouchtape-san.la -lm
hid_tests_test_model_hid_san_LDFLAGS = $(SANITIZE_FLAGS)
check_PROGRAMS += hid/tests/test-model-hid-san
TESTS += hid/tests/test-model-hid-san
endif

# Host unit test: finding the HID device and hidraw node of an evdev
# device in fake sysfs trees shaped like real kernels' (USB, I2C, uhid,
# PS/2, uinput).
hid_tests_test_hidraw_sysfs_SOURCES = hid/tests/test-hidraw-sysfs.c \
	hid/hidraw-sysfs.c hid/hidraw-sysfs.h $(tests_common_sources)
hid_tests_test_hidraw_sysfs_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
hid_tests_test_hidraw_sysfs_LDADD = libtouchtape.la -lm
check_PROGRAMS += hid/tests/test-hidraw-sysfs
TESTS += hid/tests/test-hidraw-sysfs
