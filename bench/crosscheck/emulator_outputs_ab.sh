#!/bin/bash
# Usage: ENTRIES=FILE emulator_outputs_ab.sh OLD_VOLTA_EG NEW_VOLTA_EG
# Runs both sides of each corpus entry named in FILE (one name per line) on the three
# cross-check input sets with two volta-eg builds and compares the outputs (.npy) and the
# printed diagnostics byte for byte: an emulator change must not move a single bit.
OLD=$1; NEW=$2; M=${MANIFEST:-../shared/volta-corpus/benchmarks.json}
fail=0; n=0
while read -r entry; do
  for side in ref opt; do
    for set in 0 1 2; do
      d=${TMPDIR:-/tmp}/emulator-ab-$$; rm -rf $d; mkdir -p $d/old $d/new
      timeout 300 $OLD run --batch $M --filter "$entry" --side $side --cross-check-input $set -q --out $d/old > $d/old.txt 2>&1; rc1=$?
      timeout 300 $NEW run --batch $M --filter "$entry" --side $side --cross-check-input $set -q --out $d/new > $d/new.txt 2>&1; rc2=$?
      n=$((n+1))
      if [ $rc1 != $rc2 ] || ! diff -r $d/old $d/new >/dev/null || ! diff $d/old.txt $d/new.txt > /dev/null; then
        echo "DIFF: $entry $side set $set rc $rc1/$rc2"; fail=$((fail+1))
      else echo "same: $entry $side set $set rc $rc1 files $(ls $d/new | wc -l)"; fi
    done
  done
done < "$ENTRIES"
echo "runs $n, differing $fail"
[ "$fail" = 0 ]
