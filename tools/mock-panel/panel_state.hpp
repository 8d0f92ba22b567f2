#pragma once
// Everything the mock panel remembers. Made once at start-up from its files and passed to
// the handlers. The promises: concurrent requests never lose each other's updates (one
// lock orders the changes), a restart loses nothing that was answered (a change is on
// disk before it is answered, and nobody is answered from a change not yet on disk), a
// crash leaves the old or the new state of each change (one change is one line of the
// change log; a torn last line is dropped), and a change that throws changes nothing.
//
// On disk, like a database: the snapshot `state.json` plus the change log
// `state.json.changes` beside it. A change costs one line and a shared flush, whatever
// the number of users; the snapshot is rewritten at start-up (when there were changes)
// and in the background when the log has grown past the snapshot's size.
#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "change_log.hpp"
#include "panel_change.hpp"
#include "user_store.hpp"

namespace mock {

// An ip-control job. The mock finishes jobs at once, so a job is just what was asked.
struct Job {
    enum class Kind { user_ips, node_users_ips } kind;
    std::string target_uuid;  // user for user_ips, node for node_users_ips
};

class PanelState {
public:
    // A log smaller than this is never compacted while running (the start-up does it).
    static constexpr uint64_t kMinCompactBytes = 16 << 20;

    // Loads the snapshot and replays the change log (writing a fresh snapshot when there
    // was anything to replay), or writes an empty snapshot when there is none, which also
    // proves at start-up that the files can be written. Throws StateFileError with a
    // message for the operator when a file is unreadable, not JSON or not the mock's format.
    explicit PanelState(std::string path, uint64_t min_compact_bytes = kMinCompactBytes);
    ~PanelState();  // waits for a compaction under way
    PanelState(const PanelState&) = delete;
    PanelState& operator=(const PanelState&) = delete;

    // Look-ups (nullptr / empty when none). Users are shared, immutable versions.
    UserPtr user(std::string_view uuid) const;
    UserPtr user_by_short_uuid(std::string_view short_uuid) const;
    UserPtr user_by_username(std::string_view username) const;
    std::vector<UserPtr> users_by_telegram_id(int64_t telegram_id) const;
    // Up to `size` users from position `start` in creation order, and the total.
    std::pair<std::vector<UserPtr>, int64_t> page(size_t start, size_t size) const;
    std::vector<UserPtr> all_users() const;
    std::vector<int64_t> squad_members() const;  // in the order of squads()

    // Runs `f` on a PanelChange, writes what it touched to the change log and makes it
    // the state, then waits until the line is on disk. If `f` throws or the write fails,
    // nothing has changed.
    template <class F>
    auto change(F&& f) {
        std::unique_lock lock(mu_);
        PanelChange ch(store_, next_id_);
        if constexpr (std::is_void_v<decltype(f(ch))>) {
            f(ch);
            const uint64_t seq = commit(std::move(ch));
            lock.unlock();
            after_commit(seq);
        } else {
            auto result = f(ch);
            const uint64_t seq = commit(std::move(ch));
            lock.unlock();
            after_commit(seq);
            return result;
        }
    }

    // Writes a snapshot of the current state and drops the log lines it holds. Answers go
    // on meanwhile: the lock is held only to switch log files and list the users.
    void compact();

    std::string add_job(Job job);
    std::optional<Job> find_job(const std::string& id) const;

    const std::string& path() const { return path_; }
    std::string changes_path() const { return path_ + ".changes"; }

private:
    std::string old_changes_path() const { return path_ + ".changes.old"; }
    void load();
    uint64_t commit(PanelChange&& ch);
    void after_commit(uint64_t seq);
    // Unlock and return what was read once every change it may show is on disk, so no
    // answer rests on a change a crash could still take back.
    UserPtr settled(const UserStore::Entry* found, std::shared_lock<std::shared_mutex>& lock) const;
    template <class T>
    T settled(T out, std::shared_lock<std::shared_mutex>& lock) const;
    void write_snapshot(int64_t next_id, const std::vector<UserPtr>& users);

    std::string path_;
    uint64_t min_compact_bytes_;
    mutable std::shared_mutex mu_;  // store_, next_id_, and appends to log_
    UserStore store_;
    int64_t next_id_ = 1;  // the panel's numeric user id
    std::unique_ptr<ChangeLog> log_;

    std::mutex compact_mu_;  // one compaction at a time
    std::atomic<uint64_t> compact_at_bytes_{0};
    std::atomic<bool> compacting_{false};
    std::mutex compactor_mu_;
    std::thread compactor_;

    // Jobs are not worth persisting: a client polls its result within seconds.
    mutable std::mutex jobs_mu_;
    int64_t next_job_ = 1;
    std::map<std::string, Job> jobs_;
    std::deque<std::string> job_order_;
};

}  // namespace mock
