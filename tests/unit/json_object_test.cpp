// util/json_object.hpp: what an answer's writer produces, member by member, and that a
// failure half-way leaves the response to the error writer instead of aborting.
#include <boost/test/unit_test.hpp>

#include <optional>
#include <stdexcept>
#include <string>

#include "util/json_object.hpp"

using namespace cabinet;

namespace {

template <typename Write>
std::string written(Write write) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    write(w);
    return {buf.GetString(), buf.GetSize()};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(json_object)

BOOST_AUTO_TEST_CASE(each_type_is_written_as_its_json) {
    const std::optional<std::string> none;
    const std::optional<int64_t> seven = 7;
    const auto text = written([&](JsonWriter& w) {
        JsonObject(w)
            .put("id", 42)
            .put("name", "a \"quoted\" name")
            .put("ok", true)
            .put("email", none)
            .put("n", seven)
            .put("big", int64_t{1} << 40)
            .time("at", 86400)
            .time("never", 0)
            .null("gone")
            .raw("ui", R"({"x":1})");
    });
    BOOST_TEST(text == R"({"id":42,"name":"a \"quoted\" name","ok":true,"email":null,"n":7,"big":1099511627776,)"
                       R"("at":"1970-01-02T00:00:00Z","never":null,"gone":null,"ui":{"x":1}})");
}

BOOST_AUTO_TEST_CASE(nested_scopes_close_in_order) {
    const auto text = written([](JsonWriter& w) {
        JsonObject o(w);
        o.object("traffic").put("used", 1).put("limit", 2);
        {
            auto items = o.array("items");
            items.add(1).add("two");
            items.object().put("three", 3);
            items.array().add(false);
        }
        o.array("empty");
        o.put("last", true);
    });
    BOOST_TEST(text == R"({"traffic":{"used":1,"limit":2},"items":[1,"two",{"three":3},[false]],"empty":[],"last":true})");
}

BOOST_AUTO_TEST_CASE(object_text_is_taken_after_the_object_closes) {
    BOOST_TEST(object_text([](JsonObject& o) { o.put("a", 1); }) == R"({"a":1})");
}

BOOST_AUTO_TEST_CASE(an_exception_inside_a_scope_passes_through_without_closing_it) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    BOOST_CHECK_THROW(
        {
            JsonObject o(w);
            auto list = o.array("items");
            w.StartObject();  // a level a failing writer left open: closing the array would throw
            throw std::runtime_error("the database went away");
        },
        std::runtime_error);
}

BOOST_AUTO_TEST_SUITE_END()
