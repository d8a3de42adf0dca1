# Shared by the server benches (sourced, not run). Two sets of helpers: bench_* for the datastore
# benches (datastore-status, dashboard, sync-bench) and serve_identity/start_server/... plus timing and
# process figures for the network benches (net-backup-restore, hypervisor-backup).

# bench_init DIR [CONFIG]: the JDK, a built jpbs (outside the timings), $jpbs, $cp, an empty DIR and
#   $cfg (default DIR/config, made).
# bench_token ACL_PATH ROLE: an API token root@pam!bench with ROLE on ACL_PATH; sets $secret.
# bench_serve PORT [SERVE_ARGS...]: starts `jpbs serve` on 127.0.0.1:PORT with $cfg (log DIR/serve.log),
#   waits until it listens.
# bench_stop: stops it. The EXIT trap stops it and removes DIR.
bench_init() {
  bench_dir=$1
  jpbs="$root/jpbs"
  # shellcheck source=../scripts/find-jdk.sh
  . "$root/scripts/find-jdk.sh"
  jpbs_find_jdk
  "$jpbs" --version >/dev/null   # builds on first use, outside the timings
  export JPBS_SKIP_BUILD=1
  cp="$root/cli/target/jpbs-cli.jar:$root/cli/target/lib/*"
  cfg=${2:-$bench_dir/config}
  serve_pid=""
  trap bench_cleanup EXIT
  rm -rf "$bench_dir"
  mkdir -p "$cfg"
}

bench_cleanup() {
  bench_stop
  rm -rf "$bench_dir"
}

bench_token() {
  secret=$("$jpbs" user token create root@pam bench --config-dir "$cfg" --output-format json 2>/dev/null |
    sed -n 's/.*"value":"\([^"]*\)".*/\1/p')
  [ -n "$secret" ] || { echo "could not create an API token" >&2; exit 1; }
  "$jpbs" acl update "$1" "$2" --auth-id 'root@pam!bench' --config-dir "$cfg" 2>/dev/null
}

bench_serve() {
  local port=$1
  shift
  "$jpbs" serve "$@" --bind 127.0.0.1 --port "$port" --config-dir "$cfg" >"$bench_dir/serve.log" 2>&1 &
  serve_pid=$!
  for _ in $(seq 600); do
    grep -q 'listening on' "$bench_dir/serve.log" 2>/dev/null && return 0
    kill -0 "$serve_pid" 2>/dev/null || { cat "$bench_dir/serve.log" >&2; exit 1; }
    sleep 0.1
  done
  echo "jpbs serve did not start in 60 s" >&2
  exit 1
}

bench_stop() {
  if [ -n "${serve_pid:-}" ]; then
    kill "$serve_pid" 2>/dev/null || true
    wait "$serve_pid" 2>/dev/null || true
    serve_pid=""
  fi
}

# shellcheck shell=bash

serve_pid=""

serve_identity() { # config dir with an API token root@pam!bench that may back up and read everything
  cfg="$dsdir/config"
  rm -rf "$cfg"
  mkdir -p "$cfg"
  secret=$("$jpbs" user token create root@pam bench --config-dir "$cfg" --output-format json 2>/dev/null |
    sed -n 's/.*"value":"\([^"]*\)".*/\1/p')
  [ -n "$secret" ] || { echo "could not create an API token" >&2; exit 1; }
  "$jpbs" acl update /datastore DatastoreAdmin --auth-id 'root@pam!bench' --config-dir "$cfg" 2>/dev/null
  fp=$("$jpbs" cert info --config-dir "$cfg" | sed -n 's/^fingerprint: //p')
  export PBS_PASSWORD="$secret" PBS_FINGERPRINT="$fp"
}

start_server() { # datastore dir; JVM options of the server in SERVE_JAVA_OPTS
  local ds=$1
  rm -rf "$ds"
  JPBS_JAVA_OPTS="${SERVE_JAVA_OPTS:-}" "$jpbs" serve --datastore "store1=$ds" --bind 127.0.0.1 --port "$port" \
    --config-dir "$cfg" >"$dsdir/serve.log" 2>&1 &
  serve_pid=$!   # the launcher execs java: this is the server JVM
  for _ in $(seq 300); do
    grep -q 'listening on' "$dsdir/serve.log" 2>/dev/null && return 0
    kill -0 "$serve_pid" 2>/dev/null || break
    sleep 0.1
  done
  cat "$dsdir/serve.log" >&2
  echo "jpbs serve did not start" >&2
  exit 1
}

stop_server() {
  if [ -n "$serve_pid" ]; then
    kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null || true
  fi
  serve_pid=""
}

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END{ if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2 }'; }
timeit() { local t0 t1; t0=$(now); "$@" >/dev/null; t1=$(now); awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f\n", b-a}'; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
# peak resident set of a running process in MiB (VmHWM)
peak_rss_mib() { awk '/^VmHWM:/ {printf "%d", $2/1024}' "/proc/$1/status"; }
# CPU seconds (user + system) a running process used so far
cpu_secs() { awk -v hz="$(getconf CLK_TCK)" '{print ($14+$15)/hz}' "/proc/$1/stat"; }
