#include "cache/catalog_listener.hpp"

#include <pthread.h>
#include <signal.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <pqxx/pqxx>

namespace cabinet {
namespace {

constexpr const char* kChannel = "catalog_changed";

class Receiver final : public pqxx::notification_receiver {
public:
    Receiver(pqxx::connection_base& c, const CatalogCache& cache) : notification_receiver(c, kChannel), cache_(cache) {}
    void operator()(const std::string&, int) override { cache_.invalidate(); }

private:
    const CatalogCache& cache_;
};

}  // namespace

CatalogListener::CatalogListener(std::string conninfo, const CatalogCache& cache)
    : conninfo_(std::move(conninfo)), cache_(cache) {
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &previous);  // the new thread inherits this mask
    thread_ = std::jthread([this](std::stop_token stop) { run(stop); });
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

CatalogListener::~CatalogListener() {
    thread_.request_stop();
    if (thread_.joinable()) thread_.join();
}

void CatalogListener::run(std::stop_token stop) {
    bool in_outage = false;  // said once per outage, not every second of it
    while (!stop.stop_requested()) {
        try {
            listen_until_lost(stop, in_outage);
        } catch (const std::exception& e) {
            if (!in_outage) spdlog::warn("catalogue listener lost its connection, retrying every second: {}", e.what());
            in_outage = true;
        }
        cache_.set_listening(false);
        for (int i = 0; i < 10 && !stop.stop_requested(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
}

void CatalogListener::listen_until_lost(std::stop_token stop, bool& in_outage) {
    pqxx::connection conn(conninfo_);
    // Named, so that pg_stat_activity tells the listeners from the threads' connections.
    conn.set_variable("application_name", "'cabinet-catalog-listener'");
    Receiver receiver(conn, cache_);  // sends LISTEN
    cache_.set_listening(true);       // and marks the copy stale: changes may have been missed
    if (in_outage) spdlog::info("catalogue listener connected again");
    in_outage = false;
    while (!stop.stop_requested()) {
        conn.await_notification(0, 500000);  // wakes up at least twice a second to see `stop`
        if (!conn.is_open()) throw pqxx::broken_connection("catalogue listener connection closed");
    }
}

}  // namespace cabinet
