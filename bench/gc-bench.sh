#!/usr/bin/env bash
# Garbage-collection benchmark: builds a synthetic datastore with 1,000,000 chunk files and
# 1,000 snapshots sharing them, then times GC phase 1 (mark) and phase 2 (sweep) warm and cold,
# with and without the chunk-metadata prefetch, in index order and in directory order, with 1
# and N threads, and reports the utimensat calls. Every number is the median of RUNS runs.
#
# Usage: bench/gc-bench.sh [RUNS]            (default 3)
# Environment:
#   JPBS_GC_BENCH_DIR       warm store, default /dev/shm/jpbs-gc-bench (tmpfs; removed at the end
#                           unless JPBS_GC_BENCH_KEEP=1)
#   JPBS_GC_BENCH_COLD_DIR  store on a disk for the cold runs, default /var/tmp/jpbs-gc-bench-cold
#                           (kept between runs: building it on a disk takes a minute or two; set
#                           it to "" to skip the cold runs). Cold = "sync; echo 3 >
#                           /proc/sys/vm/drop_caches" before each run, which needs root; tmpfs
#                           cannot be dropped, so cold runs need a disk.
#   JPBS_GC_BENCH_THREADS   N for the multi-threaded runs (default 4)
#   Store shape: JPBS_GC_BENCH_GROUPS=100 _SNAPS=10 _BASE=8100 _CHANGE=100 _GARBAGE=100000 _CHUNK_BYTES=0
#   (100 groups of 10 snapshots; the first snapshot of a group references 8,100 chunks, each later
#   one replaces 100: 900,000 referenced chunks, 8,100,000 index entries, plus 100,000 old
#   unreferenced chunks. GC never reads chunk data, so the files are empty by default.)
# Columns: phase 1 seconds; index entries (chunk references) marked per second; touches
# (utimensat calls) per second; utimensat calls; phase 2 seconds; chunk files swept per second;
# chunks the sweep removes (dry runs: would remove). Runs are dry runs (nothing removed, so all
# see the same store) except the last line, a real GC that removes the garbage.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
runs=${1:-3}
warm=${JPBS_GC_BENCH_DIR:-/dev/shm/jpbs-gc-bench}
cold=${JPBS_GC_BENCH_COLD_DIR-/var/tmp/jpbs-gc-bench-cold}
n=${JPBS_GC_BENCH_THREADS:-4}
shape="${JPBS_GC_BENCH_GROUPS:-100} ${JPBS_GC_BENCH_SNAPS:-10} ${JPBS_GC_BENCH_BASE:-8100} ${JPBS_GC_BENCH_CHANGE:-100}"
shape="$shape ${JPBS_GC_BENCH_GARBAGE:-100000} ${JPBS_GC_BENCH_CHUNK_BYTES:-0}"

# shellcheck source=../scripts/find-jdk.sh
. "$root/scripts/find-jdk.sh"
jpbs_find_jdk
"$root/jpbs" --version >/dev/null   # builds on first use, outside the timings
bench=("$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -Xmx2g
       -cp "$root/cli/target/jpbs-cli.jar:$root/cli/target/lib/*" "$root/bench/GcBench.java")

build() { # dir
  local dir=$1
  if [ -f "$dir/.bench-shape" ] && [ "$(cat "$dir/.bench-shape")" = "$shape" ]; then
    echo "reusing $dir ($shape)"
    return
  fi
  rm -rf "$dir"
  mkdir -p "$(dirname "$dir")"
  # the store needs about one inode per chunk file; leave at least as many free for others
  # (tmpfs has a fixed inode count shared by everything on /dev/shm)
  local files free
  read -r -a sh <<< "$shape"
  files=$(( sh[0] * (sh[2] + (sh[1] - 1) * sh[3]) + sh[4] + 70000 ))
  free=$(df --output=iavail "$(dirname "$dir")" | tail -n1 | tr -d ' ')
  if [ "$free" -lt $(( 2 * files )) ]; then
    echo "gc-bench: $(dirname "$dir") has $free free inodes; the store needs $files and leaves as many for others" >&2
    exit 1
  fi
  # shellcheck disable=SC2086
  "${bench[@]}" build "$dir" $shape "$(nproc)"
  echo "$shape" > "$dir/.bench-shape"
  sync
}

header() {
  printf '%-44s %7s %11s %10s %10s %7s %10s %9s\n' "$1" "p1 s" "entries/s" "touches/s" "utimensat" "p2 s" "files/s" "removed"
}

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
echo "machine: $(nproc) cores ($cpu), kernel $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"
build "$warm"
if [ -n "$cold" ]; then build "$cold"; fi

echo
echo "== baseline: raw utimensat rate on this store (the kernel's limit for phase 1)"
"${bench[@]}" baseline "$warm" "$n"
echo
header "== warm (tmpfs $warm), median of $runs"
"${bench[@]}" run "$warm" "warm-up run (not counted)" 1 0 "$n" 0 inode 1048576 >/dev/null
"${bench[@]}" run "$warm" "1 thread, no prefetch, index order" "$runs" 0 1 0 none 1048576
"${bench[@]}" run "$warm" "1 thread, no prefetch, directory order" "$runs" 0 1 0 inode 1048576
"${bench[@]}" run "$warm" "$n threads, no prefetch, directory order" "$runs" 0 "$n" 0 inode 1048576
"${bench[@]}" run "$warm" "$n threads, prefetch, directory order" "$runs" 0 "$n" 1 inode 1048576
"${bench[@]}" run "$warm" "$n threads, no prefetch, cache off" "$runs" 0 "$n" 0 inode 0
if [ -n "$cold" ]; then
  echo
  header "== cold (disk $cold, caches dropped before each run), median of $runs"
  "${bench[@]}" run "$cold" "1 thread, no prefetch, index order" "$runs" 1 1 0 none 1048576
  "${bench[@]}" run "$cold" "$n threads, no prefetch, directory order" "$runs" 1 "$n" 0 inode 1048576
  "${bench[@]}" run "$cold" "$n threads, prefetch, directory order" "$runs" 1 "$n" 1 inode 1048576
fi
echo
header "== real GC on the warm store (removes the garbage), 1 run"
"${bench[@]}" sweep "$warm" "$n"
rm -f "$warm/.bench-shape"   # the garbage is gone: a kept store is rebuilt next time
if [ "${JPBS_GC_BENCH_KEEP:-0}" != 1 ]; then
  rm -rf "$warm"
fi
