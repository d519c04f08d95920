# Benchmarks (issue 10; see bench/README.md). `make bench` builds touchtape
# and the libevemu anchor, generates the long recordings once into
# bench/data/ of the build dir and prints one table: figure, touchtape, each
# anchor, ratio, target, met. Never part of `make check`; a missing anchor
# prints n/a instead of failing. BENCH_VM=0 skips the VM benchmarks.
EXTRA_DIST += bench/run bench/gen-long.sh bench/layers.sh bench/evemu-parse.c bench/README.md \
	bench/vm-bench.sh bench/vm-guest.sh  bench/uinput-flood.c bench/hid-timing.py \
	bench/repeat-timeline.py bench/li-overlay.jsonl bench/regress-vm.sh

# The evemu anchor links Debian's libevemu (libevemu-dev) when pkg-config
# finds it; without it the evemu figures print n/a.
bench/evemu-parse$(EXEEXT): $(top_srcdir)/bench/evemu-parse.c
	@$(MKDIR_P) bench
	$(AM_V_CC)if $(PKG_CONFIG) --exists evemu; then \
		$(CC) $(CFLAGS) -O2 $$($(PKG_CONFIG) --cflags evemu) \
			-o $@ $(top_srcdir)/bench/evemu-parse.c $$($(PKG_CONFIG) --libs evemu); \
	else echo "bench: libevemu not found (libevemu-dev), evemu figures n/a"; fi

bench: all bench/evemu-parse$(EXEEXT)
	@TOUCHTAPE='$(abs_top_builddir)/touchtape' \
	BENCH_DATA='$(abs_top_builddir)/bench/data' \
	EVEMU_PARSE='$(abs_top_builddir)/bench/evemu-parse$(EXEEXT)' \
	abs_top_srcdir='$(abs_top_srcdir)' abs_top_builddir='$(abs_top_builddir)' \
	TT_VM_CACHE='$(TT_VM_CACHE)' CC='$(CC)' \
	bash $(top_srcdir)/bench/run

# The generated recordings are large (gigabytes at 10 h): `make clean`
# does not remove them, `make clean-bench` does.
clean-bench:
	rm -rf bench/data bench/results.tsv bench/sizes.tsv bench/evemu-parse$(EXEEXT)
.PHONY: bench clean-bench
