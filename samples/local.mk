# Small converted recordings (samples/README.md: origins, licences, commands).
tt_samples = \
	samples/3m-two-finger.jsonl \
	samples/ntrig-type-a.jsonl \
	samples/touchpad-two-finger-swipe.jsonl
EXTRA_DIST += $(tt_samples) samples/README.md
# Kernel + XI recordings made in the VM rig (samples/README.md).
tt_samples += \
	samples/xi-touchscreen-two-finger.jsonl \
	samples/xi-touchscreen-ten-finger.jsonl \
	samples/xi-ownership-reject-after-50.jsonl \
	samples/xi-ownership-accept.jsonl \
	samples/xi-touchpad-synaptics.jsonl
