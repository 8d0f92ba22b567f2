#pragma once
// Finding customers for the owner's cabinet (GET /api/admin/customers, its CSV export;
// docs/api.md "Customers"). What the search box holds decides where it looks:
//   digits                 → Telegram id, or our own id
//   "@name…"               → usernames that start with it
//   "a@b…" (an @ inside)   → e-mails that start with it
//   a subscription link, or a panel short id / uuid → that subscription's customer
//   other text (3+ chars)  → a fragment of first name, last name or username (trigrams)
// Each answer is the newest customers first, a page of them, next to the one before by id;
// every shape is a range of one index at a million customers (sql 0048).
#include <pqxx/pqxx>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "db/db.hpp"
#include "services/customer_handle.hpp"
#include "util/json_object.hpp"

namespace cabinet {

enum class CustomerStatus { any, active, trial, expired, none, blocked };

struct CustomerFilter {
    std::string q;  // trimmed; empty: everyone
    CustomerStatus status = CustomerStatus::any;
    std::optional<std::string> promo_group;  // a group's name
    std::optional<int64_t> joined_from, joined_until;  // Unix seconds, [from, until)
    std::optional<int64_t> before_id;                  // the cursor: ids below it
    int64_t limit = 50;
};

// Reads the status filter's name; ApiError 400 for anything else.
CustomerStatus customer_status_named(const std::string& name);
// Throws ApiError 422 ("q ...") for a search text that names nothing it can look up by.
void check_customer_query(const std::string& q);

// A customer's subscription as the owner's pages show it beside them (the list, the
// support inbox's summary): its status as the customer sees it now.
struct SubscriptionGlance {
    std::string status;  // effective (domain/subscription_status.hpp)
    bool is_trial = false;
    std::string plan_name;
    int64_t expire_at = 0;
    int64_t traffic_limit_bytes = 0, traffic_used_bytes = 0;
};
// Read from a row's is_trial, plan_name, expire_at, traffic_limit_bytes, traffic_used_bytes
// and its stored status (column `status_column`); nullopt when that is null (none).
std::optional<SubscriptionGlance> subscription_glance(const pqxx::row& r, const char* status_column);
// "subscription": {status, is_trial, plan_name, expire_at, and with_traffic the traffic's
// limit and use}, or null for none.
void write_subscription_glance(JsonObject& o, const std::optional<SubscriptionGlance>& s, bool with_traffic = false);

// A customer as the list shows them.
struct CustomerRow : CustomerHandle {
    std::string last_name;
    std::optional<std::string> email;
    int64_t balance_minor = 0;
    std::string currency;
    bool is_blocked = false;
    int64_t personal_discount_pct = 0;
    std::optional<std::string> promo_group;
    int64_t created_at = 0;
    std::optional<SubscriptionGlance> subscription;
};

// One page (filter.limit rows) in the filter's order.
std::vector<CustomerRow> search_customers(pqxx::transaction_base& txn, const CustomerFilter& filter);
std::vector<CustomerRow> search_customers(Db& db, const CustomerFilter& filter);  // a read of its own
// One customer in the list's shape; nullopt when there is no such id.
std::optional<CustomerRow> customer_row(pqxx::transaction_base& txn, int64_t user_id);

void write_customer(JsonWriter& w, const CustomerRow& c);
// The CSV export's header line and one row (spreadsheet-safe: a cell that would start a
// formula is prefixed with an apostrophe). Both end with CRLF.
extern const char* const kCustomerCsvHeader;
void append_customer_csv(std::string& out, const CustomerRow& c);

}  // namespace cabinet
