#!/usr/bin/env bash
# Benchmark of the main job on a real ext4 image: backup and restore throughput next to
# sha256sum of the same file, and backup with 1 worker vs all cores.
# Usage: bench/backup-restore.sh [SIZE_MIB] [RUNS] [SOURCE_DIR...]
#   SIZE_MIB    image size (default 1024)
#   RUNS        runs per measurement (default 3); the table shows the median
#   SOURCE_DIR  directories whose files fill the image (default /usr/share); e.g. a 3072 MiB image
#               of /usr/share /usr/lib/jvm /usr/lib/x86_64-linux-gnu /usr/lib/llvm-14 (2.2 GB)
# Environment: JPBS_BENCH_DIR (where the image is kept, default /tmp/jpbs-bench);
#   JPBS_BENCH_DS_DIR (where the datastore and the restored image go, default /dev/shm/jpbs-bench
#   when /dev/shm exists: this VM's disk is mounted with online discard and makes file creation
#   and deletion, not jpbs, the bottleneck; set it to a disk path to measure the disk instead).
# Times are wall-clock seconds of whole commands (JVM start included), MiB = 2^20 bytes.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
size=${1:-1024}
runs=${2:-3}
shift $(( $# < 2 ? $# : 2 ))
[ $# -gt 0 ] || set -- /usr/share
work=${JPBS_BENCH_DIR:-/tmp/jpbs-bench}
mkdir -p "$work"
if [ -z "${JPBS_BENCH_DS_DIR:-}" ] && [ -d /dev/shm ]; then JPBS_BENCH_DS_DIR=/dev/shm/jpbs-bench; fi
dsdir=${JPBS_BENCH_DS_DIR:-$work}
mkdir -p "$dsdir"
img="$work/ext4-$size-$(echo "$*" | sed 's|^/||; s|[/ ]\+|_|g').img"
jpbs="$root/jpbs"
cores=$(nproc)

[ -f "$img" ] || "$root/bench/make-ext4-image.sh" "$img" "$size" "$@"
"$jpbs" --version >/dev/null   # builds on first use, outside the timings
export JPBS_SKIP_BUILD=1
bytes=$(stat -c %s "$img")
mib=$(awk -v b="$bytes" 'BEGIN{printf "%.1f", b/1048576}')

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END{ if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2 }'; }
timeit() { local t0 t1; t0=$(now); "$@" >/dev/null; t1=$(now); awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f\n", b-a}'; }
prep=true   # run before each timed command, outside the timing

declare -A secs engine
measure() { # name, command...
  local name=$1; shift
  local list=() elist=() e
  for _ in $(seq "$runs"); do
    $prep
    list+=("$(timeit "$@")")
    # the backup's own summary line "duration S s, ..." (reading, hashing, compressing, writing
    # chunks; JVM start, datastore open and snapshot commit excluded)
    e=$(sed -n 's/^ *duration *\([0-9.]*\) s.*/\1/p' "$dsdir/last.log" 2>/dev/null | head -n1 || true)
    if [ -n "$e" ]; then elist+=("$e"); fi
  done
  secs[$name]=$(printf '%s\n' "${list[@]}" | median)
  echo "  $name: ${list[*]} s" >&2
  if [ "${#elist[@]}" -gt 0 ]; then
    engine[$name]=$(printf '%s\n' "${elist[@]}" | median)
    echo "  $name (engine): ${elist[*]} s" >&2
  fi
}
new_datastore() {
  rm -rf "$dsdir/ds"
  "$jpbs" datastore create "$dsdir/ds" >/dev/null 2>&1
}
fresh_backup() { # workers; the datastore was made empty by new_datastore
  "$jpbs" backup --repository "$dsdir/ds" --backup-type vm --backup-id 100 --workers "$1" \
    "drive-scsi0.img:$img" 2>"$dsdir/last.log"
}
restore() { # extra args
  rm -f "$dsdir/restored.img"
  "$jpbs" restore -q --repository "$dsdir/ds" "$@" vm/100 drive-scsi0.img "$dsdir/restored.img"
}

echo "image: $img ($mib MiB), datastore and restore target in $dsdir, $runs runs each, $cores cores" >&2
rm -f "$dsdir/last.log"
measure "sha256sum" sha256sum "$img"
prep=new_datastore
measure "backup-1-worker" fresh_backup 1
measure "backup-$cores-workers" fresh_backup "$cores"
prep=true
rm -f "$dsdir/last.log"
measure "restore" restore
measure "restore-sparse" restore --sparse
want=$(sha256sum < "$img"); got=$(sha256sum < "$dsdir/restored.img")
[ "$want" = "$got" ] || { echo "restored image differs from the original!" >&2; exit 1; }

printf '\n%-22s %10s %10s\n' "operation" "median s" "MiB/s"
for k in sha256sum backup-1-worker "backup-$cores-workers" restore restore-sparse; do
  printf '%-22s %10s %10s\n' "$k" "${secs[$k]}" "$(awk -v m="$mib" -v s="${secs[$k]}" 'BEGIN{printf "%.1f", m/s}')"
done
printf '\n%-22s %10s %10s   (backup engine only: JVM start, datastore open and commit excluded)\n' \
  "operation" "median s" "MiB/s"
for k in backup-1-worker "backup-$cores-workers"; do
  printf '%-22s %10s %10s\n' "$k" "${engine[$k]}" "$(awk -v m="$mib" -v s="${engine[$k]}" 'BEGIN{printf "%.1f", m/s}')"
done
printf '\nbackup speed-up, %s workers vs 1: %sx wall-clock, %sx engine\n' "$cores" \
  "$(awk -v a="${secs[backup-1-worker]}" -v b="${secs[backup-$cores-workers]}" 'BEGIN{printf "%.2f", a/b}')" \
  "$(awk -v a="${engine[backup-1-worker]}" -v b="${engine[backup-$cores-workers]}" 'BEGIN{printf "%.2f", a/b}')"
printf 'restored image sha256 matches: yes\n'
rm -rf "$dsdir/ds" "$dsdir/restored.img" "$dsdir/last.log"
