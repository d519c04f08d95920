# Host unit tests: pure logic, no devices. Each also runs as an ASan+UBSan
# build (the *-san programs) when the compiler supports it.
tt_unit_tests = \
	tests/test-strings \
	tests/test-reader \
	tests/test-writer \
	tests/test-checker \
	tests/test-fastpath \
	tests/test-linebuf \
	tests/test-json-emit

tests_common_sources = tests/test-common.c tests/test-common.h

tests_test_strings_SOURCES = tests/test-strings.c $(tests_common_sources)
tests_test_reader_SOURCES = tests/test-reader.c $(tests_common_sources)
tests_test_writer_SOURCES = tests/test-writer.c $(tests_common_sources)
tests_test_checker_SOURCES = tests/test-checker.c $(tt_stack_run_sources) $(tests_common_sources)
tests_test_fastpath_SOURCES = tests/test-fastpath.c $(tests_common_sources)
tests_test_linebuf_SOURCES = tests/test-linebuf.c $(tests_common_sources)
tests_test_json_emit_SOURCES = tests/test-json-emit.c $(tests_common_sources)

check_PROGRAMS += $(tt_unit_tests)
TESTS += $(tt_unit_tests)
tt_test_ldadd = libtouchtape.la -lm
tests_test_strings_LDADD = $(tt_test_ldadd)
tests_test_reader_LDADD = $(tt_test_ldadd)
tests_test_writer_LDADD = $(tt_test_ldadd)
tests_test_checker_LDADD = $(tt_test_ldadd)
tests_test_fastpath_LDADD = $(tt_test_ldadd)
tests_test_linebuf_LDADD = $(tt_test_ldadd)
tests_test_json_emit_LDADD = $(tt_test_ldadd)

if HAVE_SANITIZERS
check_LTLIBRARIES = libtouchtape-san.la
libtouchtape_san_la_SOURCES = $(libtouchtape_sources)
libtouchtape_san_la_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS) $(YAML_CFLAGS) $(ZLIB_CFLAGS) $(SANITIZE_FLAGS)
libtouchtape_san_la_LIBADD = $(LIBEVDEV_LIBS) $(JSONC_LIBS) $(YAML_LIBS) $(ZLIB_LIBS) -lm

check_PROGRAMS += tests/test-strings-san tests/test-reader-san tests/test-writer-san tests/test-checker-san tests/test-fastpath-san tests/test-json-emit-san
TESTS += tests/test-strings-san tests/test-reader-san tests/test-writer-san tests/test-checker-san tests/test-fastpath-san tests/test-json-emit-san
tt_san_cflags = $(AM_CFLAGS) $(SANITIZE_FLAGS)
tt_san_ldadd = libtouchtape-san.la -lm
tt_san_ldflags = $(SANITIZE_FLAGS)
tests_test_strings_san_SOURCES = $(tests_test_strings_SOURCES)
tests_test_strings_san_CFLAGS = $(tt_san_cflags)
tests_test_strings_san_LDADD = $(tt_san_ldadd)
tests_test_strings_san_LDFLAGS = $(tt_san_ldflags)
tests_test_reader_san_SOURCES = $(tests_test_reader_SOURCES)
tests_test_reader_san_CFLAGS = $(tt_san_cflags)
tests_test_reader_san_LDADD = $(tt_san_ldadd)
tests_test_reader_san_LDFLAGS = $(tt_san_ldflags)
tests_test_writer_san_SOURCES = $(tests_test_writer_SOURCES)
tests_test_writer_san_CFLAGS = $(tt_san_cflags)
tests_test_writer_san_LDADD = $(tt_san_ldadd)
tests_test_writer_san_LDFLAGS = $(tt_san_ldflags)
tests_test_checker_san_SOURCES = $(tests_test_checker_SOURCES)
tests_test_checker_san_CFLAGS = $(tt_san_cflags)
tests_test_checker_san_LDADD = $(tt_san_ldadd)
tests_test_checker_san_LDFLAGS = $(tt_san_ldflags)
tests_test_fastpath_san_SOURCES = $(tests_test_fastpath_SOURCES)
tests_test_fastpath_san_CFLAGS = $(tt_san_cflags)
tests_test_fastpath_san_LDADD = $(tt_san_ldadd)
tests_test_fastpath_san_LDFLAGS = $(tt_san_ldflags)
tests_test_json_emit_san_SOURCES = $(tests_test_json_emit_SOURCES)
tests_test_json_emit_san_CFLAGS = $(tt_san_cflags)
tests_test_json_emit_san_LDADD = $(tt_san_ldadd)
tests_test_json_emit_san_LDFLAGS = $(tt_san_ldflags)
endif

# The helpers every shell test sources, and the data they share; the
# corpus tests' recordings (tests/corpus/README.md), whole folder (names
# with spaces).
EXTRA_DIST += tests/lib.sh tests/data tests/corpus

# evemu events-only files without their description.
TESTS += tests/evemu-events-only.sh
EXTRA_DIST += tests/evemu-events-only.sh

# Hostile device names, in the VM.
TESTS += tests/hostile-devices-vm.sh
EXTRA_DIST += tests/hostile-devices-vm.sh tests/hostile-device-maker.py

# Hostile recordings (made at test time) through every command that
# reads files, plain and sanitized.
if HOSTILE_TESTS
TESTS += tests/hostile-recordings.sh
endif
EXTRA_DIST += tests/hostile-recordings.sh tests/hostile-recordings.py
TESTS += tests/san-fixtures.sh
EXTRA_DIST += tests/san-fixtures.sh

# Replay of invalid recordings in the VM: refused, no device created.
TESTS += tests/hostile-replay-vm.sh
EXTRA_DIST += tests/hostile-replay-vm.sh tests/hostile-replay-guest.sh

# valgrind over every command that reads files (samples, some corpus).
if HOSTILE_TESTS
TESTS += tests/leaks.sh
endif
EXTRA_DIST += tests/leaks.sh

# Documentation that matches the program: options of --help against the
# man pages, every example of README.md and the man pages run (host ones
# here, device ones in one VM boot), samples/README.md's facts, and the
# bash completion.
TESTS += \
	tests/docs-options.sh tests/docs-claims.sh \
	tests/docs-examples.sh \
	tests/docs-samples.sh \
	tests/docs-completion.sh
EXTRA_DIST += \
	tests/docs-options.sh tests/docs-options.py tests/docs-claims.sh tests/docs-claims.py \
	tests/docs-examples.sh tests/docs-examples.py \
	tests/docs-samples.sh tests/docs-completion.sh
# Reading BOM, CRLF and gzip recordings in every format, writing .gz, and
# hostile gzip input.
TESTS += tests/read-variants.sh
if HOSTILE_TESTS
TESTS += tests/gz-hostile.sh
endif
EXTRA_DIST += tests/read-variants.sh tests/gz-hostile.sh
# No production function over complexity 30 or 80 lines (pmccabe).
TESTS += tests/complexity.sh
EXTRA_DIST += tests/complexity.sh

# Both layers end to end in the VM: a corpus touchscreen replayed through
# uhid and recorded with --hid; validate, analyze, print and inspect show
# the HID contacts linked to the kernel touches; that recording replayed
# at the HID layer makes the same touches again (diff, --verify).
TESTS += tests/hid-layers-vm.sh
EXTRA_DIST += tests/hid-layers-vm.sh

# The Wayland layer end to end in one VM boot with Weston and Xwayland
# (tests/vm/run --xwayland): replayed touches reach a Wayland client as
# wl_touch, a corpus pinch through libinput, record --wayland linked to
# the kernel touches, beside --xi on Xwayland, and Weston killed.
TESTS += tests/wayland-vm.sh
EXTRA_DIST += tests/wayland-vm.sh tests/wayland-vm-check.py

# The same layer under sway (tests/vm/run --sway), the compositor with
# pointer gestures: a corpus touchpad pinch reaches record --wayland as
# zwp_pointer_gestures_v1 pinch events, and touchscreen touches as wl_touch.
TESTS += tests/wayland-sway-vm.sh
EXTRA_DIST += tests/wayland-sway-vm.sh tests/wayland-sway-vm-check.py
