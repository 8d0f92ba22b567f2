#include "api/admin_lists.hpp"

#include <limits>

#include "errors.hpp"
#include "http/query.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet::api {

namespace {

constexpr int64_t kDefaultPage = 50, kMaxPage = 200;

// The day in the query, checked; nullopt when absent.
std::optional<std::string> query_date(const Exchange& ex, const char* name) {
    const auto v = query_param(ex.req.query, name);
    if (!v || v->empty()) return std::nullopt;
    // A date that does not exist (2026-02-30) parses as another one; written back it differs.
    const auto t = v->size() == 10 ? parse_iso8601(*v + "T00:00:00Z") : std::nullopt;
    if (!t || iso8601_utc(*t).substr(0, 10) != *v) throw bad_request(std::string(name) + " must be a date, e.g. 2026-01-31");
    return v;
}

}  // namespace

int64_t page_limit(Exchange& ex) { return query_int(ex.req.query, "limit", 1, kMaxPage).value_or(kDefaultPage); }

std::optional<int64_t> page_cursor(Exchange& ex) {
    return query_int(ex.req.query, "cursor", 1, std::numeric_limits<int64_t>::max());
}

int64_t path_id(Exchange& ex, const char* missing) {
    int64_t id = 0;
    if (!parse_int64(ex.req.path_params.at(0), id) || id < 1) throw not_found(missing);
    return id;
}

void write_json_text(Exchange& ex, std::string_view json) {
    ex.resp.json().RawValue(json.data(), json.size(), rapidjson::kObjectType);
}

void write_json_text(Exchange& ex, const std::optional<std::string>& json, const char* missing) {
    if (!json) throw not_found(missing);
    write_json_text(ex, *json);
}

DayRange query_days(Exchange& ex, const char* from_name, const char* to_name) {
    const auto from = query_date(ex, from_name);
    const auto to = query_date(ex, to_name);
    return shop_day_range(ex.io.db, ex.settings().shop_timezone, from, to);
}

}  // namespace cabinet::api
