// What a web account brings into the Telegram account it is linked to (issue 7, issue 13):
// promo codes and the trial per person, nothing the person had once already, one e-mail,
// one subscription. Same suite as linking_test.cpp (web login, the link and its approval).
#include <boost/test/unit_test.hpp>

#include <map>
#include <optional>
#include <string>

#include "linking_support.hpp"
#include "money_support.hpp"
#include "panel/panel_client.hpp"
#include "support.hpp"
#include "util/time.hpp"

using namespace it;
using namespace it::linking_help;

BOOST_AUTO_TEST_SUITE(linking)

// Promo codes and the trial count per person (issue 13): what the web account used is used
// by the merged account, so linking is not a way to take a trial or a code twice.
BOOST_AUTO_TEST_CASE(link_telegram_counts_promo_codes_and_the_trial_per_person) {
    const int64_t tg = fresh_telegram_id();
    BOOST_REQUIRE_EQUAL(http("GET", "/api/cabinet/me", {tma_header(tg)}).status, 200);
    const std::string email = fresh_link_email("perperson");
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

// The merge shows the two accounts are one person: what that person got once already, or
// paid themselves, does not come along. Else one could sign up on the web again and again
// (a VK ID gives a new account each time), take the trial and every balance code there,
// and pour each into the same Telegram account.
BOOST_AUTO_TEST_CASE(a_merge_brings_no_second_trial_no_second_promo_credit_and_no_self_paid_commission) {
    const int64_t tg = fresh_telegram_id();
    const std::string tma = tma_header(tg);
    const std::string json = "Content-Type: application/json";
    BOOST_REQUIRE_EQUAL(http("GET", "/api/cabinet/me", {tma}).status, 200);
    const std::string t = uid_of(tg);
    const std::string code = "MR" + std::to_string(fresh_telegram_id());
    exec("INSERT INTO promo_codes (code, reward_type, value) VALUES ('" + code + "', 'balance', 100)");
    const std::string body = R"({"code":")" + code + R"("})";
    // The Telegram account: the code (+100) and its trial, which has ended.
    BOOST_REQUIRE(http("POST", "/api/cabinet/promocode", {tma, json}, body).json()["ok"].GetBool());
    BOOST_REQUIRE_EQUAL(http("POST", "/api/cabinet/trial", {tma}).status, 200);
    exec("UPDATE subscriptions SET expire_at = now() - interval '1 day', status = 'expired' WHERE user_id = " + t);

    // A new web account of the same person: 80 of its own, the same code again (+100), a
    // trial of its own, and 30 of commission earned on the Telegram account's payments
    // (which came in through the web account's invite link).
    const std::string email = fresh_link_email("repeat");
    const int64_t web = make_web_user(email, 80);
    const std::string w = std::to_string(web);
    const std::string web_auth = "Authorization: " + bearer(access_of(login(email)));
    BOOST_REQUIRE(http("POST", "/api/cabinet/promocode", {web_auth, json}, body).json()["ok"].GetBool());
    BOOST_REQUIRE_EQUAL(http("POST", "/api/cabinet/trial", {web_auth}).status, 200);
    exec("UPDATE users SET referred_by = " + w + " WHERE id = " + t);
    exec("INSERT INTO referral_earnings (referrer_id, referral_id, amount_minor) VALUES (" + w + ", " + t + ", 30)");
    exec("SELECT ledger_move(" + w + ", 30, 'referral_commission', NULL)");
    BOOST_REQUIRE_EQUAL(count("SELECT balance_minor FROM users WHERE id = " + w), 210);
    const std::string web_trial_panel_user = [&] {
        pqxx::connection conn(env("DATABASE_URL"));
        pqxx::work txn(conn);
        return txn.exec1("SELECT panel_uuid::text FROM subscriptions WHERE is_trial AND user_id = " + w)[0].as<std::string>();
    }();

    const auto r = post_json("/api/cabinet/link/telegram", "{}", bearer(access_of(login(email))));
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    const std::string url = str(r.json()["url"]);
    BOOST_REQUIRE(said(confirm_link_in_bot(tg, url.substr(url.find("link_"))), "Accounts linked"));

    // 100 (its code) + 210 - 100 (the code again) - 30 (its own commission) = 180.
    BOOST_TEST(count("SELECT balance_minor FROM users WHERE id = " + t) == 180);
    const std::string event = "SELECT count(*) FROM events WHERE user_id = " + t + " AND kind = 'account_merged' AND ";
    BOOST_TEST(count(event + "(payload->>'balance_added_minor')::bigint = 80 AND (payload->>'promo_taken_back_minor')::bigint = 100"
                     " AND (payload->>'commission_taken_back_minor')::bigint = 30") == 1);
    // The second trial does not come along: the Telegram account keeps its own, ended one,
    // and the web trial's panel user is switched off.
    BOOST_TEST(count("SELECT count(*) FROM subscriptions WHERE user_id = " + t + " AND is_trial AND expire_at < now()") == 1);
    BOOST_TEST(count(event + "payload->>'subscription_kept' = 'telegram' AND payload->>'dropped_panel_uuid' = '" +
                     web_trial_panel_user + "'") == 1);
    cabinet::PanelClient panel("http://127.0.0.1:" + env("PANEL_PORT"), "any-token", 500, 3000);
    BOOST_TEST(panel.get_user(web_trial_panel_user)->status == "DISABLED");
    const auto [ledger_rc, ledger_out] = it::money::check_ledger();
    BOOST_TEST(ledger_rc == 0, ledger_out);

    // A paid trial (TRIAL_PRICE, its ledger row) was bought like a plan: it stays, as the
    // later-expiring subscription does.
    const int64_t tg2 = fresh_telegram_id();
    BOOST_REQUIRE_EQUAL(http("GET", "/api/cabinet/me", {tma_header(tg2)}).status, 200);
    BOOST_REQUIRE_EQUAL(http("POST", "/api/cabinet/trial", {tma_header(tg2)}).status, 200);
    exec("UPDATE subscriptions SET expire_at = now() - interval '1 day', status = 'expired' WHERE user_id = " + uid_of(tg2));
    const std::string email2 = fresh_link_email("paidtrial");
    const int64_t web2 = make_web_user(email2, 50);
    BOOST_REQUIRE_EQUAL(http("POST", "/api/cabinet/trial", {"Authorization: " + bearer(access_of(login(email2)))}).status, 200);
    exec("SELECT ledger_move(" + std::to_string(web2) + ", -50, 'trial', NULL)");
    const auto r2 = post_json("/api/cabinet/link/telegram", "{}", bearer(access_of(login(email2))));
    BOOST_REQUIRE_MESSAGE(r2.status == 200, r2.body);
    const std::string url2 = str(r2.json()["url"]);
    BOOST_REQUIRE(said(confirm_link_in_bot(tg2, url2.substr(url2.find("link_"))), "Accounts linked"));
    BOOST_TEST(count("SELECT count(*) FROM events WHERE user_id = " + uid_of(tg2) +
                     " AND kind = 'account_merged' AND payload->>'subscription_kept' = 'web'") == 1);
    BOOST_TEST(count("SELECT count(*) FROM subscriptions WHERE user_id = " + uid_of(tg2) + " AND is_trial AND expire_at > now()") == 1);
}

BOOST_AUTO_TEST_CASE(link_telegram_refuses_a_second_email) {
    const int64_t tg = fresh_telegram_id();
    BOOST_REQUIRE_EQUAL(http("GET", "/api/cabinet/me", {tma_header(tg)}).status, 200);
    exec("UPDATE users SET email = '" + fresh_link_email("tgown") + "', email_verified = true WHERE telegram_id = " + std::to_string(tg));
    const std::string email = fresh_link_email("webown");
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
        const std::string email = fresh_link_email("sub");
        const int64_t web = make_web_user(email);
        panel_uuid.clear();
        const auto give = [&](const std::string& side, const std::string& user, int days, std::optional<int64_t> telegram_id) {
            if (days <= 0) return;
            cabinet::PanelUserState state;
            state.expire_at = cabinet::unix_now() + days * 86400;
            state.device_limit = 1;
            const auto pu = panel.create_user("merge_" + side + "_" + std::to_string(fresh_telegram_id()), telegram_id, state);
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

BOOST_AUTO_TEST_SUITE_END()
