#include "services/broadcast_sending.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "db/db.hpp"
#include "db/fields.hpp"
#include "domain/states.hpp"
#include "jobs/job_queue.hpp"
#include "telegram/message_delivery.hpp"

namespace cabinet {
namespace {

constexpr int64_t kTurnLockKey = 0x6361626263617374;  // "cabbcast": the one broadcast sending now
constexpr int64_t kWaitForTurnS = 3;
constexpr double kBatchSeconds = 5;
constexpr int64_t kMaxBatch = 1000;
constexpr int kFloodRetries = 5;
constexpr auto kCancelCheckEvery = std::chrono::milliseconds(500);
constexpr const char* kUnknown = "unknown: the worker stopped between marking and the Bot API's answer; not sent again";

struct Message {
    BroadcastStatus status;
    std::string text;
    std::optional<UrlButton> button;
};

struct Recipient {
    int64_t user_id = 0;
    int64_t telegram_id = 0;
};

// The session advisory lock of the broadcast turn, on `conn`, while this lives.
class Turn {
public:
    explicit Turn(pqxx::connection& conn) : conn_(conn) {
        pqxx::nontransaction t(conn_);
        held_ = t.exec_params1("SELECT pg_try_advisory_lock($1)", kTurnLockKey)[0].as<bool>();
    }
    ~Turn() {
        if (!held_) return;
        try {
            pqxx::nontransaction t(conn_);
            t.exec_params("SELECT pg_advisory_unlock($1)", kTurnLockKey);
        } catch (...) {
            // The connection is gone, and the lock with its session.
        }
    }
    Turn(const Turn&) = delete;
    Turn& operator=(const Turn&) = delete;
    bool held() const { return held_; }

private:
    pqxx::connection& conn_;
    bool held_ = false;
};

// A queued broadcast's recipients written and its sending begun; false when it is not to be
// sent (cancelled, done, gone).
bool start(pqxx::connection& conn, int64_t id) {
    pqxx::work t(conn);
    t.exec("SET LOCAL statement_timeout = '10min'");  // a million recipients in one INSERT
    const pqxx::result r = exec_prepared(t, "broadcast_lock", id);
    if (r.empty()) return false;
    const auto status = state_from_text<BroadcastStatus>(r[0]["status"].c_str());
    if (status == BroadcastStatus::queued) {
        const auto n = exec_prepared(t, "broadcast_fill", id, std::string(r[0]["audience_kind"].c_str()),
                                     optional_int(r[0]["promo_group_id"]), optional_int(r[0]["customer_id"]))
                           .affected_rows();
        exec_prepared(t, "broadcast_started", id, static_cast<int64_t>(n));
        t.commit();
        spdlog::info("broadcast {}: sending to {} recipients", id, n);
        return true;
    }
    t.commit();
    return status == BroadcastStatus::sending;
}

Message message_of(pqxx::connection& conn, int64_t id) {
    pqxx::nontransaction t(conn);
    const pqxx::row r = exec_prepared1(t, "broadcast_message", id);
    Message m{state_from_text<BroadcastStatus>(r["status"].c_str()), r["text"].c_str(), std::nullopt};
    if (!r["button_url"].is_null()) m.button = UrlButton{r["button_text"].c_str(), r["button_url"].c_str()};
    return m;
}

bool still_sending(pqxx::connection& conn, int64_t id) {
    pqxx::nontransaction t(conn);
    const pqxx::result r = exec_prepared(t, "broadcast_status", id);
    return !r.empty() && state_from_text<BroadcastStatus>(r[0][0].c_str()) == BroadcastStatus::sending;
}

// Outcomes recorded but not yet in the broadcast's counts.
struct Unadded {
    int64_t delivered = 0, blocked = 0, failed = 0;
    void add(pqxx::connection& conn, int64_t id) {
        if (delivered + blocked + failed == 0) return;
        pqxx::nontransaction t(conn);
        exec_prepared(t, "broadcast_add_counts", id, delivered, blocked, failed);
        *this = {};
    }
};

void record(pqxx::connection& conn, int64_t id, const Recipient& to, const Delivery& d, Unadded& counts) {
    const char* state = d.kind == Delivery::Kind::delivered ? "delivered"
                        : d.kind == Delivery::Kind::blocked ? "blocked" : "failed";
    pqxx::nontransaction t(conn);
    if (exec_prepared1(t, "broadcast_record", id, to.user_id, std::string(state),
                       d.error.empty() ? std::optional<std::string>() : std::optional<std::string>(d.error))[0]
            .as<int64_t>() == 0)
        return;
    ++(d.kind == Delivery::Kind::delivered ? counts.delivered : d.kind == Delivery::Kind::blocked ? counts.blocked : counts.failed);
}

// One recipient's message: at its turn the recipient is marked `sending` (committed), then
// sent; tried again after each 429's pause (a 429 delivered nothing). Nullopt when the row
// was no longer pending (nothing sent).
std::optional<Delivery> deliver(pqxx::connection& conn, int64_t id, MessageSender& sender, SendPacer& pacer, double rate,
                                const Recipient& to, const Message& m) {
    pacer.wait_turn(to.telegram_id, rate);
    {
        pqxx::nontransaction t(conn);
        if (exec_prepared(t, "broadcast_mark", id, to.user_id).affected_rows() != 1) return std::nullopt;
    }
    for (int attempt = 1;; ++attempt) {
        Delivery d = sender.send_html(to.telegram_id, m.text, m.button);
        if (d.kind != Delivery::Kind::retry_after) return d;
        spdlog::warn("broadcast: Bot API flood control, retry after {} s", d.retry_after_s);
        pacer.pause_for(d.retry_after_s);
        if (attempt >= kFloodRetries) return Delivery{Delivery::Kind::failed, 0, d.error + " (still 429 after " + std::to_string(attempt) + " tries)"};
        pacer.wait_turn(to.telegram_id, rate);
    }
}

}  // namespace

std::string broadcast_job_payload(int64_t id) { return "{\"broadcast_id\":" + std::to_string(id) + "}"; }

BroadcastBatch send_broadcast_batch(pqxx::work& job_txn, const Settings& s, SendPacer& pacer, int64_t id) {
    BroadcastBatch out;
    Db side(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);
    pqxx::connection& conn = side.conn();
    const Turn turn(conn);
    if (!turn.held()) {
        jobs::enqueue(job_txn, kBroadcastJob, broadcast_job_payload(id), {}, kWaitForTurnS);
        out.waiting = true;
        return out;
    }
    if (!start(conn, id)) {
        out.finished = true;
        return out;
    }
    {
        pqxx::nontransaction t(conn);
        const auto reaped = exec_prepared(t, "broadcast_reap", id, std::string(kUnknown)).affected_rows();
        if (reaped > 0) spdlog::warn("broadcast {}: {} recipients left mid-send by a stopped worker counted failed (unknown)", id, reaped);
        exec_prepared(t, "broadcast_recount", id);
    }
    const Message m = message_of(conn, id);
    if (m.status != BroadcastStatus::sending) {
        out.finished = true;
        return out;
    }
    const double rate = static_cast<double>(s.broadcast_rate_per_s);  // live: the owner may change it mid-broadcast
    std::vector<Recipient> batch;
    {
        pqxx::nontransaction t(conn);
        const int64_t size = std::clamp<int64_t>(static_cast<int64_t>(rate * kBatchSeconds), 1, kMaxBatch);
        for (const auto& r : exec_prepared(t, "broadcast_next", id, size))
            batch.push_back({r[0].as<int64_t>(), r[1].as<int64_t>()});
    }
    if (batch.empty()) {
        pqxx::nontransaction t(conn);
        exec_prepared(t, "broadcast_recount", id);
        exec_prepared(t, "broadcast_finish", id);
        spdlog::info("broadcast {}: done", id);
        out.finished = true;
        return out;
    }

    MessageSender sender(s);
    Unadded counts;
    auto checked = std::chrono::steady_clock::now();
    for (size_t i = 0; i < batch.size(); ++i) {
        if (std::chrono::steady_clock::now() - checked >= kCancelCheckEvery) {
            checked = std::chrono::steady_clock::now();
            counts.add(conn, id);
            if (!still_sending(conn, id)) {
                spdlog::info("broadcast {}: cancelled, {} sent in its last batch", id, out.sent);
                out.finished = true;
                return out;
            }
        }
        const auto d = deliver(conn, id, sender, pacer, rate, batch[i], m);
        if (!d) continue;
        record(conn, id, batch[i], *d, counts);
        ++out.sent;
    }
    counts.add(conn, id);
    jobs::enqueue(job_txn, kBroadcastJob, broadcast_job_payload(id));
    return out;
}

}  // namespace cabinet
