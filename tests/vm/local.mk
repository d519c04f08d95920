# Automake fragment for the VM test rig; included from the top-level
# (non-recursive, subdir-objects) Makefile.am.  Paths are relative to the
# top source directory.  The top Makefile.am's AM_TESTS_ENVIRONMENT exports
# top_srcdir, top_builddir, abs_top_srcdir, abs_top_builddir and TT_VM_CACHE.

vm_rig_files = \
	tests/vm/run \
	tests/vm/mkcache \
	tests/vm/fetch-kernel \
	tests/vm/guest-init \
	tests/vm/guest-inner \
	tests/vm/guest-xorg \
	tests/vm/guest-weston \
	tests/vm/guest-sway \
	tests/vm/guest-udevd \
	tests/vm/xorg-static \
	tests/vm/lib.sh \
	tests/vm/group \
	tests/vm/times \
	tests/vm/order-check \
	tests/vm/README.md \
	tests/vm/data/touchscreen.desc \
	tests/vm/data/two-finger.events \
	tests/vm/data/two-finger.expected \
	tests/vm/data/weston.ini \
	tests/vm/data/sway.config

vm_tests = \
	tests/vm/smoke-uinput.sh \
	tests/vm/smoke-xorg.sh

EXTRA_DIST += $(vm_rig_files) $(vm_tests)
TESTS += $(vm_tests)

check_PROGRAMS += tests/vm/xi-ownership-probe
tests_vm_xi_ownership_probe_SOURCES = tests/vm/xi-ownership-probe.c
tests_vm_xi_ownership_probe_CFLAGS = $(AM_CFLAGS) $(X11_CFLAGS) $(XI_CFLAGS)
tests_vm_xi_ownership_probe_LDADD = $(X11_LIBS) $(XI_LIBS)

# Every test that boots a VM, the longest first, then the groups below
# (their members next to each other: a group boots at its first member).
# A *-vm.sh missing here joins the end of the list by its name.
tt_vm_serial_tests = \
	replay/tests/stuck-vm.sh \
	record/tests/vm-san.sh \
	replay/tests/vm-replay.sh \
	record/tests/kill-vm.sh \
	record/tests/vm-record.sh \
	replay/tests/real-vm.sh \
	tests/docs-examples.sh \
	record/tests/xi-vm.sh \
	tests/wayland-vm.sh \
	convert/tests/convert-libinput.sh \
	tests/hostile-replay-vm.sh \
	$(tt_vm_group_uinput) \
	$(tt_vm_group_xorg)

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

# Boot fewer VMs: tests that share a setup (the same tests/vm/run options)
# run in one boot (tests/vm/group) when two or more of them are in the run;
# each keeps its own log and result. A boot costs 7-35 s on the shared
# machine, Xorg 7-40 s more (tests/vm/README.md). The timeout is the members' sum.
tt_vm_group_uinput = \
	tests/vm/smoke-uinput.sh \
	tests/diag-drop-vm.sh \
	tests/hostile-devices-vm.sh \
	analyze/tests/diff-replay-vm.sh \
	record/tests/picker-vm.sh
tt_vm_group_uinput_opts = --timeout 630
tt_vm_group_xorg = \
	tests/vm/smoke-xorg.sh \
	print/tests/print-live-vm.sh \
	record/tests/guide-xi-vm.sh
tt_vm_group_xorg_opts = --xorg --timeout 390

# The members of group $(1) in this run, in the serial make only, if two
# or more; their logs replay what they printed in the group's boot.
tt_vm_grouped = $(if $(TT_VM_SERIAL_MAKE),$(if $(word 2,$(filter $(1:.sh=.log),$(TEST_LOGS))),$(filter $(1:.sh=.log),$(TEST_LOGS))))
tt_vm_group_boot = $(AM_TESTS_ENVIRONMENT) $(SHELL) $(srcdir)/tests/vm/group $@ $(srcdir)
tt_vm_group_result = $(MKDIR_P) $(@D) && $(SH_LOG_DRIVER) --test-name $(@:.log=.sh) --log-file $@ --trs-file $(@:.log=.trs) \
	-- $(SHELL) $(srcdir)/tests/vm/group --result $< $(@:.log=.sh)
$(call tt_vm_grouped,$(tt_vm_group_uinput)): tests/vm/group-uinput.out
	@$(tt_vm_group_result)
$(call tt_vm_grouped,$(tt_vm_group_xorg)): tests/vm/group-xorg.out
	@$(tt_vm_group_result)
tests/vm/group-uinput.out:
	@$(tt_vm_group_boot) $(tt_vm_group_uinput_opts) -- $(patsubst %.log,%.sh,$(call tt_vm_grouped,$(tt_vm_group_uinput)))
tests/vm/group-xorg.out:
	@$(tt_vm_group_boot) $(tt_vm_group_xorg_opts) -- $(patsubst %.log,%.sh,$(call tt_vm_grouped,$(tt_vm_group_xorg)))
clean-local: clean-vm-groups
clean-vm-groups:
	rm -rf tests/vm/group-*.out

# Tests that boot VMs but spend most of their time on the host (building
# a clone of the tree) run in a host slot, taking the rig's lock only for
# their boots, so the serial VM chain does not wait for their builds.
tt_vm_host_slot_tests = regress/tests/regress-ci.sh

# Every test's log but the serial VM chain's (.ci/run starts distcheck
# when they are done).
print-host-logs:
	@echo $(filter-out $(tt_vm_logs),$(TEST_LOGS))
# Only the tests that boot a VM.  KERNEL_DEB=/path/linux-image-*.deb picks
# another kernel.
check-vm:
	$(MAKE) $(AM_MAKEFLAGS) check TESTS="$(filter $(tt_vm_serial_tests) $(tt_vm_host_slot_tests) %-vm.sh,$(TESTS))"

# Every VM test alone, the Wayland ones first and the rest in reverse, each
# boot with an empty /tmp: no test may rely on what an earlier one (or the
# host) prepared (tests/vm/order-check). Not part of make check (it boots
# once per test); run it when a VM test's setup changes.
check-vm-order: all
	bash $(srcdir)/tests/vm/order-check $(filter $(tt_vm_serial_tests) $(tt_vm_host_slot_tests) %-vm.sh,$(TESTS))

# Download the kernels and build their initramfs ahead of time (optional:
# the tests do it on first use): the stock one and bookworm-backports' 6.12.
prepare-vm:
	TT_VM_CACHE="$${TT_VM_CACHE:-$(abs_top_builddir)/vm-cache}" $(top_srcdir)/tests/vm/mkcache
	export TT_VM_CACHE="$${TT_VM_CACHE:-$(abs_top_builddir)/vm-cache}" && \
		KERNEL_DEB="$$($(top_srcdir)/tests/vm/fetch-kernel 6.12)" $(top_srcdir)/tests/vm/mkcache

.PHONY: check-vm check-vm-order prepare-vm print-host-logs tt-vm-serial clean-vm-groups \
	tests/vm/group-uinput.out tests/vm/group-xorg.out
