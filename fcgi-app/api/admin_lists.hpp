#pragma once
// What the owner's lists (customers, payments, broadcasts, the support inbox) share: the
// page the query asks for, a day in the query string, the id of one item in the path, and
// the CSV export streamed a batch at a time.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/context.hpp"
#include "services/shop_days.hpp"

namespace cabinet::api {

// ?limit=: how many items a page has, 1..200 (50 when absent); 400 otherwise.
int64_t page_limit(Exchange& ex);
// ?cursor=: where the page starts, the id the last page gave as its next_cursor; 400 when
// it is not one.
std::optional<int64_t> page_cursor(Exchange& ex);
// A list's filter with the page the query asks for (its before_id and limit).
template <class Filter>
Filter paged(Exchange& ex, Filter f) {
    f.before_id = page_cursor(ex);
    f.limit = page_limit(ex);
    return f;
}

// The item's id in the path ({id}); 404 with `missing` ("no payment with that id") when it
// is no id at all.
int64_t path_id(Exchange& ex, const char* missing);

// An answer kept as JSON text (a customer's card, a payment's detail, an action's answer);
// none: 404 with `missing`.
void write_json_text(Exchange& ex, std::string_view json);
void write_json_text(Exchange& ex, const std::optional<std::string>& json, const char* missing);

// The dates of a "between" filter (`from_name`, `to_name`, each "2026-01-31" or absent) as
// the Unix seconds the range covers, the shop's days (services/shop_days.hpp); 400 when one
// is not a date.
DayRange query_days(Exchange& ex, const char* from_name, const char* to_name);

// The export of the rows `f` finds: `search(db, filter)` reads a batch (`filter.limit`, set
// to kExportBatch) below `filter.before_id`, and `append(out, row)` adds one CSV line. The
// first batch is read now, so a database failure is still a proper 503; the rest as the
// client takes them (Response::stream), each batch a short read of its own from where the
// last ended (keyset by id): neither the pool nor PostgreSQL holds the whole list, and no
// transaction stays open while the client reads.
inline constexpr int64_t kExportBatch = 2000;  // rows a read of the export takes
template <class Filter, class Row>
void stream_csv(Exchange& ex, const char* filename, const char* header, Filter f,
                std::vector<Row> (*search)(Db&, const Filter&), void (*append)(std::string&, const Row&)) {
    f.limit = kExportBatch;
    auto first = search(ex.io.db, f);
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
            batch = search(db, f);
        }
    };
}

}  // namespace cabinet::api
