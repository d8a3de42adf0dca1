#!/usr/bin/env bash
# Benchmark of an S3 datastore next to a directory datastore (docs/s3.md#benchmark): backup and
# restore of the same ext4 image with the local commands, once into a directory datastore and
# once into an S3 datastore whose bucket is on s3proxy (started here, https on loopback), plus
# the S3 requests per chunk (counted by jpbs's S3 client, retries included).
# Usage: bench/s3-backup-restore.sh [SIZE_MIB] [RUNS]
#   SIZE_MIB  image size (default 1024), an ext4 image filled with the files of /usr/share
#   RUNS      runs per measurement (default 3); the table shows the median
# Environment: JPBS_BENCH_DIR (image, default /tmp/jpbs-bench); JPBS_BENCH_DS_DIR (datastores,
#   the S3 cache, config, restore target; default /dev/shm/jpbs-s3-bench); JPBS_BENCH_S3_PORT
#   (s3proxy's port, default 18443); JPBS_BENCH_S3_STORE (where s3proxy keeps the objects: "files"
#   (default), files below the data directory, which is on tmpfs by default, or "memory", its heap);
#   JPBS_BENCH_S3_HEAP (s3proxy's heap, default 2g, 6g with "memory": one datastore prefix per
#   backup run); JPBS_BENCH_IMAGE (use this image file
#   instead of making one; SIZE_MIB is then ignored); JPBS_BENCH_BUILD (the jpbs checkout to
#   measure, default this one, e.g. an older build for an A/B comparison; s3proxy and this script
#   stay this checkout's).
# Before the measurements s3proxy is warmed up with two backups and a cold restore of the image's
# first 64 MiB (untimed, other datastores). Measured: "backup" (every chunk new: a fresh directory datastore, a fresh datastore prefix in
# the bucket); "restore, warm cache" (S3: the chunk bodies are in the local cache after the
# backup); "restore, cold cache" (S3: the cache directory deleted first, so the snapshot is
# refreshed from the bucket and every chunk is downloaded). Times are wall-clock seconds of whole
# commands (JVM start included); MiB = 2^20 bytes. jpbs, s3proxy and everything else running on
# the machine share its cores: the ratio S3/directory comes from the same run. The table also shows
# the median CPU seconds (user + system) of the jpbs commands (directory / S3) and of s3proxy during
# the S3 command: the server's share, which a real deployment pays on other machines, is still
# part of the wall-clock figures (the goal figure).
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
size=${1:-1024}
runs=${2:-3}
work=${JPBS_BENCH_DIR:-/tmp/jpbs-bench}
dsdir=${JPBS_BENCH_DS_DIR:-/dev/shm/jpbs-s3-bench}
port=${JPBS_BENCH_S3_PORT:-18443}
s3store=${JPBS_BENCH_S3_STORE:-files}
case "$s3store" in
  files) s3data="$dsdir/s3data"; heap=${JPBS_BENCH_S3_HEAP:-2g} ;;
  memory) s3data=memory; heap=${JPBS_BENCH_S3_HEAP:-6g} ;;
  *) echo "JPBS_BENCH_S3_STORE must be files or memory, got '$s3store'" >&2; exit 2 ;;
esac
mkdir -p "$work" "$dsdir"
img=${JPBS_BENCH_IMAGE:-"$work/ext4-$size-usr_share.img"}   # the same image as bench/backup-restore.sh makes
build=$(readlink -f "${JPBS_BENCH_BUILD:-$root}")
jpbs="$build/jpbs"
# shellcheck source=../scripts/find-jdk.sh
. "$root/scripts/find-jdk.sh"
jpbs_find_jdk

echo "load before: $(uptime)" >&2
[ -f "$img" ] || "$root/bench/make-ext4-image.sh" "$img" "$size" /usr/share
"$jpbs" --version >/dev/null   # builds on first use, outside the timings
export JPBS_SKIP_BUILD=1
bytes=$(stat -c %s "$img")
mib=$(awk -v b="$bytes" 'BEGIN{printf "%.1f", b/1048576}')

s3_pid=""
cleanup() {
  [ -n "$s3_pid" ] && kill "$s3_pid" 2>/dev/null && wait "$s3_pid" 2>/dev/null || true
  rm -rf "$dsdir"
}
trap cleanup EXIT

# s3proxy: its classpath from Maven Central's artifacts already in the local repository
cpfile="$dsdir/s3proxy.classpath"
mvn -B -o -q -f "$root/bench/s3proxy/pom.xml" dependency:build-classpath -Dmdep.outputFile="$cpfile" >&2
"$JAVA_HOME/bin/java" -Xmx"$heap" -Dlogback.configurationFile="$root/bench/s3proxy/logback.xml" -cp "$(cat "$cpfile")" "$root/bench/S3BenchServer.java" "$dsdir/s3" "$port" bench "$s3data" \
  >"$dsdir/s3.log" 2>&1 &
s3_pid=$!
for _ in $(seq 600); do
  grep -q '^listening on' "$dsdir/s3.log" 2>/dev/null && break
  kill -0 "$s3_pid" 2>/dev/null || break
  sleep 0.1
done
grep -q '^listening on' "$dsdir/s3.log" || { cat "$dsdir/s3.log" >&2; echo "s3proxy did not start" >&2; exit 1; }
fp=$(sed -n 's/^listening on .* fingerprint //p' "$dsdir/s3.log")

export JPBS_CONFIG_DIR="$dsdir/config"
mkdir -p "$JPBS_CONFIG_DIR"
"$jpbs" s3 endpoint create bench --endpoint 127.0.0.1 --port "$port" --region us-east-1 \
  --access-key jpbs-bench --secret-key jpbs-bench-secret-key --path-style true --fingerprint "$fp" >/dev/null

# s3proxy warm-up, untimed: a real S3 endpoint is a long-running server, not a JVM that compiles its
# request path during the first measured backup (this halves s3proxy's CPU per request)
head -c $((64 << 20)) "$img" > "$dsdir/warm.img"
for t in 1 2; do
  "$jpbs" datastore create "s3warm$t" "$dsdir/s3cache-warm$t" --backend "type=s3,client=bench,bucket=bench" >/dev/null
  "$jpbs" backup --repository "$dsdir/s3cache-warm$t" --backup-type vm --backup-id 1 "drive-scsi0.img:$dsdir/warm.img" >/dev/null 2>&1
done
rm -rf "$dsdir/s3cache-warm2"
"$jpbs" restore --repository "$dsdir/s3cache-warm2" vm/1 drive-scsi0.img "$dsdir/warm-restored.img" >/dev/null 2>&1
rm -rf "$dsdir/warm.img" "$dsdir/warm-restored.img" "$dsdir"/s3cache-warm*
[ "$s3store" = files ] && rm -rf "$s3data/bench/s3warm1" "$s3data/bench/s3warm2"

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END{ if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2 }'; }
TIMEFORMAT='%3U %3S'
# CPU seconds (user + system) s3proxy has used so far, from /proc/PID/stat (clock ticks)
s3cpu() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f\n", ($14 + $15) / hz}' "/proc/$s3_pid/stat"; }
# wall seconds of the command; its own CPU seconds go to $dsdir/last.cpu, s3proxy's to $dsdir/last.s3cpu
timeit() {
  local t0 t1 c0
  c0=$(s3cpu); t0=$(now)
  { time "$@" >/dev/null 2>"$dsdir/last.log"; } 2>"$dsdir/last.time"   # TIMEFORMAT: user and system CPU
  t1=$(now)
  awk '{printf "%.2f\n", $1 + $2}' "$dsdir/last.time" > "$dsdir/last.cpu"
  awk -v a="$c0" -v b="$(s3cpu)" 'BEGIN{printf "%.2f\n", b - a}' > "$dsdir/last.s3cpu"
  awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f\n", b-a}'
}

declare -A secs perchunk cpu s3cpu
measure() { # name, prep, command...
  local name=$1 prep=$2; shift 2
  local list=() rlist=() clist=() slist=() r
  for _ in $(seq "$runs"); do
    $prep
    list+=("$(timeit "$@")")
    clist+=("$(cat "$dsdir/last.cpu")")
    slist+=("$(cat "$dsdir/last.s3cpu")")
    # "s3: N requests for C chunks, R per chunk" / "s3: N requests" (S3 datastore only)
    r=$(sed -n 's/^s3: \([0-9]*\) requests.*/\1/p' "$dsdir/last.log" | head -n1)
    if [ -n "$r" ]; then rlist+=("$r"); fi
    c=$(sed -n 's/^s3: [0-9]* requests for \([0-9]*\) chunks.*/\1/p' "$dsdir/last.log" | head -n1)
    if [ -n "$c" ]; then chunks=$c; fi
  done
  secs[$name]=$(printf '%s\n' "${list[@]}" | median)
  cpu[$name]=$(printf '%s\n' "${clist[@]}" | median)
  s3cpu[$name]=$(printf '%s\n' "${slist[@]}" | median)
  echo "  $name: ${list[*]} s wall; jpbs CPU ${clist[*]} s; s3proxy CPU ${slist[*]} s (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
  if [ "${#rlist[@]}" -gt 0 ]; then
    perchunk[$name]=$(printf '%s\n' "${rlist[@]}" | median)
    echo "  $name: ${rlist[*]} requests" >&2
  fi
}

chunks=""
n=0
s3cache=""
new_dir() { rm -rf "$dsdir/dir"; "$jpbs" datastore create "$dsdir/dir" >/dev/null 2>&1; }
new_s3() { # a new datastore (its own prefix in the bucket, its own cache); the previous one's objects go
  [ "$s3store" = files ] && [ "$n" -gt 0 ] && rm -rf "$s3data/bench/s3bench$n"
  n=$((n + 1))
  [ -n "$s3cache" ] && rm -rf "$s3cache"
  s3cache="$dsdir/s3cache-$n"
  "$jpbs" datastore create "s3bench$n" "$s3cache" --backend "type=s3,client=bench,bucket=bench" >/dev/null
}
noprep() { :; }
cold() { rm -rf "$s3cache"; }
backup() { "$jpbs" backup --repository "$1" --backup-type vm --backup-id 100 "drive-scsi0.img:$img"; }
restore() { rm -f "$dsdir/restored.img"; "$jpbs" restore --repository "$1" vm/100 drive-scsi0.img "$dsdir/restored.img"; }
backup_s3() { backup "$s3cache"; }
restore_s3() { restore "$s3cache"; }
check() {
  want=$(sha256sum < "$img"); got=$(sha256sum < "$dsdir/restored.img")
  [ "$want" = "$got" ] || { echo "restored image differs from the original ($1)!" >&2; exit 1; }
}

echo "image: $img ($mib MiB), $runs runs each, $(nproc) cores, data in $dsdir, s3proxy store $s3store, build $build ($(git -C "$build" log --oneline -1 2>/dev/null | cut -c1-60))" >&2
measure dir-backup new_dir backup "$dsdir/dir"
measure dir-restore noprep restore "$dsdir/dir"
check directory
measure s3-backup new_s3 backup_s3
measure s3-restore-warm noprep restore_s3
check "s3, warm cache"
measure s3-restore-cold cold restore_s3
check "s3, cold cache"
echo "load after: $(uptime)" >&2

rate() { awk -v m="$mib" -v s="$1" 'BEGIN{printf "%.1f", m/s}'; }
pct() { awk -v d="$1" -v s="$2" 'BEGIN{printf "%.0f %%", 100*d/s}'; }
per() { [ -n "${perchunk[$1]:-}" ] && [ -n "$chunks" ] && awk -v r="${perchunk[$1]}" -v c="$chunks" 'BEGIN{printf "%.2f", r/c}' || echo "-"; }
printf '\nimage %s MiB (%s chunks), median of %s runs, MiB/s of whole commands; load: %s\n' "$mib" "${chunks:-?}" "$runs" \
  "$(uptime | sed 's/.*load average: //')"
# the goal figure is S3/dir of the wall clock; the CPU columns show where the time went: jpbs's
# CPU seconds (directory / S3 command) and the S3 server's (s3proxy, on the same cores here)
row() { # label, dir name, s3 name
  printf '| %-22s | %10s | %10s | %8s | %18s | %14s | %12s |\n' "$1" "$(rate "${secs[$2]}")" "$(rate "${secs[$3]}")" \
    "$(pct "${secs[$2]}" "${secs[$3]}")" "$(per "$3")" "${cpu[$2]} / ${cpu[$3]}" "${s3cpu[$3]}"
}
printf '| %-22s | %10s | %10s | %8s | %18s | %14s | %12s |\n' "operation" "directory" "S3" "S3/dir" "S3 requests/chunk" \
  "jpbs CPU s d/S3" "s3proxy CPU s"
printf '|%s|%s|%s|%s|%s|%s|%s|\n' "------------------------" "------------" "------------" "----------" \
  "--------------------" "----------------" "--------------"
row backup dir-backup s3-backup
row "restore, warm cache" dir-restore s3-restore-warm
row "restore, cold cache" dir-restore s3-restore-cold
printf 'restored images match the original: yes\n'
