// util/client_json and valid_utf8: what the strict parse lets through, refused.
#include <boost/test/unit_test.hpp>

#include "util/client_json.hpp"
#include "util/strings.hpp"

using namespace cabinet;

namespace {

JsonFault fault_of(const std::string& text, std::string* dup = nullptr) {
    rapidjson::Document doc;
    return parse_client_json(doc, text, dup);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(client_json)

BOOST_AUTO_TEST_CASE(utf8_is_checked_strictly) {
    BOOST_TEST(valid_utf8(""));
    BOOST_TEST(valid_utf8("plain ASCII"));
    BOOST_TEST(valid_utf8("Zoë, Юля, 😀"));
    BOOST_TEST(valid_utf8("\xF4\x8F\xBF\xBF"));     // U+10FFFF
    BOOST_TEST(!valid_utf8("\xED\xB0\x80"));        // U+DC00, a surrogate
    BOOST_TEST(!valid_utf8("\xED\xA0\x80"));        // U+D800
    BOOST_TEST(!valid_utf8("\xC0\xAF"));            // overlong '/'
    BOOST_TEST(!valid_utf8("\xE0\x80\xAF"));        // overlong '/'
    BOOST_TEST(!valid_utf8("\xF4\x90\x80\x80"));    // above U+10FFFF
    BOOST_TEST(!valid_utf8("\xFF"));
    BOOST_TEST(!valid_utf8("abc\xE2\x82"));         // cut short
    BOOST_TEST(!valid_utf8("\x80"));                // stray continuation
}

BOOST_AUTO_TEST_CASE(good_json_passes) {
    BOOST_TEST((fault_of(R"({"name":"Zoë \ud83d\ude00","tags":["a","b"],"n":{"x":1,"y":2}})") == JsonFault::none));
    BOOST_TEST((fault_of(R"([{"a":1},{"a":2}])") == JsonFault::none));  // same key in two objects is fine
}

BOOST_AUTO_TEST_CASE(lone_surrogates_are_bad_unicode) {
    BOOST_TEST((fault_of(R"({"name":"\udc00"})") == JsonFault::bad_unicode));          // lone low
    BOOST_TEST((fault_of(R"({"name":"\ud800"})") == JsonFault::bad_unicode));          // lone high
    BOOST_TEST((fault_of(R"({"name":"\ud800\u0041"})") == JsonFault::bad_unicode));    // high + not low
    BOOST_TEST((fault_of(R"({"\udfff":"key"})") == JsonFault::bad_unicode));           // in a key
    BOOST_TEST((fault_of(R"({"a":[[{"b":"\udc00"}]]})") == JsonFault::bad_unicode));   // deep inside
    BOOST_TEST((fault_of("{\"name\":\"\xff\"}") == JsonFault::bad_unicode));            // raw invalid byte
    BOOST_TEST((fault_of(R"({"name":"Ann\u0000admin"})") == JsonFault::bad_unicode));  // NUL: cut at it before
    BOOST_TEST((fault_of(R"({"a\u0000":1})") == JsonFault::bad_unicode));
}

BOOST_AUTO_TEST_CASE(repeated_keys_are_refused) {
    std::string dup;
    BOOST_TEST((fault_of(R"({"amount":1,"plan":2,"amount":1000})", &dup) == JsonFault::duplicate_key));
    BOOST_TEST(dup == "amount");
    BOOST_TEST((fault_of(R"({"x":{"k":1,"k":2}})") == JsonFault::duplicate_key));
    BOOST_TEST((fault_of(R"({"k":1,"\u006b":2})") == JsonFault::duplicate_key));  // same key, spelled as an escape
    BOOST_TEST(describe(JsonFault::duplicate_key, "amount") == "duplicate key \"amount\" in JSON object");
}

BOOST_AUTO_TEST_CASE(malformed_and_deep) {
    BOOST_TEST((fault_of("{") == JsonFault::malformed));
    BOOST_TEST((fault_of(R"({"n":1e400})") == JsonFault::malformed));
    // Nested far deeper than a recursive walk could survive on a small stack.
    BOOST_TEST((fault_of(std::string(30000, '[') + std::string(30000, ']')) == JsonFault::none));
}

BOOST_AUTO_TEST_SUITE_END()
