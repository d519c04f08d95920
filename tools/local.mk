touchtape_sources = \
	tools/touchtape.c tools/commands.c tools/commands.h \
	tools/cmd-print.c tools/cmd-validate.c \
	tools/cmd-analyze.c tools/cmd-diff.c \
	tools/cmd-convert.c
EXTRA_DIST += tools/demo.sh tools/demo-guest.sh
