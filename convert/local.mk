# touchtape convert: between the timeline, evemu, libinput record and hid-recorder,
# and to a Trace Event Format trace (convert/trace*.c, on the layer stack)
# (the readers and writers themselves are in formats/).
touchtape_sources += \
	convert/cmd-convert.c convert/convert-trace.c convert/convert-trace.h \
	convert/trace.c convert/trace.h convert/trace-private.h convert/trace-touches.c \
	convert/trace-writer.c convert/trace-writer.h
dist_man_MANS += man/touchtape-convert.1

TESTS += convert/tests/convert-evemu-corpus.sh convert/tests/convert-cli.sh \
	convert/tests/convert-libinput.sh convert/tests/convert-hidrec.sh \
	convert/tests/convert-from-state.sh convert/tests/roundtrip-nothing-invented.sh \
	convert/tests/convert-trace.sh
EXTRA_DIST += convert/tests/convert-evemu-corpus.sh convert/tests/convert-cli.sh \
	convert/tests/convert-libinput.sh convert/tests/convert-vm-guest.sh \
	convert/tests/convert-hidrec.sh convert/tests/convert-from-state.sh \
	convert/tests/roundtrip-nothing-invented.sh \
	convert/tests/convert-trace.sh convert/tests/trace-check.py
