#!/usr/bin/env bash
# The CPU one durable update costs the local server, for two or more builds, alternating round
# by round (A B A B ...): each `serve` on its own temp data dir pinned to core 0, wrk (1 thread,
# 32 connections, 4 s) on core 1 updating one object's `meta.cpu` to a new value every request;
# the server's own CPU (utime + stime from /proc) over wrk's requests, so that other load on
# the machine moves the figure less than it moves the rate; requests per commit from the
# database's commit counter. Needs taskset, wrk, curl and python3 (Linux).
#   scripts/update-cost.sh path/to/diagtui-before path/to/diagtui-after [ROUNDS]
set -euo pipefail
if [ $# -lt 2 ]; then echo "usage: $0 BIN_A BIN_B [ROUNDS]" >&2; exit 2; fi
a=$(realpath "$1"); b=$(realpath "$2"); rounds=${3:-3}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cat > "$work/post.lua" <<'LUA'
counter = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  counter = counter + 1
  return wrk.format(nil, nil, nil, '{"props":{"meta":{"kind":"node","status":"up","cpu":' .. counter .. '}}}')
end
LUA
commits() { python3 -c "import sqlite3,sys; c=sqlite3.connect('file:'+sys.argv[1]+'?mode=ro',uri=True); print(c.execute('select n from generation').fetchone()[0])" "$1/diagtui.db"; }
json() { python3 -c "import json,sys; print(json.load(sys.stdin)[sys.argv[1]])" "$1"; }
for round in $(seq 1 "$rounds"); do
  for bin in "$a" "$b"; do
    dir="$work/data"; rm -rf "$dir" "$work/serve.log"
    taskset -c 0 "$bin" serve --bind 127.0.0.1:0 --data-dir "$dir" > "$work/serve.log" 2>/dev/null &
    pid=$!
    for _ in $(seq 1 100); do
      grep -qs "listening on" "$work/serve.log" && [ -f "$dir/api-key" ] && break; sleep 0.1
    done
    url=$(sed -n 's/.*listening on //p' "$work/serve.log" | head -1); key=$(cat "$dir/api-key")
    auth=(-s -H "Authorization: Bearer $key" -H 'Content-Type: application/json')
    doc=$(curl "${auth[@]}" -d '{"title":"cost"}' "$url/api/v1/doc/create" | json docId)
    obj=$(curl "${auth[@]}" -d '{"type":"component","props":{"componentId":"computation.aws-ec2","meta":{"kind":"node","status":"up","cpu":0}}}' \
      "$url/api/v1/doc/$doc/obj" | json objId)
    c0=$(commits "$dir"); t0=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    out=$(taskset -c 1 wrk -t1 -c32 -d4s -H "Authorization: Bearer $key" -s "$work/post.lua" "$url/api/v1/doc/$doc/obj/$obj")
    c1=$(commits "$dir"); t1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    n=$(echo "$out" | sed -n 's/^ *\([0-9]*\) requests in.*/\1/p')
    python3 -c "import sys; n,c,t,hz=map(float,sys.argv[2:6]); print(f'round {sys.argv[6]}  {sys.argv[1]}: {n/4:,.0f}/s, {n/max(c,1):.1f} per commit, {t*1e6/hz/n:.1f} us CPU per update')" \
      "$(basename "$bin")" "$n" "$((c1 - c0))" "$((t1 - t0))" "$(getconf CLK_TCK)" "$round"
    kill "$pid"; wait "$pid" 2>/dev/null || true
  done
done
