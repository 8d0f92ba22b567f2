#pragma once
// Undoing a panel write whose transaction fails. Grants write the panel first and then
// PostgreSQL, in one transaction that holds the user's lock (subscription_grant.hpp). When
// that transaction fails after the panel took its write (a deadlock, a lock wait past the
// statement timeout, a refused revision), the rollback takes back the local half, but the
// panel kept the new expiry: days nobody paid for, which the panel sync then copied into
// PostgreSQL as if they had been granted (and a retried purchase added its days on top).
//
// A PanelRestore made right after the user's lock, before the grant, puts the panel back
// as that lock read the subscription when its scope is left by an exception after the
// panel acknowledged a write. It runs while the exception unwinds, inside the transaction,
// which still holds the user's lock until libpqxx rolls it back: no other grant of that
// user can write the panel in between. Not covered here: a write whose answer was lost (it
// counts as not acknowledged), a failure of the COMMIT itself, a crash between the panel
// call and the commit, and a put-back that fails. The panel then holds a write mark that
// PostgreSQL never stored, and the panel sync puts it back (panel/panel_mark.hpp). A
// traffic counter reset is not undoable.
#include <cstdint>
#include <exception>

#include "db/accounts_repo.hpp"
#include "panel/panel_client.hpp"

namespace cabinet {

// Writes the subscription to the panel as `locked` read it, under its lock, with a
// description that claims no write mark: running, with its expiry and limits; ended or
// blocked, disabled. Nothing to do without a panel user. Throws PanelError.
void put_panel_back(PanelClient& panel, const LockedAccount& locked);

class PanelRestore {
public:
    PanelRestore(PanelClient& panel, const LockedAccount& locked)
        : panel_(panel), locked_(locked), writes_(panel.writes_acknowledged()), unwinding_(std::uncaught_exceptions()) {}
    PanelRestore(const PanelRestore&) = delete;
    PanelRestore& operator=(const PanelRestore&) = delete;
    ~PanelRestore();

private:
    PanelClient& panel_;
    const LockedAccount& locked_;
    uint64_t writes_;
    int unwinding_;
};

}  // namespace cabinet
