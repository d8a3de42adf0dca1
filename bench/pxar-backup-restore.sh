#!/usr/bin/env bash
# File-archive benchmark: back up a directory tree as a pxar archive (jpbs backup NAME.pxar:DIR)
# and restore it, to a local datastore and through 'jpbs serve' on loopback, next to
# 'tar -cf - | zstd -1' of the same tree.
# Usage: bench/pxar-backup-restore.sh [RUNS] [DIR]
#   RUNS  runs per measurement (default 3); the table shows the median
#   DIR   the tree (default $JPBS_BENCH_TREE, else /usr/share; e.g. JPBS_BENCH_TREE=/usr/share/doc
#         for a quick run while iterating)
# Environment: JPBS_BENCH_DS_DIR (datastores, tar archive, restore targets, server config;
#   default /dev/shm/jpbs-pxar-bench, so the disk's file creation does not dominate);
#   JPBS_BENCH_PORT (server port, default 18017).
# Measured: full backup (empty datastore) MiB/s and files/s; the seconds of a second backup of
# the unchanged tree in the default mode and, if 'jpbs backup' has --change-detection-mode,
# in metadata mode (else n/a), for tar with --listed-incremental; restore MiB/s (extracting the
# tree with its metadata) of the default-mode snapshot, and of the metadata-mode (split archive)
# snapshot. Every measurement line carries the load average (uptime) it ran under. Times are wall-clock seconds of whole commands (JVM start included);
# MiB = 2^20 bytes of regular files' contents. The server and the client share the
# machine's cores. Prints uptime (load) before and after.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
runs=${1:-3}
tree=${2:-${JPBS_BENCH_TREE:-/usr/share}}
dsdir=${JPBS_BENCH_DS_DIR:-/dev/shm/jpbs-pxar-bench}
port=${JPBS_BENCH_PORT:-18017}
jpbs="$root/jpbs"
command -v zstd >/dev/null || { echo "zstd is needed for the baseline (apt-get install zstd)" >&2; exit 1; }
mkdir -p "$dsdir"
"$jpbs" --version >/dev/null   # builds on first use, outside the timings
export JPBS_SKIP_BUILD=1

content_bytes() { find "$1" -xdev -type f -printf '%s\n' | awk '{s+=$1} END{printf "%d\n", s}'; }
bytes=$(content_bytes "$tree")
files=$(find "$tree" -xdev | wc -l)
mib=$(awk -v b="$bytes" 'BEGIN{printf "%.1f", b/1048576}')
ds="$dsdir/ds"
cfg="$dsdir/config"
sds="$dsdir/sds"
out="$dsdir/restored"
serve_pid=""
cleanup() {
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null || true
  rm -rf "$ds" "$sds" "$out" "$dsdir/tree.tar.zst" "$dsdir/incr.tar.zst" "$dsdir/snar" "$dsdir/time"
}
trap cleanup EXIT

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END{ if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2 }'; }
timeit() { local t0 t1; t0=$(now); "$@" >/dev/null; t1=$(now); awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f\n", b-a}'; }
declare -A secs
measure() { # name, prep, command...: median of RUNS, prep runs untimed before each
  local name=$1 prep=$2; shift 2
  local list=()
  for _ in $(seq "$runs"); do $prep; list+=("$(timeit "$@")"); done
  secs[$name]=$(printf '%s\n' "${list[@]}" | median)
  echo "  $name: ${list[*]} s   (load: $(cut -d' ' -f1-3 /proc/loadavg))" >&2
}
noprep() { :; }
check_restored() {
  local got
  got=$(content_bytes "$out")
  [ "$got" = "$bytes" ] || { echo "restored tree has $got bytes in files, the source $bytes" >&2; exit 1; }
}
clear_out() { rm -rf "$out"; }

echo "tree: $tree ($mib MiB in $files entries), $runs runs each, $(nproc) cores, data in $dsdir" >&2
echo "before: $(uptime)" >&2

# --- tar + zstd -1
tar_full() { tar -cf - -C "$tree" . | zstd -1 -q -f -o "$dsdir/tree.tar.zst"; }
tar_incr_base() { rm -f "$dsdir/snar"; tar -g "$dsdir/snar" -cf - -C "$tree" . | zstd -1 -q -f -o "$dsdir/incr.tar.zst"; }
tar_incr() { cp "$dsdir/snar" "$dsdir/snar.1"; tar -g "$dsdir/snar.1" -cf - -C "$tree" . | zstd -1 -q -f -o "$dsdir/incr2.tar.zst"; }
tar_restore() { mkdir -p "$out"; zstd -dc "$dsdir/tree.tar.zst" | tar -xf - -C "$out"; }
echo "tar | zstd -1:" >&2
measure tar-full noprep tar_full
tar_incr_base
measure tar-incr noprep tar_incr
measure tar-restore clear_out tar_restore
check_restored
rm -f "$dsdir/incr.tar.zst" "$dsdir/incr2.tar.zst" "$dsdir/snar.1"

# --- jpbs
metadata=no
"$jpbs" backup --help 2>/dev/null | grep -q -- '--change-detection-mode' && metadata=yes
echo 1700000000 >"$dsdir/time"
backup() { # repo [extra options]; every snapshot gets its own time (timed runs are subshells)
  local repo=$1 t; shift
  t=$(($(cat "$dsdir/time") + 60))
  echo "$t" >"$dsdir/time"
  "$jpbs" backup -q --repository "$repo" --backup-type host --backup-id bench --backup-time "$t" "$@" "root.pxar:$tree"
}
restore() { # repo [snapshot time]: the latest snapshot, or the one of that time
  local snap=host/bench
  [ -n "${2:-}" ] && snap="host/bench/$(date -u -d "@$2" +%Y-%m-%dT%H:%M:%SZ)"
  "$jpbs" restore -q --repository "$1" "$snap" root.pxar "$out"
}

run_jpbs() { # label repo wipe-function
  local label=$1 repo=$2 wipe=$3
  echo "jpbs $label:" >&2
  measure "$label-full" "$wipe" backup "$repo"
  measure "$label-incr" noprep backup "$repo"
  local legacy
  legacy=$(cat "$dsdir/time")
  if [ "$metadata" = yes ]; then
    backup "$repo" --change-detection-mode metadata >/dev/null   # the first one writes the metadata archive
    measure "$label-meta" noprep backup "$repo" --change-detection-mode metadata
  fi
  measure "$label-restore" clear_out restore "$repo" "$legacy"
  check_restored
  if [ "$metadata" = yes ]; then
    measure "$label-restore-split" clear_out restore "$repo"
    check_restored
  fi
}

wipe_local() { rm -rf "$ds"; "$jpbs" datastore create "$ds" >/dev/null 2>&1; }
run_jpbs local "$ds" wipe_local
rm -rf "$ds"

# server identity: a token that may back up and read everything
rm -rf "$cfg"
mkdir -p "$cfg"
secret=$("$jpbs" user token create root@pam bench --config-dir "$cfg" --output-format json 2>/dev/null |
  sed -n 's/.*"value":"\([^"]*\)".*/\1/p')
[ -n "$secret" ] || { echo "could not create an API token" >&2; exit 1; }
"$jpbs" acl update /datastore DatastoreAdmin --auth-id 'root@pam!bench' --config-dir "$cfg" 2>/dev/null
fp=$("$jpbs" cert info --config-dir "$cfg" | sed -n 's/^fingerprint: //p')
"$jpbs" serve --datastore "store1=$sds" --bind 127.0.0.1 --port "$port" --config-dir "$cfg" >"$dsdir/serve.log" 2>&1 &
serve_pid=$!
for _ in $(seq 300); do
  grep -q 'listening on' "$dsdir/serve.log" 2>/dev/null && break
  kill -0 "$serve_pid" 2>/dev/null || { cat "$dsdir/serve.log" >&2; exit 1; }
  sleep 0.1
done
export PBS_PASSWORD="$secret" PBS_FINGERPRINT="$fp"
wipe_server() { find "$sds/.chunks" -type f -delete; rm -rf "$sds/host"; }
run_jpbs serve "root@pam!bench@127.0.0.1:$port:store1" wipe_server

echo "after: $(uptime)" >&2
rate() { awk -v n="$1" -v s="$2" 'BEGIN{ if (s > 0) printf "%.1f", n/s; else print "n/a" }'; }
files_rate() { awk -v n="$files" -v s="$1" 'BEGIN{ if (s > 0) printf "%.0f", n/s; else print "n/a" }'; }
row() { # label full incr meta restore restore-split
  printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$1" "$(rate "$mib" "$2")" "$(files_rate "$2")" "$3" "$4" \
    "$(rate "$mib" "$5")" "$([ "$6" = n/a ] && echo n/a || rate "$mib" "$6")"
}
echo
echo "$tree: $mib MiB, $files entries; median of $runs; $(nproc) cores"
echo
echo "| | full backup MiB/s | files/s | unchanged 2nd backup s (default) | (metadata mode) | restore MiB/s | (split archive) |"
echo "|---|---|---|---|---|---|---|"
row "tar -cf - \| zstd -1 (2nd: tar -g)" "${secs[tar-full]}" "${secs[tar-incr]}" "n/a" "${secs[tar-restore]}" n/a
row "jpbs, local datastore" "${secs[local-full]}" "${secs[local-incr]}" "${secs[local-meta]:-n/a}" "${secs[local-restore]}" \
  "${secs[local-restore-split]:-n/a}"
row "jpbs, through jpbs serve" "${secs[serve-full]}" "${secs[serve-incr]}" "${secs[serve-meta]:-n/a}" "${secs[serve-restore]}" \
  "${secs[serve-restore-split]:-n/a}"
echo
echo "load before/after: see above; now: $(uptime)"
