#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Test helper, a second reader independent of touchtape: reads raw
# struct input_event from an evdev node until the device goes away and
# prints the state it saw: per frame active slots and BTN_TOUCH, and at the
# end (just before the device was destroyed) the last state.
#   evstate.py /dev/input/eventN [READY_FILE] > state.txt
# READY_FILE is created once the node is open.
import os, struct, sys

FMT = "llHHi"
SIZE = struct.calcsize(FMT)
EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
SYN_REPORT, SYN_DROPPED = 0, 3
BTN_TOUCH, ABS_MT_SLOT, ABS_MT_TRACKING_ID = 0x14a, 0x2f, 0x39

fd = os.open(sys.argv[1], os.O_RDONLY)
if len(sys.argv) > 2:
    open(sys.argv[2], "w").close()
slot, tids, touch, keys = 0, {}, 0, set()
frames, first_active, max_active, history, dropped = 0, None, 0, [], 0
buf = b""
while True:
    try:
        data = os.read(fd, SIZE * 64)
    except OSError:
        break
    if not data:
        break
    buf += data
    while len(buf) >= SIZE:
        _, _, t, c, v = struct.unpack(FMT, buf[:SIZE])
        buf = buf[SIZE:]
        if t == EV_ABS and c == ABS_MT_SLOT:
            slot = v
        elif t == EV_ABS and c == ABS_MT_TRACKING_ID:
            tids[slot] = v
        elif t == EV_KEY:
            if c == BTN_TOUCH:
                touch = v
            if v:
                keys.add(c)
            else:
                keys.discard(c)
        elif t == EV_SYN and c == SYN_DROPPED:
            dropped += 1    # this reader fell behind: its state may be stale
        elif t == EV_SYN and c == SYN_REPORT:
            frames += 1
            active = sum(1 for x in tids.values() if x >= 0)
            if first_active is None:
                first_active = active
            max_active = max(max_active, active)
            history.append((active, touch))
active = sum(1 for x in tids.values() if x >= 0)
print("frames=%d" % frames)
print("first_frame_active=%s" % first_active)
print("max_active=%d" % max_active)
print("active_before_last_frame=%d" % (history[-2][0] if len(history) > 1 else -1))
print("active_at_end=%d" % active)
print("btn_touch_at_end=%d" % touch)
print("keys_down_at_end=%d" % len(keys))
print("dropped=%d" % dropped)
print("touch_downs=%d" % sum(1 for i, h in enumerate(history) if h[1] and (i == 0 or not history[i - 1][1])))
