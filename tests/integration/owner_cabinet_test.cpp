// The owner's cabinet's API (issue 47; api/admin_overview.cpp, admin_promo.cpp,
// admin_catalog.cpp, admin_app_config.cpp, admin_settings.cpp): the Overview's figures move
// exactly as the database does when known data is added; a promo code made by the owner is
// redeemable by a customer and counted; gift codes come as CSV, each usable once; the
// mini-app's ui is stored cleaned and is what /me returns; a secret setting never comes
// back, not even in the audit log; each change's audit row has the actor, before and after;
// a viewer changes nothing.
#include <sstream>

#include "catalog_support.hpp"
#include "staff_calls.hpp"
#include "util/strings.hpp"

using namespace it;

namespace {

HttpResult viewer(const std::string& method, const std::string& path, const std::string& body = {}) {
    return http(method, path, {tma_header(100000003, "Viewer"), kJsonContentType}, body);
}

rapidjson::Document overview() {
    const auto r = owner("GET", "/api/admin/overview");
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    return r.json();
}

int64_t at(const rapidjson::Document& d, const char* a, const char* b = nullptr) {
    return b ? d[a][b].GetInt64() : d[a].GetInt64();
}

HttpResult redeem(int64_t tg, const std::string& code) {
    return http("POST", "/api/cabinet/promocode", {tma_header(tg), kJsonContentType}, R"({"code":")" + code + R"("})");
}

// The newest audit row's payload for an action, as JSON.
rapidjson::Document last_audit(const std::string& action) {
    pqxx::connection c(env("DATABASE_URL"));
    pqxx::nontransaction t(c);
    const auto r = t.exec_params("SELECT actor, payload::text FROM audit_log WHERE action = $1 ORDER BY id DESC LIMIT 1", action);
    rapidjson::Document d;
    BOOST_REQUIRE_MESSAGE(!r.empty(), "no audit row " << action);
    d.Parse(r[0][1].c_str());
    d.AddMember("actor", rapidjson::Value(r[0][0].c_str(), d.GetAllocator()), d.GetAllocator());
    return d;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(owner_cabinet)

// Known data added, and each figure moves by exactly that much.
BOOST_AUTO_TEST_CASE(the_overview_moves_exactly_with_the_data) {
    const auto before = overview();
    const int64_t tg = new_user();  // a new customer
    const std::string uid = str(user_id_of(tg));
    const auto trial = http("POST", "/api/cabinet/trial", {tma_header(tg)});
    BOOST_REQUIRE_MESSAGE(trial.status == 200, trial.body);
    const auto mid = overview();
    BOOST_TEST(at(mid, "subscriptions", "trial") == at(before, "subscriptions", "trial") + 1);
    BOOST_TEST(at(mid, "trial_conversion", "trials") == at(before, "trial_conversion", "trials") + 1);

    // The trial customer pays from the balance: active, and converted.
    set_balance(tg, 1'000'000);
    const auto bought = buy_standard(tma_header(tg), "balance");
    BOOST_REQUIRE_MESSAGE(bought.status == 200, bought.body);
    // Money from outside: a Stars payment today, one yesterday (the shop's day), one 40 days ago.
    const std::string tz = "(SELECT coalesce((SELECT value FROM owner_settings WHERE name = 'SHOP_TIMEZONE'), 'Europe/Moscow'))";
    const std::string midnight = "(date_trunc('day', now() AT TIME ZONE " + tz + ") AT TIME ZONE " + tz + ")";
    for (const auto& [amount, when] : std::vector<std::pair<int64_t, std::string>>{
             {12345, "now()"}, {777, midnight + " - interval '6 hours'"}, {5000, "now() - interval '40 days'"}})
        exec("INSERT INTO transactions (user_id, type, status, amount_minor, currency, method, provider, created_at,"
             " completed_at) VALUES (" + uid + ", 'deposit', 'completed', " + str(amount) + ", 'RUB', 'stars', 'stars', " +
             when + ", " + when + ")");
    // A failed one brings nothing.
    exec("INSERT INTO transactions (user_id, type, status, amount_minor, currency, method, provider) VALUES (" + uid +
         ", 'deposit', 'failed', 999, 'RUB', 'stars', 'stars')");

    const auto after = overview();
    BOOST_TEST(at(after, "new_customers_24h") == at(before, "new_customers_24h") + 1);
    BOOST_TEST(at(after, "subscriptions", "active") == at(before, "subscriptions", "active") + 1);
    BOOST_TEST(at(after, "subscriptions", "trial") == at(before, "subscriptions", "trial"));
    BOOST_TEST(at(after, "trial_conversion", "converted") == at(before, "trial_conversion", "converted") + 1);
    BOOST_TEST(at(after, "revenue", "today_minor") == at(before, "revenue", "today_minor") + 12345);
    BOOST_TEST(at(after, "revenue", "yesterday_minor") == at(before, "revenue", "yesterday_minor") + 777);
    const auto& days = after["revenue_30d"];
    BOOST_REQUIRE(days.Size() == 30u);
    BOOST_TEST(days[29]["amount_minor"].GetInt64() == at(after, "revenue", "today_minor"));
    BOOST_TEST(days[28]["amount_minor"].GetInt64() == at(after, "revenue", "yesterday_minor"));
    int64_t month = 0, month_before = 0;
    for (const auto& d : days.GetArray()) month += d["amount_minor"].GetInt64();
    for (const auto& d : before["revenue_30d"].GetArray()) month_before += d["amount_minor"].GetInt64();
    BOOST_TEST(month == month_before + 12345 + 777);  // the payment of 40 days ago is outside
    const double pct = after["trial_conversion"]["pct"].GetDouble();
    const double expected = 100.0 * static_cast<double>(at(after, "trial_conversion", "converted")) /
                            static_cast<double>(at(after, "trial_conversion", "trials"));
    BOOST_TEST(std::abs(pct - expected) <= 0.05);
    BOOST_TEST(after["worker"]["ok"].GetBool());
    BOOST_TEST(viewer("GET", "/api/admin/overview").status == 200);
    BOOST_TEST(http("GET", "/api/admin/overview", {tma_header(100000002, "Support")}).status == 403);
}

BOOST_AUTO_TEST_CASE(a_promo_code_made_by_the_owner_is_redeemable_and_counted) {
    const std::string code = "OwnerIt" + str(fresh_telegram_id());
    Cleanup cleanup;
    cleanup.add("DELETE FROM promo_codes WHERE lower(code) = lower('" + code + "')");
    const int64_t audits = audit_rows();

    // Refused: a bad value names its field; nothing is written.
    for (const auto& [body, field] : std::vector<std::pair<std::string, std::string>>{
             {R"({"code":")" + code + R"(","reward_type":"discount","value":150})", "value"},
             {R"({"code":")" + code + R"(","reward_type":"gift","value":1})", "reward_type"},
             {R"({"code":")" + code + R"(","reward_type":"subscription","value":30})", "plan_code"},
             {R"({"code":")" + code + R"(","reward_type":"subscription","value":30,"plan_code":"nope"})", "plan_code"},
             {R"({"code":"a b","reward_type":"balance","value":1})", "code"},
             {R"({"code":")" + code + R"(","reward_type":"balance","value":1,"valid_from":"2030-01-02T00:00:00Z","valid_until":"2030-01-01T00:00:00Z"})",
              "valid_until"}}) {
        const auto r = owner("POST", "/api/admin/promo-codes", body);
        BOOST_TEST(r.status == 422, body << " -> " << r.status << " " << r.body);
        BOOST_TEST(detail(r).rfind(field, 0) == 0, detail(r));
    }
    BOOST_TEST(viewer("POST", "/api/admin/promo-codes", R"({"code":")" + code + R"(","reward_type":"balance","value":500})").status == 403);
    BOOST_TEST(count("SELECT count(*) FROM promo_codes WHERE lower(code) = lower('" + code + "')") == 0);
    BOOST_TEST(audit_rows() == audits);

    const auto made = owner("POST", "/api/admin/promo-codes",
                            R"({"code":")" + code + R"(","reward_type":"balance","value":4321,"max_uses":2})");
    BOOST_REQUIRE_MESSAGE(made.status == 201, made.body);
    const int64_t id = made.json()["id"].GetInt64();
    BOOST_TEST(owner("POST", "/api/admin/promo-codes", R"({"code":")" + cabinet::to_lower(code) + R"(","reward_type":"days","value":3})").status == 409);
    const auto audit = last_audit("promo.create");
    BOOST_TEST(std::string(audit["actor"].GetString()) == "telegram:" + str(kAdminTelegramId));
    BOOST_TEST(std::string(audit["after"]["code"].GetString()) == code);

    // A customer redeems it: the balance moves by its value, the list counts the use.
    const int64_t tg = new_user();
    const int64_t balance = balance_of(tg);
    const auto used = redeem(tg, code);
    BOOST_REQUIRE_MESSAGE(used.status == 200 && used.json()["ok"].GetBool(), used.body);
    BOOST_TEST(balance_of(tg) == balance + 4321);
    const auto listed = owner("GET", "/api/admin/promo-codes?q=" + code);
    BOOST_REQUIRE(listed.status == 200);
    BOOST_REQUIRE(listed.json()["items"].Size() == 1u);
    BOOST_TEST(listed.json()["items"][0]["uses"].GetInt64() == 1);

    // Disabled: no longer redeemable; the audit row says before and after.
    const auto off = owner("POST", "/api/admin/promo-codes/" + str(id) + "/disable");
    BOOST_REQUIRE(off.status == 200);
    BOOST_TEST(!off.json()["is_active"].GetBool());
    BOOST_TEST(!redeem(new_user(), code).json()["ok"].GetBool());
    const auto disabled = last_audit("promo.disable");
    BOOST_TEST(std::string(disabled["before"].GetString()) == "active");
    BOOST_TEST(std::string(disabled["after"].GetString()) == "disabled");
    BOOST_TEST(owner("GET", "/api/admin/promo-codes?status=disabled&q=" + code).json()["items"].Size() == 1u);
    BOOST_TEST(owner("POST", "/api/admin/promo-codes/99999999/disable").status == 404);
}

BOOST_AUTO_TEST_CASE(gift_codes_come_as_csv_and_each_works_once) {
    const std::string prefix = "GIFT" + str(fresh_telegram_id() % 100000);
    Cleanup cleanup;
    cleanup.add("DELETE FROM promo_codes WHERE code LIKE '" + prefix + "%'");
    BOOST_TEST(owner("POST", "/api/admin/promo-codes/batch", R"({"count":0,"reward_type":"days","value":7})").status == 422);
    BOOST_TEST(owner("POST", "/api/admin/promo-codes/batch", R"({"count":3,"reward_type":"days","value":7,"prefix":"-x"})").status == 422);
    const auto r = owner("POST", "/api/admin/promo-codes/batch", R"({"count":25,"reward_type":"balance","value":100,"prefix":")" + prefix + R"("})");
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    BOOST_TEST(r.headers.at("content-type").rfind("text/csv", 0) == 0);
    BOOST_TEST(r.headers.at("content-disposition").find("attachment") != std::string::npos);
    std::istringstream lines(r.body);
    std::string line;
    std::getline(lines, line);
    BOOST_TEST(line == "code,reward_type,value,plan_code,valid_until\r");
    std::vector<std::string> codes;
    while (std::getline(lines, line))
        if (!line.empty()) codes.push_back(line.substr(0, line.find(',')));
    BOOST_REQUIRE(codes.size() == 25u);
    BOOST_TEST(count("SELECT count(*) FROM promo_codes WHERE code LIKE '" + prefix + "%' AND max_uses = 1") == 25);
    const int64_t a = new_user(), b = new_user();
    BOOST_TEST(redeem(a, codes[0]).json()["ok"].GetBool());
    BOOST_TEST(!redeem(b, codes[0]).json()["ok"].GetBool());  // one use only
    BOOST_TEST(redeem(b, codes[1]).json()["ok"].GetBool());
}

BOOST_AUTO_TEST_CASE(the_ui_is_stored_cleaned_and_is_what_me_returns) {
    pqxx::connection c(env("DATABASE_URL"));
    const std::string saved = pqxx::nontransaction(c).exec1("SELECT ui::text FROM app_config")[0].c_str();
    Cleanup cleanup;
    cleanup.add("UPDATE app_config SET ui = '" + pqxx::nontransaction(c).esc(saved) + "'::jsonb");
    const std::string ui = R"({"scale": 200, "sections": ["plans", "status"], "hidden": ["referral"],)"
                           R"( "buttons": {"renew": {"text": "<b>Renew</b>", "color": "#123456"}},)"
                           R"J( "blocks": [{"title": "Hi", "url": "javascript:alert(1)"}], "junk": 1})J";
    std::string quoted;
    for (char ch : ui) quoted += ch == '"' ? std::string("\\\"") : std::string(1, ch);
    const auto r = owner("PUT", "/api/admin/app-config/ui", R"({"value":")" + quoted + R"("})");
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    BOOST_TEST(owner("PUT", "/api/admin/app-config/ui", R"({"value":"[1]"})").status == 422);
    BOOST_TEST(viewer("PUT", "/api/admin/app-config/ui", R"({"value":"{}"})").status == 403);
    // The landing is kept apart and untouched.
    BOOST_TEST(count("SELECT count(*) FROM app_config WHERE ui ? 'landing' = (" + std::string("'") + pqxx::nontransaction(c).esc(saved) +
                     "'::jsonb ? 'landing')") == 1);
    BOOST_TEST(everywhere([&] {
        const auto me = get_as(fresh_telegram_id(), "/api/cabinet/me");
        const auto& u = me["app"]["ui"];
        return u.IsObject() && u.HasMember("scale") && u["scale"].GetInt() == 115 && !u.HasMember("junk") &&
               std::string(u["buttons"]["renew"]["text"].GetString()) == "<b>Renew</b>" && u["blocks"][0]["url"].IsNull();
    }));
    const auto audit = last_audit("catalog.config");
    BOOST_TEST(audit["after"]["scale"].GetInt() == 115);
}

BOOST_AUTO_TEST_CASE(a_secret_setting_is_written_and_never_shown) {
    Cleanup cleanup;
    cleanup.add("DELETE FROM owner_settings WHERE name = 'CRYPTOBOT_TOKEN'");
    const std::string secret = "12345:AAsecretTOKENvalue" + str(fresh_telegram_id());
    const auto set = owner("PUT", "/api/admin/settings/CRYPTOBOT_TOKEN", R"({"value":")" + secret + R"("})");
    BOOST_REQUIRE_MESSAGE(set.status == 200, set.body);
    BOOST_TEST(set.body.find(secret) == std::string::npos);
    const auto d = set.json();
    BOOST_TEST(d["secret"].GetBool());
    BOOST_TEST(d["is_set"].GetBool());
    BOOST_TEST(std::string(d["value"].GetString()).empty());
    const auto all = owner("GET", "/api/admin/settings");
    BOOST_TEST(all.body.find(secret) == std::string::npos);
    BOOST_TEST(count("SELECT count(*) FROM audit_log WHERE payload::text LIKE '%" + secret + "%'") == 0);
    BOOST_TEST(viewer("GET", "/api/admin/settings").body.find(secret) == std::string::npos);
    // Every item says its group, default and what is valid.
    const auto listed = all.json();  // a local: a range-for keeps only the last temporary alive
    for (const auto& item : listed["items"].GetArray()) {
        BOOST_TEST(!std::string(item["group"].GetString()).empty(), item["name"].GetString());
        BOOST_TEST(!std::string(item["valid"].GetString()).empty(), item["name"].GetString());
    }
}

BOOST_AUTO_TEST_CASE(a_price_removed_is_no_longer_sold_and_the_audit_has_before_and_after) {
    const std::string code = "itdel" + str(fresh_telegram_id());
    Cleanup cleanup;
    cleanup.add("DELETE FROM plans WHERE public_code = '" + code + "'");
    BOOST_REQUIRE(owner("PUT", "/api/admin/plans/" + code, R"({"name":"Removable","device_limit":2})").status == 201);
    BOOST_REQUIRE(owner("PUT", "/api/admin/plans/" + code + "/durations/30", R"({"months":1,"price_minor":19990})").status == 200);
    BOOST_REQUIRE(owner("PUT", "/api/admin/plans/" + code + "/durations/90", R"({"months":3,"price_minor":49990})").status == 200);
    const auto price = last_audit("catalog.plan");
    BOOST_TEST(price["before"]["durations"].Size() == 1u);
    BOOST_TEST(price["after"]["durations"].Size() == 2u);

    const auto removed = owner("DELETE", "/api/admin/plans/" + code + "/durations/30");
    BOOST_REQUIRE_MESSAGE(removed.status == 200, removed.body);
    BOOST_TEST(removed.json()["durations"].Size() == 1u);
    BOOST_TEST(owner("DELETE", "/api/admin/plans/" + code + "/durations/30").status == 404);
    BOOST_TEST(viewer("DELETE", "/api/admin/plans/" + code + "/durations/90").status == 403);
    BOOST_TEST(everywhere([&] {
        const auto plans = get_as(fresh_telegram_id(), "/api/cabinet/plans");
        if (!has_item(plans["items"], "public_code", code)) return false;
        const auto& durations = find_by(plans["items"], "public_code", code)["durations"];
        return durations.Size() == 1u && durations[0]["days"].GetInt64() == 90;
    }));
    const auto audit = last_audit("catalog.plan");
    BOOST_TEST(audit["before"]["durations"].Size() == 2u);
    BOOST_TEST(audit["after"]["durations"].Size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_promo_group_discount_reaches_its_members_prices) {
    const std::string group = "itgroup" + str(fresh_telegram_id());
    Cleanup cleanup;
    cleanup.add("DELETE FROM promo_groups WHERE name = '" + group + "'");
    BOOST_TEST(owner("PUT", "/api/admin/promo-groups/" + group, R"({"discount_pct":101})").status == 422);
    const auto made = owner("PUT", "/api/admin/promo-groups/" + group, R"({"discount_pct":20})");
    BOOST_REQUIRE_MESSAGE(made.status == 200, made.body);
    BOOST_TEST(made.json()["members"].GetInt64() == 0);
    const int64_t tg = new_user();
    const auto before = get_as(tg, "/api/cabinet/plans");
    const auto& offer = find_by(before["items"], "public_code", "standard")["durations"][0];
    const int64_t list = offer["base_price_minor"].GetInt64();
    BOOST_REQUIRE_MESSAGE(offer["price_minor"].GetInt64() == list, "a sale is running: the case needs list prices");
    exec("UPDATE users SET promo_group_id = (SELECT id FROM promo_groups WHERE name = '" + group + "') WHERE telegram_id = " + str(tg));
    const auto groups = owner("GET", "/api/admin/promo-groups");
    BOOST_TEST(find_by(groups.json()["items"], "name", group)["members"].GetInt64() == 1);
    BOOST_TEST(find_by(get_as(tg, "/api/cabinet/plans")["items"], "public_code", "standard")["durations"][0]["price_minor"].GetInt64() ==
               discounted(list, 20));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(owner_overview_rollups)

// The Overview reads rollups that triggers keep (sql 0047): after purchases, a refund, a
// payment's amount corrected, a deleted subscription and the worker's compaction, every
// figure still equals the base tables' own answer, computed here the slow way.
BOOST_AUTO_TEST_CASE(the_rollups_equal_the_base_tables) {
    const int64_t tg = new_user();
    const std::string uid = str(user_id_of(tg));
    BOOST_REQUIRE(http("POST", "/api/cabinet/trial", {tma_header(tg)}).status == 200);
    set_balance(tg, 1'000'000);
    BOOST_REQUIRE(buy_standard(tma_header(tg), "balance").status == 200);
    exec("INSERT INTO transactions (user_id, type, status, amount_minor, currency, method, provider, completed_at)"
         " VALUES (" + uid + ", 'deposit', 'completed', 4100, 'RUB', 'stars', 'stars', now()),"
         "        (" + uid + ", 'deposit', 'completed', 2900, 'RUB', 'yookassa', 'yookassa', now() - interval '3 days')");
    exec("UPDATE transactions SET status = 'refunded' WHERE user_id = " + uid + " AND amount_minor = 4100");
    exec("UPDATE transactions SET amount_minor = 3100 WHERE user_id = " + uid + " AND amount_minor = 2900");
    const int64_t other = new_user();
    BOOST_REQUIRE(http("POST", "/api/cabinet/trial", {tma_header(other)}).status == 200);
    exec("DELETE FROM subscriptions WHERE user_id = " + str(user_id_of(other)));

    const auto check = [&](const char* when) {
        const auto o = overview();
        const std::string tz = "coalesce((SELECT value FROM owner_settings WHERE name = 'SHOP_TIMEZONE'), 'Europe/Moscow')";
        const int64_t active = count("SELECT count(*) FROM subscriptions WHERE status IN ('active', 'limited') AND NOT is_trial"
                                     " AND expire_at > now()");
        const int64_t trial = count("SELECT count(*) FROM subscriptions WHERE status = 'trial' AND expire_at > now()");
        const std::string since = "(date_trunc('day', now() AT TIME ZONE " + tz + ") - interval '29 days') AT TIME ZONE " + tz;
        const int64_t month = count("SELECT coalesce(sum(amount_minor), 0) FROM transactions WHERE status = 'completed'"
                                    " AND provider IS NOT NULL AND completed_at >= " + since);
        const int64_t trials = count("SELECT count(*) FROM subscription_history WHERE source = 'trial' AND created_at >= " + since);
        const int64_t converted = count("SELECT count(*) FROM subscription_history h WHERE source = 'trial' AND created_at >= " +
                                        since + " AND EXISTS (SELECT 1 FROM subscription_history p WHERE p.user_id = h.user_id"
                                        " AND p.id > h.id AND p.source IN ('purchase', 'fulfil', 'autopay'))");
        int64_t shown = 0;
        for (const auto& d : o["revenue_30d"].GetArray()) shown += d["amount_minor"].GetInt64();
        BOOST_TEST(at(o, "subscriptions", "active") == active, when);
        BOOST_TEST(at(o, "subscriptions", "trial") == trial, when);
        BOOST_TEST(shown == month, when);
        BOOST_TEST(at(o, "trial_conversion", "trials") == trials, when);
        BOOST_TEST(at(o, "trial_conversion", "converted") == converted, when);
    };
    check("before compaction");
    exec("SELECT overview_compact()");
    check("after compaction");
    BOOST_TEST(count("SELECT count(*) FROM (SELECT bucket FROM overview_revenue GROUP BY bucket HAVING count(*) > 1) x") == 0);
}

BOOST_AUTO_TEST_SUITE_END()
