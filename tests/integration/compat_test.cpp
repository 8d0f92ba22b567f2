// Drop-in for the original shop's clients (issue 16): the original mini-app's request
// sequence replayed for a new Telegram user, and every field it reads checked for presence
// and type (tests/fixtures/original_client.json). A field renamed, dropped or changed in
// type here breaks a shop's existing mini-app, whatever our own pages do.
#include <boost/test/unit_test.hpp>

#include <fstream>
#include <regex>
#include <sstream>

#include "support.hpp"

using namespace it;

namespace {

rapidjson::Document fixture() {
    std::ifstream in(FIXTURES_DIR "/original_client.json");
    std::stringstream ss;
    ss << in.rdbuf();
    rapidjson::Document d;
    d.Parse(ss.str().c_str());
    if (d.HasParseError() || !d.IsObject()) throw std::runtime_error("original_client.json does not parse");
    return d;
}

bool has_type(const rapidjson::Value& v, const std::string& types) {
    static const std::regex iso(R"(^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$)");
    std::stringstream alternatives(types);
    for (std::string t; std::getline(alternatives, t, '|');) {
        if ((t == "int" && v.IsInt64()) || (t == "bool" && v.IsBool()) || (t == "string" && v.IsString()) ||
            (t == "object" && v.IsObject()) || (t == "array" && v.IsArray()) || (t == "null" && v.IsNull()) ||
            (t == "iso8601" && v.IsString() && std::regex_match(v.GetString(), iso)))
            return true;
    }
    return false;
}

// Checks `path` ("a.b", "a[].b": b of every item of a) below `v`; adds each failure to `errors`.
void check(const rapidjson::Value& v, const std::string& path, const std::string& types, const std::string& where,
           std::vector<std::string>& errors) {
    const auto dot = path.find('.');
    std::string head = path.substr(0, dot);
    const std::string rest = dot == std::string::npos ? "" : path.substr(dot + 1);
    const bool each = head.size() > 2 && head.compare(head.size() - 2, 2, "[]") == 0;
    if (each) head.resize(head.size() - 2);
    if (!v.IsObject() || !v.HasMember(head.c_str())) {
        errors.push_back(where + head + ": missing");
        return;
    }
    const rapidjson::Value& field = v[head.c_str()];
    if (!each) {
        if (rest.empty()) {
            if (!has_type(field, types)) errors.push_back(where + head + ": not " + types);
        } else {
            check(field, rest, types, where + head + ".", errors);
        }
        return;
    }
    if (!field.IsArray()) {
        errors.push_back(where + head + ": not an array");
        return;
    }
    for (rapidjson::SizeType i = 0; i < field.Size(); ++i) {
        const std::string item = where + head + "[" + std::to_string(i) + "]";
        if (rest.empty()) {
            if (!has_type(field[i], types)) errors.push_back(item + ": not " + types);
        } else {
            check(field[i], rest, types, item + ".", errors);
        }
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(compat)

BOOST_AUTO_TEST_CASE(the_original_mini_app_finds_every_field_it_reads) {
    const rapidjson::Document f = fixture();
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg, "Compat");
    for (const auto& step : f["steps"].GetArray()) {
        const std::string name = step["name"].GetString();
        BOOST_TEST_CONTEXT(name) {
            if (step.HasMember("balance_minor")) set_balance(tg, step["balance_minor"].GetInt64());
            std::vector<std::string> headers;
            if (!step.HasMember("auth") || step["auth"].GetBool()) headers.push_back(auth);
            std::string body;
            if (step.HasMember("body")) {
                rapidjson::StringBuffer buf;
                rapidjson::Writer<rapidjson::StringBuffer> w(buf);
                step["body"].Accept(w);
                body = buf.GetString();
                headers.emplace_back("Content-Type: application/json");
            }
            const auto r = http(step["method"].GetString(), step["path"].GetString(), headers, body);
            BOOST_REQUIRE_MESSAGE(r.status == 200, name << ": HTTP " << r.status << " " << r.body);
            const auto doc = r.json();
            std::vector<std::string> errors;
            for (const auto& field : step["fields"].GetObject())
                check(doc, field.name.GetString(), field.value.GetString(), "", errors);
            for (const auto& e : errors) BOOST_ERROR(name << ": " << e);
        }
    }
}

// The checker itself fails on what it is there to catch: a missing field, a wrong type, a
// bad item of an array, a date that is not ISO-8601.
BOOST_AUTO_TEST_CASE(the_checker_catches_missing_and_mistyped_fields) {
    rapidjson::Document d;
    d.Parse(R"({"a":{"b":1},"items":[{"x":"s"},{"x":2}],"at":"2026-01-02 03:04:05","n":null})");
    std::vector<std::string> errors;
    check(d, "a.b", "int", "", errors);
    BOOST_TEST(errors.empty());
    check(d, "a.c", "int", "", errors);
    check(d, "a.b", "string", "", errors);
    check(d, "items[].x", "string", "", errors);
    check(d, "at", "iso8601", "", errors);
    check(d, "n", "string|null", "", errors);
    BOOST_REQUIRE(errors.size() == 4u);
    BOOST_TEST(errors[0] == "a.c: missing");
    BOOST_TEST(errors[1] == "a.b: not string");
    BOOST_TEST(errors[2] == "items[1].x: not string");
    BOOST_TEST(errors[3] == "at: not iso8601");
}

BOOST_AUTO_TEST_SUITE_END()
