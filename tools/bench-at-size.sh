# shellcheck shell=bash disable=SC2034  # sourced; the variables it sets are the caller's
# Sourced by tools/bench (after tools/bench-lib.sh): `--users N`, the bench users seeded with
# realistic history (cabinetctl seed-demo --bench-users N, their panel users in the mock
# panel's snapshot), and the operator's commands timed at that size (the report's "At N
# users" table). The caller sets ROOT, STACK, STACK_DIR, SEED_USERS and defines say/die.
BENCH_SYNC_TIMEOUT=${BENCH_SYNC_TIMEOUT:-3600}

# now_s: seconds since the epoch with milliseconds; took_s START: seconds since START.
now_s() { date +%s.%3N; }
took_s() { awk -v a="$1" -v b="$(now_s)" 'BEGIN { printf "%.1f", b - a }'; }

# The stack's settings (stack.env) in a subshell, then one cabinetctl command against the
# database URL given (a scratch database for restore and the migration on a copy).
ctl_on_db() {
  local url=$1; shift
  (set -a; . "$STACK_DIR/stack.env"; DATABASE_URL=$url; set +a
   "${BUILD_DIR:-$ROOT/build}/tools/cabinetctl/cabinetctl" "$@")
}
db_url() { sed -n 's/^DATABASE_URL=//p' "$STACK_DIR/stack.env" | tail -n 1; }
# The same server, another database: the URL's path replaced.
db_url_for() { db_url | sed "s|^\(postgresql://[^/]*\)/[^?]*|\1/$1|"; }
psql_admin() { psql -X -h "$STACK_DIR/run" -U postgres -d postgres -v ON_ERROR_STOP=1 -qtA "$@"; }

declare -A AT_SIZE=()   # row label -> "value|note"
at_size() { AT_SIZE[$1]="$2|${3:-}"; AT_SIZE_ORDER+=("$1"); }
AT_SIZE_ORDER=()

# seed_users N: N bench users, their panel users written into the mock panel's snapshot
# while the mock is stopped (it reads the file when it starts; cabinetctl seed-demo
# --panel-state); the time is the whole command's, as printed by it.
seed_users() {
  local n=$1 t0 out state="$STACK_DIR/mock-panel/state.json"
  say "seeding $n bench users (idempotent; the mock panel stops meanwhile)"
  # The mock is restarted with this stack's port (its public URL), as stack.env has it.
  PANEL_PORT=${PANEL_PORT:-$(sed -n 's|^PANEL__BASE_URL=http://127.0.0.1:\([0-9]*\).*|\1|p' "$STACK_DIR/stack.env" | tail -n 1)}
  export PANEL_PORT
  "$STACK" svc stop mock-panel
  t0=$(now_s)
  if ! out=$("$STACK" ctl seed-demo --bench-users "$n" --panel-state "$state" 2>&1); then
    "$STACK" svc start mock-panel || true
    printf '%s\n' "$out" >&2
    die "seed-demo failed"
  fi
  SEED_SECONDS=$(took_s "$t0")
  # tools/stack waits 5 s for the mock's socket; a snapshot of a million users takes longer
  # to read, and the supervised mock keeps starting: wait for its health below instead.
  "$STACK" svc start mock-panel 2>/dev/null || say "the mock panel is still reading its snapshot"
  # The mock reads its snapshot before it answers: wait for it (a million users take a while).
  local ready=0
  for _ in $(seq 600); do
    if curl -fsS -m 5 "http://127.0.0.1:$PANEL_PORT/api/system/health" >/dev/null 2>&1; then ready=1; break; fi
    sleep 1
  done
  [ "$ready" = 1 ] || say "WARNING: the mock panel did not answer within 10 minutes after the seed"
  say "seed: $(last_line "$out") (${SEED_SECONDS} s)"
  at_size "seed (\`seed-demo --bench-users $n\`)" "$SEED_SECONDS s" "$(sed -n 's/.*(\(.*added.*\)).*/\1/p' <<<"$out" | tail -n 1)"
  settle_after_seed
}

# A large load leaves work that autovacuum and the checkpointer would otherwise do while the
# cases are measured: the freshly inserted tables' first vacuum (PostgreSQL vacuums after
# inserts too) and, at a million users, gigabytes of dirty pages. The 2026-11-27 05:45 run,
# measured straight after seeding a million users, had nginx alone (/index.html) at a p99 of
# 51 ms. Done here and timed, so the cases measure the steady state; on a seeded database
# whose pages are already all-visible it takes seconds.
settle_after_seed() {
  local t0 err took
  t0=$(now_s)
  if ! err=$(psql -X "$(db_url)" -qtA -v ON_ERROR_STOP=1 -c "SET statement_timeout = 0" \
       -c "VACUUM users, subscriptions, transactions, balance_ledger, subscription_history, referral_earnings, events" 2>&1) ||
     ! err=$(psql_admin -c "CHECKPOINT" 2>&1); then
    say "WARNING: vacuum or checkpoint after the seed failed: $err"
    return 0
  fi
  took=$(took_s "$t0")
  say "vacuum and checkpoint after the seed: $took s"
  at_size "vacuum and checkpoint after the seed" "$took s" "before the cases, so they do not run beside that work"
}

# measure_at_size: the database's size, then backup, restore into a scratch database,
# migrate (nothing to do, then the newest migration again on that restored copy) and a
# panel sync, each timed. A failing command is reported in its row, not fatal.
measure_at_size() {
  local t0 out rc size
  size=$(psql -X "$(db_url)" -qtAc "SELECT pg_size_pretty(pg_database_size(current_database())) || ' (' || pg_database_size(current_database()) || ' bytes)'" 2>&1) ||
    size="n/a ($size)"
  at_size "database size (\`pg_database_size\`)" "$size"
  local rows; rows=$(psql -X "$(db_url)" -qtAc "SELECT (SELECT count(*) FROM users) || ' users, ' || (SELECT count(*) FROM transactions) || ' transactions, ' || (SELECT count(*) FROM balance_ledger) || ' ledger rows'" 2>/dev/null || true)
  [ -z "$rows" ] || AT_SIZE["database size (\`pg_database_size\`)"]="$size|$rows"
  DB_USERS=$(psql -X "$(db_url)" -qtAc "SELECT count(*) FROM users" 2>/dev/null || true)

  measure_admin_reads
  measure_owner_lists "${SEED_USERS:-0}"

  say "at size: backup"
  mkdir -p "$STACK_DIR/backups"
  local before; before=$(ls -1 "$STACK_DIR/backups" 2>/dev/null | sort | tail -n 1 || true)
  t0=$(now_s); rc=0
  out=$("$STACK" ctl backup 2>&1) || rc=$?
  local took; took=$(took_s "$t0")
  local archive; archive=$(ls -1t "$STACK_DIR/backups"/cabinet-*.zip 2>/dev/null | head -n 1 || true)
  if [ -n "$archive" ] && [ "$(basename "$archive")" != "$before" ]; then
    at_size "\`cabinetctl backup\`" "$took s" "archive $(du -h "$archive" | cut -f1)$([ $rc = 0 ] || echo ", written but not delivered (exit $rc)")"
  else
    at_size "\`cabinetctl backup\`" "failed" "exit $rc: $(last_line "$out")"
    archive=""
  fi

  local scratch=cabinet_bench_restore
  if [ -n "$archive" ]; then
    say "at size: restore into the scratch database $scratch"
    psql_admin -c "DROP DATABASE IF EXISTS $scratch" -c "CREATE DATABASE $scratch OWNER cabinet" >/dev/null
    t0=$(now_s); rc=0
    out=$(ctl_on_db "$(db_url_for "$scratch")" restore "$archive" --database-url "$(db_url_for "$scratch")" 2>&1) || rc=$?
    took=$(took_s "$t0")
    if [ $rc = 0 ]; then at_size "\`cabinetctl restore\` (into an empty scratch database)" "$took s"
    else at_size "\`cabinetctl restore\` (into an empty scratch database)" "failed" "exit $rc: $(last_line "$out")"; fi
  fi

  say "at size: migrate"
  t0=$(now_s); rc=0
  out=$("$STACK" ctl migrate 2>&1) || rc=$?
  took=$(took_s "$t0")
  at_size "\`cabinetctl migrate\` (nothing to apply)" "$([ $rc = 0 ] && echo "$took s" || echo failed)" "$([ $rc = 0 ] || tail -n 1 <<<"$out")"

  if [ -n "$archive" ] && [ "${rc:-1}" = 0 ] && psql -X "$(db_url_for "$scratch")" -qtAc "SELECT 1" >/dev/null 2>&1; then
    # The newest migration once more, on the restored copy: its record removed, migrate again.
    local newest; newest=$(psql -X "$(db_url_for "$scratch")" -qtAc "SELECT version || ' ' || name FROM schema_migrations ORDER BY version DESC LIMIT 1" || true)
    psql -X "$(db_url_for "$scratch")" -qc "DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations)" >/dev/null || true
    t0=$(now_s); rc=0
    out=$(ctl_on_db "$(db_url_for "$scratch")" migrate 2>&1) || rc=$?
    took=$(took_s "$t0")
    at_size "\`cabinetctl migrate\` (newest migration again, on the restored copy)" \
      "$([ $rc = 0 ] && echo "$took s" || echo failed)" "${newest}$([ $rc = 0 ] || echo ": $(last_line "$out")")"
  fi
  [ -z "$archive" ] || psql_admin -c "DROP DATABASE IF EXISTS $scratch" >/dev/null 2>&1 || true

  say "at size: sync-panel (stopped after ${BENCH_SYNC_TIMEOUT} s)"
  t0=$(now_s); rc=0
  out=$(timeout "$BENCH_SYNC_TIMEOUT" "$STACK" ctl sync-panel --batch 1000 2>&1) || rc=$?
  took=$(took_s "$t0")
  if [ $rc = 0 ]; then at_size "\`cabinetctl sync-panel\`" "$took s" "$(last_line "$out")"
  elif [ $rc = 124 ]; then
    # How far it got: each synced subscription records today's usage.
    local done_n; done_n=$(psql -X "$(db_url)" -qtAc "SELECT count(*) FROM traffic_snapshots WHERE day = (now() AT TIME ZONE 'UTC')::date" 2>/dev/null || echo "?")
    at_size "\`cabinetctl sync-panel\`" "> $BENCH_SYNC_TIMEOUT s" "not finished, stopped (BENCH_SYNC_TIMEOUT): $done_n subscriptions synced by then"
  else at_size "\`cabinetctl sync-panel\`" "failed" "exit $rc after $took s: $(last_line "$out")"; fi
}

# measure_admin_reads: the owner's cabinet's reads at this size (issue 47: each ≤ 50 ms), as
# the owner's page asks them: one at a time through nginx, BENCH_ADMIN_READS (21) times
# each after one unmeasured request; the median and the slowest of curl's time_total.
measure_admin_reads() {
  local n=${BENCH_ADMIN_READS:-21} init path times base
  base=$(sed -n 's|^MINIAPP_URL=\(http://[^/]*\)/.*|\1|p' "$STACK_DIR/stack.env" | tail -n 1)
  init=$("$STACK" ctl dev-init-data --telegram-id 100000001 --first-name Owner 2>/dev/null | tail -n 1) || return 0
  for path in /api/admin/overview "/api/admin/promo-codes?limit=50" /api/admin/plans /api/admin/settings; do
    say "at size: $path x $n"
    curl -s -o /dev/null -H "Authorization: tma $init" "$base$path" || true
    times=$(for _ in $(seq "$n"); do
      curl -s -o /dev/null -w '%{http_code} %{time_total}\n' -H "Authorization: tma $init" "$base$path"
    done)
    if grep -qv '^200 ' <<<"$times"; then
      at_size "owner's \`GET $path\`" "failed" "$(grep -v '^200 ' <<<"$times" | head -n 1)"
      continue
    fi
    at_size "owner's \`GET $path\`" "$(awk '{ print $2 * 1000 }' <<<"$times" | sort -g | awk '{ v[NR] = $1 } END { printf "%.1f ms", v[int((NR + 1) / 2)] }')" \
      "median of $n one at a time through nginx; slowest $(awk '{ print $2 * 1000 }' <<<"$times" | sort -g | tail -n 1 | xargs printf '%.1f') ms"
  done
}

# measure_owner_lists N: the owner's customers and payments at this size (issue 48: a search
# answers in <= 50 ms p99). Each case BENCH_LIST_READS (101) requests one at a time through
# nginx, each with another bench customer (k spread over 1..N), after one unmeasured request;
# the median and the p99 of curl's time_total. Then the two CSV exports of everything: their
# time, size and the pool's largest RSS while they stream (sampled every 0.2 s).
measure_owner_lists() {
  local users=$1 n=${BENCH_LIST_READS:-101} init base name template times k i path
  base=$(sed -n 's|^MINIAPP_URL=\(http://[^/]*\)/.*|\1|p' "$STACK_DIR/stack.env" | tail -n 1)
  init=$("$STACK" ctl dev-init-data --telegram-id 100000001 --first-name Owner 2>/dev/null | tail -n 1) || return 0
  [ "$users" -gt 0 ] 2>/dev/null || return 0
  # name|path with K for a bench customer's number, T for its Telegram id and I for its row id
  # (seed_bench.cpp: Telegram id 900000000+k, username bench<k>, first name "Bench <k>", short
  # id bench<k>; the row ids follow the first bench customer's).
  local first_id
  first_id=$(psql -X "$(db_url)" -qtAc "SELECT min(id) FROM users WHERE telegram_id > 900000000" 2>/dev/null || echo 1)
  local cases=(
    "search by Telegram id|/api/admin/customers?q=T"
    "search by @username|/api/admin/customers?q=%40benchK"
    "search by name fragment|/api/admin/customers?q=nch%20K"
    "search by subscription link|/api/admin/customers?q=http%3A%2F%2Fpanel%2Fsub%2FbenchK"
    "list, status trial|/api/admin/customers?status=trial&cursor=K"
    "list, status expired|/api/admin/customers?status=expired&cursor=K"
    "list, no subscription|/api/admin/customers?status=none"
    "list, blocked|/api/admin/customers?status=blocked"
    "list, joined on one day|/api/admin/customers?joined_from=2026-03-01&joined_to=2026-03-01&cursor=K"
    "customer's card|/api/admin/customers/I"
    "payments page, completed|/api/admin/payments?status=completed&from=2026-11-01&to=2026-11-30"
    "payments page, everything|/api/admin/payments"
    "payments page, one customer|/api/admin/payments?customer=K"
  )
  for c in "${cases[@]}"; do
    name=${c%%|*}; template=${c#*|}
    say "at size: $name x $n"
    path=${template//K/1}; path=${path//I/$first_id}; curl -s -o /dev/null -H "Authorization: tma $init" "$base${path//T/900000001}" || true
    times=$(for i in $(seq "$n"); do
      k=$(( (i * 7919) % users + 1 )); path=${template//K/$k}; path=${path//I/$((first_id + k - 1))}
      curl -s -o /dev/null -w '%{http_code} %{time_total}\n' -H "Authorization: tma $init" "$base${path//T/$((900000000 + k))}"
    done)
    if grep -qv '^200 ' <<<"$times"; then
      at_size "owner: $name" "failed" "$(grep -v '^200 ' <<<"$times" | head -n 1)"
      continue
    fi
    at_size "owner: $name" "$(awk '{ print $2 * 1000 }' <<<"$times" | sort -g | awk '{ v[NR] = $1 } END { printf "%.1f ms", v[int((NR + 1) / 2)] }')" \
      "p99 $(awk '{ print $2 * 1000 }' <<<"$times" | sort -g | awk '{ v[NR] = $1 } END { i = int(NR * 0.99 + 0.999); if (i > NR) i = NR; printf "%.1f", v[i] }') ms; $n requests, one at a time through nginx"
  done
  [ -z "${BENCH_SKIP_EXPORTS:-}" ] || return 0
  local export out rss pid_list sampler
  for export in customers payments; do
    path=/api/admin/$export/export
    say "at size: export of every $export"
    out=$(mktemp)
    pid_list=$(pgrep -f cabinet-fcgi | tr '\n' ' ')
    ( peak=0; while :; do for p in $pid_list; do r=$(awk '/VmRSS/ { print $2 }' "/proc/$p/status" 2>/dev/null || echo 0); [ "${r:-0}" -gt "$peak" ] && peak=$r; done; echo "$peak" > "$out.rss"; sleep 0.2; done ) &
    sampler=$!
    times=$(curl -s -o "$out" -w '%{http_code} %{time_total} %{size_download}' -H "Authorization: tma $init" "$base$path")
    kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null || true
    rss=$(cat "$out.rss" 2>/dev/null || echo 0)
    if [ "${times%% *}" = 200 ]; then
      at_size "owner: CSV export of every $export" "$(awk '{ printf "%.1f s", $2 }' <<<"$times")" \
        "$(( $(wc -l < "$out") - 1 )) rows, $(awk '{ printf "%.0f MB", $3 / 1e6 }' <<<"$times"); the largest pool process $(( rss / 1024 )) MB RSS while it streamed"
    else
      at_size "owner: CSV export of every $export" "failed" "$times"
    fi
    rm -f "$out" "$out.rss"
  done
}

# The last line a command printed itself (tools/stack adds its own error lines after it).
last_line() { grep -v '^\[stack\]' <<<"$1" | tail -n 1; }

# The "At N users" part of the report. A database seeded earlier for more users than
# --users asks keeps them (the seed only adds): the title then says so, since the figures
# below are those of the database's size.
at_size_section() {
  local label value note title="At $SEED_USERS users (\`--users $SEED_USERS\`):"
  if [[ "${DB_USERS:-}" =~ ^[0-9]+$ ]] && [ "$DB_USERS" -gt $((SEED_USERS + 1000)) ]; then
    title="At $DB_USERS users (\`--users $SEED_USERS\` on a database seeded for more before):"
  fi
  printf '%s\n\n| step | time / size | note |\n|---|---:|---|\n' "$title"
  for label in "${AT_SIZE_ORDER[@]}"; do
    value=${AT_SIZE[$label]%%|*} note=${AT_SIZE[$label]#*|}
    printf '| %s | %s | %s |\n' "$label" "$value" "$note"
  done
}

