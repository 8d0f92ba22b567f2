#include "api/admin_lists.hpp"

#include "errors.hpp"
#include "http/query.hpp"
#include "util/time.hpp"

namespace cabinet::api {

std::optional<int64_t> query_day(const Exchange& ex, const char* name, int64_t days_after) {
    const auto v = query_param(ex.req.query, name);
    if (!v || v->empty()) return std::nullopt;
    const auto t = v->size() == 10 ? parse_iso8601(*v + "T00:00:00Z") : std::nullopt;
    if (!t) throw bad_request(std::string(name) + " must be a date, e.g. 2026-01-31");
    return *t + days_after * 86400;
}

}  // namespace cabinet::api
