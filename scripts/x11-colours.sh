#!/usr/bin/env bash
# Writes the X11 colour names the DOT reader maps to hex (crates/layout/src/input/dot/x11-colours.txt)
# from X.org's rgb.txt (Debian's x11-common): one "name #RRGGBB" a line, names lower case without
# spaces, as Graphviz's X11 colour scheme spells them. Run it again when rgb.txt changes.
set -euo pipefail
cd "$(dirname "$0")/.."
source="${1:-/usr/share/X11/rgb.txt}"
grep -v '^!' "$source" \
  | awk '{ name = ""; for (i = 4; i <= NF; i++) name = name $i;
           printf "%s #%02X%02X%02X\n", tolower(name), $1, $2, $3 }' \
  | sort -u -k1,1 >crates/layout/src/input/dot/x11-colours.txt
