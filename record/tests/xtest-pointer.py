#!/usr/bin/env python3
# Moves the X pointer and clicks button 1 through XTest, by ctypes (no
# python3-xlib needed; libXtst comes with x11-utils): the input Weston's
# X11 backend turns into wl_pointer events for record-wayland.sh.
# Usage: xtest-pointer.py DISPLAY X Y
import ctypes
import sys
import time

x11 = ctypes.CDLL("libX11.so.6")
xtst = ctypes.CDLL("libXtst.so.6")
x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
x11.XFlush.argtypes = [ctypes.c_void_p]
x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
xtst.XTestFakeMotionEvent.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                      ctypes.c_ulong]
xtst.XTestFakeButtonEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]

dpy = x11.XOpenDisplay(sys.argv[1].encode())
if not dpy:
    sys.exit("xtest-pointer: cannot open display " + sys.argv[1])
x, y = int(sys.argv[2]), int(sys.argv[3])
# Two motions: the first may only bring the pointer into the window.
for dx in (0, 10):
    xtst.XTestFakeMotionEvent(dpy, -1, x + dx, y, 0)
    x11.XFlush(dpy)
    time.sleep(0.1)
for press in (1, 0):
    xtst.XTestFakeButtonEvent(dpy, 1, press, 0)
    x11.XFlush(dpy)
    time.sleep(0.1)
x11.XCloseDisplay(dpy)
