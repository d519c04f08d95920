# touchtape grading profile: a Windows touchscreen.
# Limits of Microsoft's hardware certification requirements for touch
# digitizers (Device.Input.Digitizer.Touch.*) as the HLK digitizer tests
# check them. Units: each metric's own (touchtape-analyze(1), GRADING).
name = touchscreen
title = Windows touchscreen (Microsoft touch digitizer requirements, HLK)
source = Microsoft, Windows Hardware Certification Requirements, Device.Input.Digitizer.Touch (report rate, jitter, linearity, contacts, latency)
source = Microsoft HLK, Windows Touch Digitizer Jitter Test (at most 1 mm over 10 mm of travel)

# At least the display's refresh rate (--refresh, 60 Hz unless given),
# at most 250 Hz.
report-rate.min = refresh
report-rate.max = 250 Hz

# A finger held still: within 0.5 mm.
stationary-jitter.max = 0.5 mm

# A straight stroke: within 1 mm of its line (2 mm near the edges, which
# touchtape does not tell apart: the stricter limit is graded).
linearity-max.max = 1 mm

# At least five simultaneous contacts.
max-contacts.min = 5

# Down latency of an active device: at most 35 ms (informative: the
# recording measures hid-to-kernel, not the panel's own delay).
