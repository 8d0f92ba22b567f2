#include "services/stars_payments.hpp"

namespace cabinet {
namespace {

std::string stars_payment_id(const StarsCharge& c) { return "stars:" + c.charge_id; }

}  // namespace

bool stars_invoice_payable(Db& db, int64_t transaction_id, int64_t stars) {
    return db.read([&](auto& txn) { return stars_invoice_open(txn, transaction_id, stars); });
}

Confirmation confirm_stars_payment(Db& db, const StarsCharge& c) {
    return db.transact([&](pqxx::work& txn) {
        return confirm_payment(txn, c.transaction_id, "stars", stars_payment_id(c), c.amount, c.currency);
    });
}

StarsRefund refund_stars_charge(Db& db, PanelClient& panel, const StarsCharge& c) {
    return db.transact([&](pqxx::work& txn) {
        const int64_t id = stars_refund_target(txn, c.transaction_id, stars_payment_id(c));
        return StarsRefund{id, id == 0 ? RefundOutcome::not_ours : refund_payment(txn, panel, id, "stars", c.amount)};
    });
}

}  // namespace cabinet
