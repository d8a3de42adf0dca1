#!/usr/bin/env bash
# Benchmark of client-side encryption: backup and restore of the same ext4 image into a local
# datastore, unencrypted and encrypted (AES-256-GCM, --keyfile), median of RUNS runs each.
# Usage: bench/crypt-backup-restore.sh [SIZE_MIB] [RUNS] [SOURCE_DIR...]   (as bench/backup-restore.sh)
# The key is a kdf-none key file, so no passphrase derivation (scrypt, ~0.3 s) is in the timings;
# a passphrase-protected key adds that once per command. Wall = whole command (JVM start
# included); engine = the command's own "duration" line (reading, hashing, compressing,
# encrypting, writing; or fetching, decrypting, verifying, writing). MiB = 2^20 bytes.
# Plain and encrypted runs alternate, so load from other processes hits both alike.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
size=${1:-1024}
runs=${2:-3}
shift $(( $# < 2 ? $# : 2 ))
[ $# -gt 0 ] || set -- /usr/share
work=${JPBS_BENCH_DIR:-/tmp/jpbs-bench}
mkdir -p "$work"
if [ -z "${JPBS_BENCH_DS_DIR:-}" ] && [ -d /dev/shm ]; then JPBS_BENCH_DS_DIR=/dev/shm/jpbs-bench-crypt; fi
dsdir=${JPBS_BENCH_DS_DIR:-$work}
mkdir -p "$dsdir"
img="$work/ext4-$size-$(echo "$*" | sed 's|^/||; s|[/ ]\+|_|g').img"
jpbs="$root/jpbs"

[ -f "$img" ] || "$root/bench/make-ext4-image.sh" "$img" "$size" "$@"
"$jpbs" --version >/dev/null   # builds on first use, outside the timings
export JPBS_SKIP_BUILD=1
bytes=$(stat -c %s "$img")
mib=$(awk -v b="$bytes" 'BEGIN{printf "%.1f", b/1048576}')
key="$dsdir/bench-key.json"
rm -f "$key"
"$jpbs" key create --kdf none "$key" 2>/dev/null

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END{ if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2 }'; }
declare -A wl el   # per operation: space-separated run times
run1() { # name, command... (the command writes its stderr to $dsdir/last.log)
  local name=$1 t0 t1 e; shift
  t0=$(now); "$@" >/dev/null; t1=$(now)
  wl[$name]+="$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", b-a}') "
  e=$(sed -n 's/^ *duration *\([0-9.]*\) s.*/\1/p' "$dsdir/last.log" | head -n1)
  el[$name]+="$e "
}
new_datastore() { rm -rf "$dsdir/$1"; "$jpbs" datastore create "$dsdir/$1" >/dev/null 2>&1; }
backup() { local ds=$1; shift; "$jpbs" backup --repository "$dsdir/$ds" --backup-type vm --backup-id 100 "$@" "drive-scsi0.img:$img" 2>"$dsdir/last.log"; }
restore() { local ds=$1; shift; rm -f "$dsdir/restored.img"; "$jpbs" restore --repository "$dsdir/$ds" "$@" vm/100 drive-scsi0.img "$dsdir/restored.img" 2>"$dsdir/last.log"; }
check() { [ "$(sha256sum < "$img")" = "$(sha256sum < "$dsdir/restored.img")" ] || { echo "restored image differs!" >&2; exit 1; }; }

echo "image: $img ($mib MiB), datastores in $dsdir, $runs runs each (plain and encrypted interleaved), $(nproc) cores" >&2
for i in $(seq "$runs"); do
  new_datastore ds-plain; run1 backup-plain backup ds-plain
  new_datastore ds-enc; run1 backup-encrypted backup ds-enc --keyfile "$key"
  run1 restore-plain restore ds-plain; check
  run1 restore-encrypted restore ds-enc --keyfile "$key"; check
  echo "  run $i done" >&2
done
declare -A wall engine
for k in backup-plain backup-encrypted restore-plain restore-encrypted; do
  wall[$k]=$(printf '%s\n' ${wl[$k]} | median)
  engine[$k]=$(printf '%s\n' ${el[$k]} | median)
  echo "  $k: wall ${wl[$k]}s; engine ${el[$k]}s" >&2
done

printf '\n%-18s %10s %10s %10s %10s\n' "operation" "wall s" "wall MiB/s" "engine s" "engine MiB/s"
for k in backup-plain backup-encrypted restore-plain restore-encrypted; do
  printf '%-18s %10s %10s %10s %10s\n' "$k" "${wall[$k]}" "$(awk -v m="$mib" -v s="${wall[$k]}" 'BEGIN{printf "%.1f", m/s}')" \
    "${engine[$k]}" "$(awk -v m="$mib" -v s="${engine[$k]}" 'BEGIN{printf "%.1f", m/s}')"
done
for op in backup restore; do
  printf '%s: encrypted/plain engine time %s\n' "$op" \
    "$(awk -v a="${engine[$op-encrypted]}" -v b="${engine[$op-plain]}" 'BEGIN{printf "%.2fx", a/b}')"
done
printf 'restored images sha256 match: yes\n'
rm -rf "$dsdir/ds-plain" "$dsdir/ds-enc" "$dsdir/restored.img" "$dsdir/last.log" "$key"
