#!/bin/sh
# Our layered layout against Graphviz dot's on the same graphs (docs/create-diagram.md, "The
# layout's measures"): for each file (or each file of a folder) the measures of both, then the
# sums. Without arguments: the Mermaid corpus beside the repository (../shared/mermaid).
#   scripts/layout-quality.sh [FILES|DIRS]
set -eu
cd "$(dirname "$0")/.."
if [ "$#" -eq 0 ]; then
    if [ ! -d ../shared/mermaid ]; then
        echo "note: ../shared/mermaid is absent; give files or folders to measure" >&2
        exit 2
    fi
    set -- ../shared/mermaid
fi
exec cargo run --release -q -p diagtui-layout --example layout_quality -- "$@"
