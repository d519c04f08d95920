libtouchtape_sources += \
	formats/json-get.c formats/json-get.h \
	formats/linebuf.c formats/linebuf.h \
	formats/reader.c formats/reader.h formats/reader-private.h \
	formats/timeline-reader.c \
	formats/timeline-writer.c formats/writer.h \
	formats/import-pending.c
EXTRA_DIST += formats/timeline.md formats/timeline.schema.json
dist_pkgdata_DATA = formats/timeline.schema.json
