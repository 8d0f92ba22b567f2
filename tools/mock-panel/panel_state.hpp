#pragma once
// Everything the mock panel remembers, behind one mutex. Made once at start-up from the
// state file and passed to the handlers; each change is written to the file before it
// becomes visible, so concurrent requests never lose each other's updates and a restart
// loses nothing that was answered.
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "user.hpp"

namespace mock {

// What the state file holds.
struct PanelData {
    int64_t next_id = 1;  // the panel's numeric user id
    std::vector<User> users;  // in creation order

    User* find(std::string_view uuid);
    const User* find(std::string_view uuid) const;
    const User* find_by_short_uuid(std::string_view short_uuid) const;
    User* find_by_username(std::string_view username);
    const User* find_by_username(std::string_view username) const;
};

// An ip-control job. The mock finishes jobs at once, so a job is just what was asked.
struct Job {
    enum class Kind { user_ips, node_users_ips } kind;
    std::string target_uuid;  // user for user_ips, node for node_users_ips
};

class PanelState {
public:
    // Loads the file, or writes an empty one when there is none (which also proves at
    // start-up that the file can be written). Throws StateFileError with a message for
    // the operator when the file is unreadable, not JSON or not the mock's format.
    explicit PanelState(std::string path);

    template <class F>
    auto read(F&& f) const {
        std::lock_guard lock(mu_);
        return f(std::as_const(data_));
    }

    // Runs `f` on a copy of the data, writes the copy to disk and only then makes it the
    // state. If `f` throws or the write fails, nothing has changed.
    template <class F>
    auto change(F&& f) {
        std::lock_guard lock(mu_);
        PanelData next = data_;
        if constexpr (std::is_void_v<decltype(f(next))>) {
            f(next);
            save(next);
            data_ = std::move(next);
        } else {
            auto result = f(next);
            save(next);
            data_ = std::move(next);
            return result;
        }
    }

    std::string add_job(Job job);
    std::optional<Job> find_job(const std::string& id) const;

    const std::string& path() const { return path_; }

private:
    void save(const PanelData& data) const;

    std::string path_;
    mutable std::mutex mu_;
    PanelData data_;
    // Jobs are not worth persisting: a client polls its result within seconds.
    int64_t next_job_ = 1;
    std::map<std::string, Job> jobs_;
    std::deque<std::string> job_order_;
};

}  // namespace mock
