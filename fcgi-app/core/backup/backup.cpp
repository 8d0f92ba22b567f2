#include "backup/backup.hpp"

#include <fcntl.h>
#include <libpq-fe.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pqxx/pqxx>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string_view>

extern char** environ;

#include "backup/archive.hpp"
#include "backup/schedule.hpp"
#include "telegram/bot_api.hpp"
#include "util/time.hpp"

namespace cabinet::backup {
namespace fs = std::filesystem;
namespace {

// A private (0700) directory removed with everything in it.
class TempDir {
public:
    explicit TempDir(const fs::path& pattern_prefix) {
        std::string tmpl = pattern_prefix.string() + "XXXXXX";
        if (!::mkdtemp(tmpl.data())) throw std::runtime_error("cannot create a temporary folder " + tmpl + ": " + std::strerror(errno));
        path_ = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

// Ctrl-C, a hang-up or a stop while it lives is held back, so that the temporary folder
// declared after it (holding a plaintext dump) is removed before the signal ends the
// process: the default action would end it at once, destructors unrun, and leave the dump
// in /tmp. Child processes get the usual signals (run_pg_tool clears the mask), so Ctrl-C
// still stops pg_restore at once; `asked()` tells whether one is waiting.
class StopSignalsHeld {
public:
    StopSignalsHeld() {
        sigemptyset(&stop_);
        for (const int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&stop_, s);
        ::sigprocmask(SIG_BLOCK, &stop_, &before_);
    }
    ~StopSignalsHeld() { ::sigprocmask(SIG_SETMASK, &before_, nullptr); }  // a held signal acts now
    StopSignalsHeld(const StopSignalsHeld&) = delete;
    StopSignalsHeld& operator=(const StopSignalsHeld&) = delete;
    bool asked() const {
        sigset_t pending;
        sigemptyset(&pending);
        ::sigpending(&pending);
        for (const int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT})
            if (sigismember(&pending, s) == 1 && sigismember(&before_, s) != 1) return true;
        return false;
    }

private:
    sigset_t stop_{};
    sigset_t before_{};
};

std::string conninfo_quote(const std::string& v) {
    std::string out = "'";
    for (char c : v) {
        if (c == '\'' || c == '\\') out += '\\';
        out += c;
    }
    return out + "'";
}

void fsync_path(const fs::path& p, int flags) {
    const int fd = ::open(p.c_str(), flags | O_CLOEXEC);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

}  // namespace

void run_pg_tool(std::vector<std::string> argv, const std::string& database_url) {
    char* err = nullptr;
    PQconninfoOption* opts = PQconninfoParse(database_url.c_str(), &err);
    if (!opts) {
        std::string m = err ? err : "out of memory";
        PQfreemem(err);
        throw std::runtime_error("DATABASE_URL is not a valid connection string: " + m);
    }
    std::vector<std::pair<std::string, std::string>> env;
    std::string conninfo;
    for (PQconninfoOption* o = opts; o->keyword; ++o) {
        if (!o->val || !*o->val) continue;
        const std::string key = o->keyword, val = o->val;
        if (o->envvar) env.emplace_back(o->envvar, val);
        if (key == "password") continue;  // only through PGPASSWORD
        conninfo += (conninfo.empty() ? "" : " ") + key + "=" + conninfo_quote(val);
    }
    PQconninfoFree(opts);
    argv.push_back("--dbname=" + conninfo);

    // Everything is prepared before fork: the child only execs (safe in a threaded process).
    std::vector<std::string> envs;
    for (char** e = environ; *e; ++e) {
        const std::string_view kv(*e);
        bool overridden = false;
        for (const auto& [k, v] : env)
            if (kv.size() > k.size() && kv.substr(0, k.size()) == k && kv[k.size()] == '=') overridden = true;
        if (!overridden) envs.emplace_back(kv);
    }
    for (const auto& [k, v] : env) envs.push_back(k + "=" + v);
    std::vector<char*> cenv, cargv;
    for (auto& e : envs) cenv.push_back(e.data());
    cenv.push_back(nullptr);
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);

    sigset_t none;
    sigemptyset(&none);
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {
        ::sigprocmask(SIG_SETMASK, &none, nullptr);  // the tool stops on Ctrl-C even while we hold it
        ::execvpe(cargv[0], cargv.data(), cenv.data());
        const char msg[] = "cannot run a PostgreSQL client tool (pg_dump/pg_restore): not installed?\n";
        [[maybe_unused]] const auto w = ::write(2, msg, sizeof msg - 1);
        ::_exit(127);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error(argv[0] + " failed (exit " +
                                 std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status)) +
                                 "; its messages are above)");
}

std::optional<int64_t> newest_archive_time(const std::string& dir) {
    std::optional<int64_t> newest;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        if (auto t = parse_archive_name(e.path().filename().string()))
            if (!newest || *t > *newest) newest = t;
    }
    return newest;
}


namespace {

// A run killed between pg_dump and the archive (power loss, OOM, SIGKILL) leaves its
// plaintext dump in a .tmp- folder that no destructor removed. Only one run holds the
// backup lock, so every .tmp- folder seen under it is such a leftover: removed first.
void remove_leftover_dumps(const fs::path& dir) {
    for (const auto& e : fs::directory_iterator(dir)) {
        if (e.path().filename().string().rfind(".tmp-", 0) != 0) continue;
        std::error_code ec;
        fs::remove_all(e.path(), ec);
        if (ec) throw std::runtime_error("cannot remove the leftover dump " + e.path().string() + ": " + ec.message());
    }
}

}  // namespace

BackupResult make_backup(const Settings& s, bool if_due) {
    BackupResult r;
    if (if_due && !s.backup_enabled) {
        r.outcome = BackupResult::Outcome::disabled;
        r.message = "backups are off (BACKUP_ENABLED=false): nothing to do";
        return r;
    }
    if (s.backup_encryption_password.empty())
        throw std::runtime_error("BACKUP_ENCRYPTION_PASSWORD is not set: archives are always encrypted");
    const auto minutes = parse_time_of_day(s.backup_time);
    if (!minutes) throw std::runtime_error("BACKUP_TIME must be HH:MM");
    const fs::path dir = s.backup_dir;
    fs::create_directories(dir);

    pqxx::connection lock_conn(s.database_url);
    {
        pqxx::nontransaction n(lock_conn);
        if (!n.exec1("SELECT pg_try_advisory_lock(" + std::to_string(kBackupLock) + ")")[0].as<bool>()) {
            if (!if_due) throw std::runtime_error("another backup is running right now; try again later");
            r.outcome = BackupResult::Outcome::busy;
            r.message = "another backup is running: nothing to do";
            return r;
        }
    }
    // Checked under the lock: a run that waited sees the archive the other one renamed in.
    const int64_t now = unix_now();
    if (if_due && !backup_due(now, *minutes, newest_archive_time(dir))) {
        r.outcome = BackupResult::Outcome::not_due;
        r.message = "no backup due (one a day after " + s.backup_time + " Moscow time; today's is made)";
        return r;
    }
    const std::string name = archive_name(now);
    const fs::path final_path = dir / name;
    if (fs::exists(final_path)) throw std::runtime_error(final_path.string() + " already exists; try again in a second");

    remove_leftover_dumps(dir);
    {
        TempDir tmp(dir / ".tmp-");  // same filesystem as the archive: the rename is atomic
        const fs::path dump = tmp.path() / kDumpEntry;
        run_pg_tool({"pg_dump", "--format=custom", "--no-password", "--file=" + dump.string()}, s.database_url);
        const fs::path partial = tmp.path() / (name + ".partial");
        write_archive(partial.string(), dump.string(), s.backup_encryption_password);
        fs::permissions(partial, fs::perms::owner_read | fs::perms::owner_write);
        fsync_path(partial, O_RDONLY);
        fs::rename(partial, final_path);
        fsync_path(dir, O_RDONLY | O_DIRECTORY);
    }
    r.outcome = BackupResult::Outcome::made;
    r.path = final_path.string();
    r.size = static_cast<int64_t>(fs::file_size(final_path));

    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    for (const auto& old : archives_to_delete(names, s.backup_keep_last)) {
        std::error_code ec;
        if (fs::remove(dir / old, ec)) r.deleted.push_back(old);
    }
    r.message = "backup written: " + r.path + " (" + std::to_string(r.size) + " bytes)";

    if (!s.report_chat_id.empty() && !s.report_topic_backups.empty()) {
        try {
            BotApi(s).send_document(s.report_chat_id, s.report_topic_backups, r.path,
                                    "Backup " + name + " (" + std::to_string(r.size) + " bytes)");
            r.delivered = true;
        } catch (const std::exception& e) {
            r.delivery_error = e.what();
        }
    }
    return r;
}

std::string restore_backup(const std::string& archive, const std::string& password, const std::string& database_url) {
    if (password.empty()) throw std::runtime_error("BACKUP_ENCRYPTION_PASSWORD is not set: it is needed to open the archive");
    if (!fs::is_regular_file(archive)) throw std::runtime_error(archive + ": no such file");
    {
        pqxx::connection conn(database_url);
        pqxx::nontransaction n(conn);
        const auto relations = n.exec1(
            "SELECT count(*) FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace"
            " WHERE ns.nspname NOT IN ('pg_catalog', 'information_schema') AND ns.nspname NOT LIKE 'pg_toast%'"
            " AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')")[0].as<int64_t>();
        if (relations > 0)
            throw std::runtime_error("the target database is not empty (" + std::to_string(relations) +
                                     " tables, views or sequences): restore only into a new, empty database");
    }
    const StopSignalsHeld held;  // before tmp: the plaintext dump goes before a Ctrl-C ends us
    // A held signal ends the process as `held` goes, before any caller could print the
    // outcome: said here, to stderr, when one is waiting.
    const auto outcome = [&held](const std::string& what) {
        if (held.asked()) std::cerr << "cabinetctl restore: stopped by a signal; " << what << "\n" << std::flush;
        return what;
    };
    TempDir tmp(fs::temp_directory_path() / "cabinet-restore-");
    const fs::path dump = tmp.path() / kDumpEntry;
    read_archive(archive, password, dump.string());  // verifies before anything is restored
    if (held.asked()) throw std::runtime_error(outcome("interrupted before restoring: nothing was changed"));
    try {
        run_pg_tool({"pg_restore", "--no-password", "--exit-on-error", "--single-transaction", "--no-owner",
                     "--no-privileges", dump.string()},
                    database_url);
    } catch (const std::exception& e) {
        throw std::runtime_error(outcome(std::string(e.what()) + "; its single transaction restored nothing"));
    }
    // Ids handed out after the archive was made would be handed out again, to someone else:
    // a provider's late notification names its invoice by our id, and YooKassa's
    // idempotence key is tx-<id>, so a reissued invoice id could meet another user's
    // payment. Every sequence jumps past what the lost hours can have used.
    const std::string move_sequences =
        "SELECT setval(format('%I.%I', schemaname, sequencename), coalesce(last_value, 0) + " +
        std::to_string(kRestoredIdGap) + ") FROM pg_sequences WHERE schemaname = 'public'";
    try {
        pqxx::connection conn(database_url);
        pqxx::nontransaction n(conn);
        n.exec(move_sequences);
    } catch (const std::exception& e) {
        throw std::runtime_error(outcome("the database IS restored, but its id sequences were not moved ahead (" +
                                         std::string(e.what()) + "): run in it, once: " + move_sequences));
    }
    return outcome("restored " + archive + " (" + std::to_string(fs::file_size(dump)) +
                   " bytes of dump); every id sequence moved " + std::to_string(kRestoredIdGap) + " ahead; " +
                   kRestoreNextStep);
}

}  // namespace cabinet::backup
