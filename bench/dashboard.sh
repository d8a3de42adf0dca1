#!/usr/bin/env bash
# Benchmark: the web interface's dashboard on a jpbs server with 1,000 datastores holding 100,000
# snapshots (10 groups x 10 snapshots each; one group in ten stale), a full task archive (10,000
# tasks of the last 7 days: backups, GCs, verifications; what a server keeps for its listings)
# and, with JPBS_BENCH_HISTORY=1, a month of usage history per datastore (what a server that ran
# for a month answers in status/datastore-usage). Two measurements:
# 1. every API call the dashboard makes, in its order, as a browser would (bench/DashboardLoad.java:
#    HTTPS/1.1 keep-alive, at most 6 requests at a time, Chromium's Accept-Encoding), with an API
#    token of root@pam (Admin on /, so it sees what root's dashboard shows);
# 2. the page itself in headless Chromium (bench/DashboardPage.java, through chromedriver): from
#    the start of the navigation to the datastore table, and to the whole dashboard, in the DOM
#    (the page's User Timing marks); skipped with a message without chromium/chromedriver.
# Prints each run and tables of the medians, with the machine's load. Results:
# docs/ui.md#dashboard-benchmark.
# Usage: bench/dashboard.sh [STORES] [GROUPS] [PER_GROUP] [RUNS]   (default 1000 10 10 5)
#   JPBS_BENCH_WARMUP (2) untimed runs come first.
# Environment: JPBS_BENCH_DS_DIR (default /dev/shm/jpbs-dashboard-bench; about 1 GB on tmpfs, with
#   JPBS_BENCH_HISTORY=1 0.4 GB more), JPBS_BENCH_PORT (18307), JPBS_CHROMIUM (/usr/bin/chromium),
#   JPBS_CHROMEDRIVER (/usr/bin/chromedriver).
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
password=bench-password-$$
"$jpbs" user add bench@pbs --password "$password" --config-dir "$cfg" >/dev/null
"$jpbs" acl update / Admin --auth-id bench@pbs --config-dir "$cfg" >/dev/null
java=("$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$cp")
"${java[@]}" "$root/bench/MakeDatastores.java" "$cfg" "$dir/stores" "$stores"
"${java[@]}" "$root/bench/MakeSnapshots.java" "$dir/stores" "$groups" "$per" 'root@pam' 4 "$stores"
"${java[@]}" "$root/bench/MakeTaskArchive.java" "$cfg" 10000 "$stores" "$groups"
if [ "${JPBS_BENCH_HISTORY:-0}" = 1 ]; then
  "${java[@]}" "$root/bench/MakeUsageHistory.java" "$cfg" "$stores"
fi
bench_serve "$port"
echo "$stores datastores, $((stores * groups * per)) snapshots, $(nproc) cores; uptime: $(uptime)" >&2
"${java[@]}" "$root/bench/DashboardLoad.java" "$port" "root@pam!bench:$secret" "$runs" "$warmup"
echo "uptime after the API calls: $(uptime)"
chromium=${JPBS_CHROMIUM:-/usr/bin/chromium}
chromedriver=${JPBS_CHROMEDRIVER:-/usr/bin/chromedriver}
if [ -x "$chromium" ] && [ -x "$chromedriver" ]; then
  "${java[@]}" "$root/bench/DashboardPage.java" "$port" bench@pbs "$password" "$runs" "$warmup" "$chromium" "$chromedriver"
else
  echo "no $chromium or $chromedriver: the page in the browser is not timed" >&2
fi
echo "uptime at end: $(uptime)"
