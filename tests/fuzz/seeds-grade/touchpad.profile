# touchtape grading profile: a Windows Precision Touchpad.
# Limits of Microsoft's Precision Touchpad requirements as the HLK/HCK
# touchpad tests check them. Units: each metric's own
# (touchtape-analyze(1), GRADING).
name = touchpad
title = Windows Precision Touchpad (Microsoft touchpad requirements, HLK)
source = Microsoft, Windows Hardware Certification Requirements, Device.Input.Digitizer.PrecisionTouchpad (report rate, contacts, jitter, edges)
source = Microsoft, Windows Precision Touchpad device implementation guide

# At least 125 Hz with one contact, 100 Hz with the most contacts, and no
# more than 250 Hz.
report-rate.max = 250 Hz
report-rate-one-contact.min = 125 Hz
report-rate-most-contacts.min = 100 Hz

# A finger held still: no movement beyond 0.5 mm.
stationary-jitter.max = 0.5 mm

# Contacts detected within 2 mm of every edge.
edge-reach.max = 2 mm

# Three to five contacts.
max-contacts.min = 3
max-contacts.max = 5
