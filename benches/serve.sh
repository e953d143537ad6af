# Sourced by the HTTP benches (http.sh, memory.sh), from the repository's root: wrk (installed from
# Debian when missing), the release server built, a scratch directory `DIR` removed on exit with
# everything the bench started, and `serve DB` starting the server on `PORT` with DB as its
# database (`SERVER` its pid, `URL` its address) once it answers /health.

if ! command -v wrk >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq wrk >/dev/null
fi
cargo build --release --quiet

DIR=$(mktemp -d)
SERVER=
cleanup() {
  [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null || true
  jobs -p | xargs -r kill 2>/dev/null || true
  rm -rf "$DIR"
}
trap cleanup EXIT

serve() {
  target/release/arbiter serve --port "$PORT" --db "$1" >"$DIR/server.log" 2>&1 &
  SERVER=$!
  URL="http://127.0.0.1:$PORT"
  # Opening a large database (and bringing its schema up to date) may take seconds.
  for _ in $(seq 1 300); do
    curl -fsS "$URL/health" >/dev/null 2>&1 && return
    sleep 0.1
  done
  echo "the server did not answer on $URL: see its log" >&2
  cat "$DIR/server.log" >&2
  exit 1
}
