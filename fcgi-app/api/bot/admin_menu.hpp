#pragma once
// The bot's admin menu (admins from ADMIN_IDS): `/admin` shows the maintenance state with a
// switch and a refresh button. A switch button names the state it wants ("admin:maint:on",
// "admin:maint:off"), so pressing it twice, or on an old menu, never flips the state back.
// Callers check that the sender is an admin.
#include <cstdint>
#include <string_view>

#include "api/bot/updates.hpp"
#include "app/context.hpp"
#include "telegram/bot_api.hpp"

namespace cabinet::bot {

inline constexpr std::string_view kAdminButtonPrefix = "admin:";

void send_admin_menu(Exchange& ex, BotApi& api, int64_t chat_id);
// Runs the pressed action (the maintenance switch is audited as the admin), answers the
// press and redraws the menu in place.
void press_admin_button(Exchange& ex, BotApi& api, const ButtonPress& press);

}  // namespace cabinet::bot
