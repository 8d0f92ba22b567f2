#pragma once
// The worker's side of the owner's broadcasts (docs/decisions.md "Broadcasts: a job per
// batch"). A broadcast is sent by a chain of `broadcast_send` jobs, each one batch of about
// five seconds of messages:
//  - one broadcast sends at a time, whatever the worker processes: a batch holds a session
//    advisory lock on a connection of its own, and a batch that finds it taken queues itself
//    again a few seconds later;
//  - the first batch writes the recipients from the audience (one INSERT … SELECT) and
//    stamps the total;
//  - each recipient is marked `sending`, committed, right before its Bot API call, and its
//    outcome (delivered, blocked, failed) recorded, committed, right after; a row a stopped
//    worker left in `sending` (one at most) is never sent again: it ends failed, "unknown";
//  - messages go at BROADCAST_RATE_PER_S a second, an owner-level setting read at each
//    batch (SendPacer: evenly spaced, one a second
//    per chat), a 429 pauses everyone for its retry_after and the same recipient is tried
//    again; a 403 marks the customer bot-blocked, and later audiences skip them;
//  - a cancelled broadcast stops within half a second; its unsent recipients stay pending;
//  - the next batch is queued in the job's own transaction, so a batch that did not finish
//    (killed, database lost) runs again from its job and the chain never forks.
#include <pqxx/pqxx>

#include <cstdint>

#include "config/settings.hpp"
#include "telegram/send_pacer.hpp"

namespace cabinet {

inline constexpr const char* kBroadcastJob = "broadcast_send";

// The job's payload for broadcast `id`: {"broadcast_id": id}.
std::string broadcast_job_payload(int64_t id);

struct BroadcastBatch {
    int64_t sent = 0;        // Bot API calls answered (any outcome)
    bool waiting = false;    // another broadcast was sending: queued again for later
    bool finished = false;   // done, cancelled or gone: no next batch queued
};

// One batch of broadcast `id`, on a connection of its own; the next batch is queued in
// `job_txn` (the job's transaction, committed by the job runner) unless it finished.
BroadcastBatch send_broadcast_batch(pqxx::work& job_txn, const Settings& s, SendPacer& pacer, int64_t id);

}  // namespace cabinet
