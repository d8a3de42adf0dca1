#!/usr/bin/env bash
# Benchmark: GET /api2/json/admin/datastore/{store}/status?verbose=0 on a jpbs server with 1,000
# datastores in datastore.cfg, 16 parallel HTTPS/1.1 keep-alive clients (bench/StatusLoad.java,
# Netty), 5 requests per store, API token auth. Prints requests/s and p50/p99 latency per run and
# the median of the runs.
# Usage: bench/datastore-status.sh [STORES] [RUNS] [CLIENTS] [PER_STORE]
#   defaults 1000 stores, 5 timed runs, 16 clients, 5 requests per store; before them
#   JPBS_BENCH_WARMUP (10) untimed runs let the JIT compile the server (a long-running server is measured)
# Environment: JPBS_BENCH_DS_DIR (default /dev/shm/jpbs-status-bench), JPBS_BENCH_PORT (18107).
# Datastores use the light layout of bench/MakeDatastores.java (see there why). Client and server
# share the machine's cores.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
stores=${1:-1000}
runs=${2:-5}
clients=${3:-16}
per=${4:-5}
warmup=${JPBS_BENCH_WARMUP:-10}
dir=${JPBS_BENCH_DS_DIR:-/dev/shm/jpbs-status-bench}
port=${JPBS_BENCH_PORT:-18107}
# shellcheck source=serve-lib.sh
. "$root/bench/serve-lib.sh"
bench_init "$dir"
bench_token /datastore DatastoreAdmin
"$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$cp" "$root/bench/MakeDatastores.java" "$cfg" "$dir/stores" "$stores"
bench_serve "$port"
echo "$stores datastores, $clients clients, $per requests per store, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2

out=$("$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$cp" "$root/bench/StatusLoad.java" "$port" "root@pam!bench:$secret" "$stores" "$per" \
  "$clients" "$runs" "$warmup" | tee /dev/stderr)
median() { sort -g | awk '{a[NR]=$1} END{ if (NR%2) print a[(NR+1)/2]; else printf "%.2f\n", (a[NR/2]+a[NR/2+1])/2 }'; }
rps=$(grep '^run' <<<"$out" | awk '{print $6}' | median)
p50=$(grep '^run' <<<"$out" | awk '{print $9}' | median)
p99=$(grep '^run' <<<"$out" | awk '{print $12}' | median)
bench_stop
reads=$(sed -n 's/.*datastore.cfg was read \([0-9]*\) times.*/\1/p' "$dir/serve.log")
printf '\n%-28s %10s %10s %10s\n' "status?verbose=0, median of $runs" "req/s" "p50 ms" "p99 ms"
printf '%-28s %10s %10s %10s\n' "$stores stores, $clients clients" "$rps" "$p50" "$p99"
printf 'datastore.cfg reads by the server over all %s requests: %s\n' "$(( (runs + warmup) * stores * per ))" "${reads:-?}"
