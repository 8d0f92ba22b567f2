// Buying without an account (issue 49; services/guest_purchase.hpp): the original web
// cabinet's "Buy now" through nginx, against the fake YooKassa and the fake SMTP server.
// The journey ends with an active subscription and its link by mail; the one-time sign-in
// works once, only in the buying browser, only for an account the purchase made; bad input
// creates nothing.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <mutex>
#include <thread>

#include "money_support.hpp"
#include "support.hpp"
#include "web_auth_support.hpp"

using namespace it;
using namespace it::web_session;

namespace {

std::string buy_body(const std::string& email, const std::string& method, const std::string& extra = "") {
    return R"({"email":")" + email + R"(","plan_id":"standard","days":30,"method":")" + method + R"(","language":"en")" +
           extra + "}";
}

struct GuestBuy {
    HttpResult r;
    std::string cookie;  // "name=value" of the browser binding it set
    int64_t txn = 0;
    std::string token;
};
GuestBuy guest_buy(const std::string& body) {
    GuestBuy g;
    g.r = http("POST", "/api/cabinet/auth/guest/purchase", kJsonHeaders, body);
    if (g.r.status != 200) return g;
    const std::string set = g.r.headers.count("set-cookie") ? g.r.headers.at("set-cookie") : "";
    g.cookie = set.substr(0, set.find(';'));
    const rapidjson::Document d = g.r.json();
    g.txn = d["transaction_id"].GetInt64();
    g.token = str(d["auto_login_token"]);
    return g;
}

HttpResult auto_login(const std::string& token, const std::string& cookie) {
    std::vector<std::string> h = kJsonHeaders;
    if (!cookie.empty()) h.push_back("Cookie: " + cookie);
    return http("POST", "/api/cabinet/auth/login/auto", h, field("token", token));
}

std::string text_of(const std::string& sql) {
    pqxx::connection conn(env("DATABASE_URL"));
    pqxx::nontransaction q(conn);
    const auto r = q.exec(sql);
    return r.empty() || r[0][0].is_null() ? "" : r[0][0].c_str();
}

int64_t accounts_of(const std::string& email) { return count("SELECT count(*) FROM users WHERE email = '" + lower(email) + "'"); }

}  // namespace

BOOST_AUTO_TEST_SUITE(guest_purchase)

BOOST_AUTO_TEST_CASE(a_guest_buys_signs_in_once_in_that_browser_and_gets_the_link_by_mail) {
    const std::string email = fresh_email("guest");
    const std::string web = env("WEB_CABINET_URL");
    const int64_t since = journal_mark();
    const GuestBuy g = guest_buy(buy_body(email, "yookassa", R"(,"return_url":")" + web + R"(/buy?plan=standard#top")"));
    BOOST_REQUIRE_MESSAGE(g.r.status == 200, g.r.status << " " << g.r.body);
    BOOST_TEST(str(g.r.json()["redirect_url"]).rfind("http", 0) == 0u);
    BOOST_TEST(str(g.r.json()["payment_url"]) == str(g.r.json()["redirect_url"]));
    BOOST_TEST(g.token.size() == 43u);
    BOOST_TEST(g.cookie.rfind("__Host-cabinet_oauth=", 0) == 0u);
    // A new account: the address, no password, not verified; the payment pending on it.
    BOOST_TEST(accounts_of(email) == 1);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE email = '" + lower(email) +
                     "' AND NOT email_verified AND coalesce(password_hash, '') = '' AND telegram_id IS NULL") == 1);
    BOOST_TEST(text_of("SELECT status FROM transactions WHERE id = " + str(g.txn)) == "pending");
    // The buyer comes back to the page the purchase started from, with its payment.
    const rapidjson::Document calls = [&] {
        const auto r = http_url("GET", fake_url("/__fake/journal?service=yookassa&path=/v3/payments&since=" + str(since)));
        return r.json();
    }();
    bool returned = false;
    for (const auto& c : calls.GetArray())
        if (std::string(c["method"].GetString()) == "POST" && c["json"].IsObject())
            returned |= str(c["json"]["confirmation"]["return_url"]) == web + "/buy?plan=standard&payment=" + str(g.txn);
    BOOST_TEST(returned);

    // The token signs in only the browser that bought, and only once (8 at once: one).
    BOOST_TEST(auto_login(g.token, "").status == 400);
    BOOST_TEST(auto_login(g.token, "__Host-cabinet_oauth=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA").status == 400);
    std::atomic<int> signed_in{0}, refused{0};
    std::string access;
    std::mutex m;
    std::vector<std::thread> tabs;
    for (int i = 0; i < 8; ++i)
        tabs.emplace_back([&] {
            const auto r = auto_login(g.token, g.cookie);
            if (r.status == 200) {
                ++signed_in;
                const std::lock_guard lock(m);
                access = str(r.json()["access_token"]);
            } else if (r.status == 400 && detail(r) == "this sign-in link is invalid, used or expired") {
                ++refused;
            }
        });
    for (auto& t : tabs) t.join();
    BOOST_TEST(signed_in.load() == 1);
    BOOST_TEST(refused.load() == 7);
    BOOST_TEST(count("SELECT count(*) FROM refresh_tokens WHERE origin = 'guest' AND user_id = (SELECT id FROM users WHERE email = '" +
                     lower(email) + "')") == 1);
    const auto me = http("GET", "/api/cabinet/me", {"Authorization: Bearer " + access});
    BOOST_REQUIRE_MESSAGE(me.status == 200, me.body);
    BOOST_TEST(me.json()["subscription"].IsNull());  // not before the money

    const auto paid = yookassa_pays(g.txn);
    BOOST_REQUIRE_MESSAGE(paid.status == 200 && paid.json()["accepted"].GetBool(), paid.body);
    BOOST_TEST_REQUIRE(wait_until([&] { return text_of("SELECT status FROM transactions WHERE id = " + str(g.txn)) == "completed"; }, 30000));
    const auto after = http("GET", "/api/cabinet/me", {"Authorization: Bearer " + access});
    BOOST_TEST(str(after.json()["subscription"]["plan_name"]) == "Standard");
    // The link by mail, once, with no way to sign in in it.
    const std::string mail = wait_mail(lower(email));
    const std::string link = text_of("SELECT subscription_url FROM subscriptions WHERE user_id = (SELECT id FROM users WHERE email = '" +
                                     lower(email) + "')");
    BOOST_TEST(!link.empty());
    BOOST_TEST(mail.find(link) != std::string::npos);
    BOOST_TEST(mail.find("login/auto") == std::string::npos);
    BOOST_TEST(mail.find(g.token) == std::string::npos);
    BOOST_TEST(mails_to(lower(email)).size() == 1u);
}

// An address that has an account: the purchase goes to that account, its owner is mailed,
// and the answer's token (the same shape) signs nobody in.
BOOST_AUTO_TEST_CASE(a_known_address_is_mailed_and_nobody_is_signed_in) {
    const std::string email = fresh_email("known");
    register_and_verify(email);
    const int64_t owner = count("SELECT id FROM users WHERE email = '" + lower(email) + "'");
    const size_t mails = mails_to(lower(email)).size();
    const GuestBuy g = guest_buy(buy_body(email, "yookassa"));
    BOOST_REQUIRE_MESSAGE(g.r.status == 200, g.r.body);
    BOOST_TEST(g.token.size() == 43u);
    BOOST_TEST(auto_login(g.token, g.cookie).status == 400);
    BOOST_TEST(accounts_of(email) == 1);
    BOOST_TEST(count("SELECT user_id FROM transactions WHERE id = " + str(g.txn)) == owner);
    const std::string notice = wait_mail(lower(email), mails + 1);
    BOOST_TEST(notice.find("A purchase for your account") != std::string::npos);
}

// The provider is asked after the account and the payment were reserved and committed
// (services/online_checkout.hpp). When it fails, the 502 leaves neither behind: the address
// buys again a moment later as the new guest it is (signed in once), not as a "known
// address" whose owner gets a notice. A known address's owner is told of no purchase that
// never opened, and keeps the account.
BOOST_AUTO_TEST_CASE(a_gateway_failure_leaves_no_account_and_the_retry_is_a_new_guest) {
    const auto fail_next_checkout = [] {
        BOOST_REQUIRE(http_url("POST", fake_url("/__fake/fail"), kJsonHeaders,
                               R"({"service":"yookassa","count":1,"status":500})").status == 200);
    };
    const std::string email = fresh_email("outage");
    const int64_t payments = count("SELECT count(*) FROM transactions");
    fail_next_checkout();
    const GuestBuy failed = guest_buy(buy_body(email, "yookassa"));
    http_url("DELETE", fake_url("/__fake/fail"));
    BOOST_TEST(failed.r.status == 502, failed.r.body);
    BOOST_TEST(accounts_of(email) == 0);
    BOOST_TEST(count("SELECT count(*) FROM transactions") == payments);

    const GuestBuy again = guest_buy(buy_body(email, "yookassa"));
    BOOST_REQUIRE_MESSAGE(again.r.status == 200, again.r.body);
    BOOST_TEST(accounts_of(email) == 1);
    BOOST_TEST(auto_login(again.token, again.cookie).status == 200);

    const std::string known = fresh_email("known-outage");
    register_and_verify(known);
    const int64_t owner = count("SELECT id FROM users WHERE email = '" + lower(known) + "'");
    const int64_t mails_queued = count("SELECT count(*) FROM jobs WHERE kind = 'send_mail' AND payload->>'to' = '" + lower(known) + "'");
    fail_next_checkout();
    const GuestBuy refused = guest_buy(buy_body(known, "yookassa"));
    http_url("DELETE", fake_url("/__fake/fail"));
    BOOST_TEST(refused.r.status == 502, refused.r.body);
    BOOST_TEST(count("SELECT id FROM users WHERE email = '" + lower(known) + "'") == owner);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE user_id = " + std::to_string(owner)) == 0);
    BOOST_TEST(count("SELECT count(*) FROM jobs WHERE kind = 'send_mail' AND payload->>'to' = '" + lower(known) + "'") ==
               mails_queued);
}

BOOST_AUTO_TEST_CASE(bad_input_creates_nothing) {
    const std::string email = fresh_email("hostile");
    const int64_t payments = count("SELECT count(*) FROM transactions");
    for (const auto& [body, why] : std::vector<std::pair<std::string, std::string>>{
             {buy_body(email, "balance"), "balance"},
             {buy_body(email, "stars"), "stars"},
             {buy_body(email, "nosuchpay"), "unknown gateway"},
             {buy_body("not an address", "yookassa"), "bad e-mail"},
             {R"({"email":")" + email + R"(","plan_id":"standard","method":"yookassa"})", "no days"},
             {R"({"email":")" + email + R"(","plan_id":"nosuchplan","days":30,"method":"yookassa"})", "unknown plan"},
             {"not json", "not json"},
         }) {
        const auto r = http("POST", "/api/cabinet/auth/guest/purchase", kJsonHeaders, body);
        BOOST_TEST((r.status == 400 || r.status == 404), why << ": " << r.status << " " << r.body);
    }
    BOOST_TEST(detail(http("POST", "/api/cabinet/auth/guest/purchase", kJsonHeaders, buy_body(email, "balance"))) ==
               "a purchase without an account is paid online: choose a payment method other than balance");
    BOOST_TEST(accounts_of(email) == 0);
    BOOST_TEST(count("SELECT count(*) FROM transactions") == payments);
    BOOST_TEST(auto_login("nonsense", "").status == 400);
    // Another site as the way back: the web cabinet instead (checked through the journal
    // above for the good case; here the purchase still works).
    const GuestBuy away = guest_buy(buy_body(fresh_email("away"), "yookassa", R"(,"return_url":"https://evil.example/x")"));
    BOOST_TEST(away.r.status == 200);
    // The public catalogue offers a guest only what a guest can pay with.
    const auto plans = http("GET", "/api/cabinet/public/plans");
    BOOST_REQUIRE(plans.status == 200);
    const rapidjson::Document d = plans.json();
    for (const auto& m : d["payment_methods"].GetArray()) {
        BOOST_TEST(str(m["id"]) != "balance");
        BOOST_TEST(str(m["id"]) != "stars");
    }
}

BOOST_AUTO_TEST_SUITE_END()
