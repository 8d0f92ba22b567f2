#include "db/promo_admin_repo.hpp"
#include "db/fields.hpp"

#include "db/pg_array.hpp"
#include "db/prepared.hpp"

namespace cabinet {
namespace {

AdminPromoCode promo_of(const pqxx::row& r) {
    AdminPromoCode c;
    c.id = r["id"].as<int64_t>();
    c.code = r["code"].c_str();
    c.reward_type = r["reward_type"].c_str();
    c.value = r["value"].as<int64_t>();
    if (!r["plan_code"].is_null()) c.plan_code = r["plan_code"].c_str();
    c.max_uses = optional_int(r["max_uses"]);
    c.uses = r["uses"].as<int64_t>();
    c.valid_from = optional_int(r["valid_from"]);
    c.valid_until = optional_int(r["valid_until"]);
    c.is_active = r["is_active"].as<bool>();
    c.created_at = r["created_at"].as<int64_t>();
    return c;
}

}  // namespace

std::vector<AdminPromoCode> admin_promo_codes(pqxx::transaction_base& txn, const PromoCodeFilter& f) {
    std::vector<AdminPromoCode> out;
    for (const auto& r : exec_prepared(txn, "admin_promo_codes", f.text, f.status, f.before_id, f.limit))
        out.push_back(promo_of(r));
    return out;
}

std::optional<AdminPromoCode> admin_promo_code(pqxx::transaction_base& txn, int64_t id) {
    const auto r = exec_prepared(txn, "admin_promo_code_by_id", id);
    if (r.empty()) return std::nullopt;
    return promo_of(r[0]);
}

std::optional<int64_t> plan_id_by_code(pqxx::transaction_base& txn, const std::string& code) {
    const auto r = exec_prepared(txn, "admin_plan_id_by_code", code);
    if (r.empty()) return std::nullopt;
    return r[0][0].as<int64_t>();
}

std::optional<int64_t> insert_promo_code(pqxx::transaction_base& txn, const PromoCodeRow& row) {
    const auto r = exec_prepared(txn, "admin_promo_code_insert", row.code, row.reward_type, row.value, row.plan_id,
                                 row.max_uses, row.valid_from, row.valid_until);
    if (r.empty()) return std::nullopt;
    return r[0][0].as<int64_t>();
}

std::vector<std::string> insert_promo_code_batch(pqxx::transaction_base& txn, const std::vector<std::string>& codes,
                                                 const PromoCodeRow& row) {
    std::vector<std::string> out;
    out.reserve(codes.size());
    for (const auto& r : exec_prepared(txn, "admin_promo_codes_insert_batch", pg_array(codes), row.reward_type,
                                       row.value, row.plan_id, row.valid_until))
        out.emplace_back(r[0].c_str());
    return out;
}

bool set_promo_code_active(pqxx::transaction_base& txn, int64_t id, bool active) {
    return !exec_prepared(txn, "admin_promo_code_set_active", id, active).empty();
}

}  // namespace cabinet
