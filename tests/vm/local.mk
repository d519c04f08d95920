# Automake fragment for the VM test rig; included from the top-level
# (non-recursive, subdir-objects) Makefile.am.  Paths are relative to the
# top source directory.  The top Makefile.am's AM_TESTS_ENVIRONMENT exports
# top_srcdir, top_builddir, abs_top_srcdir, abs_top_builddir and TT_VM_CACHE.

vm_rig_files = \
	tests/vm/run \
	tests/vm/mkcache \
	tests/vm/guest-init \
	tests/vm/guest-inner \
	tests/vm/guest-xorg \
	tests/vm/xorg-static \
	tests/vm/lib.sh \
	tests/vm/group \
	tests/vm/times \
	tests/vm/README.md \
	tests/vm/data/touchscreen.desc \
	tests/vm/data/two-finger.events \
	tests/vm/data/two-finger.expected

# The smoke tests run in one boot (smoke.sh); each also runs alone.
vm_tests = tests/vm/smoke.sh
vm_group_members = \
	tests/vm/smoke-uinput.sh \
	tests/vm/smoke-xorg.sh

EXTRA_DIST += $(vm_rig_files) $(vm_tests) $(vm_group_members)
TESTS += $(vm_tests)

check_PROGRAMS += tests/vm/xi-ownership-probe
tests_vm_xi_ownership_probe_SOURCES = tests/vm/xi-ownership-probe.c
tests_vm_xi_ownership_probe_CFLAGS = $(AM_CFLAGS) $(X11_CFLAGS) $(XI_CFLAGS)
tests_vm_xi_ownership_probe_LDADD = $(X11_LIBS) $(XI_LIBS)

# Every test that boots a VM, longest first (measured; tests/vm/README.md).
# A *-vm.sh missing here joins the end of the list by its name.
tt_vm_serial_tests = \
	record/tests/vm-san.sh \
	record/tests/xi-vm.sh \
	tests/docs-examples.sh \
	replay/tests/vm-replay.sh \
	record/tests/vm-record.sh \
	record/tests/kill-vm.sh \
	replay/tests/stuck-vm.sh \
	replay/tests/real-vm.sh \
	print/tests/print-live-vm.sh \
	convert/tests/convert-libinput.sh \
	tests/hostile-replay-vm.sh \
	tests/hostile-devices-vm.sh \
	tests/diag-drop-vm.sh \
	analyze/tests/diff-replay-vm.sh \
	record/tests/picker-vm.sh \
	tests/vm/smoke.sh

# make check -j2: the VM tests run one after the other in a single job slot
# while the other slots take the host tests. Only one VM runs at a time
# (tests/vm/run's lock), so a second VM test in a slot of its own would
# only wait there, and the host tests with it. The first VM test's log
# starts a serial sub-make (-j1) for all of this run's VM logs, in the
# order above; in this make their logs wait for it and do nothing more.
tt_vm_logs = $(foreach t,$(tt_vm_serial_tests:.sh=.log),$(filter $(t),$(TEST_LOGS))) \
	$(filter-out $(tt_vm_serial_tests:.sh=.log),$(filter %-vm.log,$(TEST_LOGS)))
tt_vm_waiting_logs = $(if $(TT_VM_SERIAL_MAKE),,$(tt_vm_logs))
$(tt_vm_waiting_logs): tt-vm-serial ; @:
tt-vm-serial:
	+@$(MAKE) $(AM_MAKEFLAGS) -j1 TT_VM_SERIAL_MAKE=1 $(tt_vm_logs)

# Only the tests that boot a VM.  KERNEL_DEB=/path/linux-image-*.deb picks
# another kernel.
check-vm:
	$(MAKE) $(AM_MAKEFLAGS) check TESTS="$(filter $(tt_vm_serial_tests) %-vm.sh,$(TESTS))"

# Download the kernel and build the initramfs ahead of time (optional: the
# tests do it on first use).
prepare-vm:
	TT_VM_CACHE="$${TT_VM_CACHE:-$(abs_top_builddir)/vm-cache}" $(top_srcdir)/tests/vm/mkcache

.PHONY: check-vm prepare-vm tt-vm-serial
