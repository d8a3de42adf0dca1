#!/usr/bin/env bash
# Sync benchmark: 'jpbs pull' from a 'jpbs serve' on loopback into a local datastore.
# Usage: bench/sync-bench.sh [IMAGE_MIB] [IMAGES] [GROUPS] [PER_GROUP]
#   IMAGE_MIB x IMAGES  random images, one vm snapshot each (default 256 x 4 = 1 GiB)
#   GROUPS x PER_GROUP  small host snapshots (64 KiB image + a blob; default 100 x 10 = 1,000)
# Prints: MiB/s of the image pull, snapshots/s of the small-snapshot pull, the time of a
# no-change re-sync of the small snapshots and the chunks the source server sent for it
# (counted from its reader task logs, 'sent N chunks'; must be 0, else exit 1), and uptime and
# the load average at the start and the end.
# Environment: JPBS_BENCH_DS_DIR (datastores and configs, default /dev/shm/jpbs-sync-bench),
#   JPBS_BENCH_PORT (server port, default 18107).
# Times are wall-clock seconds of whole 'jpbs pull' commands (JVM start included). The source
# datastore is filled directly by the backup engine (bench/MakeSyncSource.java), not timed.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
img_mib=${1:-256}
images=${2:-4}
groups=${3:-100}
per=${4:-10}
dir=${JPBS_BENCH_DS_DIR:-/dev/shm/jpbs-sync-bench}
port=${JPBS_BENCH_PORT:-18107}
# shellcheck source=serve-lib.sh
. "$root/bench/serve-lib.sh"
bench_init "$dir" "$dir/src-config"
mkdir -p "$dir/local-config"
src="$dir/src"
"$jpbs" datastore create "$src" --sync-level none >/dev/null
java_helper() { "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$cp" "$root/bench/MakeSyncSource.java" "$@"; }
java_helper "$src" images images "$images" "$img_mib"
java_helper "$src" small small "$groups" "$per"

bench_token /datastore DatastoreAdmin
fp=$("$jpbs" cert info --config-dir "$cfg" | sed -n 's/^fingerprint: //p')
bench_serve "$port" --datastore "store1=$src"

export JPBS_CONFIG_DIR="$dir/local-config"
"$jpbs" datastore create local "$dir/local" --sync-level none >/dev/null
"$jpbs" remote create src --host 127.0.0.1 --port "$port" --auth-id 'root@pam!bench' --password "$secret" \
  --fingerprint "$fp" >/dev/null

now() { date +%s.%N; }
sent() { grep -rhoa 'sent [0-9]* chunks' "$dir/src-config/log" 2>/dev/null | awk '{s+=$2} END{print s+0}'; }
pull() { # NS -> seconds
  local t0 t1
  t0=$(now)
  "$jpbs" pull --remote src --remote-store store1 --store local --remote-ns "$1" --ns "$1" --max-depth 0 \
    >"$dir/pull-$1.log" 2>&1 || { cat "$dir/pull-$1.log" >&2; exit 1; }
  t1=$(now)
  awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", b-a}'
}
summary() { grep -o 'Summary: .*' "$dir/pull-$1.log"; }

echo "start: $(uptime)"
total_mib=$((img_mib * images))
t=$(pull images)
echo "images:   $total_mib MiB in $images snapshots: ${t} s, $(awk -v m="$total_mib" -v t="$t" 'BEGIN{printf "%.1f", m/t}') MiB/s"
echo "          $(summary images)"
n=$((groups * per))
t=$(pull small)
echo "small:    $n snapshots: ${t} s, $(awk -v n="$n" -v t="$t" 'BEGIN{printf "%.1f", n/t}') snapshots/s"
echo "          $(summary small)"
before=$(sent)
t=$(pull small)
sleep 1; after=$(sent)
resent=$((after - before))
echo "re-sync:  $n snapshots, no change: ${t} s, chunks sent by the source: $resent"
echo "          $(summary small)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
echo "end:   $(uptime)"
# a no-change re-sync must not read a single chunk (counted on the source, not timed)
[ "$resent" -eq 0 ] || { echo "FAIL: the no-change re-sync read $resent chunks" >&2; exit 1; }
