// Backups (issue 6) through `cabinetctl backup|restore` against the test stack's
// PostgreSQL: demo data round-trips through an encrypted archive into a fresh database
// table by table; a wrong password or a truncated archive fails clearly and leaves the
// target empty; retention keeps the newest K; two concurrent `--if-due` runs make one
// backup; delivery reaches the backups topic of the Bot API fake.
#include <boost/test/unit_test.hpp>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zip.h>

#include <pqxx/pqxx>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <thread>

#include "backup/archive.hpp"
#include "backup/backup.hpp"
#include "backup/schedule.hpp"
#include "support.hpp"
#include "util/time.hpp"

using namespace it;
namespace fs = std::filesystem;

namespace {

const char* kBackupPassword = "correct-horse-battery-staple";

std::string run_dir() { return env("STACK_DIR") + "/run"; }
std::string db_url(const std::string& db) { return "postgresql://cabinet@/" + db + "?host=" + run_dir(); }

void exec_as_postgres(const std::string& sql) {
    pqxx::connection conn("postgresql://postgres@/postgres?host=" + run_dir());
    pqxx::nontransaction n(conn);
    n.exec(sql);
}

// A new empty database owned by cabinet.
std::string fresh_db(const std::string& tag) {
    static std::atomic<int> seq{0};
    const std::string name = "bk_" + tag + "_" + std::to_string(getpid()) + "_" + std::to_string(seq++);
    exec_as_postgres("DROP DATABASE IF EXISTS " + name);
    exec_as_postgres("CREATE DATABASE " + name + " OWNER cabinet");
    return name;
}

std::string fresh_dir() {
    // Inside the test stack's folder, which the run removes: nothing is left in /tmp.
    std::string tmpl = env("STACK_DIR") + "/bk-XXXXXX";
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    return tmpl;
}

// cabinetctl with this stack's settings plus `extra` (space-separated NAME=value, no spaces in values).
std::pair<int, std::string> ctl_with(const std::string& extra, const std::string& args) {
    return run("STACK_EXTRA_ENV='" + extra + "' " + ctl(args));
}

std::vector<std::string> archives(const std::string& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir))
        if (cabinet::backup::parse_archive_name(e.path().filename().string())) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

int64_t relations(const std::string& db) {
    pqxx::connection conn(db_url(db));
    pqxx::nontransaction n(conn);
    return n.exec1("SELECT count(*) FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace"
                   " WHERE ns.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'S')")[0]
        .as<int64_t>();
}

// table -> "rows:md5 of all rows ordered", plus every sequence's state.
std::map<std::string, std::string> fingerprint(const std::string& db) {
    std::map<std::string, std::string> out;
    pqxx::connection conn(db_url(db));
    pqxx::nontransaction n(conn);
    for (const auto& row : n.exec("SELECT table_name FROM information_schema.tables"
                                  " WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1")) {
        const std::string t = conn.quote_name(row[0].as<std::string>());
        const auto r = n.exec1("SELECT count(*), coalesce(md5(string_agg(x::text, E'\\n' ORDER BY x::text)), '-') FROM " + t + " x");
        out["table " + row[0].as<std::string>()] = r[0].as<std::string>() + ":" + r[1].as<std::string>();
    }
    for (const auto& row : n.exec("SELECT sequencename, coalesce(last_value::text, '-') FROM pg_sequences WHERE schemaname = 'public'"))
        out["sequence " + row[0].as<std::string>()] = row[1].as<std::string>();
    return out;
}

// A source database with the schema and the demo data, made once for the whole suite, so
// the worker of the stack (which writes to the main database) cannot change it meanwhile.
struct Source {
    std::string db;
    std::string dir;
    std::string archive;  // a backup of it
    Source() {
        db = fresh_db("src");
        const std::string e = "DATABASE_URL=" + db_url(db);
        auto [rc, out] = ctl_with(e, "migrate");
        if (rc != 0) throw std::runtime_error("migrate into " + db + " failed: " + out);
        std::tie(rc, out) = ctl_with(e, "seed-demo");
        if (rc != 0) throw std::runtime_error("seed-demo into " + db + " failed: " + out);
        dir = fresh_dir();
        std::tie(rc, out) = ctl_with(e + " BACKUP_DIR=" + dir + " BACKUP_ENCRYPTION_PASSWORD=" + kBackupPassword, "backup");
        if (rc != 0) throw std::runtime_error("backup failed: " + out);
        const auto a = archives(dir);
        if (a.size() != 1) throw std::runtime_error("expected one archive in " + dir);
        archive = dir + "/" + a[0];
    }
};

const Source& source() {
    static const Source s;
    return s;
}

std::string restore_cmd_env(const std::string& password) { return "BACKUP_ENCRYPTION_PASSWORD=" + password; }

}  // namespace

BOOST_AUTO_TEST_SUITE(backups)

BOOST_AUTO_TEST_CASE(backup_is_an_encrypted_zip_named_by_its_utc_time) {
    const int64_t before = cabinet::unix_now();
    const auto& src = source();
    const auto name = fs::path(src.archive).filename().string();
    BOOST_TEST(std::regex_match(name, std::regex(R"(^cabinet-\d{8}T\d{6}Z\.zip$)")));
    const auto t = cabinet::backup::parse_archive_name(name);
    BOOST_TEST_REQUIRE(t.has_value());
    BOOST_TEST(*t <= cabinet::unix_now());
    BOOST_TEST(*t >= before - 600);
    BOOST_TEST(fs::file_size(src.archive) > 100u);
    // No temporary files are left next to it.
    for (const auto& e : fs::directory_iterator(src.dir)) BOOST_TEST(e.path().filename().string() == name);

    // A zip whose entry is AES-256 encrypted: no plain dump header inside, and opening the
    // entry without the password fails.
    std::ifstream in(src.archive, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    BOOST_TEST(bytes.substr(0, 4) == std::string("PK\x03\x04", 4));
    BOOST_TEST(bytes.find("PGDMP") == std::string::npos);
    int err = 0;
    zip_t* za = zip_open(src.archive.c_str(), ZIP_RDONLY, &err);
    BOOST_TEST_REQUIRE(za != nullptr);
    zip_stat_t st;
    zip_stat_init(&st);
    BOOST_TEST(zip_stat(za, cabinet::backup::kDumpEntry, 0, &st) == 0);
    BOOST_TEST(st.encryption_method == ZIP_EM_AES_256);
    zip_file_t* f = zip_fopen(za, cabinet::backup::kDumpEntry, 0);
    BOOST_TEST(f == nullptr);
    if (f) zip_fclose(f);
    BOOST_TEST(zip_error_code_zip(zip_get_error(za)) == ZIP_ER_NOPASSWD);
    zip_discard(za);
    BOOST_CHECK_THROW(cabinet::backup::read_archive(src.archive, "wrong", src.dir + "/x.dump"), cabinet::backup::ArchiveError);
    BOOST_TEST(!fs::exists(src.dir + "/x.dump"));
}

BOOST_AUTO_TEST_CASE(restore_into_an_empty_database_gives_every_table_back) {
    const auto& src = source();
    const auto dst = fresh_db("dst");
    const auto [rc, out] = ctl_with(restore_cmd_env(kBackupPassword), "restore '" + src.archive + "' --database-url '" + db_url(dst) + "'");
    BOOST_TEST_REQUIRE(rc == 0, out);
    const auto a = fingerprint(src.db);
    const auto b = fingerprint(dst);
    BOOST_TEST(a.size() > 10u);
    BOOST_TEST(a.count("table users") == 1u);
    BOOST_TEST(a.at("table users").rfind("0:", 0) != 0);  // the demo user is there
    BOOST_TEST(a.size() == b.size());
    for (const auto& [k, v] : a) {
        BOOST_TEST_CONTEXT(k) {
            BOOST_TEST(b.count(k) == 1u);
            // Every row as it was; every id sequence a gap ahead, so no id handed out after
            // the archive was made (an invoice a provider may still name) is handed out again.
            const bool sequence = k.rfind("sequence ", 0) == 0;
            const std::string want =
                !sequence ? v : std::to_string((v == "-" ? 0 : std::stoll(v)) + cabinet::backup::kRestoredIdGap);
            if (b.count(k)) BOOST_TEST(b.at(k) == want);
        }
    }
    BOOST_TEST(out.find("every id sequence moved 1000000 ahead") != std::string::npos, out);
    // Only into an empty database: the restored one now refuses a second restore.
    const auto [rc2, out2] = ctl_with(restore_cmd_env(kBackupPassword), "restore '" + src.archive + "' --database-url '" + db_url(dst) + "'");
    BOOST_TEST(rc2 != 0);
    BOOST_TEST(out2.find("not empty") != std::string::npos, out2);
}

// Ctrl-C in the middle of a restore (pg_restore running) stops it with nothing restored, and
// the plaintext dump it decrypted into the temporary folder is gone: Ctrl-C ends the whole
// foreground group at once, and by default a process ends without its destructors.
BOOST_AUTO_TEST_CASE(ctrl_c_during_a_restore_leaves_no_plaintext_dump) {
    const auto& src = source();
    const auto dst = fresh_db("ctrlc");
    const std::string tmp = fresh_dir();  // the restore's TMPDIR
    const std::string bin = fresh_dir();  // a pg_restore that says it started, then takes its time
    const std::string started = bin + "/started";
    {
        std::ofstream f(bin + "/pg_restore");
        f << "#!/bin/sh\n: > '" << started << "'\nexec sleep 30\n";
    }
    fs::permissions(bin + "/pg_restore", fs::perms::owner_all);
    const std::string cmd = "TMPDIR='" + tmp + "' PATH='" + bin + "':\"$PATH\" STACK_EXTRA_ENV='" + restore_cmd_env(kBackupPassword) + "' " +
                            ctl("restore '" + src.archive + "' --database-url '" + db_url(dst) + "'") + " >/dev/null 2>'" +
                            bin + "/said'";
    const pid_t pid = fork();
    BOOST_REQUIRE(pid >= 0);
    if (pid == 0) {
        setpgid(0, 0);  // its own group, as a terminal's foreground job
        execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    setpgid(pid, pid);
    const bool running = wait_until([&] { return fs::exists(started); }, 20000);
    size_t dumps = 0;
    for (const auto& d : fs::directory_iterator(tmp))
        if (fs::exists(d.path() / cabinet::backup::kDumpEntry)) ++dumps;
    kill(-pid, SIGINT);
    int status = 0;
    const bool ended = wait_until([&] { return waitpid(pid, &status, WNOHANG) == pid; }, 20000);
    if (!ended) kill(-pid, SIGKILL), waitpid(pid, &status, 0);
    BOOST_REQUIRE(running);
    BOOST_TEST(dumps == 1u);  // the decrypted dump was there while pg_restore ran
    BOOST_TEST(ended);
    BOOST_TEST(fs::is_empty(tmp), "left in the temporary folder: " << fs::directory_iterator(tmp)->path());
    BOOST_TEST(relations(dst) == 0);
    // It says so itself: the held signal ends it before any caller could print.
    std::ifstream said_file(bin + "/said");
    const std::string said((std::istreambuf_iterator<char>(said_file)), std::istreambuf_iterator<char>());
    BOOST_TEST(said.find("stopped by a signal; ") != std::string::npos, said);
    BOOST_TEST(said.find("its single transaction restored nothing") != std::string::npos, said);
}

BOOST_AUTO_TEST_CASE(wrong_password_fails_clearly_and_touches_nothing) {
    const auto& src = source();
    const auto dst = fresh_db("wrongpw");
    const auto [rc, out] = ctl_with(restore_cmd_env("not-the-password"), "restore '" + src.archive + "' --database-url '" + db_url(dst) + "'");
    BOOST_TEST(rc != 0);
    BOOST_TEST(out.find("wrong backup password") != std::string::npos, out);
    BOOST_TEST(relations(dst) == 0);
}

BOOST_AUTO_TEST_CASE(truncated_archive_fails_clearly_and_touches_nothing) {
    const auto& src = source();
    const auto dir = fresh_dir();
    const std::string cut = dir + "/" + fs::path(src.archive).filename().string();
    fs::copy_file(src.archive, cut);
    fs::resize_file(cut, fs::file_size(cut) / 2);
    const auto dst = fresh_db("trunc");
    const auto [rc, out] = ctl_with(restore_cmd_env(kBackupPassword), "restore '" + cut + "' --database-url '" + db_url(dst) + "'");
    BOOST_TEST(rc != 0);
    BOOST_TEST(out.find("truncated or damaged") != std::string::npos, out);
    BOOST_TEST(relations(dst) == 0);

    const auto [rc2, out2] = ctl_with(restore_cmd_env(kBackupPassword), "restore '" + dir + "/missing.zip' --database-url '" + db_url(dst) + "'");
    BOOST_TEST(rc2 != 0);
    BOOST_TEST(out2.find("no such file") != std::string::npos, out2);
    fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(retention_keeps_the_last_k_archives) {
    const auto& src = source();
    const auto dir = fresh_dir();
    const int64_t now = cabinet::unix_now();
    std::vector<std::string> old;
    for (int d = 5; d >= 1; --d) {
        old.push_back(cabinet::backup::archive_name(now - d * 86400));
        std::ofstream(dir + "/" + old.back()) << "old";
    }
    std::ofstream(dir + "/notes.txt") << "not an archive";
    const auto [rc, out] = ctl_with("DATABASE_URL=" + db_url(src.db) + " BACKUP_DIR=" + dir + " BACKUP_KEEP_LAST=3 BACKUP_ENCRYPTION_PASSWORD=" + kBackupPassword, "backup");
    BOOST_TEST_REQUIRE(rc == 0, out);
    const auto left = archives(dir);
    BOOST_TEST_REQUIRE(left.size() == 3u);
    BOOST_TEST(left[0] == old[3]);
    BOOST_TEST(left[1] == old[4]);
    BOOST_TEST(*cabinet::backup::parse_archive_name(left[2]) >= now);
    BOOST_TEST(fs::exists(dir + "/notes.txt"));
    fs::remove_all(dir);
}

// A run killed between pg_dump and the archive left its plaintext dump behind: the next
// run removes it before it writes its own (issue 13).
BOOST_AUTO_TEST_CASE(a_crashed_run_leaves_no_plaintext_dump_for_long) {
    const auto& src = source();
    const auto dir = fresh_dir();
    fs::create_directory(dir + "/.tmp-crashed1");
    std::ofstream(dir + "/.tmp-crashed1/db.dump") << "PGDMP plaintext users and balances";
    const auto [rc, out] = ctl_with("DATABASE_URL=" + db_url(src.db) + " BACKUP_DIR=" + dir + " BACKUP_ENCRYPTION_PASSWORD=" + kBackupPassword, "backup");
    BOOST_TEST_REQUIRE(rc == 0, out);
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(dir)) left.push_back(e.path().filename().string());
    BOOST_TEST_REQUIRE(left.size() == 1u);  // the new archive, and nothing else
    BOOST_TEST(cabinet::backup::parse_archive_name(left[0]).has_value());
    fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(if_due_runs_in_parallel_make_one_backup) {
    const auto& src = source();
    const auto dir = fresh_dir();
    const std::string base = "DATABASE_URL=" + db_url(src.db) + " BACKUP_DIR=" + dir + " BACKUP_ENCRYPTION_PASSWORD=" + kBackupPassword;

    // Off: nothing happens.
    const auto [rc0, out0] = ctl_with(base + " BACKUP_ENABLED=false BACKUP_TIME=00:00", "backup --if-due");
    BOOST_TEST(rc0 == 0, out0);
    BOOST_TEST(archives(dir).empty());

    // On, BACKUP_TIME 00:00 Moscow has always passed today: due once.
    const std::string on = base + " BACKUP_ENABLED=true BACKUP_TIME=00:00";
    std::pair<int, std::string> r1, r2;
    std::thread a([&] { r1 = ctl_with(on, "backup --if-due"); });
    std::thread b([&] { r2 = ctl_with(on, "backup --if-due"); });
    a.join();
    b.join();
    BOOST_TEST(r1.first == 0, r1.second);
    BOOST_TEST(r2.first == 0, r2.second);
    BOOST_TEST(archives(dir).size() == 1u);
    const auto [rc3, out3] = ctl_with(on, "backup --if-due");
    BOOST_TEST(rc3 == 0, out3);
    BOOST_TEST(out3.find("no backup due") != std::string::npos, out3);
    BOOST_TEST(archives(dir).size() == 1u);

    // On without a password: a configuration error naming the variable.
    const auto [rc4, out4] = ctl_with("DATABASE_URL=" + db_url(src.db) + " BACKUP_DIR=" + dir + " BACKUP_ENABLED=true BACKUP_ENCRYPTION_PASSWORD=", "backup --if-due");
    BOOST_TEST(rc4 != 0);
    BOOST_TEST(out4.find("BACKUP_ENCRYPTION_PASSWORD") != std::string::npos, out4);
    fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(backup_is_delivered_to_the_backups_topic) {
    const auto& src = source();
    const auto dir = fresh_dir();
    const auto [rc, out] = ctl_with("DATABASE_URL=" + db_url(src.db) + " BACKUP_DIR=" + dir + " BACKUP_ENCRYPTION_PASSWORD=" + kBackupPassword +
                                        " REPORT_CHAT_ID=-1009876543210 REPORT_TOPIC_BACKUPS=4242",
                                    "backup");
    BOOST_TEST_REQUIRE(rc == 0, out);
    BOOST_TEST(out.find("delivered") != std::string::npos, out);
    const auto a = archives(dir);
    BOOST_TEST_REQUIRE(a.size() == 1u);
    const auto journal =
        http_url("GET", "http://127.0.0.1:" + env("FAKES_PORT") + "/__fake/journal?service=telegram").json();
    bool found = false;
    for (const auto& e : journal.GetArray()) {
        const std::string path = e["path"].GetString();
        if (path.size() < 13 || path.substr(path.size() - 13) != "/sendDocument" || !e["form"].IsObject()) continue;
        const auto& f = e["form"];
        if (!f.HasMember("document") || !f["document"].IsObject()) continue;
        if (std::string(f["document"]["filename"].GetString()) != a[0]) continue;
        found = true;
        BOOST_TEST(e["status"].GetInt() == 200);
        BOOST_TEST(std::string(f["chat_id"].GetString()) == "-1009876543210");
        BOOST_TEST(std::string(f["message_thread_id"].GetString()) == "4242");
        BOOST_TEST(f["document"]["size"].GetInt64() == static_cast<int64_t>(fs::file_size(dir + "/" + a[0])));
        BOOST_TEST(e["body"].IsNull());  // the file's bytes are not journaled
    }
    BOOST_TEST(found);

    // Without the topic, nothing is sent.
    const auto dir2 = fresh_dir();
    const auto [rc2, out2] = ctl_with("DATABASE_URL=" + db_url(src.db) + " BACKUP_DIR=" + dir2 + " BACKUP_ENCRYPTION_PASSWORD=" + kBackupPassword +
                                          " REPORT_CHAT_ID=-1009876543210",
                                      "backup");
    BOOST_TEST(rc2 == 0, out2);
    BOOST_TEST(out2.find("delivered") == std::string::npos, out2);
    fs::remove_all(dir);
    fs::remove_all(dir2);
}

// The timer's runs have nobody watching their exit code: a failure goes to the alerts
// topic, once a day however often the timer fails.
BOOST_AUTO_TEST_CASE(a_failed_scheduled_backup_alerts_the_admins_once_a_day) {
    const auto& src = source();
    const auto dir = fresh_dir();
    std::ofstream(dir + "/a-file") << "not a folder";
    const std::string on = "DATABASE_URL=" + db_url(src.db) + " BACKUP_DIR=" + dir +
                           "/a-file/archives BACKUP_ENABLED=true BACKUP_TIME=00:00 BACKUP_ENCRYPTION_PASSWORD=" +
                           kBackupPassword + " REPORT_CHAT_ID=-1009876543210 REPORT_TOPIC_ALERTS=77";
    for (int i = 0; i < 2; ++i) {
        const auto [rc, out] = ctl_with(on, "backup --if-due");
        BOOST_TEST(rc != 0, out);
    }
    pqxx::connection conn(db_url(src.db));
    pqxx::nontransaction n(conn);
    const auto alerts = n.exec("SELECT payload::text FROM jobs WHERE dedupe_key LIKE 'backup-alert:%'");
    BOOST_REQUIRE_EQUAL(alerts.size(), 1u);
    BOOST_TEST(std::string(alerts[0][0].c_str()).find("The scheduled backup failed") != std::string::npos);
    fs::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
