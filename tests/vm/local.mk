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
	tests/vm/README.md \
	tests/vm/data/touchscreen.desc \
	tests/vm/data/two-finger.events \
	tests/vm/data/two-finger.expected

vm_tests = \
	tests/vm/smoke-uinput.sh \
	tests/vm/smoke-xorg.sh

EXTRA_DIST += $(vm_rig_files) $(vm_tests)
TESTS += $(vm_tests)

check_PROGRAMS += tests/vm/xi-ownership-probe
tests_vm_xi_ownership_probe_SOURCES = tests/vm/xi-ownership-probe.c
tests_vm_xi_ownership_probe_CFLAGS = $(AM_CFLAGS) $(X11_CFLAGS) $(XI_CFLAGS)
tests_vm_xi_ownership_probe_LDADD = $(X11_LIBS) $(XI_LIBS)

# Only the VM tests (they serialize on a lock in $(TT_VM_CACHE), so -j is
# harmless but gains nothing).  KERNEL_DEB=/path/linux-image-*.deb picks
# another kernel.
check-vm:
	$(MAKE) $(AM_MAKEFLAGS) check TESTS="$(vm_tests)"

# Download the kernel and build the initramfs ahead of time (optional: the
# tests do it on first use).
prepare-vm:
	TT_VM_CACHE="$${TT_VM_CACHE:-$(abs_top_builddir)/vm-cache}" $(top_srcdir)/tests/vm/mkcache

.PHONY: check-vm prepare-vm
