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
#include "linking_support.hpp"
#include "panel/panel_client.hpp"
#include "support.hpp"
#include "util/time.hpp"
#include "util/web_tokens.hpp"

using namespace it;
using namespace it::linking_help;

BOOST_AUTO_TEST_SUITE(linking)

BOOST_AUTO_TEST_CASE(telegram_web_login_gives_one_session) {
    const WebLogin browser = start_web_login();
    const auto s = browser.started.json();
    const std::string code = browser.code;
    BOOST_TEST(code.size() + 9 <= 64u);
    BOOST_TEST(std::all_of(code.begin(), code.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; }));
    BOOST_TEST(str(s["url"]) == "https://t.me/" + env("BOT_USERNAME") + "?start=weblogin_" + code);
    BOOST_TEST(s["expires_in"].GetInt64() == 300);
    BOOST_TEST(count("SELECT count(*) FROM telegram_codes WHERE code_hash = '" + cabinet::opaque_token_hash(code) +
                     "' AND kind = 'weblogin'") == 1);

    const auto pending = poll_web_login(browser);
    BOOST_REQUIRE_MESSAGE(pending.status == 200, pending.body);
    BOOST_TEST(pending.json()["pending"].GetBool());

    const int64_t tg = fresh_telegram_id();
    // The bot asks first, and until Confirm the browser keeps waiting.
    BOOST_TEST(said(bot_start(tg, "weblogin_" + code), "Sign in to the web cabinet from"));
    BOOST_TEST(poll_web_login(browser).json()["pending"].GetBool());
    BOOST_TEST(said(bot_press(tg, "wl+" + code), "You are logged in on the web"));
    // Whoever read the code off the screen (the link, its QR code) cannot take the session:
    // only the browser that started the sign-in can, and it still gets it.
    for (const std::string& stranger : {std::string(), std::string("__Host-cabinet_oauth=") + std::string(43, 'x')}) {
        const auto taken = poll_web_login(code, stranger);
        BOOST_TEST(taken.status == 400, taken.body);
        BOOST_TEST(detail(taken) == "this sign-in was started in another browser");
    }
    const auto session = poll_web_login(browser);
    const std::string access = access_of(session);
    BOOST_TEST(session.json()["user"]["id"].GetInt64() == count("SELECT " + uid_of(tg)));
    const auto me = http("GET", "/api/cabinet/me", {"Authorization: " + bearer(access)});
    BOOST_TEST(me.status == 200);

    const auto again = poll_web_login(browser);
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
    const WebLogin old = start_web_login();
    const std::string expired = old.code;
    exec("UPDATE telegram_codes SET expires_at = now() - interval '1 second' WHERE code_hash = '" +
         cabinet::opaque_token_hash(expired) + "'");
    BOOST_TEST(said(bot_start(fresh_telegram_id(), "weblogin_" + expired), "expired"));
    const auto r = poll_web_login(old);
    BOOST_TEST(r.status == 400);
    BOOST_TEST(detail(r) == "code expired");
    BOOST_TEST(post_json("/api/cabinet/auth/telegram/poll", code_body("nope")).status == 400);

    const WebLogin browser = start_web_login();
    const int64_t tg = fresh_telegram_id();
    BOOST_TEST(said(confirm_web_login_in_bot(tg, browser.code), "logged in"));
    exec("UPDATE users SET is_blocked = true WHERE telegram_id = " + std::to_string(tg));
    BOOST_TEST(poll_web_login(browser).status == 403);
}

// Our page's sign-in is approved in its browser: whoever read the QR code off the screen
// and confirmed first is named and declined, and signs nobody in; the owner's is approved.
BOOST_AUTO_TEST_CASE(a_web_login_its_browser_approves_names_who_confirmed_first) {
    const std::string approved = R"({"approve_in_browser":true})";
    const int64_t stranger = fresh_telegram_id(), owner = fresh_telegram_id();
    const WebLogin browser = start_web_login({}, approved);
    BOOST_TEST(said(bot_start(stranger, "weblogin_" + browser.code), "Sign in to the web cabinet from"));
    BOOST_TEST(said(bot_press(stranger, "wl+" + browser.code), "approve this Telegram account"));
    const auto asked = poll_web_login(browser);
    BOOST_REQUIRE_MESSAGE(asked.status == 200, asked.body);
    const auto a = asked.json();
    BOOST_TEST(a["pending"].GetBool());
    BOOST_TEST(!a.HasMember("access_token"));
    BOOST_TEST(a["telegram"]["id"].GetInt64() == stranger);
    BOOST_TEST(a["telegram"].HasMember("first_name"));
    // The owner, beaten to it, opens the link or presses Confirm: the bot says another account
    // confirmed and to answer No; the stranger opening it again is only told it is used.
    BOOST_TEST(said(bot_start(owner, "weblogin_" + browser.code), "Another Telegram account has already confirmed"));
    BOOST_TEST(said(bot_press(owner, "wl+" + browser.code), "answer No"));
    BOOST_TEST(said(bot_start(stranger, "weblogin_" + browser.code), "expired"));
    // Nobody else answers for this browser, and nothing is answered before the bot names someone.
    BOOST_TEST(approve_web_login(browser.code, "", true).status == 400);
    const WebLogin unconfirmed = start_web_login({}, approved);
    BOOST_TEST(detail(approve_web_login(unconfirmed.code, unconfirmed.cookie, true)) == "code is invalid");
    // "Not me": the code ends, and the stranger has no session.
    const auto declined = approve_web_login(browser.code, browser.cookie, false);
    BOOST_TEST(declined.status == 200, declined.body);
    BOOST_TEST(!declined.json().HasMember("access_token"));
    BOOST_TEST(poll_web_login(browser).status == 400);
    BOOST_TEST(approve_web_login(browser.code, browser.cookie, true).status == 400);
    BOOST_TEST(count("SELECT count(*) FROM refresh_tokens WHERE user_id = " + uid_of(stranger)) == 0);

    // The owner confirms their own, is named, and "yes" signs this browser in to them, once.
    const WebLogin mine = start_web_login({}, approved);
    BOOST_TEST(said(bot_start(owner, "weblogin_" + mine.code), "Sign in to the web cabinet from"));
    BOOST_TEST(said(bot_press(owner, "wl+" + mine.code), "approve this Telegram account"));
    BOOST_TEST(poll_web_login(mine).json()["telegram"]["id"].GetInt64() == owner);
    const auto yes = approve_web_login(mine.code, mine.cookie, true);
    BOOST_REQUIRE_MESSAGE(yes.status == 200, yes.body);
    BOOST_TEST(yes.json()["user"]["id"].GetInt64() == count("SELECT " + uid_of(owner)));
    BOOST_TEST(http("GET", "/api/cabinet/me", {"Authorization: " + bearer(access_of(yes))}).status == 200);
    BOOST_TEST(detail(approve_web_login(mine.code, mine.cookie, true)) == "code already used");
    BOOST_TEST(detail(poll_web_login(mine)) == "code already used");
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

    const std::string email = fresh_link_email("linked");
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

BOOST_AUTO_TEST_CASE(link_telegram_merges_the_web_account) {
    const int64_t tg = fresh_telegram_id();
    BOOST_REQUIRE_EQUAL(http("GET", "/api/cabinet/me", {tma_header(tg)}).status, 200);
    set_balance(tg, 300);
    const std::string email = fresh_link_email("merge");
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

// Our page asks for a link its browser approves: whoever confirms the code in the bot (the
// code is in the link and its QR code on the screen) is only named to the page, and the web
// account merges into nobody until the page approves that Telegram account.
BOOST_AUTO_TEST_CASE(a_link_approved_in_the_browser_merges_only_into_the_approved_account) {
    const int64_t stranger = fresh_telegram_id(), owner = fresh_telegram_id();
    for (const int64_t tg : {stranger, owner}) BOOST_REQUIRE_EQUAL(http("GET", "/api/cabinet/me", {tma_header(tg)}).status, 200);
    const std::string email = fresh_link_email("approve");
    const int64_t web = make_web_user(email, 700);
    const std::string w = std::to_string(web);
    const std::string access = access_of(login(email));
    const auto start = [&] {
        const auto r = post_json("/api/cabinet/link/telegram", R"({"approve_in_browser":true})", bearer(access));
        BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
        return str(r.json()["code"]);
    };
    const auto status = [&](const std::string& code, const std::string& auth) {
        return post_json("/api/cabinet/link/telegram/status", code_body(code), auth);
    };
    const auto answer = [&](const std::string& code, bool approve) {
        return post_json("/api/cabinet/link/telegram/approve",
                         R"({"code":")" + code + R"(","approve":)" + (approve ? "true" : "false") + "}", bearer(access));
    };

    // A stranger who read the QR code confirms first: nothing merges, the page names them.
    const std::string code = start();
    BOOST_TEST(str(status(code, bearer(access)).json()["state"]) == "waiting");
    BOOST_TEST(said(confirm_link_in_bot(stranger, "link_" + code), "approve this Telegram account there"));
    BOOST_TEST(count("SELECT count(*) FROM users WHERE id = " + w) == 1);
    const auto named = status(code, bearer(access));
    BOOST_REQUIRE_MESSAGE(named.status == 200, named.body);
    BOOST_TEST(str(named.json()["state"]) == "confirmed");
    BOOST_TEST(named.json()["telegram"]["id"].GetInt64() == stranger);
    // A second Confirm (the owner, too late) changes nothing, and the bot tells them to answer
    // No in the browser; another account cannot ask.
    BOOST_TEST(said(confirm_link_in_bot(owner, "link_" + code), "Another Telegram account has already confirmed"));
    BOOST_TEST(status(code, tma_header(owner).substr(15)).status == 401);
    BOOST_TEST(named.json()["telegram"]["id"].GetInt64() == status(code, bearer(access)).json()["telegram"]["id"].GetInt64());
    // "Not me": the code ends; nothing moved.
    const auto declined = answer(code, false);
    BOOST_REQUIRE_MESSAGE(declined.status == 200, declined.body);
    BOOST_TEST(!declined.json()["linked"].GetBool());
    BOOST_TEST(answer(code, true).status == 400);
    BOOST_TEST(status(code, bearer(access)).status == 400);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE id = " + w + " AND telegram_id IS NULL AND balance_minor = 700") == 1);
    BOOST_TEST(count("SELECT balance_minor FROM users WHERE id = " + uid_of(stranger)) == 0);

    // The owner's own code, confirmed by them and approved: merged into the owner.
    const std::string mine = start();
    BOOST_TEST(answer(mine, true).status == 400);  // not confirmed in the bot yet
    BOOST_TEST(said(confirm_link_in_bot(owner, "link_" + mine), "approve this Telegram account there"));
    const auto yes = answer(mine, true);
    BOOST_REQUIRE_MESSAGE(yes.status == 200, yes.body);
    BOOST_TEST(yes.json()["linked"].GetBool());
    BOOST_TEST(count("SELECT count(*) FROM users WHERE id = " + w) == 0);
    BOOST_TEST(count("SELECT balance_minor FROM users WHERE id = " + uid_of(owner)) == 700);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE id = " + uid_of(owner) + " AND email = '" + email + "'") == 1);
    BOOST_TEST(http("GET", "/api/cabinet/me", {"Authorization: " + bearer(access)}).status == 401);  // merged away
}

// Whoever starts a web login is not necessarily who taps its link (issue 13): the bot names
// the browser that started it, and Cancel ends it with nobody signed in.
BOOST_AUTO_TEST_CASE(web_login_prompt_names_the_browser_and_cancel_signs_nobody_in) {
    // The header is the starter's: the prompt names its browser in the bot's own words, and
    // repeats none of the header's (issue 49), the warning first.
    const WebLogin browser = start_web_login(
        {"User-Agent: Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0.0.0 Safari/537.36 Support-Team-Says-Confirm"});
    const std::string code = browser.code;
    const int64_t tg = fresh_telegram_id();
    const auto prompt = bot_start(tg, "weblogin_" + code);
    BOOST_TEST(said(prompt, "Sign in to the web cabinet from Chrome 120 on Windows, IP 127.0.0.1, started "), prompt.size());
    BOOST_TEST(said(prompt, "⚠️ Only if you started this yourself"));
    BOOST_TEST(!said(prompt, "Support-Team"));
    BOOST_TEST(poll_web_login(browser).json()["pending"].GetBool());

    BOOST_TEST(said(bot_press(tg, "wl-" + code), "Sign-in cancelled"));
    const auto poll = poll_web_login(browser);
    BOOST_TEST(poll.status == 400);
    BOOST_TEST(detail(poll) == "sign-in was cancelled in Telegram");
    // A late Confirm (another tap on the old prompt) does nothing.
    BOOST_TEST(said(bot_press(tg, "wl+" + code), "expired"));
    BOOST_TEST(poll_web_login(browser).status == 400);
    BOOST_TEST(count("SELECT count(*) FROM refresh_tokens WHERE user_id = " + uid_of(tg)) == 0);
}

// A staff account's Confirm is what a phishing page wants most: with STAFF_CODE_SIGNIN off
// (the default; the local stack turns it on for its demo owner) the bot refuses sign-in and
// link codes for every staff role, at the prompt and at a Confirm pressed on an older
// prompt, and cancels the code, so the browser that started it gets nothing.
BOOST_AUTO_TEST_CASE(staff_accounts_cannot_confirm_codes_unless_allowed) {
    const int64_t staff = 100000002;  // SUPPORT_IDS of the stack
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {tma_header(staff)}).status == 200);
    const WebLogin earlier = start_web_login();
    BOOST_TEST(said(bot_start(staff, "weblogin_" + earlier.code), "Sign in to the web cabinet from"));  // allowed here
    const int64_t sessions = count("SELECT count(*) FROM refresh_tokens WHERE user_id = " + uid_of(staff));
    PoolWith pool("STAFF_CODE_SIGNIN=false");
    const WebLogin browser = start_web_login();
    const auto prompt = bot_start(staff, "weblogin_" + browser.code);
    BOOST_TEST(said(prompt, "does not sign in to a browser or link accounts with a code"), prompt.size());
    BOOST_TEST(!said(prompt, "Sign in to the web cabinet from"));
    BOOST_TEST(detail(poll_web_login(browser)) == "sign-in was cancelled in Telegram");
    // The prompt shown before the setting changed: its Confirm is refused too.
    BOOST_TEST(said(bot_press(staff, "wl+" + earlier.code), "does not sign in to a browser"));
    BOOST_TEST(poll_web_login(earlier).status == 400);
    BOOST_TEST(count("SELECT count(*) FROM refresh_tokens WHERE user_id = " + uid_of(staff)) == sessions);
    // A customer is not affected.
    const int64_t customer = fresh_telegram_id();
    const WebLogin theirs = start_web_login();
    BOOST_TEST(said(bot_start(customer, "weblogin_" + theirs.code), "Sign in to the web cabinet from"));
}

// A link tapped by someone merges nothing until they confirm a prompt that names the
// e-mail; Cancel kills the code; a confirmed merge ends the web account's sessions.
BOOST_AUTO_TEST_CASE(link_asks_naming_the_email_and_ends_the_web_sessions) {
    const int64_t tg = fresh_telegram_id();
    BOOST_REQUIRE_EQUAL(http("GET", "/api/cabinet/me", {tma_header(tg)}).status, 200);
    const std::string email = fresh_link_email("prompt");
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

    // A provider sign-in of the web account moves too, and whoever holds it signs in here
    // afterwards: the prompt names it.
    exec("INSERT INTO user_oauth_links (user_id, provider, subject, email, display_name) VALUES (" + std::to_string(web) +
         ", 'google', 'prompt-" + std::to_string(web) + "', NULL, 'Ann')");
    const std::string second = link_url();
    BOOST_TEST(said(bot_start(tg, second), "so will its Google sign-in"));
    BOOST_TEST(said(confirm_link_in_bot(tg, second), "Accounts linked"));
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
