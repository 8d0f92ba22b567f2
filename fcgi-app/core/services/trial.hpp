#pragma once
// A customer takes the trial (POST /api/cabinet/trial, SPEC "POST /trial"): under the user's
// row lock, the trial must be on and unused and no subscription running, disabled or paid
// with days left; a paid trial is charged from the balance; the panel is written, then the
// local subscription. 50 parallel calls: one trial, one charge.
#include <cstdint>

#include "config/settings.hpp"
#include "db/db.hpp"
#include "domain/account.hpp"
#include "panel/panel_client.hpp"

namespace cabinet {

// The subscription the trial made. 400 trial_disabled / trial_used, 409 for a subscription
// the trial may not replace, 402 for a paid trial the balance does not cover, 502 panel.
Subscription take_trial(Db& db, PanelClient& panel, const Settings& s, int64_t user_id);

}  // namespace cabinet
