#!/bin/sh
# ctest entry of the browser tests (tests/CMakeLists.txt): the front end in Debian's
# Chromium, driven by playwright-core, against the stack of `tools/stack test` (which
# exports CABINET_BASE_URL, FAKES_PORT and the stack's settings); skipped (77) without it.
# node_modules is installed here (gitignored) when missing or older than the lock file.
# E2E_FILTER=name runs the test files whose name contains it.
set -eu
if [ -z "${CABINET_BASE_URL:-}" ]; then
  echo "CABINET_BASE_URL is not set: run through tools/stack test; skipping"
  exit 77
fi
cd "$(dirname "$0")"
# Under `tools/stack test` the browser tests have a stack of their own, so that ctest runs
# them beside the integration suite (docs/decisions.md "Two test stacks").
if [ -n "${E2E_STACK_DIR:-}" ]; then
  STACK_DIR=$E2E_STACK_DIR
  # shellcheck source=tests/e2e/stack-env.sh
  . ./stack-env.sh
fi
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "e2e: Chromium is missing (tools/install-deps installs the chromium package)"; exit 1; }
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
files=$(ls ./*.test.mjs | grep -- "${E2E_FILTER:-}")
# One file at a time: two Chromiums on two cores only slow each other down.
# shellcheck disable=SC2086
exec node --test --test-concurrency=1 --test-reporter=spec $files
