#pragma once
// Account reads of a pool process, shared by its threads as one statement (issue 17): a
// thread that needs an account joins the next read; the first to find no read in flight
// runs it, on its own connection, for every thread waiting by then
// (`telegram_id = ANY($1)`). Under load one round trip and one executor set-up serve
// several requests; alone, a thread reads at once, as before.
//
// Never stale: a request's account comes from a statement that began after the request
// asked, so it sees every change committed before (reads are not cached, only shared).
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <vector>

#include "db/db.hpp"
#include "domain/account.hpp"

namespace cabinet {

class AccountBatch {
public:
    AccountBatch() = default;
    AccountBatch(const AccountBatch&) = delete;
    AccountBatch& operator=(const AccountBatch&) = delete;

    // The account of Telegram user `telegram_id`, nullopt when there is none. `db` is the
    // calling thread's connection, used if this thread runs the read. Throws what the read
    // threw (503 when the database is away), to every request of that read.
    // Const and thread-safe: it lives in the process's read-only Shared.
    std::optional<Account> by_telegram_id(Db& db, int64_t telegram_id) const;

private:
    struct Waiter {
        int64_t telegram_id = 0;
        std::optional<Account> account;
        std::exception_ptr error;
        bool done = false;
    };
    static void read(Db& db, const std::vector<Waiter*>& batch) noexcept;

    mutable std::mutex mutex_;
    mutable std::condition_variable done_;
    mutable std::vector<Waiter*> queue_;  // asked, not yet in a read
    mutable bool reading_ = false;
};

}  // namespace cabinet
