# The command-line core: the dispatcher, the options every reading
# command shares and the outputs that never destroy an input. Each
# command's folder appends its own sources to touchtape_sources.
touchtape_sources = \
	cli/touchtape.c cli/commands.c cli/commands.h cli/option-check.c \
	cli/output.c cli/output.h \
	cli/read-options.c cli/read-options.h \
	cli/run-command.c cli/run-command.h \
	cli/spool.c cli/spool.h
# What validate, analyze and inspect all print: the detectors' numbers and
# a device's surroundings, as text and JSON.
tt_print_sources = cli/detect-print.c cli/surroundings-print.c cli/surroundings-print.h
touchtape_sources += $(tt_print_sources)
# A file through the layer stack, for commands (and tests) that want only
# its diagnostics and numbers.
tt_stack_run_sources = cli/stack-run.c cli/stack-run.h
touchtape_sources += $(tt_stack_run_sources)
EXTRA_DIST += cli/demo.sh cli/demo-guest.sh
dist_man_MANS += man/touchtape.1

# What every command shares: the basics, the exit statuses and option
# letters, outputs that never destroy an input or a previous file.
tt_cli_tests = cli/tests/cli-basics.sh cli/tests/options-convention.sh cli/tests/output-safety.sh \
	cli/tests/no-wrong-output.sh
TESTS += $(tt_cli_tests)
EXTRA_DIST += $(tt_cli_tests)

# The whole program built with ASan+UBSan, for the VM tests that run the
# kernel and X paths under the sanitizers (record/tests/vm-san.sh).
# touchtape_sources is complete by the time automake expands it: the other
# directories' local.mk append their commands to it.
if HAVE_SANITIZERS
check_PROGRAMS += touchtape-san
touchtape_san_SOURCES = $(touchtape_sources)
touchtape_san_CPPFLAGS = $(touchtape_CPPFLAGS)
touchtape_san_CFLAGS = $(AM_CFLAGS) $(X11_CFLAGS) $(XI_CFLAGS) $(NCURSES_CFLAGS) $(LIBINPUT_CFLAGS) $(SANITIZE_FLAGS)
touchtape_san_LDFLAGS = $(SANITIZE_FLAGS)
touchtape_san_LDADD = libtouchtape-san.la $(X11_LIBS) $(XI_LIBS) $(NCURSES_LIBS) $(LIBINPUT_LIBS) -lm
endif
