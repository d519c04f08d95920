# touchtape grading profile: the ChromeOS touch firmware tests.
# Limits of the validators of ChromiumOS's touch firmware test
# (touch_firmware_test), without their fuzzy tolerance. Units: each
# metric's own (touchtape-analyze(1), GRADING).
name = chromeos
title = ChromeOS touch firmware tests (touch_firmware_test validators)
source = ChromiumOS, touch_firmware_test: ReportRateValidator, LinearityValidator, NoGapValidator, NoReversedMotionValidator, RangeValidator, StationaryFingerValidator

report-rate.min = 60 Hz
stationary-jitter.max = 1 mm
linearity-max.max = 2 mm
linearity-rms.max = 0.5 mm
reversed-motion.max = 1 mm
gap-ratio.max = 1.8
edge-reach.max = 0.5 mm
