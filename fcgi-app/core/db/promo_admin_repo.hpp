#pragma once
// The owner's promo codes as the admin pages see and change them (statements in
// promo_admin_statements.cpp). Writes check nothing themselves: services/promo_admin.hpp
// validates and audits.
#include <pqxx/pqxx>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cabinet {

struct AdminPromoCode {
    int64_t id = 0;
    std::string code;
    std::string reward_type;  // balance | days | subscription | discount
    int64_t value = 0;        // minor units, days, days, percent
    std::optional<std::string> plan_code;
    std::optional<int64_t> max_uses;  // nullopt: unlimited
    int64_t uses = 0;
    std::optional<int64_t> valid_from, valid_until;  // unix seconds
    bool is_active = true;
    int64_t created_at = 0;
};

struct PromoCodeFilter {
    std::optional<std::string> text;    // a part of the code, any case
    std::optional<std::string> status;  // "active" | "disabled"; nullopt: both
    std::optional<int64_t> before_id;   // the cursor: codes older than this one
    int64_t limit = 50;
};

// A new code's row: plan_id set for a subscription code only.
struct PromoCodeRow {
    std::string code;
    std::string reward_type;
    int64_t value = 0;
    std::optional<int64_t> plan_id;
    std::optional<int64_t> max_uses;
    std::optional<int64_t> valid_from, valid_until;
};

std::vector<AdminPromoCode> admin_promo_codes(pqxx::transaction_base& txn, const PromoCodeFilter& f);
std::optional<AdminPromoCode> admin_promo_code(pqxx::transaction_base& txn, int64_t id);
std::optional<int64_t> plan_id_by_code(pqxx::transaction_base& txn, const std::string& code);
// The new code's id; nullopt when a code of that text (any case) exists already.
std::optional<int64_t> insert_promo_code(pqxx::transaction_base& txn, const PromoCodeRow& row);
// Inserts `codes` as one-use codes of `row`'s reward (row.code and max_uses are ignored);
// returns those inserted (a text that exists already is left out).
std::vector<std::string> insert_promo_code_batch(pqxx::transaction_base& txn, const std::vector<std::string>& codes,
                                                 const PromoCodeRow& row);
// Switches a code on or off; false when it was so already or does not exist.
bool set_promo_code_active(pqxx::transaction_base& txn, int64_t id, bool active);

}  // namespace cabinet
