#pragma once
// One customer's subscription mirrored from the panel now (sync_panel.cpp's per-user step):
// the worker's `sync_user` job {"user_id": N}, queued by the owner's "sync with the panel"
// (services/customer_actions.cpp). Returns what happened, for the job's log line.
#include <cstdint>
#include <string>

#include "config/settings.hpp"

namespace cabinet::ctl {

inline constexpr const char* kSyncUserJob = "sync_user";

// On a connection of its own: the job's transaction is open on the worker's. A panel
// outage throws PanelError, and the job queue retries.
std::string sync_user_now(const Settings& s, int64_t user_id);

}  // namespace cabinet::ctl
