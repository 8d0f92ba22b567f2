#pragma once
// Helpers shared by the catalogue tests (catalog_test.cpp, catalog_admin_test.cpp).
// Sales are shop-wide and ops_test counts the demo plans, so whatever a test adds to the
// catalogue is removed again by a Cleanup, also when the test fails half-way.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "support.hpp"

namespace it {

struct Cleanup {
    std::vector<std::string> statements;  // run in reverse order of adding
    void add(std::string sql) { statements.push_back(std::move(sql)); }
    ~Cleanup() {
        for (auto s = statements.rbegin(); s != statements.rend(); ++s) {
            try {
                exec(*s);
            } catch (const std::exception& e) {
                BOOST_TEST_MESSAGE("cleanup failed: " << *s << ": " << e.what());
            }
        }
    }
};

// GET `path` as Telegram user `tg` (registered on first contact); 200 required.
inline rapidjson::Document get_as(int64_t tg, const std::string& path) {
    const auto r = http("GET", path, {tma_header(tg)});
    BOOST_REQUIRE_MESSAGE(r.status == 200, path << " answered " << r.status << ": " << r.body);
    return r.json();
}

// A fresh registered user: their Telegram id; `user_id_of` gives the row id.
inline int64_t new_user() {
    const int64_t tg = fresh_telegram_id();
    get_as(tg, "/api/cabinet/me");
    return tg;
}

// The price rule written out independently of domain/pricing: the discount is the floor of
// its exact share, percentages add up and stop at 100.
inline int64_t discounted(int64_t list, int64_t pct) { return list - list * std::min<int64_t>(pct, 100) / 100; }
// STARS_RATE_RUB: minor units per star (an old decimal value is hundredths).
inline int64_t stars_rate_minor() {
    const char* v = std::getenv("STARS_RATE_RUB");
    const std::string text = v && *v ? v : "130";
    return text.find('.') == std::string::npos ? std::stoll(text) : std::llround(std::stod(text) * 100);
}
inline int64_t stars_for(int64_t minor) { return std::max<int64_t>(1, (minor + stars_rate_minor() - 1) / stars_rate_minor()); }

// The item of an "items"/"periods"/... array whose `key` equals `value`; fails the test if none.
inline const rapidjson::Value& find_by(const rapidjson::Value& arr, const char* key, const std::string& value) {
    for (const auto& v : arr.GetArray())
        if (v[key].IsString() ? value == v[key].GetString() : value == std::to_string(v[key].GetInt64())) return v;
    BOOST_FAIL("no item with " << key << " = " << value);
    throw std::logic_error("unreachable");
}
// Holds for kEverywhereRequests answers in a row within a second: nginx spreads them over
// every pool process and many threads, so each has the change (owner settings, catalogue).
constexpr int kEverywhereRequests = 24;
constexpr int kLiveWithinMs = 1000;
inline bool everywhere(const std::function<bool()>& holds) {
    return wait_until([&] {
        for (int i = 0; i < kEverywhereRequests; ++i)
            if (!holds()) return false;
        return true;
    }, kLiveWithinMs);
}

// Pool processes listening for catalogue, account and settings changes right now.
inline int64_t listeners() {
    return count("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'cabinet-change-listener'");
}

inline bool has_item(const rapidjson::Value& arr, const char* key, const std::string& value) {
    for (const auto& v : arr.GetArray())
        if (v[key].IsString() ? value == v[key].GetString() : value == std::to_string(v[key].GetInt64())) return true;
    return false;
}

}  // namespace it
