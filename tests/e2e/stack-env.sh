# Sourced (sh): exports the settings of the stack in $STACK_DIR (its stack.env) and the
# ports and URLs the browser tests and `tools/stack svc|ctl` read from the environment, as
# `tools/stack test` exports them for its own stack. Used by tests/e2e/against (a stack of
# your own) and tests/e2e/run.sh (the browser tests' own stack in `tools/stack test`).
set -a
# shellcheck disable=SC1091
. "$STACK_DIR/stack.env"
set +a
_stack_port() { sed -n "s|^$1=http://127.0.0.1:\([0-9]*\).*|\1|p" "$STACK_DIR/stack.env" | tail -n 1; }
HTTP_PORT=$(_stack_port MINIAPP_URL)
PANEL_PORT=$(_stack_port PANEL__BASE_URL)
FAKES_PORT=$(_stack_port TELEGRAM_API_BASE)
SMTP_FAKE_PORT=$(sed -n 's|^SMTP_URL=smtp://127.0.0.1:\([0-9]*\)$|\1|p' "$STACK_DIR/stack.env" | tail -n 1)
export STACK_DIR HTTP_PORT PANEL_PORT FAKES_PORT SMTP_FAKE_PORT
export CABINET_BASE_URL="http://127.0.0.1:$HTTP_PORT"
