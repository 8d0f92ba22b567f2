#include "services/referral_commission.hpp"

namespace cabinet {

void pay_referral_commission(pqxx::work& txn, const Settings& s, const User& buyer, int64_t amount,
                             int64_t transaction_id) {
    if (!buyer.referred_by || s.referral_percent == 0 || amount <= 0) return;
    // floor(amount * pct / 100) without overflow
    const int64_t commission = amount / 100 * s.referral_percent + amount % 100 * s.referral_percent / 100;
    if (commission > 0)
        txn.exec_prepared("pay_referral_commission", *buyer.referred_by, buyer.id, commission, transaction_id);
}

}  // namespace cabinet
