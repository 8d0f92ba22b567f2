#pragma once
// What the owner's long lists (customers, payments) share: a day in the query string, and
// the CSV export streamed a batch at a time.
#include <optional>
#include <string>
#include <utility>

#include "app/context.hpp"

namespace cabinet::api {

// The dates of a "between" filter (`from_name`, `to_name`, each "2026-01-31" or absent) as
// the Unix seconds the range covers, [start of the first day, end of the last day), days
// being the shop's (SHOP_TIMEZONE: what the Overview counts by, and what the owner means by
// "1 December"); 400 when one is not a date.
struct DayRange {
    std::optional<int64_t> from, until;
};
DayRange query_days(Exchange& ex, const char* from_name, const char* to_name);

// The export: `search(txn, filter)` reads `filter.limit` rows below `filter.before_id`, and
// `append(out, row)` adds one CSV line. The first batch is read now, so a database failure
// is still a proper 503; the rest as the client takes them (Response::stream), each batch a
// short read of its own from where the last ended (keyset by id): neither the pool nor
// PostgreSQL holds the whole list, and no transaction stays open while the client reads.
template <class Filter, class Search, class Append>
void stream_csv(Exchange& ex, const char* filename, const char* header, Filter f, Search search, Append append) {
    auto first = ex.io.db.read([&](auto& txn) { return search(txn, f); });
    ex.resp.content_type = "text/csv; charset=utf-8";
    ex.resp.header("Content-Disposition", std::string("attachment; filename=\"") + filename + "\"");
    ex.resp.stream = [&db = ex.io.db, f, header, search, append, first = std::move(first)](const Response::Sink& put) mutable {
        std::string chunk = header;
        auto batch = std::move(first);
        for (;;) {
            for (const auto& row : batch) append(chunk, row);
            put(chunk);
            chunk.clear();
            if (static_cast<int64_t>(batch.size()) < f.limit) return;
            f.before_id = batch.back().id;
            batch = db.read([&](auto& txn) { return search(txn, f); });
        }
    };
}

}  // namespace cabinet::api
