#!/usr/bin/env bash
# Benchmark of the hypervisor library (org.jpbs.client.hypervisor, docs/network-client.md): a
# QEMU-like driver (bench/HypervisorBench.java) writes an image through BackupSession.writeData
# to a 'jpbs serve' on loopback, from 1 writer thread and from 16, as the PBS patch that removed
# the library's mutex measured it (12 GiB: 26 s -> 8 s, library CPU 1 -> 3.5-4 cores).
# Usage: bench/hypervisor-backup.sh [IMAGE_MIB] [RUNS] [THREADS...]
#   IMAGE_MIB  size of the image written (default 4096); the data is the ext4 image of
#              /usr/share that bench/backup-restore.sh uses (1024 MiB), wrapped around, each chunk
#              stamped with its number so that every chunk is new
#   RUNS       runs per thread count (default 3); the table shows medians
#   THREADS    writer thread counts (default 1 16)
# Environment: JPBS_BENCH_DIR (source image, default /tmp/jpbs-bench), JPBS_BENCH_DS_DIR
#   (datastore, default /dev/shm/jpbs-hv-bench), JPBS_BENCH_PORT (default 18017),
#   JPBS_BENCH_BUILD (the checkout to measure, default this one), JPBS_BENCH_DRIVER_OPTS (extra JVM
#   options of the driver, e.g. -Xlog:gc:file=/tmp/gc.log).
# Before each run the datastore's chunks are deleted, so every chunk is uploaded and stored.
# Columns: wall-clock seconds and CPU of the driver from opening the session to finish (JVM start
# excluded), the server's CPU over the same run, and the driver's peak RSS. Below the table: the CPU
# seconds of a run (driver + server) and the speed-up two cores allow at them (the first thread
# count's time over the last one's CPU spread over all cores; and the same if the last count
# cost no more CPU than the first).
set -euo pipefail
here="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
root=$(readlink -f "${JPBS_BENCH_BUILD:-$here}")
size=${1:-4096}
runs=${2:-3}
shift $(( $# < 2 ? $# : 2 ))
[ $# -gt 0 ] || set -- 1 16
work=${JPBS_BENCH_DIR:-/tmp/jpbs-bench}
dsdir=${JPBS_BENCH_DS_DIR:-/dev/shm/jpbs-hv-bench}
port=${JPBS_BENCH_PORT:-18017}
mkdir -p "$work" "$dsdir"
src="$work/ext4-1024-usr_share.img"
jpbs="$root/jpbs"
# shellcheck source=../scripts/find-jdk.sh
. "$here/scripts/find-jdk.sh"
jpbs_find_jdk
# shellcheck source=serve-lib.sh
. "$here/bench/serve-lib.sh"

[ -f "$src" ] || "$here/bench/make-ext4-image.sh" "$src" 1024 /usr/share
"$jpbs" --version >/dev/null   # builds on first use
export JPBS_SKIP_BUILD=1
ds="$dsdir/ds"
trap 'stop_server; rm -rf "$ds"' EXIT
echo "image $size MiB from $src, build $root, $runs runs each, $(nproc) cores; uptime: $(uptime)" >&2

serve_identity
start_server "$ds"
cp="$root/cli/target/jpbs-cli.jar:$root/cli/target/lib/*"
drive() { # threads id [size]
  # shellcheck disable=SC2086 # JPBS_BENCH_DRIVER_OPTS is a list of options
  "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -cp "$cp" \
    ${JPBS_BENCH_DRIVER_OPTS:-} "$here/bench/HypervisorBench.java" "root@pam!bench@127.0.0.1:$port:store1" "$src" "${3:-$size}" "$1" "$2"
}
fresh() { find "$ds/.chunks" -type f -delete; rm -rf "$ds/vm"; }

drive 16 vm/1 256 >/dev/null   # warm-up of the server
declare -A col
for r in $(seq "$runs"); do
  for t in "$@"; do
    fresh
    s0=$(cpu_secs "$serve_pid")
    line=$(drive "$t" "vm/$((1000 * t + r))")
    s1=$(cpu_secs "$serve_pid")
    read -r _ _ _ secs _ cpu _ rss _ chunks _ up <<<"$line"
    scpu=$(awk -v a="$s0" -v b="$s1" -v s="$secs" 'BEGIN{printf "%.0f", 100*(b-a)/s}')
    echo "  run $r, $t threads: $secs s, driver CPU $cpu %, server CPU $scpu %, peak RSS $rss MiB," \
      "$chunks chunks ($up uploaded); load $(load)" >&2
    col[secs-$t]+=" $secs"; col[cpu-$t]+=" $cpu"; col[scpu-$t]+=" $scpu"; col[rss-$t]+=" $rss"
    col[tot-$t]+=" $(awk -v c="$cpu" -v d="$scpu" -v s="$secs" 'BEGIN{printf "%.2f", (c+d)*s/100}')"
  done
done
med() { # shellcheck disable=SC2086
  printf '%s\n' ${col[$1]} | median; }
printf '\nhypervisor API, %s MiB image written with writeData, median of %s runs, %s cores\n' "$size" "$runs" "$(nproc)"
printf '%-14s %10s %10s %14s %14s %14s\n' "writers" "seconds" "MiB/s" "driver CPU %" "server CPU %" "peak RSS MiB"
for t in "$@"; do
  s=$(med "secs-$t")
  printf '%-14s %10s %10s %14s %14s %14s\n' "$t" "$s" "$(awk -v m="$size" -v s="$s" 'BEGIN{printf "%.1f", m/s}')" \
    "$(med "cpu-$t")" "$(med "scpu-$t")" "$(med "rss-$t")"
done
first=$1; last=${*: -1}
printf 'speed-up, %s writers vs %s: %sx (goal on 2 cores: >= 1.8x)\n' "$last" "$first" \
  "$(awk -v a="$(med "secs-$first")" -v b="$(med "secs-$last")" 'BEGIN{printf "%.2f", a/b}')"
# What two cores allow: the CPU seconds (driver + server) of a run spread over all cores.
n=$(nproc)
printf 'CPU s per run (driver + server), median: %s writers %s, %s writers %s\n' "$first" "$(med "tot-$first")" \
  "$last" "$(med "tot-$last")"
printf 'ceiling of the speed-up on %s cores at these CPU figures: %sx (%s writers'"'"' CPU), %sx (if %s writers cost no more CPU than %s)\n' \
  "$n" "$(awk -v a="$(med "secs-$first")" -v c="$(med "tot-$last")" -v n="$n" 'BEGIN{printf "%.2f", a/(c/n)}')" "$last" \
  "$(awk -v a="$(med "secs-$first")" -v c="$(med "tot-$first")" -v n="$n" 'BEGIN{printf "%.2f", a/(c/n)}')" "$last" "$first"
echo "uptime at end: $(uptime)"
