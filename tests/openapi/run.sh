#!/bin/sh
# ctest entry `openapi` (tests/CMakeLists.txt, after `integration`): docs/openapi.yaml is
# valid OpenAPI 3.1, matches fcgi-app/api/routes.cpp, and every answer the integration
# suite got (CABINET_HTTP_LOG, which tools/stack test sets) validates against it
# (check.mjs). Skipped (77) outside tools/stack test. node_modules is installed here
# (gitignored) when missing or older than the lock file, as tests/e2e does.
set -eu
cd "$(dirname "$0")"
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
exec node check.mjs "$@"
