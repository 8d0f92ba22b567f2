#include "services/payment_recheck.hpp"

#include <spdlog/spdlog.h>

#include "db/prepared.hpp"
#include "jobs/job_queue.hpp"
#include "payments/cryptobot.hpp"
#include "payments/yookassa.hpp"
#include "services/gateway_state.hpp"

namespace cabinet {

int64_t queue_payment_rechecks(pqxx::transaction_base& txn, int64_t limit, int64_t after_s, int64_t pass_start) {
    const auto due = exec_prepared(txn, "due_payment_rechecks", limit, after_s, pass_start);
    for (const auto& r : due) {
        const int64_t id = r["id"].as<int64_t>();
        // The stamp above keeps the next pass from queueing it again; a job is one look.
        jobs::enqueue(txn, kRecheckPaymentJob, "{\"transaction_id\":" + std::to_string(id) + "}");
    }
    return static_cast<int64_t>(due.size());
}

void recheck_payment(pqxx::work& txn, PanelClient& panel, const Settings& s, int64_t transaction_id) {
    const auto rows = exec_prepared(txn, "payment_for_recheck", transaction_id);
    if (rows.empty()) return;
    const std::string provider = rows[0]["provider"].c_str();
    const std::string payment_id = rows[0]["provider_payment_id"].c_str();
    if (rows[0]["paid"].as<bool>() || payment_id.empty()) return;  // a notification came first
    const auto gateway = make_gateway(provider, s);
    GatewayVerdict v{false, "the gateway does not know it"};
    if (auto* y = dynamic_cast<YooKassa*>(gateway.get())) {
        if (const auto p = y->fetch(payment_id)) v = apply_yookassa_payment(txn, panel, transaction_id, *p);
    } else if (auto* c = dynamic_cast<CryptoBot*>(gateway.get())) {
        if (const auto inv = c->fetch(payment_id)) v = apply_cryptobot_invoice(txn, transaction_id, *inv);
    } else {
        spdlog::warn("payment {} ({} {}): not rechecked, the gateway is off", transaction_id, provider, payment_id);
        return;
    }
    if (v.accepted)
        spdlog::warn("payment {} ({} {}): no notification came, the gateway says it is paid: {}", transaction_id,
                     provider, payment_id, v.outcome);
    else spdlog::info("payment {} ({} {}) rechecked: {}", transaction_id, provider, payment_id, v.outcome);
}

}  // namespace cabinet
