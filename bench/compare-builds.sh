#!/usr/bin/env bash
# Side-by-side benchmark of two checkouts of jpbs (e.g. before and after a refactoring): runs
# bench/backup-restore.sh and bench/net-backup-restore.sh of each checkout alternately, ROUNDS
# times, on the same image, and prints each run's table with the load average. Compare the two
# in the same run only: this machine is shared and noisy.
# Usage: bench/compare-builds.sh OLD_CHECKOUT NEW_CHECKOUT [SIZE_MIB] [RUNS] [ROUNDS]
#   SIZE_MIB must hold /usr/share (default 1024); SKIP_NET=1 leaves out the network bench (whose
#   memory part is always left out here); JPBS_BENCH_DS_DIR and JPBS_BENCH_PORT are passed on
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: bench/compare-builds.sh OLD_CHECKOUT NEW_CHECKOUT [SIZE_MIB] [RUNS] [ROUNDS]" >&2; exit 2; }
old=$(readlink -f "$1"); new=$(readlink -f "$2")
size=${3:-1024}; runs=${4:-3}; rounds=${5:-2}
for d in "$old" "$new"; do
  [ -x "$d/bench/backup-restore.sh" ] || { echo "compare-builds: $d: not a jpbs checkout" >&2; exit 2; }
  "$d/jpbs" --version >/dev/null
done
for r in $(seq "$rounds"); do
  for d in "$old" "$new"; do
    echo "=== round $r: $d ($(git -C "$d" log --oneline -1 | cut -c1-60)) load: $(cut -d' ' -f1-3 /proc/loadavg)"
    JPBS_BENCH_UP="16" JPBS_BENCH_DOWN="16" "$d/bench/backup-restore.sh" "$size" "$runs" 2>/dev/null | sed -n '/^operation/,/^backup speed-up/p'
    if [ -z "${SKIP_NET:-}" ]; then
      JPBS_BENCH_MEM=0 JPBS_BENCH_UP="16" JPBS_BENCH_DOWN="16" "$d/bench/net-backup-restore.sh" "$size" "$runs" 2>/dev/null |
        sed -n '/^image [0-9]/,$p' || echo "(net bench failed)"
    fi
  done
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
