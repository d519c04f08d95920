# The touch-sequence model and its detectors, shared by validate, analyze,
# diff, replay --verify and the inspector.
libtouchtape_sources += \
	lib/model.c lib/model.h lib/model-private.h \
	lib/model-type-a.c lib/model-single.c lib/model-xi.c \
	lib/model-link.c \
	lib/model-hid.c lib/model-hid-frames.c \
	lib/model-xi-own.c lib/model-xi-own.h \
	lib/model-li.c lib/model-li.h lib/li-counts-print.c lib/li-counts-print.h \
	lib/model-wl.c lib/model-wl.h lib/model-krefs.c lib/model-krefs.h \
	lib/stack.c lib/stack.h lib/detect.c lib/detect.h lib/detect-motion.c lib/detect-motion.h lib/detect-print.c \
	lib/diag-tally.c lib/diag-tally.h

# Unit tests of the model, plain and with ASan+UBSan.
tests_test_model_SOURCES = tests/test-model.c tests/test-common.c tests/test-common.h
tests_test_model_LDADD = libtouchtape.la -lm
check_PROGRAMS += tests/test-model
TESTS += tests/test-model
if HAVE_SANITIZERS
tests_test_model_san_SOURCES = $(tests_test_model_SOURCES)
tests_test_model_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
tests_test_model_san_LDADD = libtouchtape-san.la -lm
tests_test_model_san_LDFLAGS = $(SANITIZE_FLAGS)
check_PROGRAMS += tests/test-model-san
TESTS += tests/test-model-san
endif

# The detectors over every sample and corpus file (every command agreeing)
# and under SYN_DROPPED made on purpose in the VM.
tt_model_tests = tests/diag-consistency.sh tests/diag-drop-vm.sh tests/diag-noloss-vm.sh
TESTS += $(tt_model_tests)
EXTRA_DIST += $(tt_model_tests) tests/diag-consistency.py tests/diag-drop-guest.py \
	tests/diag-noloss-guest.py

# The HID layer of the model and its diagnostics on a real descriptor
# with hand-made reports, plain and with ASan+UBSan.
lib_tests_test_model_hid_SOURCES = lib/tests/test-model-hid.c tests/test-common.c tests/test-common.h
lib_tests_test_model_hid_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
lib_tests_test_model_hid_LDADD = libtouchtape.la -lm
check_PROGRAMS += lib/tests/test-model-hid
TESTS += lib/tests/test-model-hid
if HAVE_SANITIZERS
lib_tests_test_model_hid_san_SOURCES = $(lib_tests_test_model_hid_SOURCES)
lib_tests_test_model_hid_san_CPPFLAGS = $(lib_tests_test_model_hid_CPPFLAGS)
lib_tests_test_model_hid_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
lib_tests_test_model_hid_san_LDADD = libtouchtape-san.la -lm
lib_tests_test_model_hid_san_LDFLAGS = $(SANITIZE_FLAGS)
check_PROGRAMS += lib/tests/test-model-hid-san
TESTS += lib/tests/test-model-hid-san
endif

# The libinput layer's model (lib/model-li.c) on the samples' kernel layers.
tests_test_model_li_SOURCES = tests/test-model-li.c tests/test-common.c tests/test-common.h
tests_test_model_li_LDADD = libtouchtape.la -lm
check_PROGRAMS += tests/test-model-li
TESTS += tests/test-model-li
if HAVE_SANITIZERS
tests_test_model_li_san_SOURCES = $(tests_test_model_li_SOURCES)
tests_test_model_li_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
tests_test_model_li_san_LDADD = libtouchtape-san.la -lm
tests_test_model_li_san_LDFLAGS = $(SANITIZE_FLAGS)
check_PROGRAMS += tests/test-model-li-san
TESTS += tests/test-model-li-san
endif

# The Wayland layer's model (lib/model-wl.c): the link and the protocol
# rules on hand-made records, plain and with ASan+UBSan.
lib_tests_test_model_wl_SOURCES = lib/tests/test-model-wl.c tests/test-common.c tests/test-common.h
lib_tests_test_model_wl_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
lib_tests_test_model_wl_LDADD = libtouchtape.la -lm
check_PROGRAMS += lib/tests/test-model-wl
TESTS += lib/tests/test-model-wl
if HAVE_SANITIZERS
lib_tests_test_model_wl_san_SOURCES = $(lib_tests_test_model_wl_SOURCES)
lib_tests_test_model_wl_san_CPPFLAGS = $(lib_tests_test_model_wl_CPPFLAGS)
lib_tests_test_model_wl_san_CFLAGS = $(AM_CFLAGS) $(SANITIZE_FLAGS)
lib_tests_test_model_wl_san_LDADD = libtouchtape-san.la -lm
lib_tests_test_model_wl_san_LDFLAGS = $(SANITIZE_FLAGS)
check_PROGRAMS += lib/tests/test-model-wl-san
TESTS += lib/tests/test-model-wl-san
endif
