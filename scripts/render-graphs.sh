#!/bin/sh
# Renders every Mermaid corpus file (../shared/mermaid, or $DIAGTUI_MERMAID_CORPUS), every
# DOT test file (crates/layout/tests/data/dot) and the README's examples (docs/examples) in 2D
# and 3D, as create-diagram lays them out, to look at: a `diagtui serve` on a free loopback
# port over a temp data dir, then for each file `doc create-diagram` and
# `doc render --view 2d|3d --format png`. A file the server refuses is named with its answer.
#
# Usage: scripts/render-graphs.sh [OUT_DIR]   (default: target/graph-pictures)
# The binary is $DIAGTUI, else target/debug/diagtui (`cargo build` first).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${DIAGTUI:-$root/target/debug/diagtui}
out=${1:-$root/target/graph-pictures}
corpus=${DIAGTUI_MERMAID_CORPUS:-$root/../shared/mermaid}
[ -x "$bin" ] || { echo "no $bin: run cargo build first, or set DIAGTUI" >&2; exit 2; }
mkdir -p "$out"
data=$(mktemp -d)
log="$data/serve.log"
"$bin" serve --bind 127.0.0.1:0 --data-dir "$data/data" >"$log" 2>&1 &
serve=$!
trap 'kill $serve 2>/dev/null; rm -rf "$data"' EXIT INT TERM
for _ in $(seq 50); do
  grep -q '^listening on ' "$log" && break
  sleep 0.1
done
DIAGTUI_URL=$(sed -n 's/^listening on //p' "$log" | head -n 1)
[ -n "$DIAGTUI_URL" ] || { cat "$log" >&2; exit 1; }
DIAGTUI_API_KEY=$(cat "$data/data/api-key")
export DIAGTUI_URL DIAGTUI_API_KEY
files=""
if [ -d "$corpus" ]; then
  files=$(ls "$corpus"/*.mmd)
else
  echo "note: $corpus is absent: only the DOT files" >&2
fi
files="$files $(ls "$root"/crates/layout/tests/data/dot/* "$root"/docs/examples/*)"
drawn=0
refused=0
for file in $files; do
  name=$(basename "$file")
  name=${name%.*}
  doc=$("$bin" doc create "$name" | sed -n 's/.*"docId": *"\([^"]*\)".*/\1/p')
  if ! answer=$("$bin" doc create-diagram "$doc" "$file" --yes 2>&1); then
    echo "refused $name: $answer"
    refused=$((refused + 1))
    continue
  fi
  for view in 2d 3d; do
    "$bin" doc render "$doc" --view "$view" --format png -o "$out/$name-$view.png"
  done
  drawn=$((drawn + 1))
done
echo "$drawn files drawn in 2D and 3D into $out, $refused refused"
