# touchtape inspect: the index (one streaming pass over lib/model/model.h), the
# view model (state and rendering to an abstract screen, no curses), the
# curses front end, and the text modes.
touchtape_sources += \
	inspect/cmd-inspect.c \
	inspect/index.c inspect/index.h inspect/index-private.h \
	inspect/index-store.c inspect/index-filter.c inspect/index-kernel.c \
	inspect/index-chains.c \
	inspect/index-query.c \
	inspect/view-model.c inspect/view-model.h inspect/view-private.h \
	inspect/view-lanes.c inspect/view-nav.c inspect/view-keys.c \
	inspect/view-panes.c inspect/view-script.c \
	inspect/summary.c inspect/summary.h \
	inspect/ui.h inspect/ui-curses.c

# Tests: the index and the key handling (plain and ASan+UBSan), golden
# headless screens, the text modes, and a real terminal through tmux.
inspect_tests_test_index_SOURCES = inspect/tests/test-index.c \
	inspect/index.c inspect/index.h inspect/index-private.h \
	inspect/index-store.c inspect/index-filter.c inspect/index-kernel.c xi/index-xi.c \
	hid/index-hid.c libinput/index-li.c wayland/index-wl.c inspect/index-chains.c \
	inspect/index-query.c \
	inspect/view-model.c inspect/view-model.h \
	inspect/view-private.h inspect/view-lanes.c inspect/view-nav.c inspect/view-keys.c \
	inspect/view-panes.c inspect/view-script.c \
	inspect/summary.c inspect/summary.h $(tt_print_sources) $(tests_common_sources)
inspect_tests_test_index_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/inspect -I$(top_srcdir)/tests -I$(top_srcdir)
inspect_tests_test_index_CFLAGS = $(AM_CFLAGS) $(XI_CFLAGS)
inspect_tests_test_index_LDADD = libtouchtape.la -lm
check_PROGRAMS += inspect/tests/test-index
TESTS += inspect/tests/test-index
if HAVE_SANITIZERS
inspect_tests_test_index_san_SOURCES = $(inspect_tests_test_index_SOURCES)
inspect_tests_test_index_san_CPPFLAGS = $(inspect_tests_test_index_CPPFLAGS)
inspect_tests_test_index_san_CFLAGS = $(AM_CFLAGS) $(XI_CFLAGS) $(SANITIZE_FLAGS)
inspect_tests_test_index_san_LDFLAGS = $(SANITIZE_FLAGS)
inspect_tests_test_index_san_LDADD = libtouchtape-san.la -lm
check_PROGRAMS += inspect/tests/test-index-san
TESTS += inspect/tests/test-index-san
endif

TESTS += inspect/tests/cli-inspect.sh inspect/tests/device.sh inspect/tests/headless.sh inspect/tests/tmux.sh \
	inspect/tests/hid.sh inspect/tests/libinput.sh inspect/tests/xi-chains.sh
EXTRA_DIST += inspect/tests/cli-inspect.sh inspect/tests/device.sh inspect/tests/headless.sh inspect/tests/tmux.sh \
	inspect/tests/hid.sh inspect/tests/libinput.sh inspect/tests/xi-chains.sh \
	inspect/tests/gen-data.py inspect/tests/gen-hour.py inspect/tests/gen-hid.py \
	inspect/tests/data/ownership.jsonl inspect/tests/data/hid-two-layer.jsonl \
	inspect/tests/golden/first.txt inspect/tests/golden/ownership.txt \
	inspect/tests/golden/filters.txt inspect/tests/golden/search.txt \
	inspect/tests/golden/help.txt inspect/tests/golden/atmel.txt inspect/tests/golden/hid.txt
dist_man_MANS += man/touchtape-inspect.1
