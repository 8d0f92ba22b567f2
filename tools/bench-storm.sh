# shellcheck shell=bash disable=SC2034  # sourced by tools/bench; the variables it sets are the caller's
# The webhook storm (issue 17): BENCH_STORM (200) YooKassa payments opened by as many bench
# users, made "succeeded" at the local fake (tests/fakes/yookassa.mjs), and their
# notifications all posted at once to /api/v1/payments/yookassa while wrk measures /me.
# Reports /me under the storm like any case, plus how many notifications were accepted and
# how many of the payments the worker had fulfilled when the run ended.
BENCH_STORM=${BENCH_STORM:-200}

# fakes_base: the fakes' origin from the stack's YOOKASSA_API_BASE (a local fake only).
fakes_base() { sed -n 's|^YOOKASSA_API_BASE=\(http://127\.0\.0\.1:[0-9]*\)/yookassa/v3$|\1|p' "$STACK_DIR/stack.env" | tail -n 1; }

# storm_prepare: opens the payments and stores their notifications in $BENCH_DIR/storm/.
# Sets STORM_READY (the number prepared) and STORM_TXNS (their transaction ids, a SQL list).
storm_prepare() {
  local fakes dir=$BENCH_DIR/storm i=0 line body tx id
  STORM_READY=0 STORM_TXNS=""
  fakes=$(fakes_base)
  if [ -z "$fakes" ]; then say "storm: the stack has no local YooKassa fake (FAKES=0?): skipped"; return 0; fi
  rm -rf "$dir" && mkdir -p "$dir"
  say "storm: opening $BENCH_STORM YooKassa payments and making them succeeded at the fake"
  # Users from the end of the init data: the other cases' purchases do not touch them much.
  tail -n "$BENCH_STORM" "$INIT_DATA" | while IFS= read -r line; do
    i=$((i + 1))
    body=$(curl -s -m 10 -X POST -H "Authorization: tma $line" -H 'Content-Type: application/json' \
      -d '{"plan_id":"standard","days":30,"method":"yookassa"}' "$BASE/api/cabinet/purchase") || continue
    tx=$(sed -n 's/.*"transaction_id":\([0-9]*\).*/\1/p' <<<"$body")
    id=$(sed -n 's|.*"redirect_url":"[^"]*/\([^/"]*\)".*|\1|p' <<<"$body")
    [ -n "$tx" ] && [ -n "$id" ] || continue
    curl -s -m 10 -X POST -H 'Content-Type: application/json' -d '{"status":"succeeded"}' \
      "$fakes/__fake/yookassa/payments/$id" | node -e \
      'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.stringify(JSON.parse(s).notification)))' \
      >"$dir/$tx.json" 2>/dev/null || rm -f "$dir/$tx.json"
  done
  STORM_READY=$(find "$dir" -name '*.json' -size +0 | wc -l)
  STORM_TXNS=$(find "$dir" -name '*.json' -size +0 -printf '%f\n' | sed 's/\.json$//' | paste -sd, -)
  say "storm: $STORM_READY notifications ready"
}

# storm_fire: after a second, posts every notification at once (one curl each, in parallel).
storm_fire() {
  sleep 1
  find "$BENCH_DIR/storm" -name '*.json' -size +0 -print0 |
    xargs -0 -P "$BENCH_STORM" -I{} curl -s -o /dev/null -w '%{http_code}\n' -m 30 -X POST \
      -H 'Content-Type: application/json' --data-binary @{} "$BASE/api/v1/payments/yookassa" \
      >"$BENCH_DIR/storm/answers.txt"
}

# storm_case: /me measured while the storm hits; sets the usual RPS P50 P99 ERRS ERR_NOTE and
# STORM_NOTE (accepted notifications, fulfilled payments).
storm_case() {
  storm_prepare
  STORM_NOTE="storm not run"
  if [ "$STORM_READY" -eq 0 ]; then RPS="n/a" P50="n/a" P99="n/a" ERRS="n/a" ERR_NOTE="storm not prepared" RT_DB="n/a" RT_REDIS="n/a"; return 0; fi
  BENCH_BEFORE_MEASURE=storm_fire_async run_case storm "${PATHS[me]}" "$INIT_DATA"
  wait "$STORM_PID" 2>/dev/null || true
  local accepted fulfilled
  accepted=$(grep -c '^200$' "$BENCH_DIR/storm/answers.txt" || true)
  sleep 5  # the worker fulfils them from its queue
  fulfilled=$(psql -h "$STACK_DIR/run" -U postgres -d cabinet -qAtX -c "SELECT count(*) FROM transactions WHERE id IN ($STORM_TXNS) AND status = 'completed'")
  STORM_NOTE="$accepted of $STORM_READY notifications answered 200 during the run; $fulfilled payments fulfilled 5 s after it"
  say "storm: $STORM_NOTE"
}
storm_fire_async() { storm_fire & STORM_PID=$!; }
