// /metrics through nginx as Prometheus scrapes it, the worker's and watchdog's textfiles,
// and the json log lines (docs/operations.md "Metrics and logs").
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "money_support.hpp"
#include "support.hpp"

using namespace it;

namespace {

// A strict reading of the text exposition format 0.0.4: every line is HELP, TYPE or a
// sample; a sample belongs to the family declared last (a histogram's _bucket, _sum,
// _count); no series twice; buckets cumulative and ending in +Inf = _count. The values by
// series ("name{a=\"x\"}"), or the first problem found.
struct Scrape {
    std::map<std::string, double> series;
    std::string problem;
    double operator[](const std::string& s) const {
        const auto it = series.find(s);
        return it == series.end() ? 0 : it->second;
    }
};

Scrape parse_exposition(const std::string& text) {
    static const std::regex help(R"(^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) .*$)");
    static const std::regex type(R"(^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$)");
    static const std::regex sample(
        R"(^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\[\\"n])*"(,[a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\[\\"n])*")*)?\})? ([^ ]+)$)");
    Scrape out;
    std::string family, family_type;
    std::set<std::string> families;
    std::istringstream in(text);
    std::string line;
    int n = 0;
    std::map<std::string, double> last_bucket;  // per histogram series without le: cumulative check
    const auto fail = [&](const std::string& why) {
        if (out.problem.empty()) out.problem = "line " + std::to_string(n) + ": " + why + ": " + line;
    };
    if (text.empty() || text.back() != '\n') out.problem = "the text must end with a line feed";
    while (std::getline(in, line)) {
        ++n;
        std::smatch m;
        if (std::regex_match(line, m, help)) continue;
        if (std::regex_match(line, m, type)) {
            family = m[1];
            family_type = m[2];
            if (!families.insert(family).second) fail("family declared twice");
            continue;
        }
        if (!std::regex_match(line, m, sample)) {
            fail("not a sample");
            continue;
        }
        const std::string name = m[1], labels = m[3], value = m[7];
        const bool histogram_part = family_type == "histogram" &&
                                    (name == family + "_bucket" || name == family + "_sum" || name == family + "_count");
        if (name != family && !histogram_part) fail("sample outside its family " + family);
        double v = 0;
        if (value == "+Inf") v = INFINITY;
        else if (value == "-Inf") v = -INFINITY;
        else if (value == "NaN") v = NAN;
        else {
            size_t used = 0;
            try {
                v = std::stod(value, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used != value.size()) fail("bad value");
        }
        const std::string key = name + (labels.empty() ? "" : "{" + labels + "}");
        if (!out.series.emplace(key, v).second) fail("series twice");
        if (name == family + "_bucket") {
            static const std::regex le(R"((,?)le="([^"]*)\")");
            std::smatch lm;
            if (!std::regex_search(labels, lm, le)) fail("bucket without le");
            const std::string rest = family + "{" + std::regex_replace(labels, le, "") + "}";
            if (last_bucket.count(rest) && v < last_bucket[rest]) fail("buckets not cumulative");
            last_bucket[rest] = v;
            if (lm[2] == "+Inf") last_bucket[rest + "+Inf"] = v;
        }
        if (name == family + "_count") {
            const std::string rest = family + (labels.empty() ? "{}" : "{" + labels + "}");
            if (!last_bucket.count(rest + "+Inf") || last_bucket[rest + "+Inf"] != v) fail("_count is not the +Inf bucket");
        }
    }
    return out;
}

Scrape scrape() {
    const auto r = http("GET", "/metrics");
    BOOST_TEST_REQUIRE(r.status == 200, r.body);
    auto s = parse_exposition(r.body);
    BOOST_TEST_REQUIRE(s.problem.empty(), s.problem);
    return s;
}

const std::string kMeCount200 = R"(cabinet_http_requests_total{route="/api/cabinet/me",method="GET",status="200"})";
const std::string kMeCount401 = R"(cabinet_http_requests_total{route="/api/cabinet/me",method="GET",status="401"})";
const std::string kMeDuration = R"(cabinet_http_request_duration_seconds_count{route="/api/cabinet/me",method="GET"})";
const std::string kUnmatched404 = R"m(cabinet_http_requests_total{route="(unmatched)",method="(any)",status="404"})m";
const std::string kScrapes = R"(cabinet_http_requests_total{route="/metrics",method="GET",status="200"})";

}  // namespace

BOOST_AUTO_TEST_SUITE(metrics)

BOOST_AUTO_TEST_CASE(a_scrape_from_loopback_is_prometheus_text) {
    const auto r = http("GET", "/metrics");
    BOOST_TEST_REQUIRE(r.status == 200);
    BOOST_TEST(r.headers.at("content-type") == "text/plain; version=0.0.4; charset=utf-8");
    const Scrape s = parse_exposition(r.body);
    BOOST_TEST(s.problem.empty(), s.problem);
    // The whole host: both pool processes of the test stack, whichever answered.
    BOOST_TEST(s["cabinet_pool_processes"] == std::stod(env("POOL_PROCS")));
    BOOST_TEST(s["cabinet_pool_threads_busy"] >= 1);  // this scrape's own thread
    BOOST_TEST(s["cabinet_database_up"] == 1);
    BOOST_TEST(s.series.count(R"(cabinet_jobs{status="dead"})") == 1u);
    BOOST_TEST(s.series.count("cabinet_watchdog_streak") == 1u);
    const auto maintenance = s.series.lower_bound("cabinet_maintenance_enabled{");
    BOOST_TEST_REQUIRE((maintenance != s.series.end()));
    BOOST_TEST(maintenance->first.rfind("cabinet_maintenance_enabled{", 0) == 0u);
}

BOOST_AUTO_TEST_CASE(counters_move_by_exactly_what_the_requests_did) {
    const std::string auth = tma_header(fresh_telegram_id());
    BOOST_TEST_REQUIRE(http("GET", "/api/cabinet/me", {auth}).status == 200);  // registered before the count
    const Scrape before = scrape();
    for (int i = 0; i < 3; ++i) BOOST_TEST_REQUIRE(http("GET", "/api/cabinet/me", {auth}).status == 200);
    BOOST_TEST_REQUIRE(http("GET", "/api/cabinet/me").status == 401);
    BOOST_TEST_REQUIRE(http("GET", "/api/cabinet/no-such-thing").status == 404);
    const Scrape after = scrape();
    BOOST_TEST(after[kMeCount200] - before[kMeCount200] == 3);
    BOOST_TEST(after[kMeCount401] - before[kMeCount401] == 1);
    BOOST_TEST(after[kMeDuration] - before[kMeDuration] == 4);
    BOOST_TEST(after[kUnmatched404] - before[kUnmatched404] == 1);
    BOOST_TEST(after[kScrapes] - before[kScrapes] == 1);  // `before`: a scrape is counted once answered
    BOOST_TEST(after["cabinet_db_round_trips_total"] > before["cabinet_db_round_trips_total"]);
    BOOST_TEST(after["cabinet_redis_round_trips_total"] > before["cabinet_redis_round_trips_total"]);
}

// The account cache as an operator sizing ACCOUNT_CACHE_MB reads it, and nginx keeping a
// Telegram user on one pool process whatever the opening of the app (each has new init
// data; nginx/cabinet_http.conf): each user is read from PostgreSQL once and kept once on
// the host. Keyed by the whole header instead, each opening could land on another process,
// which would read and keep the user again.
BOOST_AUTO_TEST_CASE(a_user_stays_on_one_process_which_alone_keeps_its_account) {
    constexpr int kUsers = 6, kOpenings = 3, kReads = 4;
    std::vector<int64_t> users;
    for (int i = 0; i < kUsers; ++i) {
        users.push_back(fresh_telegram_id());
        BOOST_TEST_REQUIRE(http("GET", "/api/cabinet/me", {tma_header(users.back(), "Session")}).status == 200);  // registers
    }
    settle_caches();  // the registrations' own notifications handled first
    const Scrape before = scrape();
    for (const int64_t tg : users) {
        for (int o = 0; o < kOpenings; ++o) {
            const std::string auth = tma_header(tg, "Session");  // a new opening: a query_id of its own
            for (int i = 0; i < kReads; ++i) BOOST_TEST_REQUIRE(http("GET", "/api/cabinet/me", {auth}).status == 200);
        }
    }
    const Scrape after = scrape();
    const auto grew = [&](const std::string& series) { return after[series] - before[series]; };
    BOOST_TEST(grew(R"(cabinet_account_cache_lookups_total{result="miss"})") == kUsers);
    BOOST_TEST(grew(R"(cabinet_account_cache_lookups_total{result="hit"})") == kUsers * (kOpenings * kReads - 1));
    // Not a difference: copies other tests left behind may be freed meanwhile.
    BOOST_TEST(after["cabinet_account_cache_entries"] >= kUsers);
    BOOST_TEST(after["cabinet_account_cache_bytes"] > 0);
}

// A browser waiting on the Telegram sign-in polls every two seconds, and anyone may post
// a made-up code or OAuth state: none of them may make the pool forget the accounts it
// keeps (each did, by committing: every read after it went to PostgreSQL).
BOOST_AUTO_TEST_CASE(sign_in_polls_and_unknown_oauth_states_keep_the_account_cache) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg, "Session");
    BOOST_TEST_REQUIRE(http("GET", "/api/cabinet/me", {auth}).status == 200);
    settle_caches();
    BOOST_TEST_REQUIRE(http("GET", "/api/cabinet/me", {auth}).status == 200);  // kept now
    const Scrape before = scrape();
    for (int i = 0; i < 3; ++i) {
        const auto poll = http("POST", "/api/cabinet/auth/telegram/poll", {"Content-Type: application/json"},
                               R"({"code":"made-up-)" + std::to_string(i) + R"("})");
        BOOST_TEST(poll.status == 400, poll.body);
        const auto oauth = http("POST", "/api/cabinet/auth/oauth/callback", {"Content-Type: application/json"},
                                R"({"provider":"google","code":"c","state":"made-up"})");
        BOOST_TEST(oauth.status == 400, oauth.body);
        BOOST_TEST_REQUIRE(http("GET", "/api/cabinet/me", {auth}).status == 200);
    }
    const Scrape after = scrape();
    BOOST_TEST(after[R"(cabinet_account_cache_lookups_total{result="miss"})"] -
                   before[R"(cabinet_account_cache_lookups_total{result="miss"})"] == 0);
}

// nginx answers 403 to any other address, and the pool never sees the request.
// Payments as an operator watches them: a balance purchase is a completed payment of the
// last hour; a Stars invoice waits (pending) until Telegram's payment arrives. Other tests'
// workers may move these series too, hence "at least".
BOOST_AUTO_TEST_CASE(payments_of_the_last_hour_and_pending_ones) {
    namespace m = it::money;
    const std::string balance_done = R"(cabinet_payments_last_hour{method="balance",status="completed"})";
    const std::string stars_done = R"(cabinet_payments_last_hour{method="stars",status="completed"})";
    const std::string stars_waiting = R"(cabinet_payments_pending{method="stars"})";
    const m::Shopper s = m::new_shopper();
    set_balance(s.tg, m::kStandardPrice);
    const Scrape before = scrape();
    BOOST_TEST_REQUIRE(m::renew(s) == 200);
    const int64_t invoice = m::open_stars_invoice(s);
    const Scrape opened = scrape();
    BOOST_TEST(opened[balance_done] >= before[balance_done] + 1);
    BOOST_TEST(opened[stars_waiting] >= before[stars_waiting] + 1);
    BOOST_TEST_REQUIRE(m::pay_stars_invoice(s, invoice) == 200);
    BOOST_TEST_REQUIRE(wait_until([&] { return m::stars_fulfilled(invoice); }, 30000));
    const Scrape paid = scrape();
    BOOST_TEST(paid[stars_waiting] <= opened[stars_waiting] - 1);
    BOOST_TEST(paid[stars_done] >= before[stars_done] + 1);
}

BOOST_AUTO_TEST_CASE(another_address_gets_403_from_nginx) {
    const Scrape before = scrape();
    const auto r = http_from("127.0.0.2", "GET", "/metrics");
    BOOST_TEST(r.status == 403);
    BOOST_TEST(r.body.find("cabinet_") == std::string::npos);
    const Scrape after = scrape();
    BOOST_TEST(after[kScrapes] - before[kScrapes] == 1);
    BOOST_TEST(after.series.count(R"(cabinet_http_requests_total{route="/metrics",method="GET",status="403"})") == 0u);
}

// A restarted process takes over its predecessor's counts: the host's sums never go down.
BOOST_AUTO_TEST_CASE(counters_survive_a_pool_restart) {
    const Scrape before = scrape();
    BOOST_TEST_REQUIRE(before[kScrapes] >= 1);
    stack_svc("stop", "pool");
    stack_svc("start", "pool");
    BOOST_TEST_REQUIRE(wait_for_status("/health", 200));
    const Scrape after = scrape();
    BOOST_TEST(after[kScrapes] >= before[kScrapes] + 1);
    BOOST_TEST(after["cabinet_pool_processes"] == std::stod(env("POOL_PROCS")));
}

// The watchdog writes its textfile for node_exporter where METRICS_TEXTFILE_DIR says.
BOOST_AUTO_TEST_CASE(watchdog_writes_its_textfile) {
    const std::string dir = env("STACK_DIR") + "/textfile";
    std::filesystem::create_directories(dir);
    const auto [rc, out] = run("STACK_EXTRA_ENV='METRICS_TEXTFILE_DIR=" + dir + "' " + ctl("watchdog"));
    BOOST_TEST_REQUIRE(rc == 0, out);
    std::ifstream in(dir + "/cabinet_watchdog.prom");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const Scrape s = parse_exposition(text);
    BOOST_TEST(s.problem.empty(), s.problem);
    BOOST_TEST(s["cabinet_watchdog_panel_up"] == 1);
    BOOST_TEST(s["cabinet_watchdog_last_run_timestamp_seconds"] > 1.7e9);
}

// The worker writes its textfile with its first heartbeat, at start.
BOOST_AUTO_TEST_CASE(worker_writes_its_textfile) {
    const std::string dir = env("STACK_DIR") + "/textfile-worker";
    std::filesystem::create_directories(dir);
    const std::string file = dir + "/cabinet_worker.prom";
    std::filesystem::remove(file);
    stack_svc("stop", "worker");
    stack_svc("start", "worker", "METRICS_TEXTFILE_DIR=" + dir);
    const bool written = wait_until([&] { return std::filesystem::exists(file); }, 10000);
    std::ifstream in(file);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    stack_svc("stop", "worker");
    stack_svc("start", "worker");
    BOOST_TEST_REQUIRE(written);
    const Scrape s = parse_exposition(text);
    BOOST_TEST(s.problem.empty(), s.problem);
    BOOST_TEST(s["cabinet_worker_up"] == 1);
    BOOST_TEST(s.series.count(R"(cabinet_worker_jobs_total{outcome="done"})") == 1u);
}

// LOG_FORMAT=json: every line of the pool's log is one JSON object, and the request's line
// (written at debug: nginx's access log has every request) carries the id the answer's
// X-Request-Id showed, with its route, status and user.
BOOST_AUTO_TEST_CASE(json_log_lines_carry_the_request_id) {
    const std::string auth = tma_header(fresh_telegram_id());
    std::string id, unmatched_id;
    {
        const PoolWith pool("LOG_FORMAT=json LOG_LEVEL=debug");
        BOOST_TEST_REQUIRE(wait_for_status("/health", 200));
        const auto r = http("GET", "/api/cabinet/me", {auth});
        BOOST_TEST_REQUIRE(r.status == 200);
        id = r.headers.at("x-request-id");
        const auto e = http("GET", "/api/cabinet/me");  // errors carry the id too
        BOOST_TEST(e.status == 401);
        BOOST_TEST(e.headers.count("x-request-id") == 1u);
        unmatched_id = http("GET", "/api/nothing/here").headers["x-request-id"];
        BOOST_TEST(!unmatched_id.empty());
        BOOST_TEST_REQUIRE(wait_until(
            [&] { return run("grep -l '" + id + "' '" + env("STACK_DIR") + "'/log/fcgi-*.log").first == 0; }, 3000));
    }
    const auto [rc, lines] = run("grep -h -e '" + id + "' -e '" + unmatched_id + "' '" + env("STACK_DIR") + "'/log/fcgi-*.log");
    BOOST_TEST_REQUIRE(rc == 0);
    std::istringstream in(lines);
    std::string line;
    int seen = 0;
    while (std::getline(in, line)) {
        rapidjson::Document d;
        d.Parse(line.c_str());
        BOOST_TEST_REQUIRE(!d.HasParseError(), line);
        BOOST_TEST_REQUIRE(d.IsObject());
        BOOST_TEST(d["time"].IsString());
        if (!d.HasMember("request_id")) continue;  // another line that names the id
        BOOST_TEST(std::string(d["level"].GetString()) == "debug");
        if (std::string(d["request_id"].GetString()) == id) {
            ++seen;
            BOOST_TEST(std::string(d["route"].GetString()) == "/api/cabinet/me");
            BOOST_TEST(std::string(d["method"].GetString()) == "GET");
            BOOST_TEST(d["status"].GetInt() == 200);
            BOOST_TEST(d["duration_ms"].IsNumber());
            BOOST_TEST(d["user_id"].IsInt64());
        } else {
            ++seen;
            BOOST_TEST(std::string(d["route"].GetString()) == "(unmatched)");
            BOOST_TEST(d["status"].GetInt() == 404);
            BOOST_TEST(d["user_id"].IsNull());
        }
    }
    BOOST_TEST(seen == 2);
    // The pool's other lines of that run (its start) are JSON objects as well.
    const auto [rc2, starts] = run("grep -h '\"msg\":\"cabinet-fcgi listening on' '" + env("STACK_DIR") + "'/log/fcgi-*.log | tail -n 1");
    BOOST_TEST_REQUIRE(rc2 == 0);
    rapidjson::Document d;
    d.Parse(starts.c_str());
    BOOST_TEST(!d.HasParseError(), starts);
    BOOST_TEST(d.IsObject());
}

// Every request is in nginx's access log with its caller's user id, which the pool hands
// nginx in X-Cabinet-User and nginx never shows the client; the pool itself logs no line for
// a request that did not fail (LOG_LEVEL info, the stack's and the package's default).
BOOST_AUTO_TEST_CASE(the_access_log_names_every_request_and_its_caller) {
    const auto me = http("GET", "/api/cabinet/me", {tma_header(fresh_telegram_id())});
    BOOST_TEST_REQUIRE(me.status == 200);
    BOOST_TEST(me.headers.count("x-cabinet-user") == 0u);
    const int64_t user_id = me.json()["user"]["id"].GetInt64();
    const std::string rid = me.headers.at("x-request-id");
    const std::string line = access_log_line(rid);
    BOOST_TEST_REQUIRE(!line.empty());
    BOOST_TEST(line.find("\"GET /api/cabinet/me HTTP/1.1\" 200 ") != std::string::npos, line);
    BOOST_TEST(line.find(" user=" + std::to_string(user_id)) != std::string::npos, line);

    const auto anonymous = http("GET", "/api/cabinet/me");
    BOOST_TEST_REQUIRE(anonymous.status == 401);
    BOOST_TEST(anonymous.headers.count("x-cabinet-user") == 0u);
    const std::string refused = access_log_line(anonymous.headers.at("x-request-id"));
    BOOST_TEST(refused.find(" 401 ") != std::string::npos, refused);
    BOOST_TEST(refused.find(" user=-") != std::string::npos, refused);

    const auto [rc, lines] = run("grep -h -e '" + rid + "' '" + env("STACK_DIR") + "'/log/fcgi-*.log");
    BOOST_TEST(rc == 1, lines);  // grep found nothing
}

// Every answer names its request, nginx's own ones too (403 of /metrics, 413), and none
// names it twice (the pool's answers carry their own).
BOOST_AUTO_TEST_CASE(every_answer_carries_one_request_id) {
    const auto refused = http_from("127.0.0.2", "GET", "/metrics");
    BOOST_TEST(refused.status == 403);
    BOOST_TEST(refused.headers.count("x-request-id") == 1u);
    const auto too_large = http("POST", "/api/cabinet/support", {"Content-Type: application/json"}, std::string(100000, ' '));
    BOOST_TEST(too_large.status == 413);
    BOOST_TEST(too_large.headers.count("x-request-id") == 1u);
    for (const char* path : {"/metrics", "/api/cabinet/me", "/api/nothing/here", "/app/"}) {
        const auto [rc, lines] = run("curl -s -D - -o /dev/null '" + base_url() + path + "' | grep -ci '^x-request-id:'");
        BOOST_TEST(lines == "1\n", path);
    }
}

BOOST_AUTO_TEST_SUITE_END()
