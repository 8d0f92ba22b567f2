#pragma once
// The owner's promo codes (/api/admin/promo-codes; docs/api.md "Promo codes"): each input is
// checked here (ApiError 422 naming the field, an unknown plan included; 404 for an unknown
// code id; 409 for a code that exists in any case; nothing written then), stored, and
// audited in the same transaction with the actor and the code before and after. Redeeming
// a code (POST /api/cabinet/promocode) is unchanged by this.
// Each opens its own transaction: a read for the list, one write for a change, so that a
// change and its audit entry commit together.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/db.hpp"
#include "db/promo_admin_repo.hpp"
#include "util/json.hpp"

namespace cabinet {

struct PromoCodeInput {
    std::string code;         // 2..64 characters, no spaces; unique in any case
    std::string reward_type;  // balance | days | subscription | discount
    int64_t value = 0;        // balance: minor units; days, subscription: days; discount: percent
    std::optional<std::string> plan_code;  // subscription codes only (and required there)
    std::optional<int64_t> max_uses;       // nullopt: unlimited
    std::optional<int64_t> valid_from, valid_until;  // unix seconds
};

// A batch of one-use gift codes: `prefix` (0..16 letters, digits, '-') then 10 random
// characters of an alphabet without look-alikes (no 0/O, 1/I/L).
struct GiftBatchInput {
    int64_t count = 0;  // 1..kMaxGiftBatch
    std::string reward_type;
    int64_t value = 0;
    std::optional<std::string> plan_code;
    std::optional<int64_t> valid_until;
    std::string prefix;
};
inline constexpr int64_t kMaxGiftBatch = 10'000;

std::vector<AdminPromoCode> list_promo_codes(Db& db, const PromoCodeFilter& filter);
AdminPromoCode create_promo_code(Db& db, const PromoCodeInput& in, const std::string& actor);
// Switches a code off (no customer can redeem it) or on again; 404 for an unknown id. The
// audit entry is written only when the state changed.
AdminPromoCode set_promo_code_enabled(Db& db, int64_t id, bool enabled, const std::string& actor);
// The new codes, in the order made.
std::vector<std::string> create_gift_batch(Db& db, const GiftBatchInput& in, const std::string& actor);

// A code as the admin API answers it and the audit log records it.
void write_promo_code(JsonWriter& w, const AdminPromoCode& c);

}  // namespace cabinet
