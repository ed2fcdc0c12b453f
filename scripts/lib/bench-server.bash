# SPDX-License-Identifier: Apache-2.0
# Used by scripts/bench (source it): the loopback nginx the
# transport benchmark talks to.
#
#   bench_server_start CORPUS   starts nginx (scripts/setup installs nginx-light) unprivileged on a
#                               free 127.0.0.1 port, serving CORPUS (Benchmarks/Corpus/transport),
#                               with PUT /upload reading the whole body and answering 204; sets
#                               SATCHEL_BENCH_SERVER and SATCHEL_BENCH_SCRATCH (a scratch folder,
#                               in /dev/shm when possible) for satchel-bench
#   bench_server_stop           stops nginx and removes its folders (safe to call twice; use it
#                               in an EXIT trap)
#   bench_server_check_log      checks nginx's access log: every upload read whole and answered
#                               204, every download 200 with the full 100 MB

bench_server_start() {
  local corpus=$1 scratch_base=/dev/shm port
  bench_server_prefix="$(mktemp -d)"
  [ -d "$scratch_base" ] && [ -w "$scratch_base" ] || scratch_base="$bench_server_prefix"
  bench_server_scratch="$(mktemp -d "$scratch_base/satchel-bench-transport.XXXXXX")"
  bench_server_pid=""
  local prefix=$bench_server_prefix
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  cat > "$prefix/nginx.conf" <<CONF
daemon off; master_process off; worker_processes 1;
pid $prefix/nginx.pid; error_log $prefix/error.log;
events { worker_connections 4096; }
http {
  log_format bench '\$request \$status \$body_bytes_sent \$request_length';
  access_log $prefix/access.log bench;
  client_body_temp_path $prefix/body; proxy_temp_path $prefix/proxy; fastcgi_temp_path $prefix/fastcgi;
  uwsgi_temp_path $prefix/uwsgi; scgi_temp_path $prefix/scgi;
  types { application/octet-stream bin; application/json json; }
  sendfile on; tcp_nopush on; tcp_nodelay on;
  keepalive_requests 100000000; keepalive_timeout 300s;
  open_file_cache max=16;
  server {
    listen 127.0.0.1:$port;
    root $corpus; client_max_body_size 200m;
    location = /small.json { access_log off; }
    # The mirror module reads the whole body before the request goes on (a plain 'return 204'
    # would answer at once and discard the body afterwards, so a client could stop early
    # unnoticed); the static handler then refuses PUT with 405, which becomes an empty 204.
    location = /upload {
      client_body_buffer_size 128m;
      mirror /discard; error_page 405 =204 /discard;
    }
    location = /discard { internal; return 204; }
  }
}
CONF
  nginx -p "$prefix" -c "$prefix/nginx.conf" </dev/null >/dev/null 2>"$prefix/stderr.log" &
  bench_server_pid=$!
  for _ in $(seq 100); do
    curl -s -o /dev/null "http://127.0.0.1:$port/small.json" && break
    kill -0 "$bench_server_pid" 2>/dev/null || { cat "$prefix/stderr.log" "$prefix/error.log" >&2; return 1; }
    sleep 0.05
  done
  export SATCHEL_BENCH_SERVER="http://127.0.0.1:$port/" SATCHEL_BENCH_SCRATCH="$bench_server_scratch"
}

bench_server_stop() {
  # nginx in single-process mode ignores SIGTERM.
  if [ -n "${bench_server_pid:-}" ]; then { kill -KILL "$bench_server_pid"; wait "$bench_server_pid"; } 2>/dev/null || true; fi
  bench_server_pid=""
  rm -rf "${bench_server_prefix:-}" "${bench_server_scratch:-}"
  bench_server_prefix="" bench_server_scratch=""
}

bench_server_check_log() {
  # The server's side of the story: every upload read whole and answered 204, every download
  # 200 with all 100 MB. Fields: method, URI, protocol, status, body bytes sent, request length.
  awk '$1 == "PUT" && $2 == "/upload" { puts++; if ($4 != 204 || $6 < 100000000) bad++ }
       $1 == "GET" && $2 == "/big.bin" { gets++; if ($4 != 200 || $5 != 100000000) bad++ }
       END { printf "nginx access log: %d uploads, %d downloads, %d unexpected\n", puts, gets, bad + 0 > "/dev/stderr"; exit bad > 0 }' \
    "$bench_server_prefix/access.log"
}
