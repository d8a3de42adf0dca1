#!/usr/bin/env bash
# Benchmark of VMA restore write patterns: a 3 GiB ext4 image of real files, archived as a
# .vma.zst whose clusters are interleaved like a live QEMU backup with 16 copy workers, is
# extracted with per-cluster writes (upstream vma), merged writes in archive order (the PBS
# maintainers' patch) and merged writes after sorting each extent by (device, cluster);
# each sparse (absent blocks skipped) and with --write-zeroes; targets opened with O_DIRECT.
# Usage: bench/vma-restore.sh [RUNS] [SIZE_MIB [SOURCE_DIR...]]
#   RUNS        runs per measurement (default 3); the table shows medians
#   SIZE_MIB    image size (default 3072) and SOURCE_DIRs as for bench/make-ext4-image.sh
#               (default /usr/share /usr/lib/jvm /usr/lib/x86_64-linux-gnu /usr/lib/llvm-14;
#               an existing image of that name in $JPBS_BENCH_DIR is reused read-only)
# Environment: JPBS_BENCH_DIR (images, default /tmp/jpbs-bench);
#   JPBS_BENCH_ARCHIVE_DIR (the .vma.zst, default /dev/shm/jpbs-bench-vma: reading it must not
#   compete with the target disk); JPBS_BENCH_TARGET_DIR (restore targets, default
#   $JPBS_BENCH_DIR/vma-restore: a disk, so O_DIRECT writes reach a device; tmpfs accepts
#   O_DIRECT only from Linux 6.6 and then measures request overhead without a device);
#   JPBS_BENCH_DIRECT=0 (page cache instead of O_DIRECT); JPBS_BENCH_MODES (default
#   "cluster merged sorted").
# Numbers: requests = write requests (pwrite calls) issued, avg = bytes written / requests,
# engine s = the restore's own time (reading, decompressing, checking, writing, final fdatasync;
# JVM start excluded), MiB/s = image size / engine s, wall s = whole command.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
runs=${1:-3}
size=${2:-3072}
shift $(( $# < 2 ? $# : 2 ))
[ $# -gt 0 ] || set -- /usr/share /usr/lib/jvm /usr/lib/x86_64-linux-gnu /usr/lib/llvm-14
work=${JPBS_BENCH_DIR:-/tmp/jpbs-bench}
adir=${JPBS_BENCH_ARCHIVE_DIR:-/dev/shm/jpbs-bench-vma}
tdir=${JPBS_BENCH_TARGET_DIR:-$work/vma-restore}
direct=${JPBS_BENCH_DIRECT:-1}
modes=${JPBS_BENCH_MODES:-cluster merged sorted}
mkdir -p "$work" "$adir" "$tdir"
img="$work/ext4-$size-$(echo "$*" | sed 's|^/||; s|[/ ]\+|_|g').img"
jpbs="$root/jpbs"
[ -f "$img" ] || "$root/bench/make-ext4-image.sh" "$img" "$size" "$@"
"$jpbs" --version >/dev/null   # builds on first use, outside the timings
export JPBS_SKIP_BUILD=1
archive="$adir/$(basename "$img" .img).i16.vma.zst"
if [ ! -f "$archive" ]; then
  echo "creating $archive (16 interleaved copy tasks, zstd)..." >&2
  "$jpbs" vma create --interleave 16 --ctime 1700000000 --uuid 6b0ab0e5-0000-4000-8000-00000000a1b4 \
    "$archive" -d "drive-scsi0=$img"
fi
bytes=$(stat -c %s "$img")
mib=$(awk -v b="$bytes" 'BEGIN{printf "%.1f", b/1048576}')
abytes=$(stat -c %s "$archive")
fs=$(df -T "$tdir" | awk 'NR==2{print $2" on "$1}')
dflag=(); [ "$direct" = 1 ] && dflag=(--direct)
echo "image $img ($mib MiB), archive $archive ($(awk -v b="$abytes" 'BEGIN{printf "%.1f", b/1048576}') MiB zstd)," \
  "targets in $tdir ($fs), direct=$direct, $runs runs each, $(nproc) cores" >&2

median() { sort -g | awk '{a[NR]=$1} END{ if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2 }'; }
now() { date +%s.%N; }
rows=()
for zeroes in 0 1; do
  for mode in $modes; do
    zflag=(); label=sparse
    [ "$zeroes" = 1 ] && { zflag=(--write-zeroes); label=write-zeroes; }
    eng=() wall=() req="" avg=""
    for _ in $(seq "$runs"); do
      rm -rf "$tdir/out"; sync
      t0=$(now)
      "$jpbs" vma extract -v "${dflag[@]}" "${zflag[@]}" --writes "$mode" "$archive" "$tdir/out" \
        >/dev/null 2>"$tdir/last.log"
      t1=$(now)
      line=$(grep '^restore:' "$tdir/last.log")
      req=$(sed -n 's/.* requests=\([0-9]*\).*/\1/p' <<<"$line")
      avg=$(sed -n 's/.* avg-request=\([0-9]*\).*/\1/p' <<<"$line")
      eng+=("$(sed -n 's/.* seconds=\([0-9.]*\).*/\1/p' <<<"$line")")
      wall+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", b-a}')")
    done
    cmp -s "$img" "$tdir/out/disk-drive-scsi0.raw" || { echo "restored image differs from $img" >&2; exit 1; }
    e=$(printf '%s\n' "${eng[@]}" | median)
    w=$(printf '%s\n' "${wall[@]}" | median)
    echo "  $label $mode: engine ${eng[*]} s, wall ${wall[*]} s, $req requests" >&2
    rows+=("$(printf '%-13s %-8s %10s %12.1f %9.2f %9.1f %8.2f' "$label" "$mode" "$req" \
      "$(awk -v a="$avg" 'BEGIN{print a/1024}')" "$e" "$(awk -v m="$mib" -v s="$e" 'BEGIN{print m/s}')" "$w")")
  done
done
rm -rf "$tdir/out"
printf '%-13s %-8s %10s %12s %9s %9s %8s\n' "zeros" "writes" "requests" "avg KiB" "engine s" "MiB/s" "wall s"
printf '%s\n' "${rows[@]}"
