#!/usr/bin/env bash
# A/B of the CPU seconds (user + system) of client commands of two builds against the same jpbs
# serve (build A's): backup, restore and snapshot list, alternating A and B each round.
# usage: bench/ab-client-cpu.sh BUILD_A BUILD_B [ROUNDS=5] [SIZE_MIB=16]  (the image of
# bench/net-backup-restore.sh; a SIZE other than its 1024 is cut from that one)
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 BUILD_A BUILD_B [ROUNDS] [SIZE_MIB]" >&2; exit 2; }
A=$(readlink -f "$1"); B=$(readlink -f "$2"); rounds=${3:-5}; size=${4:-16}
here="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
dsdir=/dev/shm/jpbs-ab; rm -rf "$dsdir"; mkdir -p "$dsdir"
port=18107
jpbs="$A/jpbs"
. "$here/scripts/find-jdk.sh"; jpbs_find_jdk
. "$here/bench/serve-lib.sh"
"$A/jpbs" --version >/dev/null; "$B/jpbs" --version >/dev/null   # builds and start-up caches first
export JPBS_SKIP_BUILD=1
work=${JPBS_BENCH_DIR:-/tmp/jpbs-bench}
img="$work/ext4-$size-usr_share.img"
if [ ! -f "$img" ]; then
  [ -f "$work/ext4-1024-usr_share.img" ] || "$here/bench/make-ext4-image.sh" "$work/ext4-1024-usr_share.img" 1024 /usr/share
  head -c $((size << 20)) "$work/ext4-1024-usr_share.img" > "$img"
fi
serve_identity
start_server "$dsdir/ds"
trap 'stop_server; rm -rf "$dsdir"' EXIT
repo="root@pam!bench@127.0.0.1:$port:store1"
TIMEFORMAT='%3U %3S'
cpu() { { time "$@" >/dev/null 2>&1; } 2>&1 | awk '{printf "%.2f", $1+$2}'; }
declare -A res
for r in $(seq "$rounds"); do
  for side in A B; do
    d=${!side}
    res[$side-backup]+=" $(cpu "$d/jpbs" backup -q --repository "$repo" --backup-type vm --backup-id 1$r$side "drive-scsi0.img:$img")"
    rm -f "$dsdir/r.img"
    res[$side-restore]+=" $(cpu "$d/jpbs" restore -q --repository "$repo" vm/1$r$side drive-scsi0.img "$dsdir/r.img")"
    res[$side-list]+=" $(cpu "$d/jpbs" snapshot list --repository "$repo")"
  done
done
echo "A = $A ($(git -C "$A" log --oneline -1 | cut -c1-50)), B = $B ($(git -C "$B" log --oneline -1 | cut -c1-50)), $size MiB, $rounds rounds"
for k in A-backup B-backup A-restore B-restore A-list B-list; do
  echo "$k: ${res[$k]}  median $(printf '%s\n' ${res[$k]} | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')"
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
