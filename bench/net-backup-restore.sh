#!/usr/bin/env bash
# Network benchmark: backup and restore through a jpbs server ('jpbs serve') over loopback,
# and again through a TCP proxy that adds latency, at several upload/fetch concurrencies.
# Usage: bench/net-backup-restore.sh [SIZE_MIB] [RUNS] [DELAY_MS]
#   SIZE_MIB  image size (default 1024), an ext4 image filled with the files of /usr/share
#   RUNS      runs per measurement (default 3); the table shows the median
#   DELAY_MS  one-way delay of the proxy (default 1, i.e. a 2 ms round trip)
# Environment: JPBS_BENCH_DIR (image, default /tmp/jpbs-bench); JPBS_BENCH_DS_DIR (datastore,
#   server config, restore target; default /dev/shm/jpbs-net-bench); JPBS_BENCH_PORT (server
#   port, default 18007; the proxy listens on PORT+1).
# The server runs for the whole benchmark (warmed up by one backup and restore first); before
# each timed backup its chunks and snapshots are deleted, so every chunk is uploaded and stored.
# Times are wall-clock seconds of whole client commands (JVM start included); MiB = 2^20
# bytes. Client, server and proxy share the machine's cores.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
size=${1:-1024}
runs=${2:-3}
delay=${3:-1}
work=${JPBS_BENCH_DIR:-/tmp/jpbs-bench}
dsdir=${JPBS_BENCH_DS_DIR:-/dev/shm/jpbs-net-bench}
port=${JPBS_BENCH_PORT:-18007}
pport=$((port + 1))
mkdir -p "$work" "$dsdir"
img="$work/ext4-$size-usr_share.img"   # the same image as bench/backup-restore.sh makes
jpbs="$root/jpbs"
# shellcheck source=../scripts/find-jdk.sh
. "$root/scripts/find-jdk.sh"
jpbs_find_jdk

[ -f "$img" ] || "$root/bench/make-ext4-image.sh" "$img" "$size" /usr/share
"$jpbs" --version >/dev/null   # builds on first use, outside the timings
export JPBS_SKIP_BUILD=1
bytes=$(stat -c %s "$img")
mib=$(awk -v b="$bytes" 'BEGIN{printf "%.1f", b/1048576}')
cfg="$dsdir/config"
ds="$dsdir/ds"
serve_pid=""
proxy_pid=""

cleanup() {
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null || true
  [ -n "$proxy_pid" ] && kill "$proxy_pid" 2>/dev/null && wait "$proxy_pid" 2>/dev/null || true
  rm -rf "$ds" "$dsdir/restored.img"
}
trap cleanup EXIT

# server identity: config dir with a token that may back up and read everything
rm -rf "$cfg"
mkdir -p "$cfg"
secret=$("$jpbs" user token create root@pam bench --config-dir "$cfg" --output-format json 2>/dev/null |
  sed -n 's/.*"value":"\([^"]*\)".*/\1/p')
[ -n "$secret" ] || { echo "could not create an API token" >&2; exit 1; }
"$jpbs" acl update /datastore DatastoreAdmin --auth-id 'root@pam!bench' --config-dir "$cfg" 2>/dev/null
fp=$("$jpbs" cert info --config-dir "$cfg" | sed -n 's/^fingerprint: //p')

start_server() {
  rm -rf "$ds"
  "$jpbs" serve --datastore "store1=$ds" --bind 127.0.0.1 --port "$port" --config-dir "$cfg" \
    >"$dsdir/serve.log" 2>&1 &
  serve_pid=$!
  for _ in $(seq 300); do
    grep -q 'listening on' "$dsdir/serve.log" 2>/dev/null && return 0
    kill -0 "$serve_pid" 2>/dev/null || break
    sleep 0.1
  done
  cat "$dsdir/serve.log" >&2
  echo "jpbs serve did not start" >&2
  exit 1
}

export PBS_PASSWORD="$secret" PBS_FINGERPRINT="$fp"
now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END{ if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2 }'; }
timeit() { local t0 t1; t0=$(now); "$@" >/dev/null; t1=$(now); awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f\n", b-a}'; }

declare -A secs
measure() { # name, prep, command...
  local name=$1 prep=$2; shift 2
  local list=()
  for _ in $(seq "$runs"); do $prep; list+=("$(timeit "$@")"); done
  secs[$name]=$(printf '%s\n' "${list[@]}" | median)
  echo "  $name: ${list[*]} s" >&2
}
fresh() { # empty datastore, same running server
  find "$ds/.chunks" -type f -delete
  rm -rf "$ds/vm"
}
noprep() { :; }
backup() { # repo-port concurrency
  "$jpbs" backup -q --repository "root@pam!bench@127.0.0.1:$1:store1" --backup-type vm --backup-id 100 \
    --upload-concurrency "$2" "drive-scsi0.img:$img"
}
restore() { # repo-port concurrency
  rm -f "$dsdir/restored.img"
  "$jpbs" restore -q --repository "root@pam!bench@127.0.0.1:$1:store1" --fetch-concurrency "$2" \
    vm/100 drive-scsi0.img "$dsdir/restored.img"
}

up_list=${JPBS_BENCH_UP:-"1 4 8 16"}
down_list=${JPBS_BENCH_DOWN:-"1 4 8 12 16 20"}
echo "image: $img ($mib MiB), $runs runs each, $(nproc) cores, server data in $dsdir" >&2

start_server
backup "$port" 16 >/dev/null; restore "$port" 16 >/dev/null   # warm-up of the server, outside the timings

# the latency proxy (runs for the whole benchmark)
java "$root/bench/DelayProxy.java" "$pport" 127.0.0.1 "$port" "$delay" >"$dsdir/proxy.log" 2>&1 &
proxy_pid=$!
for _ in $(seq 100); do grep -q 'listening on' "$dsdir/proxy.log" 2>/dev/null && break; sleep 0.1; done

for net in loopback delay; do
  p=$port; [ "$net" = delay ] && p=$pport
  echo "$net:" >&2
  for c in $up_list; do measure "backup-$net-$c" fresh backup "$p" "$c"; done
  # one snapshot to restore from
  fresh; backup "$port" 16
  for c in $down_list; do measure "restore-$net-$c" noprep restore "$p" "$c"; done
  want=$(sha256sum < "$img"); got=$(sha256sum < "$dsdir/restored.img")
  [ "$want" = "$got" ] || { echo "restored image differs from the original!" >&2; exit 1; }
done

rate() { awk -v m="$mib" -v s="$1" 'BEGIN{printf "%.1f", m/s}'; }
rtt=$(awk -v d="$delay" 'BEGIN{printf "%g", 2*d}')
printf '\nimage %s MiB, median of %s runs, MiB/s (whole command)\n' "$mib" "$runs"
printf '%-10s %-12s %12s %18s\n' "operation" "concurrency" "loopback" "+${rtt} ms RTT"
for c in $up_list; do
  printf '%-10s %-12s %12s %18s\n' backup "$c" "$(rate "${secs[backup-loopback-$c]}")" "$(rate "${secs[backup-delay-$c]}")"
done
for c in $down_list; do
  printf '%-10s %-12s %12s %18s\n' restore "$c" "$(rate "${secs[restore-loopback-$c]}")" "$(rate "${secs[restore-delay-$c]}")"
done
printf 'restored images match the original: yes\n'
