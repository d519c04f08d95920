#!/bin/bash
# The Debian package: `make deb` builds it from a clean copy of the dist
# files, lintian accepts it (no error, no warning), and unpacked with
# dpkg -x it holds the binary, every man page of man/, the bash completion,
# the samples and the format documentation where Debian puts them; the
# unpacked binary runs, and so does the package's autopkgtest
# (debian/tests/installed-samples) on that root.
. "$(dirname "$0")/lib.sh"

# debian/rules runs this suite inside the package build: building the
# package again inside itself would never end.
if [ -n "${TT_IN_DEB_BUILD:-}" ]; then
	echo "SKIP: inside the package's own build (debian/rules)"; exit 77
fi
for t in dpkg-buildpackage dh lintian dpkg-deb; do
	command -v "$t" >/dev/null ||
		{ echo "SKIP: no $t (dpkg-dev, debhelper, lintian: ./bootstrap installs them)"; exit 77; }
done

# nocheck (option and build profile): this suite is what the package build
# would run, and it is running now; the profile also lets the build go on
# without the test tools debian/control marks <!nocheck>. parallel=2: the
# build machines have 2 cores.
start=$(date +%s)
if DEB_BUILD_OPTIONS="nocheck parallel=2" DEB_BUILD_PROFILES=nocheck "${MAKE:-make}" -s -C "$abs_top_builddir" deb \
	DEB_OUTDIR="$tmp/debs" >"$tmp/make.log" 2>&1; then
	pass "make deb in $(($(date +%s) - start)) s"
else
	fail "make deb"; tail -n 40 "$tmp/make.log" >&2; finish
fi
version=$(sed -n '1s/^touchtape (\([^)]*\)).*/\1/p' "$abs_top_srcdir/debian/changelog")
deb=$(echo "$tmp/debs/touchtape_${version}_"*.deb)
[ -f "$deb" ] || { fail "no touchtape_${version}_*.deb in the output: $(ls "$tmp/debs")"; finish; }

# lintian: errors and warnings fail; overrides (debian/*.lintian-overrides)
# carry their reasons.
lintian --fail-on error,warning "$deb" >"$tmp/lintian" 2>"$tmp/lintian.err"
rc=$?
if [ "$rc" -eq 0 ] && ! grep -qE '^[EW]: ' "$tmp/lintian"; then
	pass "lintian: no error, no warning ($(grep -c . "$tmp/lintian") other tag(s))"
else
	fail "lintian: exit $rc"
	cat "$tmp/lintian" "$tmp/lintian.err" | sed 's/^/  | /' >&2
fi

# The libraries the binary links come from ${shlibs:Depends}.
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libevdev2 libjson-c libyaml libncursesw6 libxi6 libc6; do
	case "$depends" in *"$lib"*) pass "Depends names $lib" ;;
	*) fail "Depends lacks $lib: $depends" ;; esac
done

root=$tmp/root
dpkg -x "$deb" "$root"

# present KIND PATH: PATH (under the unpacked root) is a file, or a link to one.
present() {
	if [ -f "$root$2" ]; then pass "$1: $2"; else fail "$1: no $2"; fi
}
[ -x "$root/usr/bin/touchtape" ] && pass "binary: /usr/bin/touchtape" || fail "binary: no /usr/bin/touchtape"
pages=0
for page in "$abs_top_srcdir"/man/*.[1-8]; do
	name=${page##*/}
	present "man page" "/usr/share/man/man${name##*.}/$name.gz"
	pages=$((pages + 1))
done
[ "$pages" -ge 2 ] || fail "only $pages man page(s) found in the source's man/"
present "bash completion" /usr/share/bash-completion/completions/touchtape
for sample in "$abs_top_srcdir"/samples/*.jsonl; do
	present "sample" "/usr/share/doc/touchtape/examples/${sample##*/}"
done
present "format documentation" /usr/share/doc/touchtape/timeline.md.gz
present "format schema" /usr/share/doc/touchtape/timeline.schema.json
present "format schema (data)" /usr/share/touchtape/timeline.schema.json
present "copyright" /usr/share/doc/touchtape/copyright

# Nothing else: no static library, no libtool archive, no test program.
stray=$(cd "$root" && find . ! -type d | grep -vE '^\./usr/(bin/touchtape|share/(man/man[15]|doc/touchtape|bash-completion/completions|touchtape|lintian/overrides)/)')
[ -z "$stray" ] && pass "no file outside those places" || fail "unexpected files: $stray"

# The unpacked binary runs as it is: no LD_LIBRARY_PATH, no build tree.
if env -u LD_LIBRARY_PATH "$root/usr/bin/touchtape" --version >"$tmp/version" 2>&1 &&
	grep -q "touchtape ${version%%-*}" "$tmp/version"; then
	pass "installed binary: --version says ${version%%-*}"
else
	fail "installed binary: --version: $(cat "$tmp/version")"
fi
expect_exit 0 "installed binary validates an installed sample" -- \
	env -u LD_LIBRARY_PATH "$root/usr/bin/touchtape" validate "$root/usr/share/doc/touchtape/examples/3m-two-finger.jsonl"

# The package's autopkgtest, on the unpacked root.
mkdir "$tmp/adt"
if TT_ROOT="$root" AUTOPKGTEST_TMP="$tmp/adt" sh "$abs_top_srcdir/debian/tests/installed-samples" >"$tmp/adt.log" 2>&1; then
	pass "autopkgtest installed-samples: $(tail -n 1 "$tmp/adt.log")"
else
	fail "autopkgtest installed-samples"; grep -v '^ok: ' "$tmp/adt.log" | sed 's/^/  | /' >&2
fi
echo "deb-package: $(($(date +%s) - start)) s in all"
finish
