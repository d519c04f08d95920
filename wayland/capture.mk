# touchtape record --wayland: the Wayland client (wayland/wl-capture.c) and
# the protocol code wayland-scanner generates from wayland-protocols' XML.
# Generated at build time into the build tree (protocol/), never
# distributed: the XML belongs to the system's wayland-protocols, except
# wlroots' layer-shell, which no Debian package ships: touchtape's own
# description of its version 1 is wayland/wlr-layer-shell-unstable-v1.xml.
# Included at the end of Makefile.am, after touchtape's own variables.
wl_protocol_xml = \
	$(WAYLAND_PROTOCOLS_DIR)/stable/xdg-shell/xdg-shell.xml \
	$(WAYLAND_PROTOCOLS_DIR)/unstable/pointer-gestures/pointer-gestures-unstable-v1.xml \
	$(WAYLAND_PROTOCOLS_DIR)/unstable/input-timestamps/input-timestamps-unstable-v1.xml
wl_protocol_headers = \
	protocol/wlr-layer-shell-unstable-v1-client-protocol.h \
	protocol/xdg-shell-client-protocol.h \
	protocol/pointer-gestures-unstable-v1-client-protocol.h \
	protocol/input-timestamps-unstable-v1-client-protocol.h
wl_protocol_sources = $(wl_protocol_headers) \
	protocol/xdg-shell-protocol.c \
	protocol/wlr-layer-shell-unstable-v1-protocol.c \
	protocol/pointer-gestures-unstable-v1-protocol.c \
	protocol/input-timestamps-unstable-v1-protocol.c

BUILT_SOURCES += $(wl_protocol_sources)
CLEANFILES += $(wl_protocol_sources)

protocol/%-protocol.c: $(WAYLAND_PROTOCOLS_DIR)/stable/xdg-shell/%.xml
	$(AM_V_GEN)$(MKDIR_P) protocol && $(WAYLAND_SCANNER) private-code $< $@
protocol/%-client-protocol.h: $(WAYLAND_PROTOCOLS_DIR)/stable/xdg-shell/%.xml
	$(AM_V_GEN)$(MKDIR_P) protocol && $(WAYLAND_SCANNER) client-header $< $@
protocol/wlr-layer-shell-%-protocol.c: $(srcdir)/wayland/wlr-layer-shell-%.xml
	$(AM_V_GEN)$(MKDIR_P) protocol && $(WAYLAND_SCANNER) private-code $< $@
protocol/wlr-layer-shell-%-client-protocol.h: $(srcdir)/wayland/wlr-layer-shell-%.xml
	$(AM_V_GEN)$(MKDIR_P) protocol && $(WAYLAND_SCANNER) client-header $< $@
protocol/pointer-gestures-%-protocol.c: $(WAYLAND_PROTOCOLS_DIR)/unstable/pointer-gestures/pointer-gestures-%.xml
	$(AM_V_GEN)$(MKDIR_P) protocol && $(WAYLAND_SCANNER) private-code $< $@
protocol/pointer-gestures-%-client-protocol.h: $(WAYLAND_PROTOCOLS_DIR)/unstable/pointer-gestures/pointer-gestures-%.xml
	$(AM_V_GEN)$(MKDIR_P) protocol && $(WAYLAND_SCANNER) client-header $< $@
protocol/input-timestamps-%-protocol.c: $(WAYLAND_PROTOCOLS_DIR)/unstable/input-timestamps/input-timestamps-%.xml
	$(AM_V_GEN)$(MKDIR_P) protocol && $(WAYLAND_SCANNER) private-code $< $@
protocol/input-timestamps-%-client-protocol.h: $(WAYLAND_PROTOCOLS_DIR)/unstable/input-timestamps/input-timestamps-%.xml
	$(AM_V_GEN)$(MKDIR_P) protocol && $(WAYLAND_SCANNER) client-header $< $@

touchtape_sources += wayland/wl-capture.c wayland/wl-capture.h wayland/wl-input.c wayland/wl-layer.c \
	wayland/wl-private.h wayland/wl-source.c wayland/wl-source.h
EXTRA_DIST += wayland/wlr-layer-shell-unstable-v1.xml
nodist_touchtape_SOURCES = $(wl_protocol_sources)
touchtape_CFLAGS += $(WAYLAND_CFLAGS) -I$(top_builddir)/protocol
touchtape_LDADD += $(WAYLAND_LIBS)
# BUILT_SOURCES covers all, check and install; a build of one target
# (make touchtape) needs the headers before the objects that include them.
wayland/touchtape-wl-capture.$(OBJEXT) wayland/touchtape-wl-input.$(OBJEXT) \
	wayland/touchtape-wl-layer.$(OBJEXT): $(wl_protocol_headers)
if HAVE_SANITIZERS
wayland/touchtape_san-wl-capture.$(OBJEXT) wayland/touchtape_san-wl-input.$(OBJEXT) \
	wayland/touchtape_san-wl-layer.$(OBJEXT): $(wl_protocol_headers)
nodist_touchtape_san_SOURCES = $(wl_protocol_sources)
touchtape_san_CFLAGS += $(WAYLAND_CFLAGS) -I$(top_builddir)/protocol
touchtape_san_LDADD += $(WAYLAND_LIBS)
endif
