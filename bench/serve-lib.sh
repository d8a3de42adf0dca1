# Shared by the server benches (bench/datastore-status.sh, bench/dashboard.sh): sourced, not run.
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
