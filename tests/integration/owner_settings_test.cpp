// Owner-level settings without restarts (issue 18; services/owner_settings.hpp, sql 0030):
// each kind an owner changes (a price, a sale, a text, the landing, the maintenance message,
// a payment method, the trial, the connection apps, the Stars rate), through cabinetctl or
// the admin API, is in the answers of every pool process within a second, no restart; a bad
// value changes nothing; every change leaves an audit row; a stored value survives a pool
// restart; unset goes back to the env file's value.
#include "catalog_support.hpp"

using namespace it;

namespace {

std::string shell_quoted(const std::string& v) {
    std::string q = "'";
    for (char ch : v) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return q + "'";
}

std::pair<int, std::string> ctl_settings(const std::string& args) { return run(ctl("settings " + args)); }

// Sets NAME through cabinetctl and removes the stored value again at the end of the case.
struct Stored {
    std::string name;
    Stored(std::string n, const std::string& value) : name(std::move(n)) {
        const auto [rc, out] = ctl_settings("set " + name + " " + shell_quoted(value));
        BOOST_REQUIRE_MESSAGE(rc == 0, "settings set " << name << ": " << out);
    }
    ~Stored() { ctl_settings("unset " + name); }
};

HttpResult admin_put(const std::string& name, const std::string& json_value) {
    return http("PUT", "/api/admin/settings/" + name, {admin_auth(), "Content-Type: application/json"},
                R"({"value":)" + json_value + "}");
}

rapidjson::Document public_json(const std::string& path) {
    const auto r = http("GET", path);
    BOOST_REQUIRE_MESSAGE(r.status == 200, path << " answered " << r.status << ": " << r.body);
    return r.json();
}

// GET /me's app config (the shell's settings) as user `tg`.
rapidjson::Document app_of(int64_t tg) {
    rapidjson::Document me = get_as(tg, "/api/cabinet/me");
    rapidjson::Document app;
    app.CopyFrom(me["app"], app.GetAllocator());
    return app;
}

bool has_method(const rapidjson::Document& app, const std::string& id) {
    for (const auto& m : app["payment_methods"].GetArray())
        if (id == m["id"].GetString()) return true;
    return false;
}

const rapidjson::Value& standard_30(const rapidjson::Document& plans) {
    return find_by(plans["items"], "public_code", "standard")["durations"][0];
}

// The landing page the worker writes (served by nginx at /) lists CryptoBot.
bool landing_offers_crypto() {
    const std::string page = http("GET", "/").body;
    return page.find("Crypto") != std::string::npos || page.find("Криптовалюта") != std::string::npos;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(owner_settings)

BOOST_AUTO_TEST_CASE(catalogue_kinds_a_price_a_sale_a_text_and_the_landing_are_live) {
    const int64_t tg = new_user();
    const int64_t before = count("SELECT price_minor FROM plan_durations d JOIN plans p ON p.id = d.plan_id"
                                 " WHERE p.public_code = 'standard' AND d.days = 30");
    const std::string sale = "it-owner-sale-" + str(tg);
    Cleanup cleanup;
    cleanup.add("UPDATE plan_durations SET price_minor = " + str(before) +
                " WHERE days = 30 AND plan_id = (SELECT id FROM plans WHERE public_code = 'standard')");
    cleanup.add("DELETE FROM sales WHERE name = '" + sale + "'");
    cleanup.add("UPDATE app_config SET greeting = '" +
                std::string(public_json("/api/cabinet/config")["greeting"].GetString()) + "'");
    const std::string ui = [] {
        pqxx::connection c(env("DATABASE_URL"));
        pqxx::nontransaction t(c);
        return std::string(t.exec1("SELECT ui::text FROM app_config")[0].c_str());
    }();
    cleanup.add("UPDATE app_config SET ui = " + pqxx::connection(env("DATABASE_URL")).quote(ui) + "::jsonb");

    BOOST_TEST(run(ctl("plan price --code standard --days 30 --months 1 --price " + str(before + 700))).first == 0);
    BOOST_TEST(everywhere([&] { return standard_30(public_json("/api/cabinet/public/plans"))["base_price_minor"].GetInt64() == before + 700; }));

    BOOST_TEST(run(ctl("sale create --name " + sale + " --discount 30 --from 2000-01-01 --until 2100-01-01")).first == 0);
    BOOST_TEST(everywhere([&] {
        const auto plans = get_as(tg, "/api/cabinet/plans");  // standard_30 points into it
        return standard_30(plans)["price_minor"].GetInt64() == discounted(before + 700, 30);
    }));

    const std::string greeting = "Live greeting " + str(tg);
    BOOST_TEST(run(ctl("config set greeting " + shell_quoted(greeting))).first == 0);
    BOOST_TEST(everywhere([&] { return public_json("/api/cabinet/config")["greeting"].GetString() == greeting; }));

    const std::string headline = "Live headline " + str(tg);
    BOOST_TEST(run(ctl("config set landing.headline " + shell_quoted(headline))).first == 0);
    BOOST_TEST(everywhere([&] { return public_json("/api/cabinet/public/landing")["headline"].GetString() == headline; }));

    // Each change is audited with the OS user running cabinetctl.
    for (const char* action : {"catalog.plan", "catalog.sale", "catalog.config"})
        BOOST_TEST(audit_rows("action = '" + std::string(action) + "' AND actor LIKE 'cabinetctl:%' AND at > now() - interval '1 minute'") >= 1, action);
    BOOST_TEST(audit_rows("action = 'catalog.config' AND payload->'args'->>2 = '" + headline + "'") == 1);
}

BOOST_AUTO_TEST_CASE(the_stars_rate_the_trial_and_a_payment_method_are_live) {
    const int64_t tg = new_user();
    BOOST_REQUIRE(get_as(tg, "/api/cabinet/me")["user"]["is_trial_available"].GetBool());
    BOOST_REQUIRE(has_method(app_of(tg), "cryptobot"));  // the stack's env turns it on
    BOOST_REQUIRE(wait_until(landing_offers_crypto, 3000));

    {
        const Stored rate("STARS_RATE_RUB", "100000");
        BOOST_TEST(everywhere([&] {
            const auto plans = get_as(tg, "/api/cabinet/plans");  // standard_30 points into it
            const auto& d = standard_30(plans);
            return d["price_stars"].GetInt64() == std::max<int64_t>(1, (d["price_minor"].GetInt64() + 99999) / 100000);
        }));
        const Stored trial("TRIAL_ENABLED", "false");
        BOOST_TEST(everywhere([&] { return !get_as(tg, "/api/cabinet/me")["user"]["is_trial_available"].GetBool(); }));
        BOOST_TEST(http("POST", "/api/cabinet/trial", {tma_header(tg)}).status == 400);

        // The admin API, as the admin screen uses it.
        const auto r = admin_put("CRYPTOBOT_ENABLED", R"("false")");
        BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
        BOOST_TEST(std::string(r.json()["source"].GetString()) == "database");
        BOOST_TEST(everywhere([&] { return !has_method(app_of(tg), "cryptobot"); }));
        // The worker too: it renders the landing page (every second in the test stack)
        // with the payment methods of its own live settings.
        BOOST_TEST(wait_until([] { return !landing_offers_crypto(); }, 3000));
        BOOST_TEST(http("DELETE", "/api/admin/settings/CRYPTOBOT_ENABLED", {admin_auth()}).status == 200);
    }
    // Unset: back to the env file's values, everywhere.
    BOOST_TEST(everywhere([&] {
        return has_method(app_of(tg), "cryptobot") &&
               get_as(tg, "/api/cabinet/me")["user"]["is_trial_available"].GetBool() &&
               standard_30(get_as(tg, "/api/cabinet/plans"))["price_stars"].GetInt64() ==
                   stars_for(standard_30(get_as(tg, "/api/cabinet/plans"))["price_minor"].GetInt64());
    }));
    const auto got = ctl_settings("get TRIAL_ENABLED");
    BOOST_TEST(got.first == 0);
    BOOST_TEST(got.second.find("source: database") == std::string::npos, got.second);
}

BOOST_AUTO_TEST_CASE(the_connection_apps_and_the_maintenance_message_are_live) {
    const int64_t tg = new_user();
    BOOST_REQUIRE(http("POST", "/api/cabinet/trial", {tma_header(tg)}).status == 200);
    const Stored apps("CONNECTION_APPS", "hiddify,happ");
    BOOST_TEST(everywhere([&] {
        const auto c = get_as(tg, "/api/cabinet/connection");
        const auto& a = c["apps"];
        return a.Size() == 2 && std::string(a[0]["key"].GetString()) == "hiddify" &&
               std::string(a[1]["key"].GetString()) == "happ";
    }));

    // Maintenance switched on with no message of its own shows the stub text: on the admin
    // screen (read fresh) and in /config, which each pool thread answers from its cached
    // maintenance state (MAINTENANCE_CACHE_TTL_MS): a new text reloads that at once too.
    struct Off {
        ~Off() {
            run(ctl("maintenance off"));
            wait_for_maintenance_cache();  // the next suites see it off
        }
    } off;
    BOOST_REQUIRE(run(ctl("maintenance on")).first == 0);
    wait_for_maintenance_cache();
    const std::string text = "Back at " + str(tg);
    const Stored message("MAINTENANCE_MESSAGE", text);
    BOOST_TEST(everywhere([&] {
        const auto r = http("GET", "/api/admin/maintenance", {admin_auth()});
        const auto config = public_json("/api/cabinet/config");
        return r.status == 200 && r.json()["message"].GetString() == text &&
               config["maintenance"]["message"].IsString() && config["maintenance"]["message"].GetString() == text;
    }));
    // One-shot commands read the stored values when they start.
    const auto status = run(ctl("maintenance status"));
    BOOST_TEST(status.second.find(text) != std::string::npos, status.second);
}

BOOST_AUTO_TEST_CASE(a_bad_value_or_name_changes_nothing_and_each_change_is_audited) {
    const int64_t audits = audit_rows("action LIKE 'settings.%'");
    const auto bad = ctl_settings("set STARS_RATE_RUB abc");
    BOOST_TEST(bad.first != 0);
    BOOST_TEST(bad.second.find("STARS_RATE_RUB: expected an integer count of minor units") != std::string::npos, bad.second);
    const auto api_bad = admin_put("TRIAL_DURATION_DAYS", R"("0")");
    BOOST_TEST(api_bad.status == 422);
    BOOST_TEST(std::string(api_bad.json()["detail"].GetString()).find("must be an integer between 1 and 365") != std::string::npos,
               api_bad.body);
    BOOST_TEST(admin_put("DATABASE_URL", R"("postgresql:///elsewhere")").status == 404);  // infrastructure
    BOOST_TEST(admin_put("NO_SUCH_SETTING", R"("1")").status == 404);
    BOOST_TEST(ctl_settings("set JWT_SECRET x").first != 0);
    BOOST_TEST(http("PUT", "/api/admin/settings/TRIAL_ENABLED", {tma_header(fresh_telegram_id()),
                    "Content-Type: application/json"}, R"({"value":"false"})").status == 403);
    BOOST_TEST(count("SELECT count(*) FROM owner_settings") == 0);
    BOOST_TEST(audit_rows("action LIKE 'settings.%'") == audits);

    {
        const Stored days("TRIAL_DURATION_DAYS", "9");
        BOOST_TEST(admin_put("TRIAL_DURATION_DAYS", R"("11")").status == 200);
    }
    BOOST_TEST(audit_rows("action = 'settings.set' AND entity = 'setting:TRIAL_DURATION_DAYS' AND actor LIKE 'cabinetctl:%'"
                          " AND payload->>'to' = '9' AND payload->'from' = 'null'::jsonb") >= 1);
    BOOST_TEST(audit_rows("action = 'settings.set' AND actor = 'telegram:" + str(kAdminTelegramId) +
                          "' AND payload->>'from' = '9' AND payload->>'to' = '11'") >= 1);
    BOOST_TEST(audit_rows("action = 'settings.unset' AND payload->>'from' = '11'") >= 1);
    BOOST_TEST(audit_rows("action LIKE 'settings.%'") == audits + 3);
}

BOOST_AUTO_TEST_CASE(a_stored_value_survives_a_pool_restart_and_unset_returns_to_the_env_value) {
    const int64_t tg = new_user();
    Stored hide("HIDE_SUBSCRIPTION_LINK", "true");
    BOOST_TEST(everywhere([&] { return app_of(tg)["hide_subscription_link"].GetBool(); }));
    stack_svc("stop", "pool");
    stack_svc("start", "pool");
    BOOST_TEST(everywhere([&] { return app_of(tg)["hide_subscription_link"].GetBool(); }));
    const auto listed = ctl_settings("list");
    BOOST_TEST(listed.second.find("HIDE_SUBSCRIPTION_LINK=true\n  source: database") != std::string::npos, listed.second);

    BOOST_TEST(ctl_settings("unset HIDE_SUBSCRIPTION_LINK").first == 0);
    BOOST_TEST(everywhere([&] { return !app_of(tg)["hide_subscription_link"].GetBool(); }));
    const auto got = ctl_settings("get HIDE_SUBSCRIPTION_LINK");
    BOOST_TEST(got.second.find("HIDE_SUBSCRIPTION_LINK=false\n  source: ") != std::string::npos, got.second);
    const auto listing = http("GET", "/api/admin/settings", {admin_auth()});
    BOOST_REQUIRE_EQUAL(listing.status, 200);
    const auto items = listing.json();
    const auto& item = find_by(items["items"], "name", "HIDE_SUBSCRIPTION_LINK");
    BOOST_TEST(std::string(item["source"].GetString()) != "database");
}

// A change no listener heard (the trigger is off in its transaction, and the listeners are
// cut) is read when each listener connects again, a second later.
BOOST_AUTO_TEST_CASE(a_listener_that_was_cut_reads_the_settings_again) {
    const int64_t tg = new_user();
    BOOST_TEST_REQUIRE(wait_until([] { return listeners() >= 1; }, 5000));
    Cleanup cleanup;
    cleanup.add("DELETE FROM owner_settings WHERE name = 'SHOW_TRAFFIC_USAGE'");
    BOOST_REQUIRE(app_of(tg)["show_traffic_usage"].GetBool());
    // One transaction: the listeners reconnect a second after the cut, and find it committed.
    exec("ALTER TABLE owner_settings DISABLE TRIGGER owner_settings_changed;"
         " INSERT INTO owner_settings (name, value, changed_by) VALUES ('SHOW_TRAFFIC_USAGE', 'false', 'it');"
         " ALTER TABLE owner_settings ENABLE TRIGGER owner_settings_changed;"
         " SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'cabinet-change-listener'");
    BOOST_TEST(wait_until([&] {
        for (int i = 0; i < kEverywhereRequests; ++i)
            if (app_of(tg)["show_traffic_usage"].GetBool()) return false;
        return true;
    }, 5000));
}

BOOST_AUTO_TEST_SUITE_END()
