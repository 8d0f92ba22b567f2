// The pure parts of the payment gateways: money strings, credentials, signatures and the
// decoding of provider objects.
#include <boost/test/unit_test.hpp>

#include "payments/cryptobot.hpp"
#include "payments/wire.hpp"
#include "payments/yookassa.hpp"
#include "util/strings.hpp"

using namespace cabinet;
using namespace cabinet::payments;

BOOST_AUTO_TEST_SUITE(payments)

BOOST_AUTO_TEST_CASE(minor_units_format_as_two_decimals) {
    BOOST_TEST(format_minor(29900) == "299.00");
    BOOST_TEST(format_minor(29950) == "299.50");
    BOOST_TEST(format_minor(5) == "0.05");
    BOOST_TEST(format_minor(0) == "0.00");
    BOOST_TEST(format_minor(-150) == "-1.50");
    BOOST_TEST(format_minor(INT64_MIN) == "-92233720368547758.08");
}

BOOST_AUTO_TEST_CASE(decimal_strings_parse_to_minor_units) {
    BOOST_TEST(*parse_minor("299.00") == 29900);
    BOOST_TEST(*parse_minor("299.5") == 29950);
    BOOST_TEST(*parse_minor("299") == 29900);
    BOOST_TEST(*parse_minor("0.01") == 1);
    BOOST_TEST(*parse_minor("298.999") == 29899);  // cut, never rounded up
    for (const char* bad : {"", ".5", "299.", "-1.00", "1,00", " 1.00", "1e3", "abc", "1.2.3", "1234567890123456"})
        BOOST_TEST(!parse_minor(bad).has_value(), bad);
    for (int64_t v : {0, 1, 99, 100, 29900, 123456789})
        BOOST_TEST(*parse_minor(format_minor(v)) == v);
}

BOOST_AUTO_TEST_CASE(basic_auth_and_base64) {
    BOOST_TEST(base64("") == "");
    BOOST_TEST(base64("f") == "Zg==");
    BOOST_TEST(base64("fo") == "Zm8=");
    BOOST_TEST(base64("foo") == "Zm9v");
    BOOST_TEST(basic_auth_header("shop", "sec") == "Authorization: Basic c2hvcDpzZWM=");
}

BOOST_AUTO_TEST_CASE(utf8_prefix_keeps_whole_characters) {
    BOOST_TEST(utf8_prefix("abc", 5) == "abc");
    BOOST_TEST(utf8_prefix("abc", 2) == "ab");
    BOOST_TEST(utf8_prefix("\xD0\x9F\xD1\x80\xD0\xB8", 2) == "\xD0\x9F\xD1\x80");  // "При" -> "Пр"
    BOOST_TEST(utf8_prefix("", 0) == "");
}

BOOST_AUTO_TEST_CASE(cryptobot_signature_is_hmac_keyed_with_sha256_of_the_token) {
    const std::string body = R"({"update_type":"invoice_paid"})";
    // Computed independently by the fake (node:crypto).
    const std::string expected = "3243cc3399c0006274638e5b6e066a3d99bdfa3cf7c09e8f8390f1fe9551a7c6";
    BOOST_TEST(cryptobot_signature("1234:AAtest", body) == expected);
    BOOST_TEST(cryptobot_signature_ok("1234:AAtest", body, expected));
    BOOST_TEST(cryptobot_signature_ok("1234:AAtest", body, "3243CC3399C0006274638E5B6E066A3D99BDFA3CF7C09E8F8390F1FE9551A7C6"));
    BOOST_TEST(!cryptobot_signature_ok("1234:AAtesT", body, expected));
    BOOST_TEST(!cryptobot_signature_ok("1234:AAtest", body + " ", expected));
    BOOST_TEST(!cryptobot_signature_ok("1234:AAtest", body, expected.substr(0, 62)));
    BOOST_TEST(!cryptobot_signature_ok("1234:AAtest", body, ""));
    BOOST_TEST(!cryptobot_signature_ok("", body, cryptobot_signature("", body)));  // no token, nothing verifies
}

BOOST_AUTO_TEST_CASE(cryptobot_update_decodes) {
    const auto u = parse_cryptobot_update(
        R"({"update_id":7,"update_type":"invoice_paid","request_date":"2026-01-01T00:00:00.000Z","payload":{)"
        R"("invoice_id":528890,"status":"paid","currency_type":"fiat","fiat":"RUB","amount":"299","payload":"42",)"
        R"("paid_asset":"USDT","paid_amount":"3.32"}})");
    BOOST_REQUIRE(u.has_value());
    BOOST_TEST(u->update_type == "invoice_paid");
    BOOST_TEST(u->invoice_id == "528890");
    BOOST_TEST(u->status == "paid");
    BOOST_TEST(u->transaction_id == 42);
    BOOST_TEST(u->amount_minor == 29900);
    BOOST_TEST(u->currency == "RUB");
    // Not our payload: decodes, with no transaction.
    const auto other = parse_cryptobot_update(
        R"({"update_type":"invoice_paid","payload":{"invoice_id":1,"status":"paid","fiat":"RUB","amount":"1.00","payload":"order-9"}})");
    BOOST_REQUIRE(other.has_value());
    BOOST_TEST(other->transaction_id == 0);
    for (const char* bad : {"", "[]", "{", R"({"update_type":"invoice_paid"})", R"({"update_type":"invoice_paid","payload":"x"})",
                            R"({"update_type":"invoice_paid","payload":{"invoice_id":1,"fiat":"RUB","amount":"x"}})",
                            R"({"update_type":"invoice_paid","payload":{"fiat":"RUB","amount":"1.00"}})"})
        BOOST_TEST(!parse_cryptobot_update(bad).has_value(), bad);
}

BOOST_AUTO_TEST_CASE(yookassa_payment_decodes) {
    rapidjson::Document d;
    d.Parse(R"({"id":"2419a771-000f-5000-9000-1edaf29243f2","status":"succeeded","paid":true,
        "amount":{"value":"299.00","currency":"RUB"},"metadata":{"transaction_id":"42"}})");
    const auto p = parse_yookassa_payment(d);
    BOOST_REQUIRE(p.has_value());
    BOOST_TEST(p->status == "succeeded");
    BOOST_TEST(p->amount_minor == 29900);
    BOOST_TEST(p->currency == "RUB");
    BOOST_TEST(p->transaction_id == 42);
    d.Parse(R"({"id":"x","status":"canceled","amount":{"value":"1.00","currency":"RUB"},
        "metadata":{"transaction_id":"-3"},"cancellation_details":{"party":"merchant","reason":"expired_on_confirmation"}})");
    BOOST_TEST(parse_yookassa_payment(d)->transaction_id == 0);
    BOOST_TEST(parse_yookassa_payment(d)->cancel_reason == "expired_on_confirmation");
    for (const char* bad : {R"({"id":"x","status":"succeeded"})", R"({"id":"x","status":"succeeded","amount":{"value":299}})",
                            R"({"status":"succeeded","amount":{"value":"1.00","currency":"RUB"}})", "[]"}) {
        d.Parse(bad);
        BOOST_TEST(!parse_yookassa_payment(d).has_value(), bad);
    }
    BOOST_TEST(plausible_yookassa_id("2419a771-000f-5000-9000-1edaf29243f2"));
    BOOST_TEST(!plausible_yookassa_id("../payments"));
    BOOST_TEST(!plausible_yookassa_id(""));
    BOOST_TEST(!plausible_yookassa_id(std::string(65, 'a')));
}

BOOST_AUTO_TEST_SUITE_END()
