#pragma once
// Which write of ours a panel user last took: the "write mark" in its description.
//
// A grant writes the panel first and then PostgreSQL (subscription_grant.hpp). When the
// panel took the write but PostgreSQL never committed it (the panel's answer was lost, the
// process died before COMMIT, the COMMIT's answer was lost, putting the panel back failed),
// the panel is ahead by days nobody paid for, and the panel sync would copy them in as if
// they had been granted. Every grant therefore sends a fresh random mark with its panel
// write and stores the same mark with its local write, in one statement that commits or not
// with the grant. The sync (cabinetctl sync-panel) then knows a panel state that never
// committed: the panel names a mark, and PostgreSQL, under the user's lock, holds another.
// It puts such a panel user back as PostgreSQL has it instead of copying it, and disables
// one that names a mark but that no subscription links to (a first grant that never
// committed created it).
//
// A description without a mark claims nothing: the sync mirrors that user as it always did
// (writes of the bot, of an operator in the panel, of an older cabinet, and the panel put
// back by the cabinet itself).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cabinet {

// 16 random hex digits.
std::string new_panel_mark();

// "cabinet user 42" or, with a mark, "cabinet user 42; write 0123456789abcdef".
std::string panel_description(int64_t user_id, std::string_view mark = {});

// The mark a description written by panel_description carries; empty for any other text.
std::string_view panel_mark_of(std::string_view description);

// The user a description written by panel_description names; nullopt for any other text.
std::optional<int64_t> panel_user_of(std::string_view description);

}  // namespace cabinet
