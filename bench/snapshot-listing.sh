#!/usr/bin/env bash
# Benchmark: a streamed listing of 600,000 snapshots (GET /api2/json/admin/datastore/big/snapshots)
# from a jpbs server running with -Xmx256m; prints the listing time and the server's peak heap
# (the largest heap occupancy the GC log shows, before or after any collection).
# Usage: bench/snapshot-listing.sh [GROUPS] [PER_GROUP] [RUNS]   (default 6000 x 100, 3 runs)
# Environment: JPBS_BENCH_DS_DIR (default /dev/shm/jpbs-listing-bench; needs about 4 GB on tmpfs
#   for 600,000 snapshot directories with their manifests), JPBS_BENCH_PORT (18207),
#   JPBS_BENCH_HEAP (256m).
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
groups=${1:-6000}
per=${2:-100}
runs=${3:-3}
dir=${JPBS_BENCH_DS_DIR:-/dev/shm/jpbs-listing-bench}
port=${JPBS_BENCH_PORT:-18207}
heap=${JPBS_BENCH_HEAP:-256m}
jpbs="$root/jpbs"
# shellcheck source=../scripts/find-jdk.sh
. "$root/scripts/find-jdk.sh"
jpbs_find_jdk
"$jpbs" --version >/dev/null
export JPBS_SKIP_BUILD=1
cp="$root/cli/target/jpbs-cli.jar:$root/cli/target/lib/*"
cfg="$dir/config"
serve_pid=""
cleanup() {
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
rm -rf "$dir"
mkdir -p "$cfg"
secret=$("$jpbs" user token create root@pam bench --config-dir "$cfg" --output-format json 2>/dev/null |
  sed -n 's/.*"value":"\([^"]*\)".*/\1/p')
"$jpbs" acl update /datastore DatastoreAdmin --auth-id 'root@pam!bench' --config-dir "$cfg" 2>/dev/null
"$jpbs" datastore create -q big "$dir/big" --sync-level none --config-dir "$cfg"
"$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$cp" "$root/bench/MakeSnapshots.java" "$dir/big" "$groups" "$per" 'root@pam!bench' 4

JPBS_JAVA_OPTS="-Xmx$heap -Xlog:gc:file=$dir/gc.log" "$jpbs" serve --bind 127.0.0.1 --port "$port" --config-dir "$cfg" \
  >"$dir/serve.log" 2>&1 &
serve_pid=$!
for _ in $(seq 300); do
  grep -q 'listening on' "$dir/serve.log" 2>/dev/null && break
  kill -0 "$serve_pid" 2>/dev/null || { cat "$dir/serve.log" >&2; exit 1; }
  sleep 0.1
done
echo "$((groups * per)) snapshots ($groups groups x $per), server -Xmx$heap, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
secs=()
for i in $(seq "$runs"); do
  line=$("$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$cp" "$root/bench/ListSnapshots.java" "$port" "root@pam!bench:$secret" big)
  echo "run $i: $line" >&2
  secs+=("$(awk '{print $7}' <<<"$line")")
  grep -q "listed $((groups * per)) snapshots" <<<"$line" || { echo "wrong snapshot count" >&2; exit 1; }
done
kill -0 "$serve_pid" || { echo "server died (out of memory?)" >&2; cat "$dir/serve.log" >&2; exit 1; }
median=$(printf '%s\n' "${secs[@]}" | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
# G1 log lines: "... Pause Young (Normal) (G1 Evacuation Pause) 120M->30M(256M) 3.1ms"
# peak: largest occupancy seen (before a collection: mostly garbage waiting to be collected);
# live: largest occupancy right after a collection (what the server really holds)
read -r peak live committed < <(grep -oE '[0-9]+M->[0-9]+M\([0-9]+M\)' "$dir/gc.log" | tr -c '0-9\n' ' ' |
  awk '{ if ($1>m) m=$1; if ($2>l) l=$2; if ($3>c) c=$3 } END{print m+0, l+0, c+0}')
gcs=$(grep -c 'Pause' "$dir/gc.log" || true)
printf '\n%-40s %s\n' "snapshots listed (streamed)" "$((groups * per))"
printf '%-40s %s s (median of %s runs)\n' "listing time" "$median" "$runs"
printf '%-40s %s MiB (limit %s, committed at most %s MiB, %s GC pauses)\n' "server peak heap in use" \
  "$peak" "$heap" "$committed" "$gcs"
printf '%-40s %s MiB\n' "server heap after GC, largest (live)" "$live"
