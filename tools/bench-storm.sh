# shellcheck shell=bash disable=SC2034  # sourced by tools/bench; the variables it sets are the caller's
# The webhook storm (issue 17): BENCH_STORM (200) YooKassa payments opened by as many bench
# users, made "succeeded" at the local fake (tests/fakes/yookassa.mjs), and their
# notifications all posted at once to /api/v1/payments/yookassa while wrk measures /me.
# Reports /me under the storm like any case, plus how many notifications were accepted and
# how long the storm took to drain (every payment fulfilled by the worker).
# Like a provider, each notification answered 503 is posted again after its Retry-After
# (the pool answers 503 busy beyond GATEWAY_CONCURRENCY verifications per process), for at
# most BENCH_STORM_RETRY_S (120) seconds.
BENCH_STORM=${BENCH_STORM:-200}
BENCH_STORM_RETRY_S=${BENCH_STORM_RETRY_S:-120}
# BENCH_STORM_GATEWAY_MS (0): the fake YooKassa answers each verification that late during
# the storm, as the real one does over the Internet (100-300 ms); 0 answers at once.
BENCH_STORM_GATEWAY_MS=${BENCH_STORM_GATEWAY_MS:-0}

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

# storm_fulfilled -> how many of the storm's payments the worker has fulfilled.
storm_fulfilled() {
  psql -h "$STACK_DIR/run" -U postgres -d cabinet -qAtX -c "SELECT count(*) FROM transactions WHERE id IN ($STORM_TXNS) AND status = 'completed'"
}

# storm_fire: after a second, posts every notification at once from one process
# (tests/bench/storm.mjs), each retried after a 503 as a provider would, then waits (a
# minute at most) until the worker has fulfilled them all. Notes when the storm began, when
# the last notification was answered and when it drained (epoch ms, in $BENCH_DIR/storm/).
storm_fire() {
  local dir=$BENCH_DIR/storm fakes
  fakes=$(fakes_base)
  sleep 1
  if [ "$BENCH_STORM_GATEWAY_MS" -gt 0 ]; then
    curl -s -o /dev/null -X POST -H 'Content-Type: application/json' \
      -d "{\"service\":\"yookassa\",\"count\":1000000,\"delay_ms\":$BENCH_STORM_GATEWAY_MS}" "$fakes/__fake/slow"
  fi
  date +%s%3N >"$dir/t0"
  node "$ROOT/tests/bench/storm.mjs" "$dir" "$BASE/api/v1/payments/yookassa" "$BENCH_STORM_RETRY_S" >"$dir/answers.txt"
  date +%s%3N >"$dir/t-answered"
  for _ in $(seq 600); do
    if [ "$(storm_fulfilled)" -ge "$STORM_READY" ]; then date +%s%3N >"$dir/t-drained"; break; fi
    sleep 0.1
  done
  [ "$BENCH_STORM_GATEWAY_MS" -eq 0 ] || curl -s -o /dev/null -X DELETE "$fakes/__fake/fail"
}

# storm_case: /me measured while the storm hits; sets the usual RPS P50 P99 ERRS ERR_NOTE and
# STORM_NOTE (accepted notifications, fulfilled payments).
storm_case() {
  storm_prepare
  STORM_NOTE="storm not run"
  if [ "$STORM_READY" -eq 0 ]; then RPS="n/a" P50="n/a" P99="n/a" ERRS="n/a" ERR_NOTE="storm not prepared" RT_DB="n/a" RT_REDIS="n/a"; return 0; fi
  BENCH_BEFORE_MEASURE=storm_fire_async run_case storm "${PATHS[me]}" "$INIT_DATA"
  wait "$STORM_PID" 2>/dev/null || true
  local dir=$BENCH_DIR/storm accepted busy posts fulfilled t0 answered_ms drained_ms=""
  accepted=$(grep -c '^200 ' "$dir/answers.txt" || true)
  busy=$(awk '$1 == 503' "$dir/answers.txt" | wc -l)
  posts=$(awk '{ n += $2 } END { print n + 0 }' "$dir/answers.txt")
  fulfilled=$(storm_fulfilled)
  t0=$(cat "$dir/t0")
  answered_ms=$(( $(cat "$dir/t-answered") - t0 ))
  [ ! -f "$dir/t-drained" ] || drained_ms=$(( $(cat "$dir/t-drained") - t0 ))
  STORM_NOTE="$accepted of $STORM_READY notifications accepted (200) in the end, $posts posts in all"
  [ "$BENCH_STORM_GATEWAY_MS" -eq 0 ] || STORM_NOTE+=" (the fake YooKassa answering ${BENCH_STORM_GATEWAY_MS} ms late)"
  [ "$busy" -eq 0 ] || STORM_NOTE+=", $busy still 503 after ${BENCH_STORM_RETRY_S} s"
  STORM_NOTE+=", the last answered $(awk -v m="$answered_ms" 'BEGIN { printf "%.1f", m / 1000 }') s after the storm began; "
  if [ -n "$drained_ms" ]; then
    STORM_NOTE+="all $fulfilled payments fulfilled (drained) $(awk -v m="$drained_ms" 'BEGIN { printf "%.1f", m / 1000 }') s after it began"
  else
    STORM_NOTE+="only $fulfilled payments fulfilled a minute after the last answer"
  fi
  say "storm: $STORM_NOTE"
}
storm_fire_async() { storm_fire & STORM_PID=$!; }
