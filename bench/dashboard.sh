#!/usr/bin/env bash
# Benchmark: the web interface's dashboard on a jpbs server with 1,000 datastores holding 100,000
# snapshots (10 groups x 10 snapshots each; one group in ten stale) and a full task archive (10,000
# backup tasks of the last 7 days, what a server keeps for its listings). Times every API call the
# dashboard makes, in its order, as a browser would (bench/DashboardLoad.java: HTTPS/1.1
# keep-alive, at most 6 requests at a time), with an API token of root@pam (Admin on /, so
# it sees what root's dashboard shows). Prints each run and a table of the medians, with the
# machine's load. Results: docs/ui.md#dashboard-benchmark.
# Usage: bench/dashboard.sh [STORES] [GROUPS] [PER_GROUP] [RUNS]   (default 1000 10 10 5)
#   JPBS_BENCH_WARMUP (2) untimed runs come first.
# Environment: JPBS_BENCH_DS_DIR (default /dev/shm/jpbs-dashboard-bench; about 1 GB on tmpfs),
#   JPBS_BENCH_PORT (18307).
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
stores=${1:-1000}
groups=${2:-10}
per=${3:-10}
runs=${4:-5}
warmup=${JPBS_BENCH_WARMUP:-2}
dir=${JPBS_BENCH_DS_DIR:-/dev/shm/jpbs-dashboard-bench}
port=${JPBS_BENCH_PORT:-18307}
# shellcheck source=serve-lib.sh
. "$root/bench/serve-lib.sh"
bench_init "$dir"
bench_token / Admin
java=("$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$cp")
"${java[@]}" "$root/bench/MakeDatastores.java" "$cfg" "$dir/stores" "$stores"
"${java[@]}" "$root/bench/MakeSnapshots.java" "$dir/stores" "$groups" "$per" 'root@pam' 4 "$stores"
"${java[@]}" "$root/bench/MakeTaskArchive.java" "$cfg" 10000 "$stores" "$groups"
bench_serve "$port"
echo "$stores datastores, $((stores * groups * per)) snapshots, $(nproc) cores; uptime: $(uptime)" >&2
"${java[@]}" "$root/bench/DashboardLoad.java" "$port" "root@pam!bench:$secret" "$runs" "$warmup"
echo "uptime at end: $(uptime)"
