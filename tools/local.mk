touchtape_sources = \
	tools/touchtape.c tools/commands.c tools/commands.h \
	tools/cmd-print.c tools/cmd-validate.c \
	tools/cmd-analyze.c tools/cmd-diff.c \
	tools/cmd-convert.c \
	tools/output.c tools/output.h \
	tools/read-options.c tools/read-options.h
EXTRA_DIST += tools/demo.sh tools/demo-guest.sh

# The whole program built with ASan+UBSan, for the VM tests that run the
# kernel and X paths under the sanitizers (record/tests/vm-san.sh).
# touchtape_sources is complete by the time automake expands it: the other
# directories' local.mk append their commands to it.
if HAVE_SANITIZERS
check_PROGRAMS += touchtape-san
touchtape_san_SOURCES = $(touchtape_sources)
touchtape_san_CFLAGS = $(AM_CFLAGS) $(X11_CFLAGS) $(XI_CFLAGS) $(NCURSES_CFLAGS) $(SANITIZE_FLAGS)
touchtape_san_LDFLAGS = $(SANITIZE_FLAGS)
touchtape_san_LDADD = libtouchtape-san.la $(X11_LIBS) $(XI_LIBS) $(NCURSES_LIBS) -lm
endif
