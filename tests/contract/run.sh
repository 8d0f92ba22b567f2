#!/bin/sh
# ctest entry of the contract test (tests/contract/CMakeLists.txt). Runs in the build tree,
# where CMake copied package.json, package-lock.json and contract.mjs. Needs the stack of
# `tools/stack test`, which exports PANEL_PORT; without it the test is skipped (77).
set -eu
if [ -z "${PANEL_PORT:-}" ]; then
  echo "PANEL_PORT is not set: run through tools/stack test; skipping"
  exit 77
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "node and npm are needed for the contract test (apt-get install nodejs npm); skipping"
  exit 77
fi
cd "$(dirname "$0")"
# npm ci only when node_modules is missing or older than the lock file.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error   # errors shown, not swallowed
fi
PANEL_URL=${PANEL_URL:-http://127.0.0.1:$PANEL_PORT} exec node contract.mjs
