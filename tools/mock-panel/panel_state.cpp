#include "panel_state.hpp"

#include <malloc.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstring>
#include <unordered_map>

#include "panel_errors.hpp"
#include "state_codec.hpp"
#include "state_file.hpp"

namespace mock {
namespace {

constexpr size_t kMaxJobs = 1000;

// The state while it is being rebuilt from the files: a plain map, because replaying a
// log line by line may pass through states the store's unique indexes would refuse (a
// log replayed onto the snapshot that already holds it, after a crash mid-compaction).
struct Staging {
    int64_t next_id = 1;
    std::unordered_map<std::string, User> users;

    void put(User u) {
        if (u.id >= next_id) next_id = u.id + 1;
        std::string uuid = u.uuid;
        users.insert_or_assign(std::move(uuid), std::move(u));
    }
};

// A change-log file's text; empty when there is none.
std::string read_log(const std::string& path) { return read_state_file(path).value_or(std::string()); }

// Replays one change-log file onto `staging`. A last line that is cut short or does not
// parse is a change whose write a crash interrupted: it was never answered, so it is
// dropped. A bad line before the last is damage.
void replay(const std::string& path, const std::string& text, Staging& staging) {
    size_t pos = 0, line_no = 0;
    while (pos < text.size()) {
        ++line_no;
        const size_t end = text.find('\n', pos);
        const bool last = end == std::string::npos || end + 1 == text.size();
        const std::string line = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        pos = end == std::string::npos ? text.size() : end + 1;
        try {
            if (end == std::string::npos) throw ValidationError("", "no end of line");
            DecodedChange c = decode_change(line);
            if (c.next_id > staging.next_id) staging.next_id = c.next_id;
            for (auto& u : c.users) staging.put(std::move(u));
            for (const auto& uuid : c.deleted) staging.users.erase(uuid);
        } catch (const ValidationError& e) {
            if (last) {
                spdlog::warn("{}: dropping the torn last line {} (a change cut short by a crash, never answered)", path,
                             line_no);
                break;
            }
            throw StateFileError("change log " + path + " is damaged at line " + std::to_string(line_no) + ": " +
                                 (e.field().empty() ? "" : e.field() + ": ") + e.what() +
                                 "; repair it or delete it and the state file for a clean start");
        }
    }
}

}  // namespace

PanelState::PanelState(std::string path, uint64_t min_compact_bytes)
    : path_(std::move(path)), min_compact_bytes_(min_compact_bytes) {
    load();
}

PanelState::~PanelState() {
    std::lock_guard lock(compactor_mu_);
    if (compactor_.joinable()) compactor_.join();
}

void PanelState::load() {
    const std::string old_log = read_log(old_changes_path()), new_log = read_log(changes_path());
    const bool replayed = !old_log.empty() || !new_log.empty();
    auto snapshot = read_state_file(path_);
    const bool had_snapshot = snapshot.has_value();
    if (snapshot) compact_at_bytes_ = std::max<uint64_t>(min_compact_bytes_, snapshot->size());
    if (!replayed) {
        // The usual start (and a seeded snapshot): straight into the store.
        if (snapshot)
            next_id_ = decode_snapshot(*snapshot, path_, [&](User u) { store_.put(std::make_shared<const User>(std::move(u)), 0); });
    } else {
        Staging staging;
        if (snapshot) staging.next_id = decode_snapshot(*snapshot, path_, [&](User u) { staging.put(std::move(u)); });
        snapshot.reset();  // its memory, before the store takes as much again
        replay(old_changes_path(), old_log, staging);
        replay(changes_path(), new_log, staging);
        next_id_ = staging.next_id;
        for (auto& [uuid, u] : staging.users) {
            try {
                store_.put(std::make_shared<const User>(std::move(u)), 0);
            } catch (const std::invalid_argument& e) {
                throw StateFileError("state file " + path_ + " and its change log disagree: " + e.what() +
                                     "; repair them or delete both for a clean start");
            }
        }
    }
    snapshot.reset();
    malloc_trim(0);  // the parse's scratch memory, scattered over the heap, back to the system

    try {
        log_ = std::make_unique<ChangeLog>(changes_path());
        if (!had_snapshot || replayed) {
            // Fold what was replayed into a fresh snapshot, then drop the logs it holds.
            write_snapshot(next_id_, store_.all());
            log_->truncate();
        }
        // Held by the snapshot now, or empty.
        if (unlink(old_changes_path().c_str()) != 0 && errno != ENOENT)
            throw StateFileError("cannot remove " + old_changes_path() + ": " + std::strerror(errno));
    } catch (const StateFileError& e) {
        throw StateFileError(std::string("cannot write the state (MOCK_PANEL_STATE): ") + e.what());
    }
}

void PanelState::write_snapshot(int64_t next_id, const std::vector<UserPtr>& users) {
    const uint64_t bytes = write_snapshot_file(path_, next_id, users);
    // Compact again once the log has grown as big as the snapshot: each user's bytes are
    // then rewritten once per as many bytes of changes, whatever the number of users.
    compact_at_bytes_ = std::max<uint64_t>(min_compact_bytes_, bytes);
}

UserPtr PanelState::settled(const UserStore::Entry* found, std::shared_lock<std::shared_mutex>& lock) const {
    UserPtr u = found ? found->user : nullptr;
    // Not found may be a deletion not yet on disk: then wait for everything written.
    const uint64_t seq = found ? found->seq : log_->written();
    lock.unlock();
    log_->wait_durable(seq);
    return u;
}

template <class T>
T PanelState::settled(T out, std::shared_lock<std::shared_mutex>& lock) const {
    const uint64_t seq = log_->written();
    lock.unlock();
    log_->wait_durable(seq);
    return out;
}

UserPtr PanelState::user(std::string_view uuid) const {
    std::shared_lock lock(mu_);
    return settled(store_.find(uuid), lock);
}

UserPtr PanelState::user_by_short_uuid(std::string_view short_uuid) const {
    std::shared_lock lock(mu_);
    return settled(store_.find_by_short_uuid(short_uuid), lock);
}

UserPtr PanelState::user_by_username(std::string_view username) const {
    std::shared_lock lock(mu_);
    return settled(store_.find_by_username(username), lock);
}

std::vector<UserPtr> PanelState::users_by_telegram_id(int64_t telegram_id) const {
    std::shared_lock lock(mu_);
    std::vector<UserPtr> out;
    for (const auto* e : store_.find_by_telegram_id(telegram_id)) out.push_back(e->user);
    return settled(std::move(out), lock);
}

std::pair<std::vector<UserPtr>, int64_t> PanelState::page(size_t start, size_t size) const {
    std::shared_lock lock(mu_);
    return settled(std::make_pair(store_.page(start, size), static_cast<int64_t>(store_.size())), lock);
}

std::vector<UserPtr> PanelState::all_users() const {
    std::shared_lock lock(mu_);
    return settled(store_.all(), lock);
}

std::vector<int64_t> PanelState::squad_members() const {
    std::shared_lock lock(mu_);
    return settled(store_.squad_members(), lock);
}

uint64_t PanelState::commit(PanelChange&& ch) {
    if (ch.touched().empty()) return 0;
    // Refuse before writing, so a refused change leaves no line (handlers check first;
    // this keeps the indexes sound whatever a handler does).
    for (const auto& [uuid, u] : ch.touched())
        if (u) {
            try {
                store_.check(*u);
            } catch (const std::invalid_argument& e) {
                throw std::logic_error(std::string("change refused: ") + e.what());
            }
        }
    const uint64_t seq = log_->append(encode_change(ch));
    for (auto& [uuid, u] : ch.touched()) {
        if (u) store_.put(std::make_shared<const User>(std::move(*u)), seq);
        else store_.erase(uuid);
    }
    next_id_ = ch.next_id();
    return seq;
}

void PanelState::after_commit(uint64_t seq) {
    if (seq == 0) return;
    log_->wait_durable(seq);
    if (log_->bytes() < compact_at_bytes_ || compacting_.exchange(true)) return;
    std::lock_guard lock(compactor_mu_);
    if (compactor_.joinable()) compactor_.join();  // done: it cleared compacting_
    compactor_ = std::thread([this] {
        try {
            compact();
        } catch (const std::exception& e) {
            // Try again after as many bytes more; the log keeps every change meanwhile.
            compact_at_bytes_ = log_->bytes() + min_compact_bytes_;
            spdlog::error("compacting the state failed, will retry: {}", e.what());
        }
        compacting_ = false;
    });
}

void PanelState::compact() {
    using Clock = std::chrono::steady_clock;
    const auto ms_since = [](Clock::time_point t) {
        return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
    };
    std::lock_guard serial(compact_mu_);
    std::vector<UserPtr> users;
    int64_t next_id = 0;
    const auto started = Clock::now();
    {
        // The users listed here are exactly the snapshot plus the old log: later changes
        // go to the fresh log. A leftover old log (a failed compaction) stays, and the
        // snapshot holds it too.
        std::unique_lock lock(mu_);
        if (access(old_changes_path().c_str(), F_OK) != 0) log_->rotate(old_changes_path());
        users = store_.all();
        next_id = next_id_;
    }
    const auto locked_ms = ms_since(started);
    write_snapshot(next_id, users);
    if (unlink(old_changes_path().c_str()) != 0 && errno != ENOENT)
        throw StateFileError("cannot remove " + old_changes_path() + ": " + std::strerror(errno));
    sync_directory_of(path_);
    spdlog::info("state compacted: {} users in the snapshot, changes held for {} ms, {} ms in all", users.size(),
                 locked_ms, ms_since(started));
}

std::string PanelState::add_job(Job job) {
    std::lock_guard lock(jobs_mu_);
    std::string id = std::to_string(next_job_++);
    jobs_.emplace(id, std::move(job));
    job_order_.push_back(id);
    if (job_order_.size() > kMaxJobs) {
        jobs_.erase(job_order_.front());
        job_order_.pop_front();
    }
    return id;
}

std::optional<Job> PanelState::find_job(const std::string& id) const {
    std::lock_guard lock(jobs_mu_);
    auto it = jobs_.find(id);
    if (it == jobs_.end()) return std::nullopt;
    return it->second;
}

}  // namespace mock
