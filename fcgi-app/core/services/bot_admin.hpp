#pragma once
// The bot admin menu's maintenance switch (api/bot/admin_menu.cpp), pressed by an admin
// from ADMIN_IDS. The audit log names people by their user row, so an admin who never
// opened the bot or the mini-app gets one first, as on any first contact
// (services/telegram_contact.hpp); then set_maintenance (services/maintenance.hpp).
#include "config/settings.hpp"
#include "db/db.hpp"
#include "domain/maintenance.hpp"
#include "domain/telegram_user.hpp"

namespace cabinet {

// The state after the switch to `enabled`; a switch to the state it is in already changes
// nothing and writes no audit entry. The first contact commits on its own, the switch with
// its audit entry in one Db::write after it.
MaintenanceState switch_maintenance_as(Db& db, const Settings& s, const TelegramUser& admin, bool enabled);

}  // namespace cabinet
