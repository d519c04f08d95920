# The live-device side that record, print and replay --verify share: the
# event loop (epoll, signalfd, timers), the evdev capture with its
# SYN_DROPPED resync, and the mask that keeps typed keys out of files.
touchtape_evdev_capture_sources = \
	evdev/evdev-capture.c evdev/evdev-capture.h \
	evdev/keymask.c evdev/keymask.h
touchtape_sources += $(touchtape_evdev_capture_sources) \
	evdev/event-loop.c evdev/event-loop.h
