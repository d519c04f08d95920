# The libinput side that record --libinput and replay --libinput share:
# the libinput context on the live devices, its events as timeline
# records, and the configuration it reports and applies.
touchtape_sources += \
	libinput/li-capture.c libinput/li-capture.h \
	libinput/li-config.c libinput/li-private.h \
	libinput/li-source.c libinput/li-source.h
