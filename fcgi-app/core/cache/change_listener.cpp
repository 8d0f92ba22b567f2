#include "cache/change_listener.hpp"

#include <pthread.h>
#include <signal.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <memory>
#include <pqxx/pqxx>

#include "jobs/job_queue.hpp"

namespace cabinet {
namespace {

class CatalogReceiver final : public pqxx::notification_receiver {
public:
    CatalogReceiver(pqxx::connection_base& c, const CatalogCache& cache)
        : notification_receiver(c, "catalog_changed"), cache_(cache) {}
    void operator()(const std::string&, int) override { cache_.invalidate(); }

private:
    const CatalogCache& cache_;
};

class AccountsReceiver final : public pqxx::notification_receiver {
public:
    AccountsReceiver(pqxx::connection_base& c, const AccountCache& cache)
        : notification_receiver(c, "accounts_changed"), cache_(cache) {}
    void operator()(const std::string& payload, int) override { cache_.notified(payload); }

private:
    const AccountCache& cache_;
};

class JobsReceiver final : public pqxx::notification_receiver {
public:
    JobsReceiver(pqxx::connection_base& c, const jobs::JobBell& bell)
        : notification_receiver(c, jobs::kNotifyChannel), bell_(bell) {}
    void operator()(const std::string&, int) override { bell_.ring(); }

private:
    const jobs::JobBell& bell_;
};

// Reads the settings at once, on the listener's connection, so that a notification that
// came after this one (the tests' 'sync' on accounts_changed) finds the new snapshot in
// place. libpqxx swallows a receiver's exception: a failed read is flagged instead, and
// the loop reconnects, which reads again.
class SettingsReceiver final : public pqxx::notification_receiver {
public:
    SettingsReceiver(pqxx::connection_base& c, const LiveSettings& settings, std::atomic<bool>& failed)
        : notification_receiver(c, "settings_changed"), settings_(settings), failed_(failed) {}
    void operator()(const std::string&, int) override {
        try {
            pqxx::read_transaction txn(conn());
            settings_.reload(txn);
        } catch (const std::exception& e) {
            spdlog::warn("owner settings not read after a change: {}", e.what());
            failed_ = true;
        }
    }

private:
    const LiveSettings& settings_;
    std::atomic<bool>& failed_;
};

}  // namespace

ChangeListener::ChangeListener(std::string conninfo, Watched watched, std::string application_name)
    : conninfo_(std::move(conninfo)), watched_(watched), application_name_(std::move(application_name)) {
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &previous);  // the new thread inherits this mask
    thread_ = std::jthread([this](std::stop_token stop) { run(stop); });
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

ChangeListener::~ChangeListener() {
    thread_.request_stop();
    if (thread_.joinable()) thread_.join();
}

void ChangeListener::run(std::stop_token stop) {
    bool in_outage = false;  // said once per outage, not every second of it
    while (!stop.stop_requested()) {
        try {
            listen_until_lost(stop, in_outage);
        } catch (const std::exception& e) {
            if (!in_outage) spdlog::warn("change listener lost its connection, retrying every second: {}", e.what());
            in_outage = true;
        }
        set_listening(false);
        for (int i = 0; i < 10 && !stop.stop_requested(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
}

void ChangeListener::listen_until_lost(std::stop_token stop, bool& in_outage) {
    pqxx::connection conn(conninfo_);
    // Named, so that pg_stat_activity tells the listeners from the threads' connections.
    conn.set_variable("application_name", conn.quote(application_name_));
    // Each sends its LISTEN when made.
    std::unique_ptr<CatalogReceiver> catalog;
    std::unique_ptr<AccountsReceiver> accounts;
    std::unique_ptr<SettingsReceiver> settings;
    std::unique_ptr<JobsReceiver> jobs;
    if (watched_.catalog) catalog = std::make_unique<CatalogReceiver>(conn, *watched_.catalog);
    if (watched_.accounts) accounts = std::make_unique<AccountsReceiver>(conn, *watched_.accounts);
    if (watched_.settings) {
        settings = std::make_unique<SettingsReceiver>(conn, *watched_.settings, settings_reload_failed_);
        settings_reload_failed_ = false;
        pqxx::read_transaction txn(conn);  // after the LISTEN: no change falls in between
        watched_.settings->reload(txn);
    }
    if (watched_.jobs) {
        jobs = std::make_unique<JobsReceiver>(conn, *watched_.jobs);
        watched_.jobs->ring();  // a job may have been enqueued while nobody listened
    }
    set_listening(true);  // and forgets what is held: changes may have been missed
    if (in_outage) spdlog::info("change listener connected again");
    in_outage = false;
    while (!stop.stop_requested()) {
        conn.await_notification(0, 500000);  // wakes up at least twice a second to see `stop`
        if (!conn.is_open()) throw pqxx::broken_connection("change listener connection closed");
        if (settings_reload_failed_) throw std::runtime_error("owner settings could not be read");
    }
}

void ChangeListener::set_listening(bool listening) {
    if (watched_.catalog) watched_.catalog->set_listening(listening);
    if (watched_.accounts) watched_.accounts->set_listening(listening);
}

}  // namespace cabinet
