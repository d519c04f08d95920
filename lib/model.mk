# The touch-sequence model and its detectors, shared by validate, analyze,
# diff, replay --verify and the inspector.
libtouchtape_sources += \
	lib/model.c lib/model.h lib/model-private.h \
	lib/model-type-a.c lib/model-single.c \
	lib/model-krefs.c lib/model-krefs.h \
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
