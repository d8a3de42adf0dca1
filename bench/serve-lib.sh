# Shared by the network benchmarks (sourced, not run): a 'jpbs serve' on loopback with a fresh
# config, timing helpers and process figures. The caller sets: jpbs (launcher), dsdir (work dir),
# port; serve_identity sets secret and fp and exports PBS_PASSWORD/PBS_FINGERPRINT.
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
