#pragma once
// A private message reached the bot (api/bot/webhook.cpp): its sender has not blocked the
// bot (any more), so broadcasts reach them again. The rule is services/broadcasts.hpp's
// note_bot_reachable; this opens its transaction.
#include <cstdint>

#include "db/db.hpp"

namespace cabinet {

// note_bot_reachable in one Db::write, committed before this returns.
void mark_bot_reachable(Db& db, int64_t telegram_id);

}  // namespace cabinet
