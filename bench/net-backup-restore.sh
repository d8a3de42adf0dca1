#!/usr/bin/env bash
# Network benchmark: the same backup and restore through a local datastore, through a jpbs server
# ('jpbs serve') on loopback, and through a TCP proxy that adds latency; the ratios between them;
# and the memory of client and server (docs/network-client.md, "Benchmark").
# Usage: bench/net-backup-restore.sh [SIZE_MIB] [RUNS] [DELAY_MS]
#   SIZE_MIB  image size (default 1024), an ext4 image filled with the files of /usr/share
#   RUNS      runs per measurement (default 3); the table shows the median. The cases run
#             interleaved (local, loopback, delayed, then again), so load changes hit all alike.
#   DELAY_MS  one-way delay of the proxy (default 10, i.e. a 20 ms round trip)
# Environment:
#   JPBS_BENCH_DIR      where the image is kept (default /tmp/jpbs-bench)
#   JPBS_BENCH_DS_DIR   datastores, server config, restore target (default /dev/shm/jpbs-net-bench)
#   JPBS_BENCH_PORT     server port (default 18007; the proxy listens on PORT+1)
#   JPBS_BENCH_BUILD    the jpbs checkout to measure (default: this one), e.g. to run this script
#                       against an older build
#   JPBS_BENCH_UP, JPBS_BENCH_DOWN  upload / fetch concurrencies over loopback (default "16", the
#                       clients' default; e.g. "1 4 8 16" for a sweep); the delayed row uses 16
#   JPBS_BENCH_PBS      "BACKUP RESTORE": MiB/s of the PBS client against a PBS server measured
#                       elsewhere, to print the ratio to it
#   JPBS_BENCH_MEM=0    skip the memory figures; JPBS_BENCH_SPARSE_GIB (default 64): size of the
#                       sparse image whose backup gives the client's peak RSS;
#                       JPBS_BENCH_SESSIONS (default 16) concurrent backups of the first
#                       JPBS_BENCH_MEM_MIB (default 256) MiB of the image give the server's peak RSS;
#                       JPBS_BENCH_MEM_ONLY=1 runs only that server figure (no throughput table, no
#                       client figure; SIZE_MIB still names the image the slices come from)
#   SERVE_JAVA_OPTS     extra JVM options of the server (e.g. -Xmx512m, -XX:NativeMemoryTracking=summary)
# The server runs for the whole benchmark (warmed up by three backups and restores first); before
# each timed backup the datastore's chunks and snapshots are deleted, so every chunk is uploaded
# and stored. Times are wall-clock seconds of whole client commands (JVM start included); MiB =
# 2^20 bytes; RSS is VmHWM. Client, server and proxy share the machine's cores.
set -euo pipefail
here="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
root=$(readlink -f "${JPBS_BENCH_BUILD:-$here}")
size=${1:-1024}
runs=${2:-3}
delay=${3:-10}
work=${JPBS_BENCH_DIR:-/tmp/jpbs-bench}
dsdir=${JPBS_BENCH_DS_DIR:-/dev/shm/jpbs-net-bench}
port=${JPBS_BENCH_PORT:-18007}
pport=$((port + 1))
mkdir -p "$work" "$dsdir"
img="$work/ext4-$size-usr_share.img"   # the same image as bench/backup-restore.sh makes
jpbs="$root/jpbs"
# shellcheck source=../scripts/find-jdk.sh
. "$here/scripts/find-jdk.sh"
jpbs_find_jdk
# shellcheck source=serve-lib.sh
. "$here/bench/serve-lib.sh"

[ -f "$img" ] || "$here/bench/make-ext4-image.sh" "$img" "$size" /usr/share
"$jpbs" --version >/dev/null   # builds on first use, outside the timings
export JPBS_SKIP_BUILD=1
bytes=$(stat -c %s "$img")
mib=$(awk -v b="$bytes" 'BEGIN{printf "%.1f", b/1048576}')
ds="$dsdir/ds"
lds="$dsdir/local"
proxy_pid=""

cleanup() {
  stop_server
  [ -n "$proxy_pid" ] && kill "$proxy_pid" 2>/dev/null && wait "$proxy_pid" 2>/dev/null || true
  rm -rf "$ds" "$lds" "$dsdir/restored.img" "$dsdir/sparse.img" "$dsdir/slice.img"
}
trap cleanup EXIT

declare -A secs samples ccpu scpu
record() { # name seconds
  samples[$1]="${samples[$1]:-} $2"
}
TIMEFORMAT='%3U %3S'
# runs a command, records its wall seconds, its CPU seconds (user + system of the command and its
# children) and the CPU seconds jpbs serve used meanwhile (0 when no server runs)
measure() { # name command...
  local name=$1 t0 t1 s0 s1
  shift
  s0=$(server_cpu); t0=$(now)
  { time "$@" >/dev/null; } 2>"$dsdir/last.time"
  t1=$(now); s1=$(server_cpu)
  record "$name" "$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", b-a}')"
  ccpu[$name]="${ccpu[$name]:-} $(awk 'END{printf "%.2f", $1 + $2}' "$dsdir/last.time")"
  scpu[$name]="${scpu[$name]:-} $(awk -v a="$s0" -v b="$s1" 'BEGIN{printf "%.2f", b-a}')"
}
server_cpu() { if [ -n "${serve_pid:-}" ] && [ -e "/proc/$serve_pid/stat" ]; then cpu_secs "$serve_pid"; else echo 0; fi; }
fresh() { # empty datastore (chunks and snapshots), same directories
  find "$1/.chunks" -type f -delete
  rm -rf "$1/vm"
}
repo() { echo "root@pam!bench@127.0.0.1:$1:store1"; }
backup() { # repository concurrency [image [id]]
  "$jpbs" backup -q --repository "$1" --backup-type vm --backup-id "${4:-100}" \
    --upload-concurrency "$2" "drive-scsi0.img:${3:-$img}"
}
local_backup() { "$jpbs" backup -q --repository "$lds" --backup-type vm --backup-id 100 "drive-scsi0.img:$img"; }
restore() { # repository concurrency
  rm -f "$dsdir/restored.img"
  "$jpbs" restore -q --repository "$1" --fetch-concurrency "$2" vm/100 drive-scsi0.img "$dsdir/restored.img"
}
local_restore() {
  rm -f "$dsdir/restored.img"
  "$jpbs" restore -q --repository "$lds" vm/100 drive-scsi0.img "$dsdir/restored.img"
}
same_image() {
  [ "$(sha256sum < "$img")" = "$(sha256sum < "$dsdir/restored.img")" ] ||
    { echo "$1: the restored image differs from the original!" >&2; exit 1; }
}

up_list=${JPBS_BENCH_UP:-16}
down_list=${JPBS_BENCH_DOWN:-16}
load_start=$(load)
echo "image: $img ($mib MiB), build $root ($(git -C "$root" log --oneline -1 | cut -c1-60)), $runs runs each," \
  "$(nproc) cores, data in $dsdir; uptime: $(uptime)" >&2

serve_identity
mem_only=${JPBS_BENCH_MEM_ONLY:-0}
if [ "$mem_only" != 1 ]; then
start_server "$ds"
rm -rf "$lds"
"$jpbs" datastore create "$lds" >/dev/null 2>&1
# warm-up of the server, which in use runs for days: its JIT still compiles a few hundred methods
# in each of the first backups (docs/network-client.md, "Session 11")
for _ in 1 2 3; do fresh "$ds"; backup "$(repo "$port")" 16 >/dev/null; restore "$(repo "$port")" 16 >/dev/null; done

# the latency proxy (runs for the whole benchmark)
java "$here/bench/DelayProxy.java" "$pport" 127.0.0.1 "$port" "$delay" >"$dsdir/proxy.log" 2>&1 &
proxy_pid=$!
for _ in $(seq 100); do grep -q 'listening on' "$dsdir/proxy.log" 2>/dev/null && break; sleep 0.1; done

for r in $(seq "$runs"); do
  fresh "$lds"; measure backup-local local_backup
  for c in $up_list; do fresh "$ds"; measure "backup-loopback-$c" backup "$(repo "$port")" "$c"; done
  fresh "$ds"; measure backup-delay backup "$(repo "$pport")" 16
  measure restore-local local_restore
  [ "$r" = 1 ] && same_image "local restore"
  for c in $down_list; do measure "restore-loopback-$c" restore "$(repo "$port")" "$c"; done
  [ "$r" = 1 ] && same_image "restore over loopback"
  measure restore-delay restore "$(repo "$pport")" 16
  [ "$r" = 1 ] && same_image "restore through the proxy"
  echo "  run $r done, load $(load)" >&2
done
for k in "${!samples[@]}"; do
  # shellcheck disable=SC2086
  secs[$k]=$(printf '%s\n' ${samples[$k]} | median)
  echo "  $k:${samples[$k]} s" >&2
done

rate() { awk -v m="$mib" -v s="$1" 'BEGIN{printf "%.1f", m/s}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", b/a}'; }   # seconds: how fast a is relative to b
rtt=$(awk -v d="$delay" 'BEGIN{printf "%g", 2*d}')
printf '\nimage %s MiB, median of %s runs, MiB/s of whole commands; load %s at start, %s at end\n' \
  "$mib" "$runs" "$load_start" "$(load)"
printf '%-44s %10s %10s\n' path backup restore
printf '%-44s %10s %10s\n' "jpbs, local datastore" "$(rate "${secs[backup-local]}")" "$(rate "${secs[restore-local]}")"
for c in $(printf '%s\n' $up_list $down_list | sort -gu); do
  b=-; r=-
  [ -n "${secs[backup-loopback-$c]:-}" ] && b=$(rate "${secs[backup-loopback-$c]}")
  [ -n "${secs[restore-loopback-$c]:-}" ] && r=$(rate "${secs[restore-loopback-$c]}")
  printf '%-44s %10s %10s\n' "jpbs -> jpbs serve, loopback, concurrency $c" "$b" "$r"
done
printf '%-44s %10s %10s\n' "jpbs -> jpbs serve, +$rtt ms RTT, concurrency 16" \
  "$(rate "${secs[backup-delay]}")" "$(rate "${secs[restore-delay]}")"
lb=${secs[backup-loopback-16]:-}; lr=${secs[restore-loopback-16]:-}
if [ -n "$lb" ] && [ -n "$lr" ]; then
  printf 'loopback / local:            backup %s  restore %s   (goal >= 0.80)\n' \
    "$(ratio "$lb" "${secs[backup-local]}")" "$(ratio "$lr" "${secs[restore-local]}")"
  printf '+%s ms RTT / loopback:        backup %s  restore %s   (goal >= 0.85)\n' "$rtt" \
    "$(ratio "${secs[backup-delay]}" "$lb")" "$(ratio "${secs[restore-delay]}" "$lr")"
  if [ -n "${JPBS_BENCH_PBS:-}" ]; then
    read -r pb pr <<<"$JPBS_BENCH_PBS"
    printf 'loopback / PBS pair:         backup %s  restore %s   (PBS: %s / %s MiB/s; goal backup >= 4)\n' \
      "$(awk -v a="$(rate "$lb")" -v b="$pb" 'BEGIN{printf "%.2f", a/b}')" \
      "$(awk -v a="$(rate "$lr")" -v b="$pr" 'BEGIN{printf "%.2f", a/b}')" "$pb" "$pr"
  fi
fi
printf 'restored images match the original: yes\n'
# CPU: on two cores shared by client and server, a loopback command cannot take less wall time than
# (client + server CPU seconds) / cores; the ceiling is the loopback/local ratio that bound allows
med() { printf '%s\n' $1 | median; }
cores=$(nproc)
printf '\nCPU seconds, median of %s runs (client: the jpbs command with its children; server: jpbs serve meanwhile)\n' "$runs"
printf '%-34s %8s %8s %8s %8s %10s\n' command wall client server sum "cores used"
for k in backup-local backup-loopback-16 restore-local restore-loopback-16; do
  [ -n "${samples[$k]:-}" ] || continue
  w=${secs[$k]}; c=$(med "${ccpu[$k]}"); sv=$(med "${scpu[$k]}")
  printf '%-34s %8.2f %8.2f %8.2f %8.2f %10.2f\n' "$k" "$w" "$c" "$sv" "$(awk -v a="$c" -v b="$sv" 'BEGIN{print a+b}')" \
    "$(awk -v a="$c" -v b="$sv" -v w="$w" 'BEGIN{print (a+b)/w}')"
done
if [ -n "$lb" ] && [ -n "$lr" ]; then
  ceiling() { # local-name net-name
    awk -v w="${secs[$1]}" -v c="$(med "${ccpu[$2]}")" -v s="$(med "${scpu[$2]}")" -v n="$cores" \
      'BEGIN{printf "%.2f", w / ((c + s) / n)}'
  }
  printf 'ceiling of loopback / local on %s cores at this CPU per command: backup %s  restore %s\n' "$cores" \
    "$(ceiling backup-local backup-loopback-16)" "$(ceiling restore-local restore-loopback-16)"
fi
# the floor under any network backup: the client does at least the local engine's work, and the server
# checks every new chunk (CRC, zstd decompression, SHA-256 of the plaintext: PBS does it too)
check=$("$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow \
  -cp "$root/cli/target/jpbs-cli.jar:$root/cli/target/lib/*" "$here/bench/UploadCheckCost.java" "$lds" 3 3 | awk '{print $2}')
lcpu=$(med "${ccpu[backup-local]}")
printf "server's upload check of this backup's chunks, warm, one thread: %s CPU s; with the local engine's %s CPU s\n" "$check" "$lcpu"
printf 'that bounds loopback / local backup on %s cores even if TLS, HTTP/2 and the second process cost nothing: %s\n' \
  "$cores" "$(awk -v w="${secs[backup-local]}" -v c="$lcpu" -v k="$check" -v n="$cores" 'BEGIN{printf "%.2f", w * n / (c + k)}')"
fi

if [ "${JPBS_BENCH_MEM:-1}" != 0 ]; then
  gib=${JPBS_BENCH_SPARSE_GIB:-64}
  sessions=${JPBS_BENCH_SESSIONS:-16}
  slice_mib=${JPBS_BENCH_MEM_MIB:-256}
  if [ "$mem_only" != 1 ]; then
  rm -f "$dsdir/sparse.img"
  truncate -s "${gib}G" "$dsdir/sparse.img"
  fresh "$ds"
  t0=$(now)
  /usr/bin/time -o "$dsdir/time.out" -f '%M' "$jpbs" backup -q --repository "$(repo "$port")" --backup-type vm \
    --backup-id 200 "drive-scsi0.img:$dsdir/sparse.img" >/dev/null
  crss=$(tail -n1 "$dsdir/time.out")   # KiB
  csecs=$(awk -v a="$t0" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}')
  rm -f "$dsdir/sparse.img" "$dsdir/time.out"
  fi
  # a fresh server, so its VmHWM is this test's
  stop_server
  start_server "$ds"
  head -c "$((slice_mib << 20))" "$img" >"$dsdir/slice.img"
  t0=$(now)
  pids=()
  for i in $(seq "$sessions"); do
    backup "$(repo "$port")" 16 "$dsdir/slice.img" "$((300 + i))" >/dev/null 2>"$dsdir/mem-$i.log" &
    pids+=($!)
  done
  failed=0
  for p in "${pids[@]}"; do wait "$p" || failed=$((failed + 1)); done
  ssecs=$(awk -v a="$t0" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}')
  srss=$(peak_rss_mib "$serve_pid")
  [ "$failed" = 0 ] || { echo "$failed of the $sessions concurrent backups failed:" >&2; cat "$dsdir"/mem-*.log >&2; exit 1; }
  rm -f "$dsdir"/mem-*.log "$dsdir/slice.img"
  [ "$mem_only" = 1 ] || printf 'client peak RSS, backup of a %s GiB sparse image over loopback: %s MiB (goal <= 512), %s s\n' \
    "$gib" "$((crss / 1024))" "$csecs"
  printf 'server peak RSS, %s concurrent backups of %s MiB (%s MiB in all): %s MiB (goal <= 1024), %s s\n' \
    "$sessions" "$slice_mib" "$((sessions * slice_mib))" "$srss" "$ssecs"
fi
echo "uptime at end: $(uptime)"
