// Telegram web login and account linking (issue 7; SPEC-GAPS "Auth and sessions" and
// "Cabinet shapes") through nginx, with the fake Bot API confirming codes and the fake
// SMTP server catching the e-mail link codes.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <atomic>
#include <map>
#include <optional>
#include <cctype>
#include <thread>

#include "auth/passwords.hpp"
#include "auth/web_tokens.hpp"
#include "panel/panel_client.hpp"
#include "util/time.hpp"
#include "support.hpp"

using namespace it;

namespace {

const std::string kPassword = "linking password 1";

std::string str(const rapidjson::Value& v) { return v.IsString() ? v.GetString() : ""; }
std::string detail(const HttpResult& r) {
    const auto d = r.json();
    return d.IsObject() && d.HasMember("detail") ? str(d["detail"]) : "";
}
std::string fresh_email(const std::string& tag) { return "lt" + std::to_string(fresh_telegram_id()) + "." + tag + "@example.test"; }
std::string uid_of(int64_t tg) { return "(SELECT id FROM users WHERE telegram_id = " + std::to_string(tg) + ")"; }

HttpResult post_json(const std::string& path, const std::string& body, const std::string& auth = {}) {
    std::vector<std::string> headers{"Content-Type: application/json"};
    if (!auth.empty()) headers.push_back("Authorization: " + auth);
    return http("POST", path, headers, body);
}
std::string code_body(const std::string& code) { return R"({"code":")" + code + R"("})"; }
std::string bearer(const std::string& token) { return "Bearer " + token; }

// A private "/start <payload>" from Telegram user `tg`; the texts the bot sent back.
std::vector<std::string> bot_start(int64_t tg, const std::string& payload) {
    const std::string id = std::to_string(tg);
    const int64_t mark = journal_mark();
    const auto r = bot_update(R"({"update_id":20,"message":{"message_id":9,"date":1700000000,"from":{"id":)" + id +
                              R"(,"is_bot":false,"first_name":"Link","username":"link_)" + id +
                              R"(","language_code":"en"},"chat":{"id":)" + id + R"(,"type":"private"},"text":"/start )" +
                              payload + "\"}}");
    BOOST_REQUIRE_EQUAL(r.status, 200);
    std::vector<std::string> out;
    const auto calls = bot_api_calls("sendMessage", mark);
    for (const auto& c : calls.GetArray())
        if (c["json"].IsObject() && str(c["json"]["chat_id"]) == id) out.push_back(str(c["json"]["text"]));
    return out;
}
// Telegram user `tg` presses an inline button with `data` under the bot's message 55; the
// texts of the bot's answer (the prompt edited in place, or a new message).
std::vector<std::string> bot_press(int64_t tg, const std::string& data) {
    const std::string id = std::to_string(tg);
    const int64_t mark = journal_mark();
    const auto r = bot_update(R"({"update_id":21,"callback_query":{"id":"cbl)" + id + R"(","from":{"id":)" + id +
                              R"(,"is_bot":false,"first_name":"Link"},"chat_instance":"1","data":")" + data +
                              R"(","message":{"message_id":55,"date":1700000000,"chat":{"id":)" + id +
                              R"(,"type":"private"}}}})");
    BOOST_REQUIRE_EQUAL(r.status, 200);
    std::vector<std::string> out;
    for (const char* method : {"editMessageText", "sendMessage"}) {
        const auto calls = bot_api_calls(method, mark);
        for (const auto& c : calls.GetArray())
            if (c["json"].IsObject() && str(c["json"]["chat_id"]) == id) out.push_back(str(c["json"]["text"]));
    }
    return out;
}
bool said(const std::vector<std::string>& texts, const std::string& part) {
    for (const auto& t : texts)
        if (t.find(part) != std::string::npos) return true;
    return false;
}

// A verified web-only account made directly (hash as the test stack's settings make it);
// its user id.
int64_t make_web_user(const std::string& email, int64_t balance_minor = 0) {
    static const cabinet::PasswordHasher hasher(1, 8388608, 1);
    exec("INSERT INTO users (email, email_verified, password_hash, referral_code) VALUES ('" + email + "', true, '" +
         hasher.hash(kPassword) + "', 'LT' || md5('" + email + "'))");
    const int64_t id = count("SELECT id FROM users WHERE email = '" + email + "'");
    if (balance_minor > 0) exec("SELECT ledger_set_balance(" + std::to_string(id) + ", " + std::to_string(balance_minor) + ")");
    return id;
}
HttpResult login(const std::string& email) {
    return post_json("/api/cabinet/auth/login", R"({"email":")" + email + R"(","password":")" + kPassword + R"("})");
}
std::string access_of(const HttpResult& session) {
    BOOST_REQUIRE_MESSAGE(session.status == 200, session.status << " " << session.body);
    return session.json()["access_token"].GetString();
}

// The 6-digit code of the newest mail to `to` once `n` mails arrived.
std::string mailed_code(const std::string& to, size_t n = 1) {
    std::string raw;
    const bool ok = wait_until([&] {
        const auto r = http_url("GET", fake_url("/__fake/mail?to=" + to));
        const auto d = r.json();
        if (r.status != 200 || !d.IsArray() || d.Size() < n) return false;
        raw = d[d.Size() - 1]["raw"].GetString();
        return true;
    }, 15000);
    BOOST_REQUIRE_MESSAGE(ok, "no mail #" << n << " to " << to);
    const auto at = raw.find("Your code: ");
    BOOST_REQUIRE(at != std::string::npos);
    const std::string code = raw.substr(at + 11, 6);
    BOOST_REQUIRE(std::all_of(code.begin(), code.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }));
    return code;
}
// /start weblogin_<code>: the bot asks first; Confirm signs the browser in. The texts of both steps.
std::vector<std::string> confirm_web_login_in_bot(int64_t tg, const std::string& code) {
    auto texts = bot_start(tg, "weblogin_" + code);
    if (!said(texts, "Sign in to the web cabinet from")) return texts;
    const auto pressed = bot_press(tg, "wl+" + code);
    texts.insert(texts.end(), pressed.begin(), pressed.end());
    return texts;
}
// /start link_<code> (payload "link_<code>"), then Confirm.
std::vector<std::string> confirm_link_in_bot(int64_t tg, const std::string& payload) {
    auto texts = bot_start(tg, payload);
    if (!said(texts, "Link the web account")) return texts;
    const auto pressed = bot_press(tg, "ln+" + payload.substr(5));
    texts.insert(texts.end(), pressed.begin(), pressed.end());
    return texts;
}
std::string wrong_code(const std::string& code) { return code == "000000" ? "111111" : "000000"; }

std::string start_web_login_code() {
    const auto r = post_json("/api/cabinet/auth/telegram/start", "{}");
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.status << " " << r.body);
    return r.json()["code"].GetString();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(linking)

BOOST_AUTO_TEST_CASE(telegram_web_login_gives_one_session) {
    const auto start = post_json("/api/cabinet/auth/telegram/start", "{}");
    BOOST_REQUIRE_MESSAGE(start.status == 200, start.body);
    const auto s = start.json();
    const std::string code = s["code"].GetString();
    BOOST_TEST(code.size() + 9 <= 64u);
    BOOST_TEST(std::all_of(code.begin(), code.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; }));
    BOOST_TEST(str(s["url"]) == "https://t.me/" + env("BOT_USERNAME") + "?start=weblogin_" + code);
    BOOST_TEST(s["expires_in"].GetInt64() == 300);
    BOOST_TEST(count("SELECT count(*) FROM telegram_codes WHERE code_hash = '" + cabinet::opaque_token_hash(code) +
                     "' AND kind = 'weblogin'") == 1);

    const auto pending = post_json("/api/cabinet/auth/telegram/poll", code_body(code));
    BOOST_REQUIRE_MESSAGE(pending.status == 200, pending.body);
    BOOST_TEST(pending.json()["pending"].GetBool());

    const int64_t tg = fresh_telegram_id();
    // The bot asks first, and until Confirm the browser keeps waiting.
    BOOST_TEST(said(bot_start(tg, "weblogin_" + code), "Sign in to the web cabinet from"));
    BOOST_TEST(post_json("/api/cabinet/auth/telegram/poll", code_body(code)).json()["pending"].GetBool());
    BOOST_TEST(said(bot_press(tg, "wl+" + code), "You are logged in on the web"));
    const auto session = post_json("/api/cabinet/auth/telegram/poll", code_body(code));
    const std::string access = access_of(session);
    BOOST_TEST(session.json()["user"]["id"].GetInt64() == count("SELECT " + uid_of(tg)));
    const auto me = http("GET", "/api/cabinet/me", {"Authorization: " + bearer(access)});
    BOOST_TEST(me.status == 200);

    const auto again = post_json("/api/cabinet/auth/telegram/poll", code_body(code));
    BOOST_TEST(again.status == 400);
    BOOST_TEST(detail(again) == "code already used");
    // A second confirmation of a spent code is refused politely.
    BOOST_TEST(said(bot_start(tg, "weblogin_" + code), "expired"));
    BOOST_TEST(said(bot_start(tg, "weblogin_unknown"), "expired"));
    // ref_ payloads still register with a referrer.
    const std::string ref = "LTR" + std::to_string(tg);
    exec("UPDATE users SET referral_code = '" + ref + "' WHERE telegram_id = " + std::to_string(tg));
    const int64_t referred = fresh_telegram_id();
    BOOST_TEST(said(bot_start(referred, "ref_" + ref), "Welcome"));
    BOOST_TEST(count("SELECT count(*) FROM users WHERE telegram_id = " + std::to_string(referred) + " AND referred_by = " + uid_of(tg)) == 1);
}

BOOST_AUTO_TEST_CASE(telegram_web_login_expired_and_blocked) {
    const std::string expired = start_web_login_code();
    exec("UPDATE telegram_codes SET expires_at = now() - interval '1 second' WHERE code_hash = '" +
         cabinet::opaque_token_hash(expired) + "'");
    BOOST_TEST(said(bot_start(fresh_telegram_id(), "weblogin_" + expired), "expired"));
    const auto r = post_json("/api/cabinet/auth/telegram/poll", code_body(expired));
    BOOST_TEST(r.status == 400);
    BOOST_TEST(detail(r) == "code expired");
    BOOST_TEST(post_json("/api/cabinet/auth/telegram/poll", code_body("nope")).status == 400);

    const std::string code = start_web_login_code();
    const int64_t tg = fresh_telegram_id();
    BOOST_TEST(said(confirm_web_login_in_bot(tg, code), "logged in"));
    exec("UPDATE users SET is_blocked = true WHERE telegram_id = " + std::to_string(tg));
    BOOST_TEST(post_json("/api/cabinet/auth/telegram/poll", code_body(code)).status == 403);
}

BOOST_AUTO_TEST_CASE(linked_for_tma_and_web_users) {
    const int64_t tg = fresh_telegram_id();
    const auto r = http("GET", "/api/cabinet/linked", {tma_header(tg)});
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    const auto d = r.json();
    BOOST_TEST(d["email"].IsNull());
    BOOST_TEST(!d["email_verified"].GetBool());
    BOOST_TEST(!d["has_password"].GetBool());
    BOOST_TEST(d["telegram"]["id"].GetInt64() == tg);
    BOOST_TEST(d["oauth"].IsArray());
    BOOST_TEST(d["oauth"].Size() == 0u);
    BOOST_TEST(d["available_providers"].IsArray());
    BOOST_TEST(str(d["bot_username"]) == env("BOT_USERNAME"));

    const std::string email = fresh_email("linked");
    const int64_t id = make_web_user(email);
    exec("INSERT INTO user_oauth_links (user_id, provider, subject, email, display_name) VALUES (" + std::to_string(id) +
         ", 'google', 'g-" + email + "', '" + email + "', 'Web Person')");
    const auto w = http("GET", "/api/cabinet/linked", {"Authorization: " + bearer(access_of(login(email)))});
    BOOST_REQUIRE_MESSAGE(w.status == 200, w.body);
    const auto wd = w.json();
    BOOST_TEST(str(wd["email"]) == email);
    BOOST_TEST(wd["email_verified"].GetBool());
    BOOST_TEST(wd["has_password"].GetBool());
    BOOST_TEST(wd["telegram"].IsNull());
    BOOST_REQUIRE(wd["oauth"].Size() == 1u);
    BOOST_TEST(str(wd["oauth"][0]["provider"]) == "google");
    BOOST_TEST(str(wd["oauth"][0]["display_name"]) == "Web Person");
    for (const auto& p : wd["available_providers"].GetArray()) BOOST_TEST(str(p) != "google");
}

BOOST_AUTO_TEST_CASE(link_email_then_login_reaches_the_same_user) {
    const int64_t tg = fresh_telegram_id();
    const std::string tma = tma_header(tg);
    const std::string email = fresh_email("link");
    const auto r = post_json("/api/cabinet/link/email", R"({"email":")" + email + R"(","password":")" + kPassword + R"("})", tma.substr(15));
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.status << " " << r.body);
    BOOST_TEST(r.json()["ok"].GetBool());
    BOOST_TEST(str(r.json()["email"]) == email);
    const std::string code = mailed_code(email);
    // Only the hashes are stored.
    BOOST_TEST(count("SELECT count(*) FROM email_link_codes WHERE email = '" + email + "' AND password_hash LIKE '$argon2id$%'"
                     " AND code_hash <> '" + code + "'") == 1);
    BOOST_TEST(login(email).status == 401);  // not a login before the code

    const auto ok = post_json("/api/cabinet/link/email/confirm", code_body(code), tma.substr(15));
    BOOST_REQUIRE_MESSAGE(ok.status == 200, ok.body);
    BOOST_TEST(str(ok.json()["email"]) == email);
    BOOST_TEST(post_json("/api/cabinet/link/email/confirm", code_body(code), tma.substr(15)).status == 400);  // used
    const auto session = login(email);
    access_of(session);
    BOOST_TEST(session.json()["user"]["id"].GetInt64() == count("SELECT " + uid_of(tg)));
    const auto linked = http("GET", "/api/cabinet/linked", {tma});
    BOOST_TEST(linked.json()["has_password"].GetBool());
    BOOST_TEST(linked.json()["email_verified"].GetBool());

    // The address is taken now: another account gets 409.
    const auto other = post_json("/api/cabinet/link/email", R"({"email":")" + email + R"(","password":")" + kPassword + R"("})",
                                 tma_header(fresh_telegram_id()).substr(15));
    BOOST_TEST(other.status == 409);
}

// An unverified web registration of the address is nobody's: it does not block the owner,
// who proves the mailbox by the code, and it loses the address (and its mailed link).
BOOST_AUTO_TEST_CASE(link_email_takes_the_address_from_an_unverified_registration) {
    const std::string email = fresh_email("squat");
    BOOST_REQUIRE_EQUAL(post_json("/api/cabinet/auth/register", R"({"email":")" + email + R"(","password":"squatter pass 1"})").status, 200);
    const std::string squatter_link = mailed_verification_token(email);
    const int64_t tg = fresh_telegram_id();
    const std::string tma = tma_header(tg).substr(15);
    const auto r = post_json("/api/cabinet/link/email", R"({"email":")" + email + R"(","password":")" + kPassword + R"("})", tma);
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.status << " " << r.body);
    const auto ok = post_json("/api/cabinet/link/email/confirm", code_body(mailed_code(email, 2)), tma);
    BOOST_REQUIRE_MESSAGE(ok.status == 200, ok.body);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE email = '" + email + "'") == 1);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE email = '" + email + "' AND id = " + uid_of(tg)) == 1);
    // The squatter's link is over, and their password opens nothing.
    BOOST_TEST(post_json("/api/cabinet/auth/verify", R"({"token":")" + squatter_link + R"("})").status == 400);
    BOOST_TEST(post_json("/api/cabinet/auth/login", R"({"email":")" + email + R"(","password":"squatter pass 1"})").status == 401);
    access_of(login(email));
}

BOOST_AUTO_TEST_CASE(link_email_five_wrong_codes_kill_the_code) {
    const std::string tma = tma_header(fresh_telegram_id()).substr(15);
    const std::string email = fresh_email("wrong");
    BOOST_REQUIRE_EQUAL(post_json("/api/cabinet/link/email", R"({"email":")" + email + R"(","password":")" + kPassword + R"("})", tma).status, 200);
    const std::string code = mailed_code(email);
    for (int i = 1; i <= 4; ++i) BOOST_TEST(post_json("/api/cabinet/link/email/confirm", code_body(wrong_code(code)), tma).status == 400);
    BOOST_TEST(post_json("/api/cabinet/link/email/confirm", code_body(wrong_code(code)), tma).status == 429);
    BOOST_TEST(post_json("/api/cabinet/link/email/confirm", code_body(code), tma).status == 429);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE email = '" + email + "'") == 0);
}

BOOST_AUTO_TEST_CASE(link_email_parallel_confirmations_win_once) {
    const std::string tma = tma_header(fresh_telegram_id()).substr(15);
    const std::string email = fresh_email("race");
    BOOST_REQUIRE_EQUAL(post_json("/api/cabinet/link/email", R"({"email":")" + email + R"(","password":")" + kPassword + R"("})", tma).status, 200);
    const std::string code = mailed_code(email);
    std::atomic<int> ok{0}, other{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 20; ++i)
        threads.emplace_back([&] {
            const auto r = post_json("/api/cabinet/link/email/confirm", code_body(code), tma);
            (r.status == 200 ? ok : other)++;
        });
    for (auto& t : threads) t.join();
    BOOST_TEST(ok.load() == 1);
    BOOST_TEST(other.load() == 19);
}

BOOST_AUTO_TEST_CASE(link_telegram_merges_the_web_account) {
    const int64_t tg = fresh_telegram_id();
    BOOST_REQUIRE_EQUAL(http("GET", "/api/cabinet/me", {tma_header(tg)}).status, 200);
    set_balance(tg, 300);
    const std::string email = fresh_email("merge");
    const int64_t web = make_web_user(email, 500);
    const std::string w = std::to_string(web);
    exec("INSERT INTO transactions (user_id, type, status, amount_minor, currency, method) VALUES (" + w +
         ", 'deposit', 'completed', 500, 'RUB', 'test')");
    exec("INSERT INTO support_tickets (user_id) VALUES (" + w + ")");
    const std::string access = access_of(login(email));

    // JWT only: the mini-app's init data is refused.
    BOOST_TEST(post_json("/api/cabinet/link/telegram", "{}", tma_header(tg).substr(15)).status == 401);
    const auto r = post_json("/api/cabinet/link/telegram", "{}", bearer(access));
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    BOOST_TEST(r.json()["expires_in"].GetInt64() == 900);
    const std::string url = str(r.json()["url"]);
    const std::string prefix = "https://t.me/" + env("BOT_USERNAME") + "?start=link_";
    BOOST_REQUIRE(url.rfind(prefix, 0) == 0);

    BOOST_TEST(said(confirm_link_in_bot(tg, url.substr(prefix.size() - 5)), "Accounts linked"));
    const std::string t = uid_of(tg);
    BOOST_TEST(count("SELECT balance_minor FROM users WHERE id = " + t) == 800);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE user_id = " + t + " AND method = 'test'") == 1);
    BOOST_TEST(count("SELECT count(*) FROM support_tickets WHERE user_id = " + t) == 1);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE id = " + w) == 0);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE id = " + t + " AND email = '" + email + "' AND email_verified") == 1);
    BOOST_TEST(count("SELECT count(*) FROM events WHERE user_id = " + t + " AND kind = 'account_merged' AND (payload->>'merged_user_id')::bigint = " + w) == 1);
    // The old access token's user is gone; the e-mail login now reaches the Telegram user.
    BOOST_TEST(http("GET", "/api/cabinet/me", {"Authorization: " + bearer(access)}).status == 401);
    const auto again = login(email);
    access_of(again);
    BOOST_TEST(again.json()["user"]["id"].GetInt64() == count("SELECT " + t));
    // The link is spent.
    BOOST_TEST(said(bot_start(tg, url.substr(prefix.size() - 5)), "expired"));
}

// Promo codes and the trial count per person (issue 13): what the web account used is used
// by the merged account, so linking is not a way to take a trial or a code twice.
BOOST_AUTO_TEST_CASE(link_telegram_counts_promo_codes_and_the_trial_per_person) {
    const int64_t tg = fresh_telegram_id();
    BOOST_REQUIRE_EQUAL(http("GET", "/api/cabinet/me", {tma_header(tg)}).status, 200);
    const std::string email = fresh_email("perperson");
    make_web_user(email);
    const std::string web_auth = "Authorization: " + bearer(access_of(login(email)));
    const std::string code = "PP" + std::to_string(fresh_telegram_id());
    exec("INSERT INTO promo_codes (code, reward_type, value) VALUES ('" + code + "', 'balance', 100)");
    const std::string body = R"({"code":")" + code + R"("})";
    const std::string json = "Content-Type: application/json";
    BOOST_REQUIRE(http("POST", "/api/cabinet/promocode", {web_auth, json}, body).json()["ok"].GetBool());
    BOOST_REQUIRE_EQUAL(http("POST", "/api/cabinet/trial", {web_auth}).status, 200);

    const auto r = post_json("/api/cabinet/link/telegram", "{}", bearer(access_of(login(email))));
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    const std::string prefix = "https://t.me/" + env("BOT_USERNAME") + "?start=link_";
    BOOST_REQUIRE(said(confirm_link_in_bot(tg, str(r.json()["url"]).substr(prefix.size() - 5)), "Accounts linked"));

    const std::string tma = tma_header(tg);
    const auto again = http("POST", "/api/cabinet/promocode", {tma, json}, body).json();
    BOOST_TEST(again["ok"].GetBool() == false);
    const auto trial = http("POST", "/api/cabinet/trial", {tma});
    BOOST_TEST(trial.status == 400);
    BOOST_TEST(detail(trial) == "trial already used");
    BOOST_TEST(count("SELECT balance_minor FROM users WHERE id = " + uid_of(tg)) == 100);  // the code paid once
}

BOOST_AUTO_TEST_CASE(link_telegram_refuses_a_second_email) {
    const int64_t tg = fresh_telegram_id();
    BOOST_REQUIRE_EQUAL(http("GET", "/api/cabinet/me", {tma_header(tg)}).status, 200);
    exec("UPDATE users SET email = '" + fresh_email("tgown") + "', email_verified = true WHERE telegram_id = " + std::to_string(tg));
    const std::string email = fresh_email("webown");
    const int64_t web = make_web_user(email, 500);
    const auto r = post_json("/api/cabinet/link/telegram", "{}", bearer(access_of(login(email))));
    BOOST_REQUIRE_EQUAL(r.status, 200);
    const std::string url = str(r.json()["url"]);
    BOOST_TEST(said(confirm_link_in_bot(tg, url.substr(url.find("link_"))), "already has another e-mail"));
    BOOST_TEST(count("SELECT balance_minor FROM users WHERE id = " + std::to_string(web)) == 500);
    BOOST_TEST(count("SELECT balance_minor FROM users WHERE id = " + uid_of(tg)) == 0);
}

BOOST_AUTO_TEST_CASE(link_telegram_keeps_the_later_subscription) {
    cabinet::PanelClient panel("http://127.0.0.1:" + env("PANEL_PORT"), "any-token", 500, 3000);
    std::map<std::string, std::string> panel_uuid;  // "tg"/"web" of the last merge -> its panel user
    // Each pair: a Telegram user and a web user, each given a subscription (and its panel
    // user) expiring in `tg_days` / `web_days` (0: none); returns the Telegram user's id
    // after the merge.
    const auto merge = [&](int tg_days, int web_days) {
        const int64_t tg = fresh_telegram_id();
        BOOST_REQUIRE_EQUAL(http("GET", "/api/cabinet/me", {tma_header(tg)}).status, 200);
        const std::string email = fresh_email("sub");
        const int64_t web = make_web_user(email);
        panel_uuid.clear();
        const auto give = [&](const std::string& side, const std::string& user, int days, std::optional<int64_t> telegram_id) {
            if (days <= 0) return;
            cabinet::PanelUserState state;
            state.expire_at = cabinet::unix_now() + days * 86400;
            state.device_limit = 1;
            const auto pu = panel.create_user("merge_" + side + "_" + std::to_string(fresh_telegram_id()), telegram_id, state, "linking test");
            panel_uuid[side] = pu.uuid;
            exec("INSERT INTO subscriptions (user_id, status, expire_at, panel_uuid) VALUES (" + user +
                 ", 'active', now() + interval '" + std::to_string(days) + " days', '" + pu.uuid + "')");
        };
        give("tg", uid_of(tg), tg_days, tg);
        give("web", std::to_string(web), web_days, std::nullopt);
        const auto r = post_json("/api/cabinet/link/telegram", "{}", bearer(access_of(login(email))));
        BOOST_REQUIRE_EQUAL(r.status, 200);
        const std::string url = str(r.json()["url"]);
        BOOST_TEST(said(confirm_link_in_bot(tg, url.substr(url.find("link_"))), "Accounts linked"));
        BOOST_TEST(count("SELECT count(*) FROM users WHERE id = " + std::to_string(web)) == 0);
        return uid_of(tg);
    };
    const auto days_left = [](const std::string& user) {
        return count("SELECT round(extract(epoch FROM expire_at - now()) / 86400)::bigint FROM subscriptions WHERE user_id = " + user);
    };
    const auto kept = [](const std::string& user) {
        return count("SELECT count(*) FROM events WHERE user_id = " + user +
                     " AND kind = 'account_merged' AND payload->>'subscription_kept' = 'web'");
    };
    const std::string only_web = merge(0, 30);
    BOOST_TEST(days_left(only_web) == 30);
    BOOST_TEST(kept(only_web) == 1);
    // On the panel the kept web subscription now belongs to the Telegram account.
    const int64_t only_web_tg = count("SELECT telegram_id FROM users WHERE id = " + only_web);
    BOOST_TEST(panel.get_user(panel_uuid["web"])->telegram_id.value_or(0) == only_web_tg);
    const std::string web_later = merge(5, 30);
    BOOST_TEST(days_left(web_later) == 30);
    BOOST_TEST(kept(web_later) == 1);
    BOOST_TEST(panel.get_user(panel_uuid["tg"])->status == "DISABLED");  // the dropped one gives no free access
    BOOST_TEST(panel.get_user(panel_uuid["web"])->status == "ACTIVE");
    BOOST_TEST(count("SELECT count(*) FROM events WHERE user_id = " + web_later +
                     " AND kind = 'account_merged' AND payload->>'dropped_panel_uuid' IS NOT NULL") == 1);
    const std::string tg_later = merge(30, 5);
    BOOST_TEST(days_left(tg_later) == 30);
    BOOST_TEST(kept(tg_later) == 0);
    BOOST_TEST(panel.get_user(panel_uuid["web"])->status == "DISABLED");
    BOOST_TEST(panel.get_user(panel_uuid["tg"])->status == "ACTIVE");
}

// Whoever starts a web login is not necessarily who taps its link (issue 13): the bot names
// the browser that started it, and Cancel ends it with nobody signed in.
BOOST_AUTO_TEST_CASE(web_login_prompt_names_the_browser_and_cancel_signs_nobody_in) {
    const auto start = http("POST", "/api/cabinet/auth/telegram/start",
                            {"Content-Type: application/json", "User-Agent: StrangerBrowser/9.1 (Attacker OS)"}, "{}");
    BOOST_REQUIRE_EQUAL(start.status, 200);
    const std::string code = start.json()["code"].GetString();
    const int64_t tg = fresh_telegram_id();
    const auto prompt = bot_start(tg, "weblogin_" + code);
    BOOST_TEST(said(prompt, "Sign in to the web cabinet from StrangerBrowser/9.1 (Attacker OS), IP 127.0.0.1, started "), prompt.size());
    BOOST_TEST(said(prompt, "Only if you started this yourself"));
    BOOST_TEST(post_json("/api/cabinet/auth/telegram/poll", code_body(code)).json()["pending"].GetBool());

    BOOST_TEST(said(bot_press(tg, "wl-" + code), "Sign-in cancelled"));
    const auto poll = post_json("/api/cabinet/auth/telegram/poll", code_body(code));
    BOOST_TEST(poll.status == 400);
    BOOST_TEST(detail(poll) == "sign-in was cancelled in Telegram");
    // A late Confirm (another tap on the old prompt) does nothing.
    BOOST_TEST(said(bot_press(tg, "wl+" + code), "expired"));
    BOOST_TEST(post_json("/api/cabinet/auth/telegram/poll", code_body(code)).status == 400);
    BOOST_TEST(count("SELECT count(*) FROM refresh_tokens WHERE user_id = " + uid_of(tg)) == 0);
}

// A link tapped by someone merges nothing until they confirm a prompt that names the
// e-mail; Cancel kills the code; a confirmed merge ends the web account's sessions.
BOOST_AUTO_TEST_CASE(link_asks_naming_the_email_and_ends_the_web_sessions) {
    const int64_t tg = fresh_telegram_id();
    BOOST_REQUIRE_EQUAL(http("GET", "/api/cabinet/me", {tma_header(tg)}).status, 200);
    const std::string email = fresh_email("prompt");
    const int64_t web = make_web_user(email, 700);
    const auto session = login(email);
    const std::string refresh = session.json()["refresh_token"].GetString();
    const auto link_url = [&] {
        const auto r = post_json("/api/cabinet/link/telegram", "{}", bearer(access_of(login(email))));
        BOOST_REQUIRE_EQUAL(r.status, 200);
        const std::string url = str(r.json()["url"]);
        return url.substr(url.find("link_"));
    };

    const std::string first = link_url();
    const auto prompt = bot_start(tg, first);
    BOOST_TEST(said(prompt, "Link the web account " + email + " to this Telegram account?"));
    BOOST_TEST(said(prompt, "Only if you started this yourself"));
    BOOST_TEST(count("SELECT count(*) FROM users WHERE id = " + std::to_string(web)) == 1);  // nothing merged yet
    BOOST_TEST(said(bot_press(tg, "ln-" + first.substr(5)), "Linking cancelled"));
    BOOST_TEST(said(bot_press(tg, "ln+" + first.substr(5)), "expired"));
    BOOST_TEST(count("SELECT count(*) FROM users WHERE id = " + std::to_string(web)) == 1);
    BOOST_TEST(count("SELECT balance_minor FROM users WHERE telegram_id = " + std::to_string(tg)) == 0);

    BOOST_TEST(said(confirm_link_in_bot(tg, link_url()), "Accounts linked"));
    BOOST_TEST(count("SELECT count(*) FROM users WHERE id = " + std::to_string(web)) == 0);
    BOOST_TEST(count("SELECT balance_minor FROM users WHERE telegram_id = " + std::to_string(tg)) == 700);
    // The web account's sessions ended with it: its refresh token no longer works.
    BOOST_TEST(post_json("/api/cabinet/auth/refresh", R"({"refresh_token":")" + refresh + R"("})").status == 401);
}

BOOST_AUTO_TEST_CASE(web_cabinet_off_refuses_web_login_and_linking) {
    PoolWith pool("WEB_CABINET_ENABLED=false");
    BOOST_TEST(post_json("/api/cabinet/auth/telegram/start", "{}").status == 403);
    BOOST_TEST(post_json("/api/cabinet/auth/telegram/poll", code_body("x")).status == 403);
    const std::string tma = tma_header(fresh_telegram_id()).substr(15);
    BOOST_TEST(post_json("/api/cabinet/link/email", R"({"email":"off@example.test","password":"12345678"})", tma).status == 403);
    BOOST_TEST(http("GET", "/api/cabinet/linked", {"Authorization: " + tma}).status == 200);
}

BOOST_AUTO_TEST_SUITE_END()
