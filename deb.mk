# The Debian package: debian/ (dh, debhelper compat 13) and `make deb`.
deb_files = \
	debian/changelog \
	debian/control \
	debian/copyright \
	debian/rules \
	debian/source/format \
	debian/tests/control \
	debian/tests/installed-samples \
	debian/touchtape.docs \
	debian/touchtape.examples \
	debian/touchtape.links \
	debian/touchtape.lintian-overrides
EXTRA_DIST += $(deb_files)

# `make deb` builds the binary package from a clean tree: the files of
# `make dist` (the same set, copied without the tarball round trip) in a
# scratch directory, so nothing of this build tree (objects, config.status,
# files that are not part of the release) leaks into the package, and the
# build does not disturb it. The copy is made writable: distdir keeps the
# modes of a read-only source tree (make distcheck's), and the package
# build regenerates configure in place. The .deb lands in DEB_OUTDIR (this
# build directory by default); the scratch tree is removed unless the build
# fails.
# DEB_BUILD_OPTIONS passes through (nocheck skips the test suite the build
# runs); without it the build runs on 2 cores.
DEB_OUTDIR = $(abs_top_builddir)
deb:
	@for t in dpkg-buildpackage dh; do command -v $$t >/dev/null || \
		{ echo "make deb: needs $$t (dpkg-dev, debhelper: ./bootstrap installs them)" >&2; exit 2; }; done
	@scratch=$$(mktemp -d '$(abs_top_builddir)/deb-build.XXXXXX') && \
	$(MAKE) $(AM_MAKEFLAGS) distdir distdir="$$scratch/$(PACKAGE)-$(VERSION)" >/dev/null && \
	chmod -R u+w "$$scratch" && \
	echo "make deb: building in $$scratch/$(PACKAGE)-$(VERSION)" && \
	( cd "$$scratch/$(PACKAGE)-$(VERSION)" && \
	  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		DEB_BUILD_OPTIONS="$${DEB_BUILD_OPTIONS-parallel=2}" \
		dpkg-buildpackage -us -uc -b ) >"$$scratch/build.log" 2>&1 || \
		{ tail -n 40 "$$scratch/build.log" >&2; \
		  echo "make deb: failed; the tree and build.log are in $$scratch" >&2; exit 1; }; \
	mkdir -p '$(DEB_OUTDIR)' && mv "$$scratch"/*.deb '$(DEB_OUTDIR)/' && rm -rf "$$scratch" && \
	ls '$(DEB_OUTDIR)'/$(PACKAGE)_$(VERSION)-*.deb
.PHONY: deb
CLEANFILES += $(PACKAGE)_*.deb $(PACKAGE)-dbgsym_*.deb

# The package built, linted, unpacked and run.
TESTS += tests/deb-package.sh
EXTRA_DIST += tests/deb-package.sh
