// GET /api/cabinet/referral and GET /api/cabinet/payments (SPEC "Referral", "Limits";
// SPEC-GAPS "Cabinet shapes"), from rows the test writes itself.
#include <regex>

#include "catalog_support.hpp"

using namespace it;

BOOST_AUTO_TEST_SUITE(referral_and_payments)

BOOST_AUTO_TEST_CASE(referral_code_link_and_statistics) {
    const int64_t tg = new_user();
    const std::string code = get_as(tg, "/api/cabinet/me")["user"]["referral_code"].GetString();
    auto ref = get_as(tg, "/api/cabinet/referral");
    BOOST_TEST(ref["code"].GetString() == code);
    BOOST_TEST(ref["link"].GetString() == "https://t.me/" + env("BOT_USERNAME") + "?start=ref_" + code);
    BOOST_TEST(ref["bonus_days"].GetInt64() == std::stoll(env("REFERRAL_BONUS_DAYS")));
    BOOST_TEST(ref["commission_percent"].GetInt64() == std::stoll(env("REFERRAL_PERCENT")));
    BOOST_TEST(ref["invited_count"].GetInt64() == 0);
    BOOST_TEST(ref["earnings_minor"].GetInt64() == 0);

    // Two users arrive through the link (registration reads start_param), one does not.
    const int64_t a = fresh_telegram_id(), b = fresh_telegram_id();
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {tma_header(a, "A", "ref_" + code)}).status == 200);
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {tma_header(b, "B", "ref_" + code)}).status == 200);
    const int64_t other = new_user();
    const std::string me = str(user_id_of(tg));
    exec("INSERT INTO referral_earnings (referrer_id, referral_id, amount_minor) VALUES"
         " (" + me + ", " + str(user_id_of(a)) + ", 1500), (" + me + ", " + str(user_id_of(b)) + ", 2500),"
         " (" + str(user_id_of(other)) + ", " + str(user_id_of(a)) + ", 999)");

    ref = get_as(tg, "/api/cabinet/referral");
    BOOST_TEST(ref["invited_count"].GetInt64() == 2);
    BOOST_TEST(ref["earnings_minor"].GetInt64() == 4000);
    BOOST_TEST(get_as(other, "/api/cabinet/referral")["invited_count"].GetInt64() == 0);
    BOOST_TEST(get_as(other, "/api/cabinet/referral")["earnings_minor"].GetInt64() == 999);
}

BOOST_AUTO_TEST_CASE(payments_are_the_20_newest_newest_first) {
    const int64_t tg = new_user();
    BOOST_TEST(get_as(tg, "/api/cabinet/payments")["items"].Size() == 0u);
    const std::string uid = str(user_id_of(tg));
    // 25 rows; i/2 hours makes pairs share a timestamp, where the larger id comes first.
    exec("INSERT INTO transactions (user_id, type, status, amount_minor, currency, method, created_at)"
         " SELECT " + uid + ", (ARRAY['deposit', 'subscription_payment', 'refund'])[i % 3 + 1],"
         "  (ARRAY['completed', 'pending'])[i % 2 + 1], 100 * i, 'RUB', 'balance',"
         "  timestamptz '2026-01-01 00:00:00.250+00' + (i / 2) * interval '1 hour'"
         " FROM generate_series(1, 25) i ORDER BY i");
    // Another user's newer transaction stays theirs.
    const int64_t other = new_user();
    exec("INSERT INTO transactions (user_id, type, status, amount_minor, currency, method)"
         " VALUES (" + str(user_id_of(other)) + ", 'deposit', 'completed', 1, 'RUB', 'stars')");

    const auto doc = get_as(tg, "/api/cabinet/payments");
    const auto& items = doc["items"];
    BOOST_REQUIRE(items.Size() == 20u);
    for (rapidjson::SizeType k = 0; k < items.Size(); ++k)
        BOOST_TEST(items[k]["amount_minor"].GetInt64() == 100 * (25 - static_cast<int64_t>(k)), "item " << k);
    for (rapidjson::SizeType k = 1; k < items.Size(); ++k) BOOST_TEST(items[k - 1]["id"].GetInt64() > items[k]["id"].GetInt64());

    const auto& first = items[0];  // i = 25: 2026-01-01 + 12 h, fraction dropped
    BOOST_TEST(first["id"].GetInt64() == count("SELECT max(id) FROM transactions WHERE user_id = " + uid));
    BOOST_TEST(std::string(first["type"].GetString()) == "subscription_payment");  // 25 % 3 = 1
    BOOST_TEST(std::string(first["status"].GetString()) == "pending");           // 25 % 2 = 1
    BOOST_TEST(std::string(first["currency"].GetString()) == "RUB");
    BOOST_TEST(std::string(first["method"].GetString()) == "balance");
    BOOST_TEST(std::string(first["created_at"].GetString()) == "2026-01-01T12:00:00Z");
    BOOST_TEST(std::string(items[19]["created_at"].GetString()) == "2026-01-01T03:00:00Z");  // i = 6
    static const std::regex iso(R"(^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$)");
    for (const auto& it : items.GetArray()) BOOST_TEST(std::regex_match(it["created_at"].GetString(), iso));

    const auto theirs = get_as(other, "/api/cabinet/payments");
    BOOST_REQUIRE(theirs["items"].Size() == 1u);
    BOOST_TEST(std::string(theirs["items"][0]["method"].GetString()) == "stars");
}

BOOST_AUTO_TEST_CASE(catalogue_endpoints_need_credentials) {
    for (const char* path : {"/api/cabinet/plans", "/api/cabinet/constructor", "/api/cabinet/referral", "/api/cabinet/payments"})
        BOOST_TEST(http("GET", path).status == 401, path);
}

BOOST_AUTO_TEST_SUITE_END()
