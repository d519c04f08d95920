# touchtape regress: a directory of recordings run as a regression suite
# (replay, record again, diff per case), TAP 14 and JUnit XML for CI.
touchtape_sources += \
	regress/cmd-regress.c regress/regress.h regress/cases.c regress/sidecar.c \
	regress/run-case.c regress/report.c regress/vm.c regress/kernels.c \
	regress/services.c regress/bless.c
dist_man_MANS += man/touchtape-regress.1
# --vm runs the rig of the tree touchtape was built from (not installed).
AM_CPPFLAGS += -DTT_VM_RIG='"$(abs_top_srcdir)/tests/vm/run"'

tt_regress_tests = \
	regress/tests/regress-suite.sh \
	regress/tests/regress-kernels.sh \
	regress/tests/regress-trouble.sh \
	regress/tests/regress-vm.sh \
	regress/tests/regress-kinds-vm.sh \
	regress/tests/regress-nobody-vm.sh \
	regress/tests/regress-kernels-vm.sh \
	regress/tests/regress-ci.sh
TESTS += $(tt_regress_tests)
EXTRA_DIST += $(tt_regress_tests) regress/tests/junit.xsd regress/tests/ci-examples.py \
	regress/tests/lib.sh \
	regress/tests/data/README.md \
	regress/tests/data/touchtape-touchpad.expected.jsonl \
	regress/tests/data/libinput-3m-two-finger.jsonl.gz \
	regress/tests/data/wayland-3m-two-finger.jsonl.gz \
	regress/tests/data/wayland-3m-two-finger.expected.jsonl.gz
