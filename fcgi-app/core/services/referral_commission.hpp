#pragma once
#include <pqxx/pqxx>

#include "config/settings.hpp"
#include "domain/account.hpp"

namespace cabinet {

// REFERRAL_PERCENT of a completed purchase to the buyer's referrer: balance, ledger and
// history, once per purchase transaction (the ledger's transaction_id is UNIQUE).
void pay_referral_commission(pqxx::work& txn, const Settings& s, const User& buyer, int64_t amount_minor,
                             int64_t transaction_id);

}  // namespace cabinet
