// The mock panel's promises about its state (panel_state.hpp), checked on real files:
// a change survives a restart, a torn last log line is dropped, a change that fails
// leaves nothing, an ordinary change leaves the snapshot alone, and compaction keeps
// every user.
#include <sys/stat.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "catalog.hpp"
#include "panel_errors.hpp"
#include "panel_state.hpp"
#include "state_file.hpp"
#include "user_input.hpp"

namespace fs = std::filesystem;
using mock::PanelChange;
using mock::PanelState;
using mock::User;

namespace {

constexpr int64_t kNow = 1767225600000;  // 2026-01-01

// A fresh directory per test, removed afterwards.
struct TempDir {
    fs::path dir;
    TempDir() {
        std::string tmpl = (fs::temp_directory_path() / "mock-panel-state-XXXXXX").string();
        if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
        dir = tmpl;
    }
    ~TempDir() { fs::remove_all(dir); }
    std::string state() const { return (dir / "state.json").string(); }
    std::string changes() const { return state() + ".changes"; }
};

mock::CreateUserInput new_user(const std::string& username, std::optional<int64_t> telegram_id = std::nullopt) {
    mock::CreateUserInput in;
    in.username = username;
    in.expire_at = kNow + 86400000;
    in.telegram_id = telegram_id;
    return in;
}

std::string create(PanelState& s, const std::string& username, std::optional<int64_t> telegram_id = std::nullopt) {
    return s.change([&](PanelChange& d) { return d.add(mock::make_user(new_user(username, telegram_id), d.take_id(), kNow)).uuid; });
}

void set_traffic(PanelState& s, const std::string& uuid, int64_t bytes) {
    s.change([&](PanelChange& d) { d.edit(uuid)->used_traffic_bytes = bytes; });
}

std::string read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void append(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::app);
    out << text;
}

struct FileStamp {
    off_t size;
    timespec mtime;
    bool operator==(const FileStamp& o) const {
        return size == o.size && mtime.tv_sec == o.mtime.tv_sec && mtime.tv_nsec == o.mtime.tv_nsec;
    }
};

FileStamp stamp(const std::string& path) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) throw std::runtime_error("cannot stat " + path);
    return {st.st_size, st.st_mtim};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(mock_panel_state)

BOOST_AUTO_TEST_CASE(a_change_survives_a_restart_through_the_change_log) {
    TempDir t;
    std::string kept, deleted;
    {
        PanelState s(t.state());
        kept = create(s, "kept_user", 42);
        deleted = create(s, "deleted_user");
        set_traffic(s, kept, 12345);
        s.change([&](PanelChange& d) { d.remove(deleted); });
        // Only the log holds them: the snapshot is still the empty one of the first start.
        BOOST_TEST(read_all(t.state()).find("kept_user") == std::string::npos);
        BOOST_TEST(fs::file_size(t.changes()) > 0u);
    }
    PanelState s(t.state());
    const auto u = s.user(kept);
    BOOST_REQUIRE(u);
    BOOST_TEST(u->username == "kept_user");
    BOOST_TEST(u->used_traffic_bytes == 12345);
    BOOST_TEST(!s.user(deleted));
    BOOST_TEST(s.users_by_telegram_id(42).size() == 1u);
    BOOST_TEST(s.user_by_short_uuid(u->short_uuid) == u);
    // The start-up folded the log into a fresh snapshot and emptied it.
    BOOST_TEST(read_all(t.state()).find("kept_user") != std::string::npos);
    BOOST_TEST(fs::file_size(t.changes()) == 0u);
    // Ids go on after the deleted user's: a new user never takes an old id.
    const auto next = s.user(create(s, "next_user"));
    BOOST_TEST(next->id == 3);
}

BOOST_AUTO_TEST_CASE(a_torn_last_line_is_dropped_and_the_log_goes_on) {
    TempDir t;
    std::string first, second;
    {
        PanelState s(t.state());
        first = create(s, "first_user");
        second = create(s, "second_user");
    }
    // Cut the log inside its last line, as a crash during the write would leave it.
    const std::string log = read_all(t.changes());
    const auto last_start = log.rfind('\n', log.size() - 2) + 1;
    fs::resize_file(t.changes(), last_start + (log.size() - last_start) / 2);
    {
        PanelState s(t.state());
        BOOST_TEST(s.user(first));
        BOOST_TEST(!s.user(second));
        set_traffic(s, first, 777);  // must not be glued to the torn bytes
    }
    PanelState s(t.state());
    BOOST_REQUIRE(s.user(first));
    BOOST_TEST(s.user(first)->used_traffic_bytes == 777);
}

BOOST_AUTO_TEST_CASE(a_damaged_line_before_the_last_stops_the_start) {
    TempDir t;
    {
        PanelState s(t.state());
        create(s, "some_user");
    }
    append(t.changes(), "{\"nextId\": 5, \"users\": [{\"uuid\": 1}]}\n");
    append(t.changes(), "{\"nextId\": 5, \"users\": [], \"deleted\": []}\n");
    BOOST_CHECK_THROW(PanelState{t.state()}, mock::StateFileError);
}

BOOST_AUTO_TEST_CASE(a_change_that_throws_changes_nothing) {
    TempDir t;
    std::string uuid;
    {
        PanelState s(t.state());
        uuid = create(s, "steady_user");
        const auto before = fs::file_size(t.changes());
        BOOST_CHECK_THROW(s.change([&](PanelChange& d) {
            d.edit(uuid)->used_traffic_bytes = 999;
            d.remove(uuid);
            d.add(mock::make_user(new_user("half_made"), d.take_id(), kNow));
            throw mock::PanelError(400, "A000", "refused half-way");
        }),
                          mock::PanelError);
        BOOST_TEST(fs::file_size(t.changes()) == before);
        BOOST_REQUIRE(s.user(uuid));
        BOOST_TEST(s.user(uuid)->used_traffic_bytes == 0);
        BOOST_TEST(s.page(0, 10).second == 1);
        // The id it took is not used up either.
        BOOST_TEST(s.user(create(s, "after_user"))->id == 2);
    }
    PanelState s(t.state());
    BOOST_TEST(s.page(0, 10).second == 2);
    BOOST_TEST(s.user(uuid)->used_traffic_bytes == 0);
}

BOOST_AUTO_TEST_CASE(an_ordinary_change_leaves_the_snapshot_alone) {
    TempDir t;
    { PanelState s(t.state()); }
    PanelState s(t.state());
    const FileStamp before = stamp(t.state());
    const auto log_before = fs::file_size(t.changes());
    const std::string uuid = create(s, "quiet_user");
    for (int i = 1; i <= 20; ++i) set_traffic(s, uuid, i);
    BOOST_TEST((stamp(t.state()) == before));
    BOOST_TEST(fs::file_size(t.changes()) > log_before);
}

BOOST_AUTO_TEST_CASE(concurrent_changes_lose_nothing) {
    TempDir t;
    std::string uuid;
    {
        PanelState s(t.state());
        uuid = create(s, "busy_user");
        std::vector<std::thread> threads;
        for (int i = 0; i < 8; ++i)
            threads.emplace_back([&] {
                for (int k = 0; k < 25; ++k) s.change([&](PanelChange& d) { ++d.edit(uuid)->used_traffic_bytes; });
            });
        for (auto& th : threads) th.join();
        BOOST_TEST(s.user(uuid)->used_traffic_bytes == 200);
    }
    PanelState s(t.state());
    BOOST_TEST(s.user(uuid)->used_traffic_bytes == 200);
}

BOOST_AUTO_TEST_CASE(compaction_keeps_every_user) {
    TempDir t;
    std::vector<std::string> uuids;
    {
        // Compact after every few hundred bytes, in the background, while changes go on.
        PanelState s(t.state(), 512);
        for (int i = 0; i < 150; ++i) uuids.push_back(create(s, "user_" + std::to_string(i), 1000 + i % 7));
        for (int i = 0; i < 150; i += 3) set_traffic(s, uuids[i], i);
        for (int i = 1; i < 150; i += 10) s.change([&](PanelChange& d) { d.remove(uuids[i]); });
        s.compact();  // and once by hand, after them all
        set_traffic(s, uuids[0], 4242);  // after the compaction: in the log only
        BOOST_TEST(!fs::exists(t.changes() + ".old"));
    }
    PanelState s(t.state());
    const auto [users, total] = s.page(0, 1000);
    BOOST_TEST(total == 135);
    for (int i = 0; i < 150; ++i) {
        const auto u = s.user(uuids[i]);
        if (i % 10 == 1) {
            BOOST_TEST(!u);
            continue;
        }
        BOOST_REQUIRE(u);
        BOOST_TEST(u->username == "user_" + std::to_string(i));
        BOOST_TEST(u->used_traffic_bytes == (i == 0 ? 4242 : i % 3 == 0 ? i : 0));
    }
    // Creation order and pages survive too.
    for (size_t k = 1; k < users.size(); ++k) BOOST_TEST(users[k - 1]->id < users[k]->id);
    const auto second_page = s.page(25, 25).first;
    BOOST_REQUIRE(second_page.size() == 25u);
    BOOST_TEST(second_page.front() == users[25]);
}

BOOST_AUTO_TEST_CASE(a_log_left_by_a_compaction_cut_short_is_replayed) {
    TempDir t;
    std::string uuid;
    {
        PanelState s(t.state());
        uuid = create(s, "moved_user");
        set_traffic(s, uuid, 5);
    }
    // As if a compaction had renamed the log, written nothing yet, and a new log began.
    {
        PanelState s(t.state());
        set_traffic(s, uuid, 6);
    }
    fs::rename(t.changes(), t.changes() + ".old");
    {
        std::ofstream touch(t.changes());
    }
    PanelState s(t.state());
    BOOST_TEST(s.user(uuid)->used_traffic_bytes == 6);
    BOOST_TEST(!fs::exists(t.changes() + ".old"));
}

BOOST_AUTO_TEST_CASE(an_empty_old_log_is_cleared_so_compaction_can_rotate_again) {
    TempDir t;
    { PanelState s(t.state()); }
    { std::ofstream touch(t.changes() + ".old"); }
    PanelState s(t.state());
    BOOST_TEST(!fs::exists(t.changes() + ".old"));
    const std::string uuid = create(s, "rotated_user");
    s.compact();
    set_traffic(s, uuid, 1);
    const std::string log = read_all(t.changes());
    BOOST_TEST(std::count(log.begin(), log.end(), '\n') == 1);  // the creation went with the old log
    BOOST_TEST(read_all(t.state()).find("rotated_user") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(indexes_follow_a_changed_short_uuid) {
    TempDir t;
    PanelState s(t.state());
    const std::string uuid = create(s, "revoked_user");
    const std::string old_short = s.user(uuid)->short_uuid;
    s.change([&](PanelChange& d) { d.edit(uuid)->short_uuid = "fresh-short-uuid"; });
    BOOST_TEST(!s.user_by_short_uuid(old_short));
    BOOST_REQUIRE(s.user_by_short_uuid("fresh-short-uuid"));
    BOOST_TEST(s.user_by_short_uuid("fresh-short-uuid")->uuid == uuid);
}

BOOST_AUTO_TEST_SUITE_END()
