#include "services/promo_admin.hpp"

#include <sodium.h>

#include <cctype>

#include "db/audit_repo.hpp"
#include "errors.hpp"
#include "services/field_checks.hpp"
#include "util/json_object.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet {
namespace {

constexpr int64_t kMaxRewardDays = 36'500;
constexpr int64_t kMaxUses = 1'000'000'000;
constexpr size_t kRandomPart = 10;
// 31 characters a person reads back without a doubt: no 0/O, 1/I/L.
constexpr std::string_view kGiftAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

void check_reward(const std::string& type, int64_t value, const std::optional<std::string>& plan_code) {
    if (type == "balance") check_int("value", value, 1, kMaxMinor);
    else if (type == "days" || type == "subscription") check_int("value", value, 1, kMaxRewardDays);
    else if (type == "discount") check_int("value", value, 1, 100);
    else throw ApiError(422, "reward_type must be one of balance, days, subscription, discount");
    if (type == "subscription" && !plan_code) throw ApiError(422, "plan_code is required for a subscription code");
    if (type != "subscription" && plan_code) throw ApiError(422, "plan_code only applies to a subscription code");
}

// The plan a subscription code grants: its id; 422 for an unknown code (a field of the form).
std::optional<int64_t> reward_plan(pqxx::transaction_base& txn, const std::optional<std::string>& plan_code) {
    if (!plan_code) return std::nullopt;
    const auto id = plan_id_by_code(txn, *plan_code);
    if (!id) throw ApiError(422, "plan_code: there is no plan " + *plan_code);
    return id;
}

void check_code_text(const std::string& code) {
    check_text("code", code, 2, 64);
    for (unsigned char ch : code)
        if (ch <= ' ' || ch == 0x7f) throw ApiError(422, "code must have no spaces or control characters");
}

std::string audit_json(const char* key, const AdminPromoCode& c) {
    return json_text([key](JsonWriter& w, const AdminPromoCode& code) { write_promo_code(JsonObject(w).key(key), code); }, c);
}

std::string upper_ascii(std::string s) {
    for (char& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    return s;
}

std::string random_gift_code(const std::string& prefix) {
    std::string out = prefix;
    for (size_t i = 0; i < kRandomPart; ++i) out += kGiftAlphabet[randombytes_uniform(kGiftAlphabet.size())];
    return out;
}

}  // namespace

void write_promo_code(JsonWriter& w, const AdminPromoCode& c) {
    JsonObject o(w);
    o.put("id", c.id).put("code", c.code).put("reward_type", c.reward_type).put("value", c.value);
    o.put("plan_code", c.plan_code).put("max_uses", c.max_uses).put("uses", c.uses);
    o.time("valid_from", c.valid_from).time("valid_until", c.valid_until);
    o.put("is_active", c.is_active).time("created_at", c.created_at);
}

namespace {

AdminPromoCode create_promo_code(pqxx::work& txn, const PromoCodeInput& in, const std::string& actor) {
    check_code_text(in.code);
    check_reward(in.reward_type, in.value, in.plan_code);
    check_int("max_uses", in.max_uses, 1, kMaxUses);
    if (in.valid_from && in.valid_until && *in.valid_until <= *in.valid_from)
        throw ApiError(422, "valid_until must be after valid_from");
    PromoCodeRow row{in.code, in.reward_type, in.value, reward_plan(txn, in.plan_code), in.max_uses, in.valid_from,
                     in.valid_until};
    const auto id = insert_promo_code(txn, row);
    if (!id) throw ApiError(409, "code: a promo code " + in.code + " exists already (codes ignore case)");
    const AdminPromoCode made = *admin_promo_code(txn, *id);
    write_audit(txn, actor, "promo.create", "promo:" + std::to_string(*id), audit_json("after", made));
    return made;
}

AdminPromoCode set_promo_code_enabled(pqxx::work& txn, int64_t id, bool enabled, const std::string& actor) {
    const auto before = admin_promo_code(txn, id);
    if (!before) throw not_found("no promo code with id " + std::to_string(id));
    if (!set_promo_code_active(txn, id, enabled)) return *before;
    const AdminPromoCode after = *admin_promo_code(txn, id);
    write_audit(txn, actor, enabled ? "promo.enable" : "promo.disable", "promo:" + std::to_string(id),
                json_object({{"code", after.code}, {"before", before->is_active ? "active" : "disabled"},
                             {"after", enabled ? "active" : "disabled"}}));
    return after;
}

std::vector<std::string> create_gift_batch(pqxx::work& txn, const GiftBatchInput& in, const std::string& actor) {
    check_int("count", in.count, 1, kMaxGiftBatch);
    check_reward(in.reward_type, in.value, in.plan_code);
    check_text("prefix", in.prefix, 0, 16);
    // Letters, digits and inner '-' only: a CSV cell starting with '-', '=', '+' or '@' is a
    // formula to a spreadsheet.
    for (char ch : in.prefix)
        if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '-'))
            throw ApiError(422, "prefix may have only letters, digits and '-'");
    if (!in.prefix.empty() && in.prefix.front() == '-') throw ApiError(422, "prefix must start with a letter or digit");
    if (in.valid_until && *in.valid_until <= unix_now()) throw ApiError(422, "valid_until must be in the future");
    const PromoCodeRow row{{}, in.reward_type, in.value, reward_plan(txn, in.plan_code), 1, std::nullopt, in.valid_until};
    const std::string prefix = upper_ascii(in.prefix);

    // 31^10 ≈ 8·10^14 codes: a clash with an existing code is rare, and each is simply
    // made again (the insert leaves it out).
    std::vector<std::string> made;
    made.reserve(static_cast<size_t>(in.count));
    for (int round = 0; round < 5 && static_cast<int64_t>(made.size()) < in.count; ++round) {
        std::vector<std::string> wanted;
        for (int64_t i = static_cast<int64_t>(made.size()); i < in.count; ++i) wanted.push_back(random_gift_code(prefix));
        for (auto& c : insert_promo_code_batch(txn, wanted, row)) made.push_back(std::move(c));
    }
    if (static_cast<int64_t>(made.size()) < in.count) throw ApiError(409, "prefix: too many codes of it exist already");
    write_audit(txn, actor, "promo.batch", "promo:batch",
                json_object({{"count", std::to_string(in.count)}, {"reward_type", in.reward_type},
                             {"value", std::to_string(in.value)}, {"plan_code", in.plan_code.value_or("")},
                             {"valid_until", in.valid_until ? iso8601_utc(*in.valid_until) : ""},
                             {"first", made.front()}, {"last", made.back()}}));
    return made;
}

}  // namespace

std::vector<AdminPromoCode> list_promo_codes(Db& db, const PromoCodeFilter& filter) {
    return db.read([&](auto& txn) { return admin_promo_codes(txn, filter); });
}

AdminPromoCode create_promo_code(Db& db, const PromoCodeInput& in, const std::string& actor) {
    return db.write([&](pqxx::work& txn) { return create_promo_code(txn, in, actor); });
}

AdminPromoCode set_promo_code_enabled(Db& db, int64_t id, bool enabled, const std::string& actor) {
    return db.write([&](pqxx::work& txn) { return set_promo_code_enabled(txn, id, enabled, actor); });
}

std::vector<std::string> create_gift_batch(Db& db, const GiftBatchInput& in, const std::string& actor) {
    return db.write([&](pqxx::work& txn) { return create_gift_batch(txn, in, actor); });
}

}  // namespace cabinet
