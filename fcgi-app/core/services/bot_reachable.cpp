#include "services/bot_reachable.hpp"

#include "services/broadcasts.hpp"

namespace cabinet {

void mark_bot_reachable(Db& db, int64_t telegram_id) {
    db.write([&](pqxx::work& txn) { note_bot_reachable(txn, telegram_id); });
}

}  // namespace cabinet
