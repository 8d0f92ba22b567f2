# shellcheck shell=bash disable=SC2034  # sourced; the variables it sets are the caller's
# Shared by tools/bench and tools/profile (sourced, not run): the wrk cases, the bench users'
# init data, and one wrk run parsed into figures. The caller sets ROOT and defines say/die.
#
# Overridable: STACK_DIR (var/), HTTP_PORT (8080), BENCH_DURATION (10, seconds),
# BENCH_CONNECTIONS (64), BENCH_THREADS (2), BENCH_WARMUP (2, seconds), BENCH_TRAFFIC_WARMUP (20),
# BENCH_WALK_WARMUP (6), BENCH_USERS (10000),
# BENCH_PURCHASE_EVERY (20).

STACK_DIR=${STACK_DIR:-$ROOT/var}
HTTP_PORT=${HTTP_PORT:-8080}
export STACK_DIR HTTP_PORT

BENCH_DURATION=${BENCH_DURATION:-10}
BENCH_CONNECTIONS=${BENCH_CONNECTIONS:-64}
BENCH_THREADS=${BENCH_THREADS:-2}
BENCH_WARMUP=${BENCH_WARMUP:-2}
# /traffic asks the panel on a user's first view and then answers from the stored figure for
# TRAFFIC_FRESH_S (60 s): its warm-up walks the bench users in order (random_user.lua's
# `walk`), so that it views every one of them once if it makes at least as many requests as
# there are users (run_case warns when it did not), and the measured run is the chart's
# reloads. The warm-up's round trips per request are mostly those first views. (Until
# 2026-11-27 it drew users at random for 8 s, which on a machine where a first view is slow
# left a quarter of them for the measured run: docs/benchmarks.md, 06:03 run.) 20 s: a first
# view cost 2.9 ms of machine time on that machine (680 a second), so 9,000 of them take 13 s;
# the earliest view is still fresh when the measured run ends (20 + 10 s < 60 s).
BENCH_TRAFFIC_WARMUP=${BENCH_TRAFFIC_WARMUP:-20}
# The first cases that read a user's account (/me) and referral figures (/referral) load
# them into the pool's account cache (docs/decisions.md "Accounts in memory"): their warm-ups
# walk the users in order too, so that the measured runs are returning users, as a session's
# every request after its first is (a random 2 s draw left a tenth of the users' first
# loads, and their statements, in /me's measured run: 0.89 statements a request in the
# warm-up, p99 24 ms against 12 ms in a run right after; docs/benchmarks.md, 08:13 run).
# 6 s: about 5,000 first loads a second here.
BENCH_WALK_WARMUP=${BENCH_WALK_WARMUP:-6}
BENCH_USERS=${BENCH_USERS:-10000}
BENCH_PURCHASE_EVERY=${BENCH_PURCHASE_EVERY:-20}  # purchase_mix: 1 request in N is a balance purchase
FIRST_BENCH_ID=900000001

BASE="http://127.0.0.1:$HTTP_PORT"
BENCH_DIR="$STACK_DIR/bench"
INIT_DATA="$BENCH_DIR/init-data.txt"
LUA="$ROOT/tests/bench/random_user.lua"
STACK="$ROOT/tools/stack"

# The cases: name -> path; how each is driven is in bench_case.
declare -A PATHS=([static]=/index.html [config]=/api/cabinet/config [me]=/api/cabinet/me
                  [plans]=/api/cabinet/plans [connection]=/api/cabinet/connection
                  [referral]=/api/cabinet/referral [traffic]=/api/cabinet/traffic [purchase_mix]=/api/cabinet/me
                  [purchase]=/api/cabinet/purchase)

# ---- preconditions ---------------------------------------------------------------------
bench_check_tools() {
  if ! command -v wrk >/dev/null 2>&1; then
    say "wrk not found; running tools/install-deps"
    "$ROOT/tools/install-deps" >&2 || die "tools/install-deps failed"
    command -v wrk >/dev/null 2>&1 || die "wrk is still missing"
  fi
  command -v curl >/dev/null 2>&1 || die "curl is missing (tools/install-deps)"
  [ -f "$LUA" ] || die "missing $LUA"
  [[ "$BENCH_DURATION" =~ ^[0-9]+$ && "$BENCH_DURATION" -gt 0 ]] || die "BENCH_DURATION must be a positive number of seconds"
  [[ "$BENCH_CONNECTIONS" =~ ^[0-9]+$ && "$BENCH_CONNECTIONS" -ge "$BENCH_THREADS" ]] ||
    die "BENCH_CONNECTIONS must be a number >= BENCH_THREADS ($BENCH_THREADS)"
}

healthy() { curl -fsS -m 2 "$BASE/health" >/dev/null 2>&1; }

bench_ensure_stack() {
  if healthy; then
    say "stack answers on $BASE/health"
  else
    say "stack not answering on $BASE/health: running tools/stack up"
    "$STACK" up >&2 || die "tools/stack up failed"
    healthy || die "stack still not healthy on $BASE after tools/stack up"
  fi
}

# ---- users and init data ---------------------------------------------------------------
# Seeds the bench users and writes their init data, then checks one line by hand: if the
# pool rejects the init data, every /me request would be a 401 and the figures would
# measure the error path. Sets PROBE_STATUS.
# BENCH_SEED: the command that seeds SEED_USERS users (tools/bench: seed_users of
# bench-at-size.sh, which also gives the mock panel their panel users); by default plain
# seed-demo.
SEED_USERS=${SEED_USERS:-$BENCH_USERS}
bench_seed_plain() {
  say "seeding $1 bench users (idempotent)"
  "$STACK" ctl seed-demo --bench-users "$1" >/dev/null || die "seed-demo failed"
}

# write_init_data: init data of BENCH_USERS bench users with a running subscription. Bench
# user k's subscription expired when k % 10 = 3 (tools/cabinetctl/seed_bench.cpp), and an
# expired one has no connection (404): the wrk cases measure customers, so those are skipped.
write_init_data() {
  local take=$((BENCH_USERS * 10 / 9 + 10))
  [ "$take" -le "$SEED_USERS" ] || take=$SEED_USERS
  "$STACK" ctl dev-init-data --telegram-id "$FIRST_BENCH_ID" --count "$take" >"$INIT_DATA.all" ||
    die "dev-init-data failed"
  awk -v max="$BENCH_USERS" 'NR % 10 != 3 && ++n <= max' "$INIT_DATA.all" >"$INIT_DATA.tmp"
  rm -f "$INIT_DATA.all"
  mv "$INIT_DATA.tmp" "$INIT_DATA"
  local lines; lines=$(grep -c . "$INIT_DATA" || true)
  if [ "$lines" -lt "$BENCH_USERS" ]; then BENCH_USERS=$lines; fi   # a small --users
}


bench_prepare_users() {
  mkdir -p "$BENCH_DIR"
  if [ "$BENCH_USERS" -gt "$SEED_USERS" ]; then BENCH_USERS=$SEED_USERS; fi  # wrk picks among those seeded
  ${BENCH_SEED:-bench_seed_plain} "$SEED_USERS"
  write_init_data
  local lines probe
  lines=$(grep -c . "$INIT_DATA" || true)
  [ "$lines" -eq "$BENCH_USERS" ] || die "expected $BENCH_USERS init-data lines in $INIT_DATA, got $lines"
  say "wrote $INIT_DATA ($lines lines, valid 24 h)"

  probe=$(sed -n "$((RANDOM % lines + 1))p" "$INIT_DATA")
  PROBE_STATUS=$(curl -s -o "$BENCH_DIR/probe-me.json" -w '%{http_code}' -m 5 \
    -H "Authorization: tma $probe" "$BASE/api/cabinet/me" || true)
  if [ "$PROBE_STATUS" = "200" ]; then
    say "probe: /api/cabinet/me with one bench user's init data -> 200"
  else
    say "WARNING: probe /api/cabinet/me -> $PROBE_STATUS: $(head -c 300 "$BENCH_DIR/probe-me.json" 2>/dev/null)"
    say "WARNING: the /me figures below will measure an error path"
  fi
}

# ---- round trips per request ---------------------------------------------------------------
# The warm-up run of each case is counted: PostgreSQL statements (pg_stat_statements, which
# tools/stack loads; BEGIN and COMMIT count, they are round trips too) and Redis commands
# (INFO commandstats), divided by the requests wrk made. The stack's other processes (worker,
# watchdog, landing) add a few statements a second: below 0.01 a request at these rates.
# The extension lives in the `postgres` database (it sees every database's statements): in
# `cabinet` it would go into the stack's backups, which the cabinet role cannot restore.
bench_psql() { psql -h "$STACK_DIR/run" -U postgres -d postgres -qAtX -v ON_ERROR_STOP=1 "$@"; }
bench_redis() { redis-cli -s "$STACK_DIR/run/redis.sock" "$@"; }
RT_OK=
rt_check() {
  RT_OK=1
  # Runs before 2026-11-24 10:00 created it in `cabinet`: dropped there.
  psql -h "$STACK_DIR/run" -U postgres -d cabinet -qAtX -c "DROP EXTENSION IF EXISTS pg_stat_statements" >/dev/null 2>&1 || true
  if ! bench_psql -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null 2>&1 ||
     ! bench_psql -c "SELECT 1 FROM pg_stat_statements LIMIT 1" >/dev/null 2>&1; then
    say "WARNING: pg_stat_statements is not loaded (tools/stack up restarts PostgreSQL with it); round trips not counted"
    RT_OK=0
  fi
}
rt_reset() {
  [ -n "$RT_OK" ] || rt_check
  [ "$RT_OK" = 1 ] || return 0
  bench_psql -c "SELECT pg_stat_statements_reset()" >/dev/null
  bench_redis CONFIG RESETSTAT >/dev/null
}
# pg_stat_statements' hooks run on every statement while it tracks: only the warm-up's count
# needs them, so the measured run goes without (track = none), and the CPU per request it
# reports is the stack's own (about 5 % of a purchase's PostgreSQL time was the extension's).
# rt_pause after the warm-up's count, rt_resume after the measured run; a reload reaches the
# pooled backends before their next statement.
rt_track() {  # rt_track "SET ... = 'none'" | RESET ...
  [ "$RT_OK" = 1 ] || return 0
  bench_psql -c "ALTER SYSTEM $1" -c "SELECT pg_reload_conf()" >/dev/null
  sleep 0.2
}
rt_pause() { rt_track "SET pg_stat_statements.track = 'none'"; }
rt_resume() { rt_track "RESET pg_stat_statements.track"; }
# rt_read REQUESTS -> sets RT_DB and RT_REDIS (per request, two decimals) or n/a
rt_read() {
  RT_DB="n/a" RT_REDIS="n/a"
  [ "$RT_OK" = 1 ] && [ "${1:-0}" -gt 0 ] || return 0
  local db redis
  db=$(bench_psql -c "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
                      WHERE d.datname = 'cabinet' AND s.query NOT LIKE '%pg_stat_statements%'")
  redis=$(bench_redis INFO commandstats |
          awk -F'[:=,]' '/^cmdstat_/ && $1 != "cmdstat_info" && $1 != "cmdstat_config" { n += $3 } END { print n + 0 }')
  RT_DB=$(awk -v n="$db" -v r="$1" 'BEGIN { printf "%.2f", n / r }')
  RT_REDIS=$(awk -v n="$redis" -v r="$1" 'BEGIN { printf "%.2f", n / r }')
}

# ---- CPU time per request, by process ------------------------------------------------------
# Where a request's machine time goes: the CPU time (user + system) this stack's processes
# spent during the measured run, divided by its requests, per group. On a shared machine
# req/s moves with the neighbours' load; CPU time per request barely does, so two builds
# can be compared by it even when the machine is busy. Groups: pool (cabinet-fcgi), pg (the
# postmaster and its backends), nginx (master and workers), panel (the mock panel), redis,
# worker. wrk's own share is left out (it has ended when the run is read).
cpu_pids() {  # prints "pid group" for this stack's processes
  # The pid files name supervisors (tools/stack's restart loops, the postmaster, nginx's
  # master): each and its direct children are the group.
  local -A root=()
  local f pid ppid
  for f in "$STACK_DIR"/run/fcgi-*.pid; do [ -r "$f" ] && root[$(cat "$f")]=pool; done
  for f in mock-panel:panel redis:redis worker:worker; do
    [ -r "$STACK_DIR/run/${f%%:*}.pid" ] && root[$(cat "$STACK_DIR/run/${f%%:*}.pid")]=${f#*:}
  done
  pid=$(head -1 "$STACK_DIR/pg/postmaster.pid" 2>/dev/null) && root[$pid]=pg
  pid=$(cat "$STACK_DIR/nginx/nginx.pid" 2>/dev/null) && root[$pid]=nginx
  for f in /proc/[0-9]*/stat; do
    { read -r pid _ _ ppid _ <"$f"; } 2>/dev/null || continue
    if [ -n "${root[$pid]:-}" ]; then echo "$pid ${root[$pid]}"
    elif [ -n "${root[$ppid]:-}" ]; then echo "$pid ${root[$ppid]}"; fi
  done
}
# cpu_snapshot FILE: "pid group ticks" for each of the groups' processes (utime + stime).
cpu_snapshot() {
  cpu_pids | while read -r pid group; do
    local line
    line=$(cat "/proc/$pid/stat" 2>/dev/null) || continue
    line=${line##*) }  # after the command name, which may hold spaces
    # shellcheck disable=SC2086  # the fields of /proc/PID/stat, split on purpose
    set -- $line
    echo "$pid $group $(( ${12} + ${13} ))"
  done >"$1"
}
# cpu_per_request BEFORE AFTER REQUESTS -> CPU_NOTE: "pool 41, pg 120, ..." in µs a request.
# Counted per process: one that started in between counts from zero, one that ended in
# between not at all (backends of pooled connections live through a run). Summing by group
# first made an ended process's CPU a negative share.
cpu_per_request() {
  local hz; hz=$(getconf CLK_TCK)
  CPU_NOTE=$(awk -v hz="$hz" -v n="$3" '
    FNR == NR { before[$1] = $3; next }
    { d[$2] += $3 - ($1 in before ? before[$1] : 0) }
    END {
      split("pool pg nginx panel redis worker", order, " ")
      for (i = 1; i <= 6; i++) { g = order[i]; if (!(g in d)) continue
        us = n > 0 ? d[g] * 1e6 / hz / n : 0; total += us
        out = out sprintf("%s%s %.0f", out == "" ? "" : ", ", g, us) }
      printf "%s; total %.0f us/request", out, total }' "$1" "$2")
}
# machine_us CPU_NOTE -> the µs a request of the pool, PostgreSQL and nginx together (issue 51's
# "machine time per purchase": the processes that serve a purchase in production; the mock
# panel stands in for a remote one, the worker and Redis are reported beside), or nothing.
machine_us() {
  awk -v note="$1" 'BEGIN { n = split(note, part, /[,;] */)
    for (i = 1; i <= n; i++) { split(part[i], kv, " ")
      if (kv[1] == "pool" || kv[1] == "pg" || kv[1] == "nginx") { sum += kv[2]; seen = 1 } }
    if (seen) printf "%.0f", sum }'
}

# ---- one kind of request's latency, from nginx's access log --------------------------------
# wrk's percentiles mix every request of a run. In purchase_mix 1 in 20 requests is a
# purchase, so the mix's p99 is about the purchases' 80th percentile. The purchases' own
# latency and that of the panel call inside them (the mock panel is behind the same nginx)
# show where it comes from (docs/decisions.md "The mix's p99 is the mock panel's disk flush").
access_log_size() { stat -c %s "$STACK_DIR/log/nginx-access.log" 2>/dev/null || echo 0; }
# access_log_latency OFFSET "METHOD PATH" -> "n p50 p99" in ms of the 2xx answers to that
# request logged after byte OFFSET (either log format, text or json), or nothing.
access_log_latency() {
  local log="$STACK_DIR/log/nginx-access.log"
  [ -r "$log" ] && [ "$(access_log_size)" -ge "$1" ] || return 0  # rotated meanwhile
  tail -c +"$(($1 + 1))" "$log" | awk -v want="$2" '
    index($0, "\"" want " ") || index($0, "\"request\":\"" want " ") {
      if (match($0, /" [0-9][0-9][0-9] /)) status = substr($0, RSTART + 2, 3)
      else if (match($0, /"status":[0-9]+/)) status = substr($0, RSTART + 9, RLENGTH - 9)
      else next
      if (status !~ /^2/) next
      if (match($0, / rt=[0-9.]+/)) print substr($0, RSTART + 4, RLENGTH - 4) * 1000
      else if (match($0, /"request_time":[0-9.]+/)) print substr($0, RSTART + 15, RLENGTH - 15) * 1000
    }' | sort -n | awk '
    function rank(q,  i) { i = int(NR * q); if (i < NR * q) i++; return v[i < 1 ? 1 : i] }  # nearest rank
    { v[NR] = $1 } END { if (NR) printf "%d %.0f %.0f\n", NR, rank(0.5), rank(0.99) }'
}

# purchase_latency, after run_case purchase_mix -> sets BUY_LAT and PANEL_LAT ("n p50 p99" of
# the measured run's purchases and of their panel calls, or empty). Not part of run_case, so
# that tools/profile's perf stops before this wait.
purchase_latency() {
  sleep 1.2  # nginx flushes its access log buffer every second
  BUY_LAT=$(access_log_latency "$LOG_FROM" "POST /api/cabinet/purchase")
  PANEL_LAT=$(access_log_latency "$LOG_FROM" "PATCH /api/users")
  say "purchase_mix: purchases alone (n p50 p99, ms): ${BUY_LAT:-n/a}; their panel call: ${PANEL_LAT:-n/a}"
}

# ---- wrk ----------------------------------------------------------------------------------
# wrk prints latencies as 812.00us, 1.23ms, 1.05s, 2.00m: all to milliseconds.
to_ms() {
  awk -v t="$1" 'BEGIN {
    n = t + 0; u = t; sub(/^[0-9.]+/, "", u)
    if (u == "us") n /= 1000; else if (u == "s") n *= 1000; else if (u == "m") n *= 60000;
    else if (u == "h") n *= 3600000;
    printf "%.2f", n }'
}

# bench_case NAME: runs case NAME through run_case with its path and wrk script arguments.
bench_case() {
  local c=$1
  [ -n "${PATHS[$c]:-}" ] || die "unknown case '$c' (cases: ${!PATHS[*]})"
  case "$c" in
    static|config) run_case "$c" "${PATHS[$c]}" ;;
    purchase_mix) run_case "$c" "${PATHS[$c]}" "$INIT_DATA" "$BENCH_PURCHASE_EVERY" ;;
    purchase) run_case "$c" "${PATHS[$c]}" "$INIT_DATA" 1 ;;  # every request a purchase
    *) run_case "$c" "${PATHS[$c]}" "$INIT_DATA" ;;  # a random bench user per request
  esac
}

# run_case NAME PATH [wrk script args...]  -> sets RPS P50 P99 ERRS ERR_NOTE RT_DB RT_REDIS CPU_NOTE
# and LOG_FROM (the access log's size before the measured run, for purchase_latency)
# BENCH_BEFORE_MEASURE, when set, is a command run after the warm-up and before the
# measured run (tools/profile starts perf there).
run_case() {
  local name=$1 path=$2; shift 2
  local url="$BASE$path" out="$BENCH_DIR/wrk-$name${CASE_TAG:-}.txt"  # CASE_TAG: a repeat's own files
  local -a script=()
  if [ $# -gt 0 ]; then script=(-s "$LUA" "$url" -- "$@"); else script=("$url"); fi

  local warmup=$BENCH_WARMUP warmed walk=""
  local -a warm_script=("${script[@]}")
  case "$name" in
    traffic) walk=BENCH_TRAFFIC_WARMUP ;;
    me|referral) walk=BENCH_WALK_WARMUP ;;
  esac
  if [ -n "$walk" ]; then
    warmup=${!walk}
    warm_script=(-s "$LUA" "$url" -- "$@" 0 walk "$BENCH_THREADS")
  fi
  say "$name: warm-up ${warmup}s (round trips counted), then ${BENCH_DURATION}s at -t$BENCH_THREADS -c$BENCH_CONNECTIONS ($path)"
  rt_reset
  wrk -t"$BENCH_THREADS" -c"$BENCH_CONNECTIONS" -d"${warmup}s" "${warm_script[@]}" >"$out.warmup" 2>&1 || true
  warmed=$(awk '/requests in/ { print $1; exit }' "$out.warmup")
  rt_read "$warmed"
  if [ -n "$walk" ] && [ "${warmed:-0}" -lt "$BENCH_USERS" ]; then
    say "WARNING: the $name warm-up made ${warmed:-0} requests, fewer than the $BENCH_USERS bench users: the measured run includes first loads (raise $walk)"
  fi
  rt_pause
  if [ "$name" = purchase_mix ]; then sleep 1.2; fi  # the warm-up's last lines reach the log first
  LOG_FROM=$(access_log_size)
  if [ -n "${BENCH_BEFORE_MEASURE:-}" ]; then $BENCH_BEFORE_MEASURE; fi
  RPS="n/a" P50="n/a" P99="n/a" ERRS="n/a" ERR_NOTE="" CPU_NOTE="n/a"
  cpu_snapshot "$out.cpu0"
  if ! wrk -t"$BENCH_THREADS" -c"$BENCH_CONNECTIONS" -d"${BENCH_DURATION}s" --latency "${script[@]}" >"$out" 2>&1; then
    rt_resume
    say "WARNING: wrk failed for $name (output in $out):"
    sed 's/^/    /' "$out" >&2
    ERR_NOTE="wrk failed"
    return 0
  fi
  local rps p50 p99 non2xx sock total
  rps=$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$out")
  p50=$(awk '/Latency Distribution/ { d = 1 } d && $1 == "50%" { print $2; exit }' "$out")
  p99=$(awk '/Latency Distribution/ { d = 1 } d && $1 == "99%" { print $2; exit }' "$out")
  non2xx=$(awk '/Non-2xx or 3xx responses:/ { print $NF }' "$out")
  sock=$(awk '/Socket errors:/ { gsub(/,/, ""); print $4 + $6 + $8 + $10 }' "$out")
  total=$(awk '/requests in/ { print $1; exit }' "$out")
  cpu_snapshot "$out.cpu1"
  rt_resume
  cpu_per_request "$out.cpu0" "$out.cpu1" "${total:-0}"
  say "$name: CPU per request (us): $CPU_NOTE"
  non2xx=${non2xx:-0} sock=${sock:-0}
  RPS=${rps:-n/a}
  if [ -n "$p50" ]; then P50=$(to_ms "$p50"); fi
  if [ -n "$p99" ]; then P99=$(to_ms "$p99"); fi
  ERRS=$((non2xx + sock))
  if [ "$ERRS" -gt 0 ]; then
    ERR_NOTE="$non2xx non-2xx/3xx, $sock socket errors of ${total:-?} requests"
    say "WARNING: $name: $ERR_NOTE (see $out)"
  fi
  return 0
}
