#include "support.hpp"

#include <boost/test/unit_test.hpp>

#include <curl/curl.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <sodium.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <fstream>
#include <optional>
#include <sstream>
#include <cstdlib>
#include <stdexcept>
#include <thread>

#include "auth/init_data_signer.hpp"
#include "http_log.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace it {
namespace {

size_t collect_body(char* data, size_t size, size_t n, void* user) {
    static_cast<std::string*>(user)->append(data, size * n);
    return size * n;
}

size_t collect_header(char* data, size_t size, size_t n, void* user) {
    auto* headers = static_cast<std::map<std::string, std::string>*>(user);
    std::string line(data, size * n);
    const auto colon = line.find(':');
    if (colon != std::string::npos)
        (*headers)[cabinet::to_lower(line.substr(0, colon))] = std::string(cabinet::trim(line.substr(colon + 1)));
    return size * n;
}

}  // namespace

rapidjson::Document HttpResult::json() const {
    rapidjson::Document d;
    d.Parse(body.c_str());
    if (d.HasParseError()) throw std::runtime_error("response is not JSON: " + body.substr(0, 200));
    return d;
}

std::string env(const char* name) {
    const char* v = std::getenv(name);
    if (!v) throw std::runtime_error(std::string("integration tests need ") + name + " (run them with tools/stack test)");
    return v;
}

std::string base_url() { return env("CABINET_BASE_URL"); }

HttpResult http(const std::string& method, const std::string& path, const std::vector<std::string>& headers,
                const std::string& body) {
    return http_url(method, base_url() + path, headers, body);
}

HttpResult http_url(const std::string& method, const std::string& url, const std::vector<std::string>& headers,
                    const std::string& body) {
    return http_url_from("", method, url, headers, body);
}

HttpResult http_from(const std::string& source_ip, const std::string& method, const std::string& path,
                     const std::vector<std::string>& headers, const std::string& body) {
    return http_url_from(source_ip, method, base_url() + path, headers, body);
}

HttpResult http_url_from(const std::string& source_ip, const std::string& method, const std::string& url,
                         const std::vector<std::string>& headers, const std::string& body) {
    CURL* c = curl_easy_init();
    if (!source_ip.empty()) curl_easy_setopt(c, CURLOPT_INTERFACE, ("host!" + source_ip).c_str());
    HttpResult out;
    curl_slist* list = nullptr;
    for (const auto& h : headers) list = curl_slist_append(list, h.c_str());
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method.c_str());
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, list);
    curl_easy_setopt(c, CURLOPT_PATH_AS_IS, 1L);  // send ../ and %2F as they are
    curl_easy_setopt(c, CURLOPT_TIMEOUT, 20L);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, collect_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &out.body);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, collect_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &out.headers);
    if (!body.empty()) {
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.data());
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
    }
    const CURLcode rc = curl_easy_perform(c);
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &out.status);
    curl_slist_free_all(list);
    curl_easy_cleanup(c);
    if (rc != CURLE_OK) throw std::runtime_error(method + " " + url + ": " + curl_easy_strerror(rc));
    log_exchange(method, url, body, out);  // for the OpenAPI check (tests/openapi)
    return out;
}

std::string tma_header_for(const cabinet::TelegramUser& u, const std::string& start_param, int64_t auth_date) {
    if (auth_date == 0) auth_date = cabinet::unix_now();
    static std::atomic<uint64_t> openings{0};
    const std::string query_id = "AAit" + std::to_string(getpid()) + "x" + std::to_string(++openings);
    return "Authorization: tma " + cabinet::sign_init_data(env("BOT_TOKEN"), u, auth_date, start_param, query_id);
}

std::string tma_header(int64_t telegram_id, const std::string& first_name, const std::string& start_param,
                       int64_t auth_date) {
    cabinet::TelegramUser u;
    u.id = telegram_id;
    u.first_name = first_name;
    u.language_code = "en";
    return tma_header_for(u, start_param, auth_date);
}

int64_t fresh_telegram_id() {
    // Unique across test processes of one run: time-based prefix + a counter.
    static std::atomic<int64_t> counter{0};
    static const int64_t base = 2000000000 + (cabinet::unix_now() % 100000) * 10000 + (getpid() % 10) * 1000;
    return base + counter++;
}

namespace {

// The count of `sync` notifications the host's change listeners have handled: the second
// word of the generations file (cache/account_generations.hpp).
std::optional<uint64_t> syncs_handled(const std::string& file) {
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    uint64_t n = 0;
    const bool ok = ::pread(fd, &n, sizeof n, 8) == static_cast<ssize_t>(sizeof n);
    ::close(fd);
    if (!ok) return std::nullopt;
    return n;
}

}  // namespace

void settle_caches(pqxx::connection& conn) {
    const char* file = std::getenv("ACCOUNT_GENERATIONS_FILE");
    if (!file || !*file) return;
    const auto before = syncs_handled(file);
    if (!before) return;  // no pool has run yet
    pqxx::nontransaction txn(conn);
    const int64_t listeners = txn.exec1("SELECT count(*) FROM pg_stat_activity "
                                        "WHERE application_name = 'cabinet-change-listener'")[0].as<int64_t>();
    txn.exec0("NOTIFY accounts_changed, 'sync'");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (syncs_handled(file).value_or(0) < *before + static_cast<uint64_t>(listeners)) {
        if (std::chrono::steady_clock::now() > deadline) {
            BOOST_TEST_MESSAGE("settle_caches: the pool's listeners did not all answer within 2 s");
            return;
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
}

void settle_caches() {
    pqxx::connection conn(env("DATABASE_URL"));
    settle_caches(conn);
}

void exec(const std::string& sql) {
    pqxx::connection conn(env("DATABASE_URL"));
    pqxx::work txn(conn);
    txn.exec(sql);
    txn.commit();
    settle_caches(conn);
}

int64_t count(const std::string& sql) {
    pqxx::connection conn(env("DATABASE_URL"));
    int64_t n = 0;
    {
        pqxx::nontransaction txn(conn);
        n = txn.exec(sql)[0][0].as<int64_t>();
    }
    // What it saw (a worker's commit, say) has reached the pool's caches when it returns.
    settle_caches(conn);
    return n;
}

std::string transaction_status(int64_t id) {
    pqxx::connection conn(env("DATABASE_URL"));
    pqxx::nontransaction q(conn);
    return q.exec_params1("SELECT status FROM transactions WHERE id = $1", id)[0].c_str();
}

HttpResult buy_standard(const std::string& auth, const std::string& method, const std::string& idempotency_key) {
    std::vector<std::string> headers = {auth, kJsonContentType};
    if (!idempotency_key.empty()) headers.push_back("Idempotency-Key: " + idempotency_key);
    return http("POST", "/api/cabinet/purchase", headers, R"({"plan_id":"standard","days":30,"method":")" + method + "\"}");
}

HttpResult yookassa_pays(int64_t transaction_id) {
    pqxx::connection conn(env("DATABASE_URL"));
    pqxx::nontransaction q(conn);
    const std::string payment =
        q.exec_params("SELECT provider_payment_id FROM transactions WHERE id = $1", transaction_id)[0][0].c_str();
    const auto hook = http_url("POST", fake_url("/__fake/yookassa/payments/" + payment), {kJsonContentType},
                               R"({"status":"succeeded"})");
    BOOST_REQUIRE_MESSAGE(hook.status == 200, hook.body);
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    hook.json()["notification"].Accept(w);
    return http("POST", "/api/v1/payments/yookassa", {kJsonContentType}, buf.GetString());
}

std::string detail(const HttpResult& r) {
    const auto d = r.json();
    return d.IsObject() && d.HasMember("detail") ? str(d["detail"]) : "";
}

std::string mock_panel_url(const std::string& path) { return "http://127.0.0.1:" + env("PANEL_PORT") + path; }

std::string admin_auth() { return tma_header(kAdminTelegramId, "Demo"); }

int64_t balance_of(int64_t tg) { return count("SELECT balance_minor FROM users WHERE telegram_id = " + str(tg)); }

int64_t days_left(int64_t tg) {
    return count("SELECT coalesce((SELECT round(extract(epoch FROM s.expire_at - now()) / 86400)::bigint FROM subscriptions s"
                 " WHERE s.user_id = " + uid_of(tg) + "), 0)");
}

int64_t audit_rows(const std::string& where) { return count("SELECT count(*) FROM audit_log WHERE " + where); }

void set_balance(int64_t telegram_id, int64_t minor) {
    exec("SELECT ledger_set_balance(id, " + std::to_string(minor) + ") FROM users WHERE telegram_id = " +
         std::to_string(telegram_id));
}

std::pair<int, std::string> run(const std::string& command) {
    std::string out;
    FILE* p = popen((command + " 2>&1").c_str(), "r");
    char buf[512];
    while (p && fgets(buf, sizeof buf, p)) out += buf;
    const int rc = p ? pclose(p) : -1;
    settle_caches();  // what the command wrote (cabinetctl) has reached the pool's caches
    return {WEXITSTATUS(rc), out};
}

ConstructorChoice first_constructor_choice(const std::string& auth) {
    const auto r = http("GET", "/api/cabinet/constructor", {auth});
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    const auto list = r.json();
    BOOST_REQUIRE(list["periods"].Size() > 0u);
    BOOST_REQUIRE(list["traffic_packs"].Size() > 0u);
    const auto& period = list["periods"][0];
    const auto& pack = list["traffic_packs"][0];
    return {period["id"].GetInt64(), pack["id"].GetInt64(), period["days"].GetInt64(), pack["gb"].GetInt64(),
            period["price_minor"].GetInt64() + pack["price_minor"].GetInt64()};
}

std::string ConstructorChoice::purchase_body() const {
    return R"({"period_id":)" + std::to_string(period_id) + R"(,"pack_id":)" + std::to_string(pack_id) +
           R"(,"method":"balance"})";
}

std::string ctl(const std::string& args) {
    return "STACK_DIR='" + env("STACK_DIR") + "' '" + env("CABINET_STACK") + "' ctl " + args;
}

void stack_svc(const std::string& action, const std::string& name, const std::string& extra_env) {
    std::string cmd = "STACK_EXTRA_ENV='" + extra_env + "' '" + env("CABINET_STACK") + "' svc " + action + " " + name +
                      " >/dev/null 2>&1";
    if (std::system(cmd.c_str()) != 0) throw std::runtime_error("failed: " + cmd);
}

void wait_for_maintenance_cache() {
    std::this_thread::sleep_for(std::chrono::milliseconds(std::stoll(env("MAINTENANCE_CACHE_TTL_MS")) + 200));
}

PoolWith::PoolWith(const std::string& extra_env) {
    stack_svc("stop", "pool");
    stack_svc("start", "pool", extra_env);
}

PoolWith::~PoolWith() {
    try {
        stack_svc("stop", "pool");
        stack_svc("start", "pool");
    } catch (const std::exception&) {
        // A destructor must not throw; the next request of the next test will fail loudly.
    }
}

std::vector<std::string> bot_messages_since(int64_t since, const std::string& chat_id, int64_t thread_id) {
    std::vector<std::string> out;
    const auto calls = bot_api_calls("sendMessage", since);
    for (const auto& e : calls.GetArray()) {
        const auto& m = e["json"];
        if (!m.IsObject() || !m.HasMember("chat_id") || std::string(m["chat_id"].GetString()) != chat_id) continue;
        if (!m.HasMember("message_thread_id") || m["message_thread_id"].GetInt64() != thread_id) continue;
        out.emplace_back(m["text"].GetString());
    }
    return out;
}

std::vector<std::string> private_bot_messages_since(int64_t since, int64_t tg) {
    std::vector<std::string> out;
    const auto calls = bot_api_calls("sendMessage", since);
    for (const auto& e : calls.GetArray()) {
        const auto& m = e["json"];
        if (m.IsObject() && m.HasMember("chat_id") && str(m["chat_id"]) == str(tg)) out.emplace_back(str(m["text"]));
    }
    return out;
}

std::string text_body(const std::string& text) {
    rapidjson::StringBuffer buf;
    cabinet::JsonWriter w(buf);
    w.StartObject();
    w.Key("text");
    cabinet::write_string(w, text);
    w.EndObject();
    return buf.GetString();
}

bool wait_until(const std::function<bool()>& cond, int timeout_ms) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (std::chrono::steady_clock::now() < end) {
        if (cond()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return cond();
}

std::string mailed_verification_token(const std::string& to, size_t nth) {
    std::string token;
    const bool ok = wait_until(
        [&] {
            const auto r = http_url("GET", "http://127.0.0.1:" + env("FAKES_PORT") + "/__fake/mail?to=" + cabinet::form_encode(to)).json();
            if (!r.IsArray() || r.Size() < nth) return false;
            const std::string raw = r[static_cast<rapidjson::SizeType>(nth - 1)]["raw"].GetString();
            const auto at = raw.find("token=");
            if (at == std::string::npos) return false;
            size_t end = at + 6;
            while (end < raw.size() && (std::isalnum(static_cast<unsigned char>(raw[end])) || raw[end] == '-' || raw[end] == '_'))
                ++end;
            token = raw.substr(at + 6, end - at - 6);
            return true;
        },
        15000);
    BOOST_REQUIRE_MESSAGE(ok, "no verification link in mail #" << nth << " to " << to);
    return token;
}

std::string nginx_access_log() {
    std::ifstream in(env("STACK_DIR") + "/log/nginx-access.log", std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string access_log_line(const std::string& request_id, int timeout_ms) {
    const std::string mark = "rid=" + request_id + " ";
    std::string line;
    wait_until(
        [&] {
            const std::string log = nginx_access_log();
            const auto at = log.find(mark);
            if (at == std::string::npos) return false;
            const auto newline = log.rfind('\n', at);
            const size_t from = newline == std::string::npos ? 0 : newline + 1;
            const auto end = log.find('\n', at);
            line = log.substr(from, end == std::string::npos ? std::string::npos : end - from);
            return true;
        },
        timeout_ms);
    return line;
}

bool wait_for_status(const std::string& path, long status, int tries) {
    return wait_for_status_url(base_url() + path, status, tries);
}

bool wait_for_status_url(const std::string& url, long status, int tries) {
    for (int i = 0; i < tries; ++i) {
        try {
            if (http_url("GET", url).status == status) return true;
        } catch (const std::exception&) {
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
}

std::string fake_url(const std::string& path) { return "http://127.0.0.1:" + env("FAKES_PORT") + path; }

int64_t journal_mark() {
    const auto all = http_url("GET", fake_url("/__fake/journal")).json();
    return all.Empty() ? 0 : all[all.Size() - 1]["seq"].GetInt64();
}

rapidjson::Document bot_api_calls(const std::string& method, int64_t since) {
    const std::string path = "/bot" + env("BOT_TOKEN") + "/" + method;
    return http_url("GET", fake_url("/__fake/journal?service=telegram&since=" + std::to_string(since) + "&path=" + path))
        .json();
}

HttpResult bot_update(const std::string& json, const std::string& secret) {
    return http("POST", "/bot/webhook", {"Content-Type: application/json", "X-Telegram-Bot-Api-Secret-Token: " + secret},
                json);
}

}  // namespace it
