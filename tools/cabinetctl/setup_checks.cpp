// Live checks of PostgreSQL, Redis, the Bot API, the panel and the payment gateways (setup_checks.hpp).
#include "setup_checks.hpp"

#include <pqxx/pqxx>

#include <regex>

#include "cache/redis.hpp"
#include "migrations.hpp"
#include "net/http_client.hpp"
#include "panel/panel_client.hpp"
#include "payments/wire.hpp"
#include "util/json.hpp"

namespace cabinet::ctl {
namespace {

CheckResult problem(std::string what) { return {std::move(what), {}}; }

// libpq's messages run over several lines ("connection to server ... failed: FATAL: ...");
// the last non-empty one says why.
std::string first_reason(const std::string& what) {
    std::string last, line;
    for (char c : what + "\n") {
        if (c != '\n') { line += c; continue; }
        if (!line.empty()) last = line;
        line.clear();
    }
    return last;
}

// The URL with a connect timeout, so an unreachable host costs seconds, not minutes.
std::string with_connect_timeout(const std::string& url) {
    const bool uri = url.rfind("postgresql://", 0) == 0 || url.rfind("postgres://", 0) == 0;
    if (!uri) return url + " connect_timeout=5";
    return url + (url.find('?') == std::string::npos ? "?" : "&") + "connect_timeout=5";
}

// The base as the gateways use it: without a trailing slash, so "{base}/me" is one URL.
std::string trimmed(std::string base) {
    while (!base.empty() && base.back() == '/') base.pop_back();
    return base;
}

// The answer as a JSON object; a null document when it is not one.
rapidjson::Document json_object(const HttpResponse& r) {
    rapidjson::Document d;
    d.Parse(r.body.data(), r.body.size());
    if (d.HasParseError() || !d.IsObject()) d.SetNull();
    return d;
}

}  // namespace

std::string without_password(const std::string& url) {
    static const std::regex uri_pw(R"(^(postgres(ql)?://[^:/@]*):[^@]*@)");
    static const std::regex kv_pw(R"(password=\S*)");
    return std::regex_replace(std::regex_replace(url, uri_pw, "$1:***@"), kv_pw, "password=***");
}

CheckResult check_database(const std::string& database_url, const std::filesystem::path& migrations_dir) {
    const std::string shown = without_password(database_url);
    try {
        pqxx::connection conn(with_connect_timeout(database_url));
        pqxx::work txn(conn);
        const auto r = txn.exec1("SELECT current_user, current_database(), has_schema_privilege('public', 'CREATE'),"
                                 " to_regclass('schema_migrations') IS NOT NULL");
        if (!r[2].as<bool>())
            return problem("database " + shown + ": the role " + r[0].as<std::string>() +
                           " may not create tables in schema public (make it the owner: ALTER DATABASE " +
                           r[1].as<std::string>() + " OWNER TO " + r[0].as<std::string>() + ")");
        if (r[3].as<bool>()) {
            const std::string unknown = unknown_applied_migrations(txn, migration_files(migrations_dir));
            if (!unknown.empty())
                return problem("database " + shown + ": holds migrations this version does not know (" + unknown +
                               "), from a newer cabinet; install that version");
        }
        return {std::nullopt, r[1].as<std::string>()};
    } catch (const pqxx::broken_connection& e) {
        return problem("database " + shown + ": cannot connect: " + first_reason(e.what()));
    } catch (const pqxx::sql_error& e) {
        return problem("database " + shown + ": " + first_reason(e.what()));
    }
}

CheckResult check_redis(const std::string& redis_url) {
    RedisTarget target;
    try {
        target = parse_redis_url(redis_url);
    } catch (const std::exception& e) {
        return problem("Redis " + redis_url + ": " + e.what());
    }
    Redis redis(target, 2000);
    if (!redis.ping()) return problem("Redis " + redis_url + ": no answer to PING within 2 s (is it running there?)");
    return {};
}

CheckResult check_bot_token(const std::string& api_base, const std::string& token) {
    HttpClient http(5000, 10000);
    HttpResponse r;
    try {
        r = http.send("GET", api_base + "/bot" + token + "/getMe", {});
    } catch (const TransportError&) {  // its message holds the URL, and so the token
        return problem("bot token: the Bot API at " + api_base + " does not answer (network, proxy or TELEGRAM_API_BASE)");
    }
    if (r.status == 401 || r.status == 404)
        return problem("bot token: the Bot API at " + api_base + " refused it (" + std::to_string(r.status) +
                       "): copy the token from @BotFather again");
    rapidjson::Document d;
    d.Parse(r.body.data(), r.body.size());
    if (r.status != 200 || d.HasParseError() || !d.IsObject() || !d.HasMember("result") || !d["result"].IsObject() ||
        !d["result"].HasMember("username") || !d["result"]["username"].IsString())
        return problem("bot token: the Bot API at " + api_base + " answered " + std::to_string(r.status) +
                       " without the bot's username");
    return {std::nullopt, d["result"]["username"].GetString()};
}

CheckResult check_panel(const std::string& base_url, const std::string& token) {
    try {
        PanelClient panel(base_url, token, 3000, 10000);
        const std::string version = panel.version();
        if (!version_at_least(version, kMinPanelVersion))
            return problem("panel " + base_url + ": version " + version + " is older than the supported " +
                           kMinPanelVersion);
        return {std::nullopt, version};
    } catch (const PanelError& e) {
        return problem("panel " + base_url + ": no usable answer (" + e.why() + ")");
    }
}

CheckResult check_yookassa(const std::string& api_base, const std::string& shop_id, const std::string& secret_key) {
    const std::string base = trimmed(api_base);
    HttpClient http = payments::gateway_http(Settings{});
    HttpResponse r;
    try {
        r = http.send("GET", base + "/me", {payments::basic_auth_header(shop_id, secret_key)});
    } catch (const TransportError& e) {  // the URL holds no secret: the key is in a header
        return problem("YooKassa at " + base + " does not answer (" + std::string(e.what()) + ")");
    }
    if (r.status == 401 || r.status == 403)
        return problem("YooKassa rejected shop id " + shop_id + " and its secret key (" + std::to_string(r.status) +
                       "): copy both again from the YooKassa dashboard (Integration, API keys)");
    const rapidjson::Document d = json_object(r);
    const auto* account = payments::string_member(d, "account_id");
    if (r.status != 200 || !account)
        return problem("YooKassa at " + base + " answered " + std::to_string(r.status) + " without the shop's account_id");
    const std::string account_id = account->GetString();
    if (account_id != shop_id)
        return problem("YooKassa: the secret key belongs to shop " + account_id + ", not to shop id " + shop_id +
                       ": give that shop's id, or the key of shop " + shop_id);
    const std::string status = payments::string_or_empty(d, "status");
    if (!status.empty() && status != "enabled")
        return problem("YooKassa: shop " + shop_id + " is " + status + "; it takes no payments until YooKassa enables it");
    const auto test = d.FindMember("test");
    const bool test_shop = test != d.MemberEnd() && test->value.IsBool() && test->value.GetBool();
    return {std::nullopt, shop_id + (test_shop ? " (test shop)" : "")};
}

CheckResult check_cryptobot(const std::string& api_base, const std::string& token) {
    const std::string base = trimmed(api_base);
    HttpClient http = payments::gateway_http(Settings{});
    HttpResponse r;
    try {
        r = http.send("GET", base + "/getMe", {"Crypto-Pay-API-Token: " + token});
    } catch (const TransportError& e) {  // the URL holds no secret: the token is in a header
        return problem("CryptoBot at " + base + " does not answer (" + std::string(e.what()) + ")");
    }
    if (r.status == 401 || r.status == 403)
        return problem("CryptoBot rejected the token (" + std::to_string(r.status) +
                       "): copy it again from @CryptoBot (Crypto Pay, My Apps, API Token); a @CryptoTestnetBot"
                       " token needs --cryptobot-api-base https://testnet-pay.crypt.bot/api");
    const rapidjson::Document d = json_object(r);
    const auto* name = d.IsObject() && d.HasMember("result") ? payments::string_member(d["result"], "name") : nullptr;
    if (r.status != 200 || !name)
        return problem("CryptoBot at " + base + " answered " + std::to_string(r.status) + " without the app's name");
    return {std::nullopt, name->GetString()};
}

}  // namespace cabinet::ctl
