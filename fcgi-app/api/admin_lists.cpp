#include "api/admin_lists.hpp"

#include "db/overview_repo.hpp"
#include "errors.hpp"
#include "http/query.hpp"
#include "util/time.hpp"

namespace cabinet::api {

namespace {

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

DayRange query_days(Exchange& ex, const char* from_name, const char* to_name) {
    const auto from = query_date(ex, from_name);
    const auto to = query_date(ex, to_name);
    if (!from && !to) return {};
    const std::string& zone = ex.settings().shop_timezone;
    return ex.io.db.read([&](auto& txn) {
        DayRange r;
        if (from) r.from = shop_day_start(txn, *from, 0, zone);
        if (to) r.until = shop_day_start(txn, *to, 1, zone);  // the whole last day
        return r;
    });
}

}  // namespace cabinet::api
