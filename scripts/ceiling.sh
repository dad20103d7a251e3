#!/usr/bin/env bash
# The local server against the ceiling (a bare axum handler), side by side on this machine:
# installs wrk from the distribution's packages when it is missing, then runs the benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v wrk >/dev/null 2>&1; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq wrk
fi
exec cargo bench --bench ceiling
