#!/usr/bin/env python3
# A long 10-finger recording for measuring the inspector (not part of
# make check): python3 gen-hour.py SECONDS > hour.jsonl
# 125 Hz frames on a Type B screen; ten fingers that go down and up in
# overlapping strokes of about two seconds, each frame moving every finger
# (X, Y, pressure, touch major), about 40 events per frame.
import sys

secs = int(sys.argv[1]) if len(sys.argv) > 1 else 3600
w = sys.stdout.write
w('{"format":"touchtape-timeline","version":1,"tool":"gen-hour.py","start":{"monotonic_us":0,"realtime_us":0}}\n')
w('{"type":"device","id":0,"name":"Perf Touchscreen","input_id":{"bustype":24,"vendor":1,"product":2,"version":1},'
  '"properties":["INPUT_PROP_DIRECT"],"codes":{"EV_SYN":["SYN_REPORT"],"EV_KEY":["BTN_TOUCH"],'
  '"EV_ABS":["ABS_X","ABS_Y","ABS_MT_SLOT","ABS_MT_TOUCH_MAJOR","ABS_MT_POSITION_X","ABS_MT_POSITION_Y","ABS_MT_TRACKING_ID","ABS_MT_PRESSURE"]},'
  '"absinfo":{"ABS_X":{"min":0,"max":4095,"resolution":10},"ABS_Y":{"min":0,"max":4095,"resolution":10},'
  '"ABS_MT_SLOT":{"min":0,"max":9},"ABS_MT_TOUCH_MAJOR":{"min":0,"max":255},'
  '"ABS_MT_POSITION_X":{"min":0,"max":4095,"resolution":10},"ABS_MT_POSITION_Y":{"min":0,"max":4095,"resolution":10},'
  '"ABS_MT_TRACKING_ID":{"min":0,"max":65535},"ABS_MT_PRESSURE":{"min":0,"max":255}},'
  '"mt":{"protocol":"B","slots":10,"current_slot":0,"state":[]}}\n')
period = 8000
nframes = secs * 1000000 // period
stroke = 250  # frames down, then 2 frames up
tid = 0
ids = [-1] * 10
out = []
for f in range(nframes):
    t = f * period
    ev = []
    for s in range(10):
        phase = (f + s * 25) % (stroke + 2)
        ev.append("[3,47,%d]" % s)
        if phase == 0:
            tid += 1
            ids[s] = tid
            ev.append("[3,57,%d]" % tid)
        elif phase == stroke:
            ids[s] = -1
            ev.append("[3,57,-1]")
            continue
        elif phase > stroke:
            ev.pop()
            continue
        x = 200 + s * 340 + phase * 3
        y = 300 + (phase * 11) % 3000
        ev.append("[3,53,%d],[3,54,%d],[3,58,%d],[3,48,%d]" % (x, y, 30 + phase % 50, 5 + phase % 7))
    ev.append("[0,0,0]")
    out.append('{"type":"frame","dev":0,"t":%d,"ev":[%s]}\n' % (t, ",".join(ev)))
    if len(out) >= 4096:
        w("".join(out))
        out = []
w("".join(out))
