// Init-data verification against vectors made by @telegram-apps/init-data-node
// (tests/fixtures/init-data), plus the hostile inputs the issue lists.
#include <boost/test/unit_test.hpp>

#include <fstream>
#include <sstream>

#include "auth/init_data.hpp"
#include "auth/init_data_signer.hpp"
#include "errors.hpp"
#include "util/json.hpp"
#include "util/strings.hpp"

using namespace cabinet;

namespace {

rapidjson::Document load_vectors() {
    std::ifstream in(FIXTURES_DIR "/init-data/vectors.json");
    BOOST_REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    rapidjson::Document doc;
    doc.Parse(ss.str().c_str());
    BOOST_REQUIRE(!doc.HasParseError());
    return doc;
}

int status_of(const InitDataVerifier& v, const std::string& raw, int64_t now) {
    try {
        v.verify(raw, now);
        return 200;
    } catch (const ApiError& e) {
        return e.status();
    }
}

const std::string kToken = "1234567890:TEST-fixture-token_abcdefghijklmnop";

}  // namespace

BOOST_AUTO_TEST_SUITE(init_data)

BOOST_AUTO_TEST_CASE(independent_vectors) {
    const auto doc = load_vectors();
    const InitDataVerifier verifier(doc["bot_token"].GetString(), 86400);
    int checked = 0;
    for (const auto& c : doc["cases"].GetArray()) {
        const std::string name = c["name"].GetString();
        const std::string raw = c["init_data"].GetString();
        const int64_t now = c["auth_date"].GetInt64() + 10;
        BOOST_TEST_CONTEXT("case " << name) {
            const bool has_user = c["user_id"].IsInt64();
            if (c["valid"].GetBool() && has_user) {
                const InitData d = verifier.verify(raw, now);
                BOOST_TEST(d.user.id == c["user_id"].GetInt64());
                BOOST_TEST(d.auth_date == c["auth_date"].GetInt64());
                BOOST_TEST(d.user.first_name == std::string(c["first_name"].GetString()));
                if (c["username"].IsString()) BOOST_TEST(d.user.username == std::string(c["username"].GetString()));
                if (c["start_param"].IsString()) BOOST_TEST(d.start_param == std::string(c["start_param"].GetString()));
            } else {
                // forged, or genuine but without a user (nothing to sign in as)
                BOOST_TEST(status_of(verifier, raw, now) == 401);
            }
            ++checked;
        }
    }
    BOOST_TEST(checked >= 12);
}

BOOST_AUTO_TEST_CASE(own_signer_agrees_with_verifier) {
    const InitDataVerifier v(kToken, 3600);
    TelegramUser u;
    u.id = 42;
    u.first_name = "Zoë & \"friends\" = +1";
    u.username = "zoe";
    const std::string raw = sign_init_data(kToken, u, 1000, "ref_ABC");
    const InitData d = v.verify(raw, 1100);
    BOOST_TEST(d.user.first_name == u.first_name);
    BOOST_TEST(d.start_param == "ref_ABC");
}

BOOST_AUTO_TEST_CASE(stale_and_future_are_refused) {
    const InitDataVerifier v(kToken, 3600);
    TelegramUser u;
    u.id = 42;
    u.first_name = "A";
    const std::string raw = sign_init_data(kToken, u, 10000);
    BOOST_TEST(status_of(v, raw, 10000 + 3600) == 200);
    BOOST_TEST(status_of(v, raw, 10000 + 3601) == 401);
    BOOST_TEST(status_of(v, raw, 10000 - 600) == 401);
}

BOOST_AUTO_TEST_CASE(hostile_inputs_are_401) {
    const InitDataVerifier v(kToken, 3600);
    TelegramUser u;
    u.id = 42;
    u.first_name = "A";
    const std::string good = sign_init_data(kToken, u, 10000);
    const int64_t now = 10001;
    const auto without_hash = good.substr(0, good.find("&hash="));
    BOOST_TEST(status_of(v, "", now) == 401);
    BOOST_TEST(status_of(v, without_hash, now) == 401);                          // missing hash
    BOOST_TEST(status_of(v, without_hash + "&hash=zz", now) == 401);             // non-hex
    BOOST_TEST(status_of(v, without_hash + "&hash=" + std::string(64, 'g'), now) == 401);
    BOOST_TEST(status_of(v, good + "&hash=00", now) == 401);                     // duplicate hash
    BOOST_TEST(status_of(v, "auth_date=1&" + good, now) == 401);                 // duplicate key
    BOOST_TEST(status_of(v, good + "&x=" + std::string(10000, 'a'), now) == 401);  // huge
    BOOST_TEST(status_of(v, "garbage-without-equals", now) == 401);
    BOOST_TEST(status_of(v, "a=%zz&hash=" + std::string(64, '0'), now) == 401);  // bad escape
}

BOOST_AUTO_TEST_CASE(signed_but_broken_user_json_is_401) {
    const InitDataVerifier v(kToken, 3600);
    // Build correctly signed data whose user field is not a valid user.
    auto sign_raw_user = [&](const std::string& user_json) {
        const std::string check = "auth_date=10000\nuser=" + user_json;
        const Sha256 secret = hmac_sha256(std::string_view("WebAppData"), kToken);
        const Sha256 h = hmac_sha256(secret, check);
        return "auth_date=10000&user=" + form_encode(user_json) + "&hash=" + hex_encode(h.data(), h.size());
    };
    BOOST_TEST(status_of(v, sign_raw_user(R"({"id":42,"first_name":"ok"})"), 10001) == 200);
    BOOST_TEST(status_of(v, sign_raw_user("not json"), 10001) == 401);
    BOOST_TEST(status_of(v, sign_raw_user(R"({"first_name":"no id"})"), 10001) == 401);
    BOOST_TEST(status_of(v, sign_raw_user(R"({"id":-5})"), 10001) == 401);
    BOOST_TEST(status_of(v, sign_raw_user(R"({"id":"42"})"), 10001) == 401);
    BOOST_TEST(status_of(v, sign_raw_user("{\"id\":42,\"first_name\":\"\xff\xfe\"}"), 10001) == 401);  // invalid UTF-8
    BOOST_TEST(status_of(v, sign_raw_user("[" + std::string(100000, '[')), 10001) == 401);
    // Escapes RapidJSON decodes into text that is not UTF-8 (PostgreSQL would refuse the name).
    BOOST_TEST(status_of(v, sign_raw_user(R"({"id":42,"first_name":"\udc00"})"), 10001) == 401);
    BOOST_TEST(status_of(v, sign_raw_user(R"({"id":42,"first_name":"a\ud800b"})"), 10001) == 401);
    BOOST_TEST(status_of(v, sign_raw_user(R"({"id":42,"first_name":"\ud83d\ude00"})"), 10001) == 200);  // a pair
    // Two ids: which one would another reader take?
    BOOST_TEST(status_of(v, sign_raw_user(R"({"id":42,"id":43,"first_name":"x"})"), 10001) == 401);
}

BOOST_AUTO_TEST_SUITE_END()
