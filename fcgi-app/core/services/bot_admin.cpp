#include "services/bot_admin.hpp"

#include "db/audit_repo.hpp"
#include "services/maintenance.hpp"
#include "services/telegram_contact.hpp"

namespace cabinet {

MaintenanceState switch_maintenance_as(Db& db, const Settings& s, const TelegramUser& admin, bool enabled) {
    const Account account = telegram_contact(db, admin, s.default_currency, "");
    const std::string actor = audit_actor(account.user.id, account.user.telegram_id);
    return db.write([&](pqxx::work& txn) { return set_maintenance(txn, s, enabled, actor); });
}

}  // namespace cabinet
