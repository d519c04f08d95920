libtouchtape_sources += \
	lib/bitmap.h \
	lib/checker.c lib/checker.h \
	lib/diag.c lib/diag.h \
	lib/device.c \
	lib/evnames.c lib/evnames.h \
	lib/json-emit.c lib/json-emit.h \
	lib/li-names.c \
	lib/log.c lib/log.h \
	lib/timeline.h \
	lib/util-mem.c lib/util-mem.h \
	lib/util-plural.h \
	lib/util-strings.c lib/util-strings.h \
	lib/util-time.h \
	lib/xi-names.c lib/xi-names.h
