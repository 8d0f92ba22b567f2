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

#include "util/json.hpp"

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

// A customer as the list shows them.
struct CustomerRow {
    int64_t id = 0;
    std::optional<int64_t> telegram_id;
    std::string username, first_name, last_name;
    std::optional<std::string> email;
    int64_t balance_minor = 0;
    std::string currency;
    bool is_blocked = false;
    int64_t personal_discount_pct = 0;
    std::optional<std::string> promo_group;
    int64_t created_at = 0;
    // The subscription, when there is one: its status as the customer sees it now.
    bool has_subscription = false;
    std::string status;
    bool is_trial = false;
    std::string plan_name;
    int64_t expire_at = 0;
};

// One page (filter.limit rows) in the filter's order.
std::vector<CustomerRow> search_customers(pqxx::transaction_base& txn, const CustomerFilter& filter);
// One customer in the list's shape; nullopt when there is no such id.
std::optional<CustomerRow> customer_row(pqxx::transaction_base& txn, int64_t user_id);

void write_customer(JsonWriter& w, const CustomerRow& c);
// The CSV export's header line and one row (spreadsheet-safe: a cell that would start a
// formula is prefixed with an apostrophe). Both end with CRLF.
extern const char* const kCustomerCsvHeader;
void append_customer_csv(std::string& out, const CustomerRow& c);

}  // namespace cabinet
