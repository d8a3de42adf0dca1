#!/usr/bin/env bash
# Makes a raw disk image holding an ext4 filesystem filled with real files.
# Usage: bench/make-ext4-image.sh OUT SIZE_MIB [SOURCE_DIR...]
#   OUT         image file to write (replaced if it exists)
#   SIZE_MIB    image size in MiB (the file is sparse; unused blocks read as zeros)
#   SOURCE_DIR  directory copied into the filesystem (default /usr/share); with several, each
#               becomes a top-level directory of the filesystem (staged as hard links next to OUT,
#               so they must be on the same filesystem as OUT, else copied)
# Needs mkfs.ext4 (e2fsprogs >= 1.43 for -d). The UUID and hash seed are fixed; file
# times come from the source tree, so two runs give different bytes.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 OUT SIZE_MIB [SOURCE_DIR]" >&2
  exit 2
fi
out=$1 size=$2
shift 2
[ $# -gt 0 ] || set -- /usr/share
command -v mkfs.ext4 >/dev/null 2>&1 || PATH="$PATH:/usr/sbin:/sbin"
command -v mkfs.ext4 >/dev/null 2>&1 || { echo "$0: mkfs.ext4 not found (install e2fsprogs)" >&2; exit 1; }
for d in "$@"; do [ -d "$d" ] || { echo "$0: source directory '$d' does not exist" >&2; exit 1; }; done
case "$size" in ''|*[!0-9]*) echo "$0: SIZE_MIB must be a number of MiB, got '$size'" >&2; exit 2 ;; esac
tmp="$out.tmp.$$"
stage="$out.stage.$$"
trap 'rm -f "$tmp"; rm -rf "$stage"' EXIT
rm -f "$tmp"
if [ $# -eq 1 ]; then
  src=$1
else
  mkdir -p "$stage"
  for d in "$@"; do
    name=$(echo "$d" | sed 's|^/||; s|/|_|g')
    cp -al "$d" "$stage/$name" 2>/dev/null || { rm -rf "${stage:?}/$name"; cp -a "$d" "$stage/$name"; }
  done
  src=$stage
fi
truncate -s "${size}M" "$tmp"
E2FSPROGS_FAKE_TIME=1700000000 mkfs.ext4 -q -F -b 4096 -U 6b0ab0e5-0000-4000-8000-00000000a1b2 \
  -E hash_seed=6b0ab0e5-0000-4000-8000-00000000a1b3,root_owner=0:0 -d "$src" "$tmp"
mv -f "$tmp" "$out"
trap - EXIT
echo "$out: ${size} MiB ext4 image with the files of $*" >&2
