#pragma once
// The panel sync's answer to a panel user that holds a write PostgreSQL never committed
// (panel/panel_mark.hpp): put it back as PostgreSQL has it, instead of copying days nobody
// paid for. One user per transaction, under the lock every grant takes, so no grant can
// write the panel meanwhile and none can wait on the sync for more than this one user.
#include <pqxx/pqxx>

#include <cstdint>

#include "panel/panel_client.hpp"

namespace cabinet::ctl {

// Locks the user, asks the panel again, and puts the panel user back when its write mark
// still differs from the stored one. False when there was nothing to do: a grant committed
// that write meanwhile, the subscription or the panel user is gone, or the lock stayed
// taken past the statement timeout (the next run tries again). A panel failure throws.
bool settle_doubt(pqxx::connection& conn, PanelClient& panel, int64_t user_id);

// A panel user that names a write mark but that no subscription links to: made by a first
// grant (a trial, a first purchase) that never committed here. Under the lock of the user
// its description names, checks that nothing links to it yet and that it still names a
// mark, then disables it with a description without one (the user's next grant enables it
// again, or makes another). False when there was nothing to do.
bool settle_orphan(pqxx::connection& conn, PanelClient& panel, const PanelUser& seen);

}  // namespace cabinet::ctl
