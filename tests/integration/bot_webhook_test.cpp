// The bot webhook through nginx with the fake Bot API: /start registers like a first
// mini-app contact and answers with the open-the-app button; the maintenance stub for
// everyone but ADMIN_IDS; the admin menu's audited switch. Stars payments: stars_test.cpp.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <thread>

#include "http/body.hpp"
#include "support.hpp"

using namespace it;

namespace {

constexpr int64_t kAdmin = 100000001;  // ADMIN_IDS of the test stack (tools/stack)

// A Telegram user object; the admin is the seeded demo user, with the names other suites expect.
std::string from_json(int64_t tg) {
    const std::string id = std::to_string(tg);
    if (tg == kAdmin) return R"({"id":)" + id + R"(,"is_bot":false,"first_name":"Demo","username":"demo","language_code":"en"})";
    return R"({"id":)" + id + R"(,"is_bot":false,"first_name":"Bot","last_name":"User","username":"bot_user_)" + id +
           R"(","language_code":"en"})";
}

std::string private_message(int64_t tg, const std::string& text, const std::string& chat_type = "private") {
    const std::string chat = chat_type == "private" ? std::to_string(tg) : "-100200300";
    return R"({"update_id":10,"message":{"message_id":7,"date":1700000000,"from":)" + from_json(tg) +
           R"(,"chat":{"id":)" + chat + R"(,"type":")" + chat_type + R"("},"text":")" + text + "\"}}";
}

std::string button_press(int64_t tg, const std::string& data, int64_t message_id) {
    const std::string id = std::to_string(tg);
    return R"({"update_id":11,"callback_query":{"id":"cb)" + id + std::to_string(message_id) + R"(","from":)" +
           from_json(tg) + R"(,"chat_instance":"1","data":")" + data + R"(","message":{"message_id":)" +
           std::to_string(message_id) + R"(,"date":1700000000,"chat":{"id":)" + id + R"(,"type":"private"}}}})";
}

// The Bot API calls of `method` after `since` that went to `chat_id`, as their JSON bodies.
std::vector<std::string> texts_to(const std::string& method, int64_t since, int64_t chat_id) {
    std::vector<std::string> out;
    const auto calls = bot_api_calls(method, since);
    for (const auto& c : calls.GetArray())
        if (c["json"].IsObject() && str(c["json"]["chat_id"]) == std::to_string(chat_id)) out.push_back(str(c["json"]["text"]));
    return out;
}

// The one call of `method` after `since` whose `key` field is `value`; fails the test otherwise.
rapidjson::Document only_call(const std::string& method, int64_t since, const char* key, const std::string& value) {
    const auto calls = bot_api_calls(method, since);
    rapidjson::Document found;
    int n = 0;
    for (const auto& c : calls.GetArray()) {
        if (!c["json"].IsObject() || str(c["json"][key]) != value) continue;
        found.CopyFrom(c["json"], found.GetAllocator());
        ++n;
    }
    BOOST_REQUIRE_MESSAGE(n == 1, method + " calls with " + key + "=" + value + ": " + std::to_string(n));
    return found;
}

std::string web_app_url(const rapidjson::Value& call) {
    if (!call.HasMember("reply_markup")) return {};
    return str(call["reply_markup"]["inline_keyboard"][0][0]["web_app"]["url"]);
}

bool maintenance_on() { return count("SELECT count(*) FROM maintenance_state WHERE id = 1 AND enabled") == 1; }

// Pool threads keep the maintenance state up to MAINTENANCE_CACHE_TTL_MS (2 s in the stack).
void wait_for_caches() { wait_for_maintenance_cache(); }

// Every test leaves maintenance off, also when it fails half-way: the suites after this one
// in the same binary need a bot without the stub.
struct MaintenanceOffAtEnd {
    ~MaintenanceOffAtEnd() {
        run(ctl("maintenance off >/dev/null 2>&1"));
        wait_for_caches();
    }
};

void maintenance_switch_on(const std::string& message) {
    const auto [rc, out] = run(ctl("maintenance on --message '" + message + "' 2>&1"));
    BOOST_REQUIRE_MESSAGE(rc == 0, out);
    wait_for_caches();
}

// 306 characters, mostly Cyrillic (558 bytes): longer than an alert may be.
std::string long_stub() {
    std::string s;
    for (int i = 0; i < 18; ++i) s += "Идёт обновление. ";
    return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(bot_webhook)

BOOST_AUTO_TEST_CASE(start_registers_once_with_the_referrer_and_opens_the_app) {
    const int64_t referrer = fresh_telegram_id();
    const auto me = http("GET", "/api/cabinet/me", {tma_header(referrer, "Referrer")});
    BOOST_REQUIRE_MESSAGE(me.status == 200, me.body);
    const std::string code = me.json()["user"]["referral_code"].GetString();

    const int64_t tg = fresh_telegram_id();
    const int64_t mark = journal_mark();
    const auto r = bot_update(private_message(tg, "/start ref_" + code));
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    BOOST_TEST(r.json()["ok"].GetBool());
    BOOST_TEST(count("SELECT count(*) FROM users WHERE telegram_id = " + std::to_string(tg) +
                     " AND referred_by = " + uid_of(referrer) + " AND username = 'bot_user_" + std::to_string(tg) +
                     "' AND language = 'en'") == 1);
    BOOST_TEST(count("SELECT count(*) FROM events WHERE kind = 'registration' AND user_id = " + uid_of(tg)) == 1);
    const auto sent = only_call("sendMessage", mark, "chat_id", std::to_string(tg));
    BOOST_TEST(str(sent["text"]).rfind("Welcome, Bot!", 0) == 0u, str(sent["text"]));
    BOOST_TEST(web_app_url(sent) == env("MINIAPP_URL"));

    // Again, with another referrer, and as "/start@bot": nobody registers twice or is re-attributed.
    const int64_t mark2 = journal_mark();
    BOOST_TEST(bot_update(private_message(tg, "/start@" + env("BOT_USERNAME") + " ref_DEMO2026")).status == 200);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE telegram_id = " + std::to_string(tg) + " AND referred_by = " +
                     uid_of(referrer)) == 1);
    BOOST_TEST(count("SELECT count(*) FROM events WHERE kind = 'registration' AND user_id = " + uid_of(tg)) == 1);
    BOOST_TEST(web_app_url(only_call("sendMessage", mark2, "chat_id", std::to_string(tg))) == env("MINIAPP_URL"));
}

BOOST_AUTO_TEST_CASE(other_messages_get_a_hint_groups_and_other_updates_are_ignored) {
    const int64_t tg = fresh_telegram_id();
    const int64_t mark = journal_mark();
    BOOST_TEST(bot_update(private_message(tg, "hello")).status == 200);
    const auto hint = only_call("sendMessage", mark, "chat_id", std::to_string(tg));
    BOOST_TEST(web_app_url(hint) == env("MINIAPP_URL"));
    BOOST_TEST(count("SELECT count(*) FROM users WHERE telegram_id = " + std::to_string(tg)) == 0);  // only /start registers

    // A non-admin's /admin is just an unknown command.
    const int64_t mark2 = journal_mark();
    BOOST_TEST(bot_update(private_message(tg, "/admin")).status == 200);
    BOOST_TEST(str(only_call("sendMessage", mark2, "chat_id", std::to_string(tg))["text"]) == str(hint["text"]));

    const int64_t mark3 = journal_mark();
    BOOST_TEST(bot_update(private_message(tg, "/start", "group")).status == 200);
    BOOST_TEST(bot_update(R"({"update_id":12,"edited_message":{"message_id":7,"date":1,"chat":{"id":)" + std::to_string(tg) +
                          R"(,"type":"private"},"text":"x"}})").status == 200);
    BOOST_TEST(bot_update(R"({"update_id":13,"my_chat_member":{"chat":{"id":1}}})").status == 200);
    BOOST_TEST(bot_api_calls("sendMessage", mark3).Size() == 0u);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE telegram_id = " + std::to_string(tg)) == 0);

    BOOST_TEST(bot_update(private_message(tg, "/start"), "wrong-secret").status == 403);
}

BOOST_AUTO_TEST_CASE(a_blocked_user_is_told_so_and_nothing_else) {
    const int64_t tg = fresh_telegram_id();
    BOOST_REQUIRE(bot_update(private_message(tg, "/start")).status == 200);
    exec("UPDATE users SET is_blocked = true WHERE telegram_id = " + std::to_string(tg));
    const int64_t mark = journal_mark();
    BOOST_TEST(bot_update(private_message(tg, "/start")).status == 200);
    BOOST_TEST(bot_update(private_message(tg, "hello")).status == 200);
    const auto calls = bot_api_calls("sendMessage", mark);
    int n = 0;
    for (const auto& c : calls.GetArray()) {
        if (str(c["json"]["chat_id"]) != std::to_string(tg)) continue;
        ++n;
        BOOST_TEST(str(c["json"]["text"]) == "Your account is blocked.");
        BOOST_TEST(!c["json"].HasMember("reply_markup"));
    }
    BOOST_TEST(n == 2);
}

BOOST_AUTO_TEST_CASE(maintenance_stub_for_users_full_bot_for_admins) {
    MaintenanceOffAtEnd off;
    const std::string stub = long_stub();
    maintenance_switch_on(stub);
    const int64_t tg = fresh_telegram_id();
    const int64_t mark = journal_mark();

    // A user's messages get exactly the stub; /start still registers them.
    BOOST_TEST(bot_update(private_message(tg, "hello")).status == 200);
    BOOST_TEST(bot_update(private_message(tg, "/start ref_DEMO2026")).status == 200);
    const auto texts = texts_to("sendMessage", mark, tg);
    BOOST_TEST_REQUIRE(texts.size() == 2u);
    BOOST_TEST(texts[0] == stub);
    BOOST_TEST(texts[1] == stub);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE telegram_id = " + std::to_string(tg)) == 1);
    BOOST_TEST(count("SELECT count(*) FROM events WHERE kind = 'registration' AND user_id = " + uid_of(tg)) == 1);

    // A user's button press, an admin one included: an alert of 200 characters, nothing switched.
    const int64_t audit_before = count("SELECT coalesce(max(id), 0) FROM audit_log");
    BOOST_TEST(bot_update(button_press(tg, "admin:maint:off", 901)).status == 200);
    const auto alert = only_call("answerCallbackQuery", mark, "callback_query_id", "cb" + std::to_string(tg) + "901");
    BOOST_TEST(alert["show_alert"].GetBool());
    const std::string alert_text = str(alert["text"]);
    BOOST_TEST(cabinet::utf8_length(alert_text) == 200u);
    BOOST_TEST(alert_text.size() == 366u);  // Cyrillic letters are two bytes: cut by characters, not bytes
    BOOST_TEST(stub.rfind(alert_text, 0) == 0u);
    BOOST_TEST(maintenance_on());
    BOOST_TEST(count("SELECT coalesce(max(id), 0) FROM audit_log") == audit_before);

    // The admin works with the bot as usual.
    const int64_t mark2 = journal_mark();
    BOOST_TEST(bot_update(private_message(kAdmin, "/start")).status == 200);
    BOOST_TEST(web_app_url(only_call("sendMessage", mark2, "chat_id", std::to_string(kAdmin))) == env("MINIAPP_URL"));

    const int64_t mark3 = journal_mark();
    BOOST_TEST(bot_update(private_message(kAdmin, "/admin")).status == 200);
    const auto menu = only_call("sendMessage", mark3, "chat_id", std::to_string(kAdmin));
    BOOST_TEST(str(menu["text"]).find("Maintenance mode: ON (manual)") != std::string::npos, str(menu["text"]));
    BOOST_TEST(str(menu["reply_markup"]["inline_keyboard"][0][0]["callback_data"]) == "admin:maint:off");
    BOOST_TEST(str(menu["reply_markup"]["inline_keyboard"][1][0]["callback_data"]) == "admin:maint:status");
    // The owner's cabinet opens beside the mini-app, as a web app (so with the admin's init data).
    std::string admin_url = env("MINIAPP_URL");
    admin_url.replace(admin_url.rfind("/app/"), 5, "/admin/");
    BOOST_TEST(str(menu["reply_markup"]["inline_keyboard"][2][0]["web_app"]["url"]) == admin_url);

    // The switch: off in the database, audited as the admin, the menu redrawn in place.
    const int64_t mark4 = journal_mark();
    BOOST_TEST(bot_update(button_press(kAdmin, "admin:maint:off", 777)).status == 200);
    BOOST_TEST(!maintenance_on());
    BOOST_TEST(count("SELECT count(*) FROM audit_log WHERE id > " + std::to_string(audit_before) +
                     " AND actor = 'telegram:" + std::to_string(kAdmin) + "' AND action = 'maintenance.off'") == 1);
    const auto answer = only_call("answerCallbackQuery", mark4, "callback_query_id", "cb" + std::to_string(kAdmin) + "777");
    BOOST_TEST(str(answer["text"]) == "Maintenance is OFF");
    BOOST_TEST(!answer["show_alert"].GetBool());
    const auto edit = only_call("editMessageText", mark4, "chat_id", std::to_string(kAdmin));
    BOOST_TEST(edit["message_id"].GetInt64() == 777);
    BOOST_TEST(str(edit["text"]).find("Maintenance mode: OFF") != std::string::npos, str(edit["text"]));
    BOOST_TEST(str(edit["reply_markup"]["inline_keyboard"][0][0]["callback_data"]) == "admin:maint:on");

    // A second press of the same button changes nothing and writes no second entry.
    BOOST_TEST(bot_update(button_press(kAdmin, "admin:maint:off", 778)).status == 200);
    BOOST_TEST(!maintenance_on());
    BOOST_TEST(count("SELECT count(*) FROM audit_log WHERE id > " + std::to_string(audit_before)) == 1);
}

BOOST_AUTO_TEST_CASE(admin_buttons_are_for_admins_only) {
    MaintenanceOffAtEnd off;  // the admin switches it on below
    const int64_t tg = fresh_telegram_id();
    const int64_t audit_before = count("SELECT coalesce(max(id), 0) FROM audit_log");
    const int64_t mark = journal_mark();
    BOOST_TEST(bot_update(button_press(tg, "admin:maint:on", 902)).status == 200);
    const auto refused = only_call("answerCallbackQuery", mark, "callback_query_id", "cb" + std::to_string(tg) + "902");
    BOOST_TEST(refused["show_alert"].GetBool());
    BOOST_TEST(str(refused["text"]).find("Not allowed") == 0u);
    BOOST_TEST(!maintenance_on());
    BOOST_TEST(count("SELECT coalesce(max(id), 0) FROM audit_log") == audit_before);

    // The admin's press switches it on (manual), from an old menu too.
    BOOST_TEST(bot_update(button_press(kAdmin, "admin:maint:on", 903)).status == 200);
    BOOST_TEST(count("SELECT count(*) FROM maintenance_state WHERE enabled AND source = 'manual' AND changed_by = 'telegram:" +
                     std::to_string(kAdmin) + "'") == 1);
    BOOST_TEST(str(only_call("answerCallbackQuery", mark, "callback_query_id", "cb" + std::to_string(kAdmin) + "903")["text"]) ==
               "Maintenance is ON");
}

BOOST_AUTO_TEST_SUITE_END()
