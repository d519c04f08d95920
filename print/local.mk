# touchtape print and touchtape validate: a recording line by line, as
# text (or live from a device, like evtest) and checked against the
# format and its semantics.
touchtape_sources += \
	print/cmd-print.c print/print-private.h print/cmd-validate.c \
	print/validate-privacy.c print/validate-privacy.h
dist_man_MANS += man/touchtape-print.1 man/touchtape-validate.1

tt_print_tests = \
	print/tests/cli-validate.sh \
	print/tests/privacy.sh \
	print/tests/print-times.sh \
	print/tests/print-plurals.sh \
	print/tests/print-hid.sh \
	print/tests/print-live-cli.sh \
	print/tests/print-live-vm.sh \
	print/tests/print-hid-vm.sh
TESTS += $(tt_print_tests)
EXTRA_DIST += $(tt_print_tests)
