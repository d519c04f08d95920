#!/bin/sh
# make demo: the main job on a bundled sample.
set -eu
builddir=$1
srcdir=$2
tt="$builddir/touchtape"
sample="$srcdir/samples/3m-two-finger.jsonl"

echo "== touchtape validate $sample"
"$tt" validate "$sample"
echo
echo "== touchtape print $sample (first 60 lines)"
"$tt" print "$sample" | head -n 60
