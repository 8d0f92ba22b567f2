// GET /api/cabinet/plans and GET /api/cabinet/constructor: what is listed, in which order,
// and at which price for this user (SPEC "Plan", "Price rules"; SPEC-GAPS "Cabinet shapes").
// Expected prices are computed here from the tables, never by calling quote().
#include "catalog_support.hpp"

using namespace it;

namespace {

int64_t plan_id(const std::string& code) { return count("SELECT id FROM plans WHERE public_code = '" + code + "'"); }

// Every duration of every listed plan is priced as `list - floor(list * pct / 100)`.
void check_all_prices(const rapidjson::Value& items, int64_t pct) {
    for (const auto& p : items.GetArray()) {
        for (const auto& d : p["durations"].GetArray()) {
            const int64_t list = count("SELECT price_minor FROM plan_durations WHERE plan_id = " + str(p["id"].GetInt64()) +
                                       " AND days = " + str(d["days"].GetInt64()));
            BOOST_TEST(d["base_price_minor"].GetInt64() == list);
            BOOST_TEST(d["price_minor"].GetInt64() == discounted(list, pct));
            BOOST_TEST(d["price_stars"].GetInt64() == stars_for(discounted(list, pct)));
        }
    }
}

int64_t standard_30_price(int64_t tg) {
    const auto plans = get_as(tg, "/api/cabinet/plans");
    return find_by(plans["items"], "public_code", "standard")["durations"][0]["price_minor"].GetInt64();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(catalog)

BOOST_AUTO_TEST_CASE(fresh_user_sees_list_prices_in_order) {
    const int64_t tg = new_user();
    const auto doc = get_as(tg, "/api/cabinet/plans");
    BOOST_TEST(std::string(doc["currency"].GetString()) == "RUB");
    const auto& items = doc["items"];
    BOOST_TEST(items.Size() == static_cast<rapidjson::SizeType>(count(
        "SELECT count(*) FROM plans p WHERE is_active AND EXISTS (SELECT 1 FROM plan_durations d WHERE d.plan_id = p.id)")));
    std::vector<std::string> codes;  // the demo plans by sort_order
    for (const auto& p : items.GetArray())
        if (std::string c = p["public_code"].GetString(); c == "start" || c == "standard" || c == "family") codes.push_back(c);
    BOOST_TEST(codes == (std::vector<std::string>{"start", "standard", "family"}));

    const auto& start = find_by(items, "public_code", "start");
    BOOST_TEST(start["id"].GetInt64() == plan_id("start"));
    BOOST_TEST(std::string(start["name"].GetString()) == "Start");
    BOOST_TEST(std::string(start["description"].GetString()) == "One device, 100 GB a month");
    BOOST_TEST(start["traffic_limit_bytes"].GetInt64() == 107374182400);
    BOOST_TEST(start["device_limit"].GetInt64() == 1);
    BOOST_TEST(start["is_current"].GetBool() == false);
    const auto& standard = find_by(items, "public_code", "standard");
    BOOST_TEST(standard["traffic_limit_bytes"].IsNull());
    const auto& d = standard["durations"];
    BOOST_REQUIRE(d.Size() == 3u);
    BOOST_TEST(d[0]["days"].GetInt64() == 30);
    BOOST_TEST(d[0]["months"].GetInt64() == 1);
    BOOST_TEST(d[0]["price_minor"].GetInt64() == 29900);
    BOOST_TEST(d[0]["base_price_minor"].GetInt64() == 29900);
    BOOST_TEST(d[0]["price_stars"].GetInt64() == stars_for(29900));  // ceil(29900 / rate)
    BOOST_TEST(d[1]["days"].GetInt64() == 90);
    BOOST_TEST(d[2]["days"].GetInt64() == 365);
    check_all_prices(items, 0);
}

BOOST_AUTO_TEST_CASE(discounts_combine_and_cap_at_100) {
    const int64_t tg = new_user();
    const std::string who = " WHERE telegram_id = " + str(tg);
    Cleanup cleanup;
    cleanup.add("DELETE FROM sales WHERE name LIKE 'it-sale-" + str(tg) + "%'");
    cleanup.add("DELETE FROM promo_groups WHERE name = 'it-group-" + str(tg) + "'");
    exec("INSERT INTO promo_groups (name, discount_pct) VALUES ('it-group-" + str(tg) + "', 15)");
    exec("UPDATE users SET personal_discount_pct = 10, promo_discount_pct = 5, promo_discount_until = now() + interval '1 day',"
         " promo_group_id = (SELECT id FROM promo_groups WHERE name = 'it-group-" + str(tg) + "')" + who);
    // Only running sales count, and of two running ones the larger.
    exec("INSERT INTO sales (name, discount_pct, starts_at, ends_at) VALUES"
         " ('it-sale-" + str(tg) + "-a', 20, now() - interval '1 hour', now() + interval '1 hour'),"
         " ('it-sale-" + str(tg) + "-b', 10, now() - interval '1 hour', now() + interval '1 hour'),"
         " ('it-sale-" + str(tg) + "-future', 50, now() + interval '1 day', now() + interval '2 days'),"
         " ('it-sale-" + str(tg) + "-over', 50, now() - interval '2 days', now() - interval '1 day')");

    const auto doc = get_as(tg, "/api/cabinet/plans");
    check_all_prices(doc["items"], 10 + 15 + 5 + 20);
    BOOST_TEST(standard_30_price(tg) == 14950);

    // An expired promo-code offer no longer counts.
    exec("UPDATE users SET promo_discount_until = now() - interval '1 minute'" + who);
    BOOST_TEST(standard_30_price(tg) == discounted(29900, 45));

    // 59 + 15 + 5 + 20 = 99 %: the shop keeps the rounding (29900 - 29601).
    exec("UPDATE users SET personal_discount_pct = 59, promo_discount_until = NULL" + who);
    BOOST_TEST(standard_30_price(tg) == 299);
    // 70 + 15 + 5 + 20 = 110 % is capped at 100 %: free, zero stars, list price unchanged.
    exec("UPDATE users SET personal_discount_pct = 70" + who);
    const auto capped = get_as(tg, "/api/cabinet/plans");
    check_all_prices(capped["items"], 100);
    const auto& d = find_by(capped["items"], "public_code", "family")["durations"][2];
    BOOST_TEST(d["price_minor"].GetInt64() == 0);
    BOOST_TEST(d["price_stars"].GetInt64() == 1);  // max(1, …): the original's rule
    BOOST_TEST(d["base_price_minor"].GetInt64() == 499000);
}

BOOST_AUTO_TEST_CASE(is_current_only_for_a_usable_subscription) {
    const int64_t tg = new_user();
    auto current = [&] {
        std::vector<std::string> codes;
        const auto doc = get_as(tg, "/api/cabinet/plans");
        for (const auto& p : doc["items"].GetArray())
            if (p["is_current"].GetBool()) codes.emplace_back(p["public_code"].GetString());
        return codes;
    };
    BOOST_TEST(current().empty());  // no subscription at all
    exec("INSERT INTO subscriptions (user_id, status, plan_id, expire_at) VALUES (" + str(user_id_of(tg)) + ", 'active', " +
         str(plan_id("family")) + ", now() + interval '10 days')");
    const std::string sub = " WHERE user_id = " + str(user_id_of(tg));
    BOOST_TEST(current() == std::vector<std::string>{"family"});
    exec("UPDATE subscriptions SET status = 'trial'" + sub);
    BOOST_TEST(current() == std::vector<std::string>{"family"});
    exec("UPDATE subscriptions SET expire_at = now() - interval '1 minute'" + sub);
    BOOST_TEST(current().empty());  // expired
    exec("UPDATE subscriptions SET status = 'disabled', expire_at = now() + interval '10 days'" + sub);
    BOOST_TEST(current().empty());
    exec("UPDATE subscriptions SET status = 'active', traffic_limit_bytes = 100, traffic_used_bytes = 100" + sub);
    BOOST_TEST(current().empty());  // limited
}

BOOST_AUTO_TEST_CASE(inactive_and_empty_plans_are_hidden) {
    const int64_t tg = new_user();
    const std::string p = "it-" + str(tg) + "-";
    Cleanup cleanup;
    cleanup.add("DELETE FROM plans WHERE public_code LIKE '" + p + "%'");
    exec("INSERT INTO plans (public_code, name, traffic_limit_bytes, device_limit, sort_order, is_active) VALUES"
         " ('" + p + "shown', 'Shown', 0, 2, -100, true), ('" + p + "hidden', 'Hidden', NULL, 1, -99, false),"
         " ('" + p + "empty', 'Empty', NULL, 1, -98, true)");
    exec("INSERT INTO plan_durations (plan_id, days, months, price_minor) SELECT id, d, d / 30, 1000 + d FROM plans,"
         " (VALUES (60), (7)) v(d) WHERE public_code IN ('" + p + "shown', '" + p + "hidden')");

    const auto doc = get_as(tg, "/api/cabinet/plans");
    const auto& items = doc["items"];
    BOOST_TEST(!has_item(items, "public_code", p + "hidden"));
    BOOST_TEST(!has_item(items, "public_code", p + "empty"));
    BOOST_REQUIRE(items.Size() >= 1u);
    const auto& shown = items[0];  // lowest sort_order first
    BOOST_TEST(shown["public_code"].GetString() == p + "shown");
    BOOST_TEST(shown["traffic_limit_bytes"].IsNull());  // 0 in the table means unlimited too
    BOOST_TEST(shown["device_limit"].GetInt64() == 2);
    BOOST_REQUIRE(shown["durations"].Size() == 2u);
    BOOST_TEST(shown["durations"][0]["days"].GetInt64() == 7);
    BOOST_TEST(shown["durations"][0]["price_minor"].GetInt64() == 1007);
    BOOST_TEST(shown["durations"][1]["days"].GetInt64() == 60);
    BOOST_TEST(shown["durations"][1]["months"].GetInt64() == 2);
}

BOOST_AUTO_TEST_CASE(constructor_lists_ordered_and_discounted) {
    const int64_t tg = new_user();
    Cleanup cleanup;
    cleanup.add("DELETE FROM constructor_periods WHERE days IN (45, 46)");
    cleanup.add("DELETE FROM constructor_packs WHERE gb IN (77, 78)");
    exec("INSERT INTO constructor_periods (days, months, price_minor, is_active) VALUES (45, 1, 12345, true), (46, 1, 1, false)");
    exec("INSERT INTO constructor_packs (gb, price_minor, is_active) VALUES (77, 999, true), (78, 1, false)");
    exec("UPDATE users SET personal_discount_pct = 15 WHERE telegram_id = " + str(tg));

    const auto doc = get_as(tg, "/api/cabinet/constructor");
    BOOST_TEST(std::string(doc["currency"].GetString()) == "RUB");
    BOOST_TEST(doc["stars_rate"].IsInt64());  // minor units per star, the original's integer
    BOOST_TEST(doc["stars_rate"].GetInt64() == stars_rate_minor());

    const auto& periods = doc["periods"];
    BOOST_TEST(has_item(periods, "days", "30"));  // demo data
    BOOST_TEST(!has_item(periods, "days", "46"));  // inactive
    for (rapidjson::SizeType i = 1; i < periods.Size(); ++i)
        BOOST_TEST(periods[i - 1]["days"].GetInt64() < periods[i]["days"].GetInt64());
    const auto& mine = find_by(periods, "days", "45");
    BOOST_TEST(mine["id"].GetInt64() == count("SELECT id FROM constructor_periods WHERE days = 45"));
    BOOST_TEST(mine["months"].GetInt64() == 1);
    BOOST_TEST(mine["price_minor"].GetInt64() == 10494);  // 12345 - floor(1851.75)
    BOOST_TEST(find_by(periods, "days", "30")["price_minor"].GetInt64() == discounted(14900, 15));

    const auto& packs = doc["traffic_packs"];
    std::vector<int64_t> gbs;
    for (const auto& k : packs.GetArray()) gbs.push_back(k["gb"].GetInt64());
    BOOST_REQUIRE(gbs.size() >= 2u);
    BOOST_TEST(gbs.back() == 0);  // unlimited last (demo data has it)
    for (size_t i = 1; i + 1 < gbs.size(); ++i) BOOST_TEST(gbs[i - 1] < gbs[i]);
    BOOST_TEST(std::count(gbs.begin(), gbs.end(), 77) == 1);
    BOOST_TEST(std::count(gbs.begin(), gbs.end(), 78) == 0);  // inactive
    BOOST_TEST(find_by(packs, "gb", "77")["price_minor"].GetInt64() == 850);  // 999 - floor(149.85)
    BOOST_TEST(find_by(packs, "gb", "0")["price_minor"].GetInt64() == discounted(29900, 15));
    BOOST_TEST(find_by(packs, "gb", "0")["id"].GetInt64() == count("SELECT id FROM constructor_packs WHERE gb = 0"));
}

BOOST_AUTO_TEST_SUITE_END()
