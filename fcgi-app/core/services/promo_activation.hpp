#pragma once
// A customer activates a promo code (POST /api/cabinet/promocode, SPEC "POST /promocode").
// Failures a customer can fix or must accept are an outcome with ok = false and a message;
// more than kUnknownCodesPerWindow unknown codes in a window is a 429 with Retry-After.
// Lock order: the user's row, then the code's row, so parallel activations of a one-use
// code by many users serialize on the code and exactly one wins. Only a code with a limit
// is locked before the grant: an unlimited one (a broadcast "enter SUMMER") is locked only
// by the count of its use at the end, so thousands of activations do not queue on it
// through their panel calls, each holding a pool thread.
#include <cstdint>
#include <optional>
#include <string>

#include "config/settings.hpp"
#include "db/db.hpp"
#include "domain/states.hpp"
#include "panel/panel_client.hpp"

namespace cabinet {

struct PromoOutcome {
    bool ok = false;
    std::optional<PromoReward> reward;  // when ok
    std::string message;
};

// `code` as the customer typed it, trimmed; matched without regard to case.
PromoOutcome activate_promo_code(Db& db, PanelClient& panel, const Settings& s, int64_t user_id, const std::string& code);

}  // namespace cabinet
