#include "db/account_batch.hpp"

#include <string>
#include <unordered_map>

#include "db/accounts_repo.hpp"

namespace cabinet {

std::optional<Account> AccountBatch::by_telegram_id(Db& db, int64_t telegram_id) const {
    Waiter me;
    me.telegram_id = telegram_id;
    std::unique_lock lock(mutex_);
    queue_.push_back(&me);
    while (!me.done) {
        if (reading_) {
            done_.wait(lock);
            continue;
        }
        // No read in flight: this thread reads for everyone queued, itself included.
        reading_ = true;
        std::vector<Waiter*> batch;
        batch.swap(queue_);
        lock.unlock();
        read(db, batch);
        lock.lock();
        for (Waiter* w : batch) w->done = true;
        reading_ = false;
        done_.notify_all();  // the readers of this batch, and the next leader
    }
    if (me.error) std::rethrow_exception(me.error);
    return std::move(me.account);
}

void AccountBatch::read(Db& db, const std::vector<Waiter*>& batch) noexcept {
    try {
        std::vector<int64_t> ids;
        ids.reserve(batch.size());
        for (const Waiter* w : batch) ids.push_back(w->telegram_id);
        auto found = db.read([&](pqxx::nontransaction& txn) { return find_accounts_by_telegram_ids(txn, ids); });
        std::unordered_map<int64_t, Account*> by_id;
        for (Account& a : found) by_id.emplace(*a.user.telegram_id, &a);
        for (Waiter* w : batch)
            if (auto it = by_id.find(w->telegram_id); it != by_id.end()) w->account = *it->second;
    } catch (...) {
        for (Waiter* w : batch) w->error = std::current_exception();
    }
}

}  // namespace cabinet
