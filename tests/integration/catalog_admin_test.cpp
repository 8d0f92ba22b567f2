// The operator's catalogue commands (`tools/stack ctl plan|promo-group|user-group|sale|promo|
// constructor`): their effect is what GET /plans and GET /constructor show, re-runs
// converge, and bad arguments are refused with a message naming the option.
#include <array>
#include <cstdio>

#include "catalog_support.hpp"

using namespace it;

namespace {

struct Run {
    int rc;
    std::string out;
};

// cabinetctl through the stack, with its output in the test log.
Run cli(const std::string& args) {
    const auto [rc, out] = run(ctl(args));
    BOOST_TEST_MESSAGE("ctl " << args << " -> " << rc << ": " << out);
    return {rc, out};
}

bool ok(const std::string& args) { return cli(args).rc == 0; }

bool refused(const std::string& args, const std::string& message) {
    const Run r = cli(args);
    return r.rc != 0 && r.out.find(message) != std::string::npos;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(catalog_admin)

BOOST_AUTO_TEST_CASE(plans_groups_sales_and_constructor_from_the_command_line) {
    const int64_t tg = new_user();
    const std::string t = str(tg), code = "itcli" + t, group = "itg" + t, sale = "its" + t;
    Cleanup cleanup;
    cleanup.add("DELETE FROM plans WHERE public_code = '" + code + "'");
    cleanup.add("DELETE FROM promo_groups WHERE name = '" + group + "'");
    cleanup.add("DELETE FROM sales WHERE name = '" + sale + "'");
    cleanup.add("DELETE FROM constructor_periods WHERE days = 41");
    cleanup.add("DELETE FROM constructor_packs WHERE gb = 33");
    cleanup.add("DELETE FROM promo_codes WHERE lower(code) = 'itp" + t + "'");

    BOOST_TEST(cli("plan create --code " + code + " --name 'CLI Plan' --description 'Made by the CLI' --traffic-gb 50"
                   " --devices 2 --sort -50").out.find("created") != std::string::npos);
    // A re-run updates the same row; options left out keep their values.
    BOOST_TEST(cli("plan create --code " + code + " --name 'CLI Plan 2'").out.find("updated") != std::string::npos);
    BOOST_TEST(count("SELECT count(*) FROM plans WHERE public_code = '" + code + "'") == 1);
    BOOST_TEST(ok("plan price --code " + code + " --days 30 --months 1 --price 99"));
    BOOST_TEST(ok("plan price --code " + code + " --days 30 --months 1 --price 12300"));  // upsert
    BOOST_TEST(ok("plan price --code " + code + " --days 7 --months 0 --price 5000"));
    BOOST_TEST(cli("plan list").out.find(code) != std::string::npos);

    auto plan = [&] {
        const auto doc = get_as(tg, "/api/cabinet/plans");
        rapidjson::Document copy;
        copy.CopyFrom(find_by(doc["items"], "public_code", code), copy.GetAllocator());
        return copy;
    };
    {
        const auto p = plan();
        BOOST_TEST(std::string(p["name"].GetString()) == "CLI Plan 2");
        BOOST_TEST(std::string(p["description"].GetString()) == "Made by the CLI");
        BOOST_TEST(p["traffic_limit_bytes"].GetInt64() == 50LL * 1024 * 1024 * 1024);
        BOOST_TEST(p["device_limit"].GetInt64() == 2);
        BOOST_REQUIRE(p["durations"].Size() == 2u);
        BOOST_TEST(p["durations"][0]["days"].GetInt64() == 7);
        BOOST_TEST(p["durations"][1]["price_minor"].GetInt64() == 12300);
    }

    // Group 10 % + sale 20 % = 30 % off.
    BOOST_TEST(ok("promo-group create --name " + group + " --discount 10"));
    BOOST_TEST(ok("user-group --telegram-id " + t + " --group " + group));
    BOOST_TEST(ok("sale create --name " + sale + " --discount 5 --from 2000-01-01 --until 2100-01-01T00:00:00Z"));
    BOOST_TEST(ok("sale create --name " + sale + " --discount 20 --from 2000-01-01 --until 2100-01-01"));  // edits it
    BOOST_TEST(count("SELECT count(*) FROM sales WHERE name = '" + sale + "'") == 1);
    BOOST_TEST(plan()["durations"][1]["price_minor"].GetInt64() == 8610);  // 12300 - 3690

    BOOST_TEST(ok("constructor period --days 41 --months 1 --price 1000"));
    BOOST_TEST(ok("constructor pack --gb 33 --price 500"));
    const auto c = get_as(tg, "/api/cabinet/constructor");
    BOOST_TEST(find_by(c["periods"], "days", "41")["price_minor"].GetInt64() == 700);
    BOOST_TEST(find_by(c["traffic_packs"], "gb", "33")["price_minor"].GetInt64() == 350);

    BOOST_TEST(ok("plan disable --code " + code));
    BOOST_TEST(!has_item(get_as(tg, "/api/cabinet/plans")["items"], "public_code", code));
    BOOST_TEST(ok("plan enable --code " + code));
    BOOST_TEST(has_item(get_as(tg, "/api/cabinet/plans")["items"], "public_code", code));
    BOOST_TEST(ok("user-group --telegram-id " + t + " --clear"));
    BOOST_TEST(plan()["durations"][1]["price_minor"].GetInt64() == 9840);  // sale only: 12300 - 2460

    BOOST_TEST(ok("promo create --code itp" + t + " --type subscription --value 30 --plan " + code +
                  " --max-uses 5 --from 2020-01-01 --until 2100-01-01"));
    BOOST_TEST(count("SELECT count(*) FROM promo_codes WHERE lower(code) = 'itp" + t + "' AND reward_type = 'subscription'"
                     " AND value = 30 AND max_uses = 5 AND plan_id IS NOT NULL AND valid_until > now()") == 1);
    BOOST_TEST(ok("promo create --code ITP" + t + " --type discount --value 25"));  // same code, any case
    BOOST_TEST(count("SELECT count(*) FROM promo_codes WHERE lower(code) = 'itp" + t + "' AND reward_type = 'discount'"
                     " AND value = 25 AND plan_id IS NULL AND max_uses IS NULL") == 1);
}

BOOST_AUTO_TEST_CASE(bad_arguments_are_refused_by_name) {
    BOOST_TEST(refused("plan create --name X", "--code is required"));
    BOOST_TEST(refused("plan create --code x --name X --devices 0", "--devices must be an integer in 1.."));
    BOOST_TEST(refused("plan price --code no-such-plan --days 30 --months 1 --price 1", "no plan with code no-such-plan"));
    BOOST_TEST(refused("plan price --code start --days 30 --months 1 --price -5", "--price must be"));
    BOOST_TEST(refused("plan frobnicate", "unknown action frobnicate"));
    BOOST_TEST(refused("promo-group create --name x --discount 101", "--discount must be an integer in 0..100"));
    BOOST_TEST(refused("user-group --telegram-id 1 --group no-such-group-x", "no promo group named"));
    BOOST_TEST(refused("sale create --name x --discount 10 --from 2030-01-02 --until 2030-01-01", "--until must be after --from"));
    BOOST_TEST(refused("sale create --name x --discount 10 --from yesterday --until 2030-01-01", "--from must be ISO-8601"));
    BOOST_TEST(refused("promo create --code x1 --type gift --value 1", "--type must be one of"));
    BOOST_TEST(refused("promo create --code x1 --type discount --value 150", "--value must be an integer in 1..100"));
    BOOST_TEST(refused("promo create --code x1 --type subscription --value 30", "--plan CODE is required"));
    BOOST_TEST(refused("promo create --code x1 --type balance --value 30 --plan start", "--plan only applies"));
    BOOST_TEST(refused("constructor pack --gb -1 --price 1", "--gb must be"));
    BOOST_TEST(count("SELECT count(*) FROM plans WHERE public_code = 'x'") == 0);
    BOOST_TEST(count("SELECT count(*) FROM sales WHERE name = 'x'") == 0);
}

BOOST_AUTO_TEST_SUITE_END()
