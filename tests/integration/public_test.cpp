// What a guest sees (issue 7; SPEC-GAPS "Cabinet shapes"): GET /public/plans (list prices,
// only with WEB_CABINET_ENABLED), GET /public/landing (the owner's copy from
// `cabinetctl config set`, defaults otherwise), and GET /config's oauth_providers (a
// provider only when both its id and secret are set). The pool is restarted with the
// settings each case needs, so the cases pass whatever the test stack's default is.
#include <boost/test/unit_test.hpp>

#include <thread>

#include "support.hpp"

using namespace it;

namespace {

rapidjson::Document get_json(const std::string& path, const std::vector<std::string>& headers = {}) {
    const auto r = http("GET", path, headers);
    BOOST_REQUIRE_MESSAGE(r.status == 200, path << " answered " << r.status << ": " << r.body);
    return r.json();
}

std::vector<std::string> strings(const rapidjson::Value& arr) {
    std::vector<std::string> out;
    for (const auto& v : arr.GetArray()) out.emplace_back(v.GetString());
    return out;
}
std::vector<std::string> method_ids(const rapidjson::Value& arr) {
    std::vector<std::string> out;
    for (const auto& v : arr.GetArray()) out.emplace_back(v["id"].GetString());
    return out;
}

// The app_config row as it was, put back when the test ends (me_test checks the demo
// title), then waited for until the pool's cached copy (APP_CONFIG_TTL_MS) shows it.
struct AppConfigSnapshot {
    std::string title, greeting, accent, tmpl, ui, published_at;
    AppConfigSnapshot() {
        pqxx::connection c(env("DATABASE_URL"));
        pqxx::nontransaction t(c);
        const auto r = t.exec1("SELECT title, greeting, accent_color, template, ui::text, published_at::text FROM app_config");
        title = r[0].c_str();
        greeting = r[1].c_str();
        accent = r[2].c_str();
        tmpl = r[3].c_str();
        ui = r[4].c_str();
        published_at = r[5].c_str();
    }
    ~AppConfigSnapshot() {
        try {
            pqxx::connection c(env("DATABASE_URL"));
            pqxx::work t(c);
            t.exec_params0("UPDATE app_config SET title = $1, greeting = $2, accent_color = $3, template = $4, "
                           "ui = $5::jsonb, published_at = $6::timestamptz",
                           title, greeting, accent, tmpl, ui, published_at);
            t.commit();
            wait_until([&] { return http("GET", "/api/cabinet/config").json()["title"].GetString() == title; }, 10000);
        } catch (const std::exception& e) {
            BOOST_TEST_MESSAGE("app_config restore failed: " << e.what());
        }
    }
    static std::string current() {
        pqxx::connection c(env("DATABASE_URL"));
        pqxx::nontransaction t(c);
        return t.exec1("SELECT row_to_json(a)::text FROM app_config a")[0].c_str();
    }
};

// cabinetctl config set KEY VALUE with VALUE passed through the shell untouched.
std::pair<int, std::string> config_set(const std::string& key, const std::string& value) {
    std::string quoted = "'";
    for (char ch : value) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return run(ctl("config set " + key + " " + quoted + "'"));
}

// Polls the landing until `pred` holds (the pool caches app_config for APP_CONFIG_TTL_MS).
bool landing_shows(const std::function<bool(const rapidjson::Document&)>& pred) {
    return wait_until([&] { return pred(get_json("/api/cabinet/public/landing")); }, 10000);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(public_pages)

BOOST_AUTO_TEST_CASE(web_cabinet_on_lists_plans_at_list_prices_and_complete_oauth_providers) {
    // A user with a personal discount sees lower prices; the guest list does not.
    const int64_t tg = fresh_telegram_id();
    get_json("/api/cabinet/me", {tma_header(tg)});
    exec("UPDATE users SET personal_discount_pct = 20 WHERE telegram_id = " + str(tg));

    // The test stack configures all three providers (for the oauth suite): blanked here.
    PoolWith pool("WEB_CABINET_ENABLED=true GOOGLE_CLIENT_ID=g-id GOOGLE_CLIENT_SECRET=g-secret YANDEX_CLIENT_ID=y-id "
                  "YANDEX_CLIENT_SECRET= VK_CLIENT_ID= VK_CLIENT_SECRET=vk-secret");
    const auto pub = get_json("/api/cabinet/public/plans");
    BOOST_TEST(std::string(pub["currency"].GetString()) == "RUB");
    const auto personal = get_json("/api/cabinet/plans", {tma_header(tg)});
    BOOST_TEST_REQUIRE(pub["items"].Size() == personal["items"].Size());
    BOOST_TEST_REQUIRE(pub["items"].Size() > 0u);
    for (rapidjson::SizeType i = 0; i < pub["items"].Size(); ++i) {
        const auto& p = pub["items"][i];
        const auto& mine = personal["items"][i];
        BOOST_TEST(p["id"].GetInt64() == mine["id"].GetInt64());
        BOOST_TEST(p.MemberCount() == mine.MemberCount());  // the same shape as GET /plans
        BOOST_TEST(p["is_current"].GetBool() == false);
        BOOST_TEST_REQUIRE(p["durations"].Size() == mine["durations"].Size());
        for (rapidjson::SizeType k = 0; k < p["durations"].Size(); ++k) {
            const auto& d = p["durations"][k];
            const int64_t list = count("SELECT price_minor FROM plan_durations WHERE plan_id = " + str(p["id"].GetInt64()) +
                                       " AND days = " + str(d["days"].GetInt64()));
            BOOST_TEST(d["price_minor"].GetInt64() == list);
            BOOST_TEST(d["base_price_minor"].GetInt64() == list);
            BOOST_TEST(mine["durations"][k]["price_minor"].GetInt64() < list);
        }
    }
    // What a guest can pay with (issue 49): the online gateways the test stack enables; the
    // balance and Stars need an account.
    const auto methods = method_ids(pub["payment_methods"]);
    BOOST_TEST(methods == (std::vector<std::string>{"yookassa", "cryptobot"}));

    // Yandex has no secret and VK no id: only Google is offered.
    BOOST_TEST(strings(get_json("/api/cabinet/config")["oauth_providers"]) == std::vector<std::string>{"google"});

    const auto landing = get_json("/api/cabinet/public/landing");
    BOOST_TEST(landing["plans"].Size() == pub["items"].Size());
    BOOST_TEST(std::string(landing["currency"].GetString()) == "RUB");
}

BOOST_AUTO_TEST_CASE(web_cabinet_off_refuses_public_plans_and_offers_no_oauth) {
    PoolWith pool("WEB_CABINET_ENABLED=false GOOGLE_CLIENT_ID=g-id GOOGLE_CLIENT_SECRET=g-secret");
    const auto r = http("GET", "/api/cabinet/public/plans");
    BOOST_TEST(r.status == 403);
    BOOST_TEST(r.body.find(R"("detail":"web cabinet is disabled")") != std::string::npos, r.body);
    BOOST_TEST(get_json("/api/cabinet/config")["oauth_providers"].Size() == 0u);
    // The landing still works, and points to the bot.
    const auto landing = get_json("/api/cabinet/public/landing");
    BOOST_TEST(landing["enabled"].IsBool());
    BOOST_TEST(landing["plans"].IsArray());
    BOOST_TEST(std::string(landing["cta_target"].GetString()) == "bot");
}

BOOST_AUTO_TEST_CASE(landing_has_every_field_and_reflects_config_set) {
    AppConfigSnapshot snapshot;
    exec("UPDATE app_config SET ui = ui - 'landing'");
    BOOST_TEST_REQUIRE(landing_shows([](const rapidjson::Document& d) {
        return std::string(d["headline"].GetString()) == "Fast, private VPN in a minute";
    }));
    auto d = get_json("/api/cabinet/public/landing");
    for (const char* key : {"enabled", "template", "title", "greeting", "accent_color", "headline", "subheadline", "features",
                            "faq", "cta_target", "bot_username", "cabinet_url", "currency", "plans"})
        BOOST_TEST(d.HasMember(key), key);
    BOOST_TEST(d["enabled"].GetBool() == true);
    BOOST_TEST(std::string(d["title"].GetString()) == snapshot.title);
    BOOST_TEST(std::string(d["bot_username"].GetString()) == env("BOT_USERNAME"));
    BOOST_TEST(std::string(d["cabinet_url"].GetString()) == env("WEB_CABINET_URL"));
    BOOST_TEST_REQUIRE(d["features"].Size() > 0u);
    BOOST_TEST(d["features"][0]["title"].IsString());
    BOOST_TEST(d["features"][0]["text"].IsString());
    BOOST_TEST_REQUIRE(d["faq"].Size() > 0u);
    BOOST_TEST(d["faq"][0]["q"].IsString());
    BOOST_TEST(d["faq"][0]["a"].IsString());

    BOOST_TEST_REQUIRE(config_set("landing.headline", "VPN that just works").first == 0);
    BOOST_TEST_REQUIRE(config_set("landing.features", R"([{"title":"Speed","text":"1 Gbit/s"},{"title":"Price","text":"From 99"}])").first == 0);
    BOOST_TEST_REQUIRE(config_set("landing.faq", R"([{"q":"Refunds?","a":"Within 7 days."}])").first == 0);
    BOOST_TEST_REQUIRE(config_set("landing.cta_target", "bot").first == 0);
    BOOST_TEST_REQUIRE(config_set("landing.enabled", "false").first == 0);
    BOOST_TEST_REQUIRE(config_set("title", "Landing Test VPN").first == 0);
    BOOST_TEST_REQUIRE(landing_shows([](const rapidjson::Document& x) {
        return std::string(x["title"].GetString()) == "Landing Test VPN";
    }));
    d = get_json("/api/cabinet/public/landing");
    BOOST_TEST(std::string(d["headline"].GetString()) == "VPN that just works");
    BOOST_TEST_REQUIRE(d["features"].Size() == 2u);
    BOOST_TEST(std::string(d["features"][1]["text"].GetString()) == "From 99");
    BOOST_TEST_REQUIRE(d["faq"].Size() == 1u);
    BOOST_TEST(std::string(d["faq"][0]["a"].GetString()) == "Within 7 days.");
    BOOST_TEST(std::string(d["cta_target"].GetString()) == "bot");
    BOOST_TEST(d["enabled"].GetBool() == false);

    const auto got = run(ctl("config get landing.headline"));
    BOOST_TEST(got.first == 0);
    BOOST_TEST(got.second.find("VPN that just works") != std::string::npos, got.second);
}

BOOST_AUTO_TEST_CASE(config_set_refuses_bad_values_and_changes_nothing) {
    AppConfigSnapshot snapshot;
    const std::string before = AppConfigSnapshot::current();
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"template", "z"},
        {"accent_color", "red"},
        {"title", ""},
        {"title", std::string(65, 't')},
        {"colour", "#ffffff"},
        {"landing.headline", std::string(121, 'h')},
        {"landing.cta_target", "email"},
        {"landing.enabled", "maybe"},
        {"landing.features", R"({"title":"x","text":"y"})"},
        {"landing.features", R"([{"title":"x"}])"},
        {"landing.features", R"([{"title":"x","text":"y","extra":1}])"},
        {"landing.features", R"([{"title":"","text":"y"}])"},
        {"landing.features", "[" + std::string("{\"title\":\"t\",\"text\":\"x\"},") + "not json"},
        {"landing.faq", R"([{"q":"Why?","a":""}])"},
        {"landing.faq", R"([{"q":1,"a":"x"}])"},
    };
    for (const auto& [key, value] : bad) {
        const auto [rc, out] = config_set(key, value);
        BOOST_TEST(rc != 0, key << " = " << value << " was accepted: " << out);
        BOOST_TEST(!out.empty());
    }
    std::string thirteen = "[";
    for (int i = 0; i < 13; ++i) thirteen += std::string(i ? "," : "") + R"({"title":"t","text":"x"})";
    BOOST_TEST(config_set("landing.features", thirteen + "]").first != 0);
    BOOST_TEST(AppConfigSnapshot::current() == before);

    // A good value changes the row and bumps published_at.
    const std::string published = snapshot.published_at;
    BOOST_TEST_REQUIRE(config_set("accent_color", "#112233").first == 0);
    BOOST_TEST(count("SELECT count(*) FROM app_config WHERE accent_color = '#112233' AND published_at > '" + published +
                     "'::timestamptz") == 1);
}

BOOST_AUTO_TEST_SUITE_END()
