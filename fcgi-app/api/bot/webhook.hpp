#pragma once
// One update of the bot webhook (POST /bot/webhook, after its secret token was checked):
//   - Telegram Stars (pre_checkout_query, successful_payment): always, in any chat (api/bot/stars);
//   - private messages: /start registers the sender as a first mini-app contact would and
//     answers with a button that opens the mini-app; /admin shows admins their menu; anything
//     else gets a hint; a blocked user gets only "blocked";
//   - button presses: the admin menu's (api/bot/admin_menu);
//   - maintenance (SPEC "Maintenance stub behaviour"): everyone not in ADMIN_IDS gets the stub
//     text for a message, and an alert of at most 200 characters for a button press; /start
//     still registers first, so nothing a user did is lost;
//   - everything else (edited messages, group chatter, membership changes) is ignored.
// Writes commit before any Bot API call: a failed call is a GatewayError (502), Telegram
// delivers the update again, and the repeat writes nothing twice.
#include "app/context.hpp"
#include "util/json.hpp"

namespace cabinet::bot {

void handle_update(Exchange& ex, const rapidjson::Value& update);

}  // namespace cabinet::bot
