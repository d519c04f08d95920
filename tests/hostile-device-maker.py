#!/usr/bin/python3
"""Creates a uinput touchscreen whose name is hostile, touches it once, and
keeps it until stdin closes. Used by tests/hostile-devices-vm.sh.

The name is given as hex on the command line so any byte can be in it:
escape sequences, newlines, printf directives, and UTF-8 cut short by the
kernel's 80-byte limit."""
import sys
import time

import libevdev

name = bytes.fromhex(sys.argv[1])
dev = libevdev.Device()
# python-libevdev encodes the name as ISO 8859-1, so decoding the raw
# bytes the same way hands them through unchanged.
dev.name = name.decode("iso8859-1")
dev.enable(libevdev.INPUT_PROP_DIRECT)
dev.enable(libevdev.EV_KEY.BTN_TOUCH)
for code, maximum in ((libevdev.EV_ABS.ABS_X, 1000), (libevdev.EV_ABS.ABS_Y, 1000),
                      (libevdev.EV_ABS.ABS_MT_SLOT, 1),
                      (libevdev.EV_ABS.ABS_MT_POSITION_X, 1000),
                      (libevdev.EV_ABS.ABS_MT_POSITION_Y, 1000),
                      (libevdev.EV_ABS.ABS_MT_TRACKING_ID, 65535)):
    dev.enable(code, libevdev.InputAbsInfo(minimum=0, maximum=maximum))
uinput = dev.create_uinput_device()
print(uinput.devnode, flush=True)

# Wait for the go, then touch once so a recording has a frame.
sys.stdin.readline()
E = libevdev.InputEvent
C = libevdev.EV_ABS
uinput.send_events([E(C.ABS_MT_SLOT, 0), E(C.ABS_MT_TRACKING_ID, 1), E(C.ABS_MT_POSITION_X, 100),
                    E(C.ABS_MT_POSITION_Y, 200), E(libevdev.EV_KEY.BTN_TOUCH, 1),
                    E(C.ABS_X, 100), E(C.ABS_Y, 200), E(libevdev.EV_SYN.SYN_REPORT, 0)])
time.sleep(0.05)
uinput.send_events([E(C.ABS_MT_TRACKING_ID, -1), E(libevdev.EV_KEY.BTN_TOUCH, 0),
                    E(libevdev.EV_SYN.SYN_REPORT, 0)])
sys.stdin.readline()
