#!/usr/bin/env bash
# Benchmark of the main job on a real ext4 image: backup and restore throughput next to
# sha256sum of the same file, and backup with 1 worker vs all cores.
# Usage: bench/backup-restore.sh [SIZE_MIB] [RUNS]
#   SIZE_MIB  image size (default 1024), filled with the files of /usr/share
#   RUNS      runs per measurement (default 3); the table shows the median
# Environment: JPBS_BENCH_DIR (work directory, default /tmp/jpbs-bench; needs ~3x SIZE_MIB free).
# Times are wall-clock seconds of whole commands (JVM start included), MiB = 2^20 bytes.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
size=${1:-1024}
runs=${2:-3}
work=${JPBS_BENCH_DIR:-/tmp/jpbs-bench}
mkdir -p "$work"
img="$work/ext4-$size.img"
jpbs="$root/jpbs"
cores=$(nproc)

[ -f "$img" ] || "$root/bench/make-ext4-image.sh" "$img" "$size" /usr/share
"$jpbs" --version >/dev/null   # builds on first use, outside the timings
export JPBS_SKIP_BUILD=1
bytes=$(stat -c %s "$img")
mib=$(awk -v b="$bytes" 'BEGIN{printf "%.1f", b/1048576}')

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END{ if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2 }'; }
timeit() { local t0 t1; t0=$(now); "$@" >/dev/null; t1=$(now); awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f\n", b-a}'; }

declare -A secs
measure() { # name, command...
  local name=$1; shift
  local list=()
  for _ in $(seq "$runs"); do list+=("$(timeit "$@")"); done
  secs[$name]=$(printf '%s\n' "${list[@]}" | median)
  echo "  $name: ${list[*]} s" >&2
}
fresh_backup() { # workers
  rm -rf "$work/ds"
  "$jpbs" datastore create "$work/ds" >/dev/null
  "$jpbs" backup -q --repository "$work/ds" --backup-type vm --backup-id 100 --workers "$1" "drive-scsi0.img:$img"
}
restore() { # extra args
  rm -f "$work/restored.img"
  "$jpbs" restore -q --repository "$work/ds" "$@" vm/100 drive-scsi0.img "$work/restored.img"
}

echo "image: $img ($mib MiB), $runs runs each, $cores cores" >&2
measure "sha256sum" sha256sum "$img"
measure "backup-1-worker" fresh_backup 1
measure "backup-$cores-workers" fresh_backup "$cores"
measure "restore" restore
measure "restore-sparse" restore --sparse
want=$(sha256sum < "$img"); got=$(sha256sum < "$work/restored.img")
[ "$want" = "$got" ] || { echo "restored image differs from the original!" >&2; exit 1; }

printf '\n%-22s %10s %10s\n' "operation" "median s" "MiB/s"
for k in sha256sum backup-1-worker "backup-$cores-workers" restore restore-sparse; do
  printf '%-22s %10s %10s\n' "$k" "${secs[$k]}" "$(awk -v m="$mib" -v s="${secs[$k]}" 'BEGIN{printf "%.1f", m/s}')"
done
printf '\nbackup speed-up, %s workers vs 1: %sx\n' "$cores" \
  "$(awk -v a="${secs[backup-1-worker]}" -v b="${secs[backup-$cores-workers]}" 'BEGIN{printf "%.2f", a/b}')"
printf 'restored image sha256 matches: yes\n'
rm -rf "$work/ds" "$work/restored.img"
