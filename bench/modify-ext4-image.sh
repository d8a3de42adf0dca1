#!/usr/bin/env bash
# Changes a few files inside an ext4 image made by make-ext4-image.sh, in place,
# so that an incremental backup has a little new data to send.
# Usage: bench/modify-ext4-image.sh IMAGE [SEED]
# Writes three new files of 64 KiB (seeded content) and removes nothing; needs debugfs.
set -euo pipefail
img=${1:?usage: $0 IMAGE [SEED]}
seed=${2:-1}
command -v debugfs >/dev/null 2>&1 || PATH="$PATH:/usr/sbin:/sbin"
command -v debugfs >/dev/null 2>&1 || { echo "$0: debugfs not found (install e2fsprogs)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for i in 1 2 3; do
  # deterministic pseudo-random content from the seed
  { openssl enc -aes-128-ctr -K "$(printf '%032x' "$((seed * 10 + i))")" -iv "$(printf '%032x' 0)" -nosalt \
      < /dev/zero 2>/dev/null || true; } | head -c 65536 > "$work/changed-$seed-$i.bin"
  debugfs -w -R "write $work/changed-$seed-$i.bin /jpbs-changed-$seed-$i.bin" "$img" >/dev/null 2>&1
done
echo "$img: wrote 3 files of 64 KiB (seed $seed)" >&2
