// The catalogue and the texts through the admin API (issue 18; api/admin_catalog.cpp,
// api/admin_app_config.cpp): a price, a sale, a text and a landing text changed by an admin
// are in the answers of every pool process within a second; a bad value is a 4xx with a
// detail and changes nothing; only admins may; each change leaves an audit row with the
// admin as actor, the same row cabinetctl writes.
#include "catalog_support.hpp"

using namespace it;

namespace {

const std::string kAdminActor = "telegram:" + std::to_string(kAdminTelegramId);

HttpResult as_admin(const std::string& method, const std::string& path, const std::string& body = {}) {
    return http(method, path, {tma_header(kAdminTelegramId, "Demo"), "Content-Type: application/json"}, body);
}

// An admin write that must succeed; its answer.
rapidjson::Document admin_ok(const std::string& method, const std::string& path, const std::string& body = {}) {
    const auto r = as_admin(method, path, body);
    BOOST_REQUIRE_MESSAGE(r.status == 200 || r.status == 201, method << " " << path << " answered " << r.status << ": " << r.body);
    return r.json();
}

// The 4xx answer of a refused admin write, with its detail.
bool refused(const std::string& method, const std::string& path, const std::string& body, long status,
             const std::string& detail) {
    const auto r = as_admin(method, path, body);
    BOOST_TEST_MESSAGE(method << " " << path << " " << body << " -> " << r.status << ": " << r.body);
    return r.status == status && std::string(r.json()["detail"].GetString()).find(detail) != std::string::npos;
}

std::string public_text(const std::string& path, const char* key) {
    const auto r = http("GET", path);
    if (r.status != 200) return {};
    const auto d = r.json();
    return d[key].GetString();
}

// The price user `tg` is shown for `days` days of plan `code`; -1 when the plan is not offered.
int64_t personal_price(int64_t tg, const std::string& code, int64_t days) {
    const auto plans = get_as(tg, "/api/cabinet/plans");
    if (!has_item(plans["items"], "public_code", code)) return -1;
    for (const auto& d : find_by(plans["items"], "public_code", code)["durations"].GetArray())
        if (d["days"].GetInt64() == days) return d["price_minor"].GetInt64();
    return -1;
}

int64_t catalog_version() { return count("SELECT version FROM catalog_version"); }
int64_t last_audit_id() { return count("SELECT coalesce(max(id), 0) FROM audit_log"); }

// The app config row as it was, put back when the case ends.
struct AppConfigBack {
    std::string statement;
    AppConfigBack() {
        pqxx::connection c(env("DATABASE_URL"));
        pqxx::nontransaction t(c);
        const auto r = t.exec1("SELECT greeting, accent_color, ui::text FROM app_config");
        statement = "UPDATE app_config SET greeting = " + t.quote(r[0].c_str()) + ", accent_color = " + t.quote(r[1].c_str()) +
                    ", ui = " + t.quote(r[2].c_str()) + "::jsonb";
    }
    ~AppConfigBack() { exec(statement); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(catalog_admin_api)

BOOST_AUTO_TEST_CASE(a_price_a_sale_a_text_and_a_landing_text_are_live_everywhere_and_audited) {
    const int64_t tg = new_user();
    const std::string t = str(tg), code = "itapi" + t, sale = "itapisale" + t;
    const AppConfigBack app_config;
    Cleanup cleanup;
    cleanup.add("DELETE FROM plans WHERE public_code = '" + code + "'");
    cleanup.add("DELETE FROM sales WHERE name = '" + sale + "'");
    cleanup.add("DELETE FROM constructor_periods WHERE days = 43");
    const int64_t since = last_audit_id();

    // A plan and its price: created by PUT (201), then its price changed.
    const auto created = as_admin("PUT", "/api/admin/plans/" + code, R"({"name":"API plan","traffic_limit_gb":20,"device_limit":3})");
    BOOST_TEST_REQUIRE(created.status == 201, created.body);
    BOOST_TEST(created.json()["durations"].Size() == 0u);
    BOOST_TEST(admin_ok("PUT", "/api/admin/plans/" + code, R"({"name":"API plan","sort_order":-40})")["traffic_limit_gb"].GetInt64() == 20);
    admin_ok("PUT", "/api/admin/plans/" + code + "/durations/30", R"({"months":1,"price_minor":10000})");
    const auto plan = admin_ok("PUT", "/api/admin/plans/" + code + "/durations/30", R"({"months":1,"price_minor":12300})");
    BOOST_TEST(plan["durations"][0]["price_minor"].GetInt64() == 12300);
    BOOST_TEST(everywhere([&] { return personal_price(tg, code, 30) == 12300; }));
    const int64_t version = catalog_version();
    BOOST_TEST(admin_ok("PUT", "/api/admin/plans/" + code, "{}")["sort_order"].GetInt64() == -40);  // a no-op
    BOOST_TEST(catalog_version() == version);
    const auto listed = admin_ok("GET", "/api/admin/plans");
    BOOST_TEST(find_by(listed["items"], "code", code)["device_limit"].GetInt64() == 3);

    // A sale: 25 % off at once, everywhere; ended, the list price again.
    const auto started = as_admin("PUT", "/api/admin/sales/" + sale,
                               R"({"discount_pct":25,"starts_at":"2000-01-01T00:00:00Z","ends_at":"2100-01-01T00:00:00Z"})");
    BOOST_TEST_REQUIRE(started.status == 201, started.body);
    BOOST_TEST(started.json()["running"].GetBool());
    BOOST_TEST(everywhere([&] { return personal_price(tg, code, 30) == discounted(12300, 25); }));
    BOOST_TEST(find_by(admin_ok("GET", "/api/admin/sales")["items"], "name", sale)["discount_pct"].GetInt64() == 25);
    BOOST_TEST(!admin_ok("POST", "/api/admin/sales/" + sale + "/end")["running"].GetBool());
    BOOST_TEST(everywhere([&] { return personal_price(tg, code, 30) == 12300; }));

    // Switched off, the plan is offered nowhere.
    admin_ok("PUT", "/api/admin/plans/" + code, R"({"is_active":false})");
    BOOST_TEST(everywhere([&] { return personal_price(tg, code, 30) == -1; }));

    // A constructor period.
    const auto periods = admin_ok("PUT", "/api/admin/constructor/periods/43", R"({"months":1,"price_minor":4300})");
    BOOST_TEST(find_by(periods["periods"], "days", "43")["price_minor"].GetInt64() == 4300);
    BOOST_TEST(everywhere([&] {
        return has_item(get_as(tg, "/api/cabinet/constructor")["periods"], "days", "43");
    }));
    BOOST_TEST(find_by(admin_ok("GET", "/api/admin/constructor")["periods"], "days", "43")["months"].GetInt64() == 1);

    // A text of the app and one of the landing page: the public pages, with no credentials.
    const std::string greeting = "API greeting " + t, headline = "API headline " + t;
    const auto texts = admin_ok("PUT", "/api/admin/app-config/greeting", R"({"value":")" + greeting + R"("})");
    BOOST_TEST(find_by(texts["items"], "name", "greeting")["value"].GetString() == greeting);
    BOOST_TEST(everywhere([&] { return public_text("/api/cabinet/config", "greeting") == greeting; }));
    admin_ok("PUT", "/api/admin/app-config/landing.headline", R"({"value":")" + headline + R"("})");
    BOOST_TEST(everywhere([&] { return public_text("/api/cabinet/public/landing", "headline") == headline; }));
    BOOST_TEST(find_by(admin_ok("GET", "/api/admin/app-config")["items"], "name", "landing.headline")["value"].GetString() ==
               headline);

    // One audit row a change, the admin as actor, in the form cabinetctl writes.
    const auto audited = [&](const std::string& where) {
        return count("SELECT count(*) FROM audit_log WHERE id > " + str(since) + " AND actor = '" + kAdminActor + "' AND " +
                     where);
    };
    BOOST_TEST(audited("action = 'catalog.plan' AND entity = 'create'") == 2);
    BOOST_TEST(audited("action = 'catalog.plan' AND entity = 'price' AND payload->'args'->>8 = '12300'") == 1);
    BOOST_TEST(audited("action = 'catalog.plan' AND entity = 'disable'") == 1);
    BOOST_TEST(audited("action = 'catalog.sale' AND entity = 'create' AND payload->'args'->>4 = '25'") == 1);
    BOOST_TEST(audited("action = 'catalog.sale' AND entity = 'end'") == 1);
    BOOST_TEST(audited("action = 'catalog.constructor' AND entity = 'period'") == 1);
    BOOST_TEST(audited("action = 'catalog.config' AND payload->'args'->>2 = '" + headline + "'") == 1);
    BOOST_TEST(count("SELECT count(*) FROM audit_log WHERE id > " + str(since)) == 10);
}

BOOST_AUTO_TEST_CASE(a_bad_value_is_a_4xx_with_its_reason_and_changes_nothing) {
    const std::string sale_body = R"({"discount_pct":10,"starts_at":"2030-01-02T00:00:00Z","ends_at":"2030-01-01T00:00:00Z"})";
    const int64_t version = catalog_version(), since = last_audit_id();
    BOOST_TEST(refused("PUT", "/api/admin/plans/start/durations/30", R"({"months":1,"price_minor":-5})", 422,
                       "price_minor must be an integer in 0.."));
    BOOST_TEST(refused("PUT", "/api/admin/plans/no-such-plan/durations/30", R"({"months":1,"price_minor":100})", 404,
                       "no plan with code no-such-plan"));
    BOOST_TEST(refused("PUT", "/api/admin/plans/no-such-plan", R"({"is_active":true})", 404, "no plan with code no-such-plan"));
    BOOST_TEST(refused("PUT", "/api/admin/plans/start", R"({"device_limit":0})", 422, "device_limit must be"));
    BOOST_TEST(refused("PUT", "/api/admin/sales/itapi-bad", sale_body, 422, "ends_at must be after starts_at"));
    BOOST_TEST(refused("PUT", "/api/admin/sales/itapi-bad", R"({"discount_pct":10,"starts_at":"soon","ends_at":"2030-01-01T00:00:00Z"})",
                       400, "starts_at must be an ISO-8601 instant"));
    BOOST_TEST(refused("POST", "/api/admin/sales/no-such-sale/end", "", 404, "no sale named no-such-sale"));
    BOOST_TEST(refused("PUT", "/api/admin/constructor/packs/-1", R"({"price_minor":1})", 422, "gb must be"));
    BOOST_TEST(refused("PUT", "/api/admin/app-config/accent_color", R"({"value":"red"})", 422, "accent_color must be a colour"));
    BOOST_TEST(refused("PUT", "/api/admin/app-config/colour", R"({"value":"#ffffff"})", 404, "no app config key colour"));
    BOOST_TEST(refused("PUT", "/api/admin/app-config/title", R"({"value":5})", 400, "value"));
    BOOST_TEST(catalog_version() == version);  // nothing was written
    BOOST_TEST(count("SELECT count(*) FROM audit_log WHERE id > " + str(since)) == 0);

    // Only admins.
    const std::string user = tma_header(fresh_telegram_id());
    BOOST_TEST(http("GET", "/api/admin/plans", {user}).status == 403);
    BOOST_TEST(http("PUT", "/api/admin/plans/start/durations/30", {user, "Content-Type: application/json"},
                    R"({"months":1,"price_minor":1})").status == 403);
    BOOST_TEST(http("PUT", "/api/admin/app-config/title", {user, "Content-Type: application/json"}, R"({"value":"Mine"})")
                   .status == 403);
    BOOST_TEST(http("GET", "/api/admin/app-config").status == 401);
    BOOST_TEST(catalog_version() == version);
}

// The longest FAQ the rules allow (30 questions, answers of 2,000 characters) in Cyrillic,
// about 200 KB of request, is saved from the admin screen as from cabinetctl, past the
// 64 KB every other request keeps; beyond 1 MB nginx answers its JSON 413.
BOOST_AUTO_TEST_CASE(the_longest_faq_the_rules_allow_is_saved_from_the_admin_api) {
    const AppConfigBack app_config;
    std::string cyrillic_answer;
    for (int i = 0; i < 2000; ++i) cyrillic_answer += "ж";
    std::string faq = "[";
    for (int i = 0; i < 30; ++i) {
        std::string question = "Вопрос " + std::to_string(i) + "?";
        faq += std::string(i ? "," : "") + R"({\"q\":\")" + question + R"(\",\"a\":\")" + cyrillic_answer + R"(\"})";
    }
    faq += "]";
    const std::string body = R"({"value":")" + faq + R"("})";
    BOOST_TEST_REQUIRE(body.size() > 64 * 1024u);
    admin_ok("PUT", "/api/admin/app-config/landing.faq", body);
    BOOST_TEST(everywhere([&] {
        const auto r = http("GET", "/api/cabinet/public/landing");
        if (r.status != 200) return false;
        const auto d = r.json();
        return d["faq"].Size() == 30u && d["faq"][29]["a"].GetString() == cyrillic_answer;
    }));

    // Other requests keep their 64 KB (another method on the same path too), and this one
    // its 1 MB.
    const auto other = as_admin("PUT", "/api/admin/plans/start/durations/30", std::string(100 * 1024, ' ') + "{}");
    BOOST_TEST(other.status == 413);
    BOOST_TEST(as_admin("POST", "/api/admin/app-config/landing.faq", body).status == 413);
    const auto huge = as_admin("PUT", "/api/admin/app-config/landing.faq", std::string(1100 * 1024, ' ') + body);
    BOOST_TEST(huge.status == 413);
    BOOST_TEST(huge.json()["detail"].IsString());
}

BOOST_AUTO_TEST_SUITE_END()
