# Small converted recordings (samples/README.md: origins, licences, commands).
tt_samples = \
	samples/3m-two-finger.jsonl \
	samples/ntrig-type-a.jsonl \
	samples/touchpad-two-finger-swipe.jsonl
EXTRA_DIST += $(tt_samples) samples/README.md
