# Grading a touch device against published quality limits (grade.h):
# the metrics as a layer of the stack, the profiles, the verdicts. The
# built-in profiles are the files in grade/profiles/, compiled in so an
# uninstalled touchtape grades like an installed one, and installed for
# people to read and copy.
libtouchtape_sources += \
	grade/grade.h grade/grade-metrics.c grade/grade-profile.c \
	grade/grade-stroke.c grade/grade-stroke.h grade/grade-measure.c grade/grade-judge.c \
	grade/grade-report.c grade/grade-suggest.c
nodist_libtouchtape_la_SOURCES = grade/builtin-profiles.c
nodist_libtouchtape_san_la_SOURCES = grade/builtin-profiles.c

tt_grade_profiles = grade/profiles/touchscreen.profile grade/profiles/touchpad.profile \
	grade/profiles/chromeos.profile
profilesdir = $(pkgdatadir)/profiles
dist_profiles_DATA = $(tt_grade_profiles)
EXTRA_DIST += grade/gen-builtin.sh
BUILT_SOURCES += grade/builtin-profiles.c
CLEANFILES += grade/builtin-profiles.c

grade/builtin-profiles.c: $(tt_grade_profiles) grade/gen-builtin.sh
	$(AM_V_GEN)$(MKDIR_P) grade && \
	$(SHELL) $(srcdir)/grade/gen-builtin.sh $(srcdir) $(tt_grade_profiles) > $@.tmp && mv $@.tmp $@

tt_grade_tests = grade/tests/grade-metrics.sh grade/tests/grade-profiles.sh grade/tests/grade-corpus.sh \
	grade/tests/grade-fuzz-vm.sh
TESTS += $(tt_grade_tests)
EXTRA_DIST += $(tt_grade_tests) \
	grade/tests/grade-fixtures.py
