#!/usr/bin/env bash
# What `serve --metrics-bind` adds to a request, in instructions rather than time: the release
# binary under valgrind's callgrind, metrics off and on, each serving N and N+2000 requests
# (GET of one object, or an update: `get` or `update`) over one keep-alive connection; the
# difference of the two runs' instruction counts over the 2,000 extra requests is the cost of
# a request, the server's start and the setup cancelled out. Instruction counts do not depend on
# the machine's other load, which moves timed ratios by more than the few per cent measured
# (BENCHMARKS.md, "Running as a service"). Needs valgrind and python3.
#   scripts/metrics-instructions.sh [get|update] [N]
set -euo pipefail
cd "$(dirname "$0")/.."
kind="${1:-get}"
base="${2:-300}"
bin="target/release/diagtui"
[ -x "$bin" ] || cargo build --release --bin diagtui
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Instructions of one server's whole run serving `count` requests of `kind`.
instructions() {
  local mode="$1" count="$2" dir
  dir="$(mktemp -d "$work/run.XXXX")"
  local extra=()
  [ "$mode" = on ] && extra=(--metrics-bind 127.0.0.1:0)
  DIAGTUI_CONFIG=/dev/null valgrind --tool=callgrind --callgrind-out-file="$dir/out" \
    "$bin" serve --bind 127.0.0.1:0 --data-dir "$dir/data" "${extra[@]}" \
    >"$dir/stdout" 2>"$dir/stderr" &
  local pid=$!
  for _ in $(seq 1 600); do
    grep -q "listening on" "$dir/stdout" 2>/dev/null && break
    sleep 0.2
  done
  python3 - "$(grep -o 'http://[0-9.:]*' "$dir/stdout" | head -1)" \
    "$(cat "$dir/data/api-key")" "$count" "$kind" <<'PY'
import http.client, json, sys, urllib.parse
url, key, count, kind = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
at = urllib.parse.urlparse(url)
conn = http.client.HTTPConnection(at.hostname, at.port)
headers = {"Authorization": "Bearer " + key, "Content-Type": "application/json"}
def call(method, path, body=None):
    conn.request(method, path, None if body is None else json.dumps(body), headers)
    answer = conn.getresponse()
    text = answer.read()
    assert answer.status == 200, (answer.status, text)
    return text
doc = json.loads(call("POST", "/api/v1/doc/create", {"title": "instructions"}))["docId"]
props = {"componentId": "computation.aws-ec2", "meta": {"cpu": 0}}
obj = json.loads(call("POST", f"/api/v1/doc/{doc}/obj", {"type": "component", "props": props}))["objId"]
for n in range(count):
    if kind == "get":
        call("GET", f"/api/v1/doc/{doc}/obj/{obj}")
    else:
        call("POST", f"/api/v1/doc/{doc}/obj/{obj}", {"props": {"meta": {"cpu": n}}})
PY
  kill -INT "$pid"
  wait "$pid" || true
  # The run's total: its `summary:` line (older callgrinds write `totals:` only).
  grep -h -m1 -E "^(summary|totals):" "$dir/out" | awk '{print $2}'
}

echo "instructions per request ($kind), from runs of $base and $((base + 2000)) requests:"
for mode in off on; do
  small="$(instructions "$mode" "$base")"
  large="$(instructions "$mode" "$((base + 2000))")"
  echo "metrics $mode: $(( (large - small) / 2000 ))"
done
