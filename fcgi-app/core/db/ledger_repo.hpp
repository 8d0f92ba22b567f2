#pragma once
// The two ledgers (sql/migrations/0011_money_ledger.sql): balance moves and subscription
// history. Money moves only through ledger_move(), which changes users.balance_minor and
// writes the ledger row in one statement; the database refuses a commit that changed a
// balance any other way.
#include <pqxx/pqxx>

#include <cstdint>
#include <optional>
#include <string_view>

namespace cabinet {

// Why money moved: the ledger's `reason` column.
// deposit: a payment credited to the balance; refund: money a refund takes back.
enum class LedgerReason { purchase, trial, autopay, promo, referral_commission, merge_in, merge_out, admin, deposit, refund };
std::string_view ledger_reason_name(LedgerReason r);

// Credits (delta > 0) or charges (delta < 0) the balance and records it. A charge larger
// than the balance changes nothing and returns nullopt; otherwise the new balance.
// `transaction_id` links the row to the history entry it pays for, when there is one;
// `note` is kept on the row (the owner's reason for an `admin` move).
std::optional<int64_t> move_balance(pqxx::transaction_base& txn, int64_t user_id, int64_t delta, LedgerReason reason,
                                    std::optional<int64_t> transaction_id = std::nullopt, std::string_view note = {});

// One row of subscription_history: `source` changed the expiry from `expire_before` (as the
// writer read it; nullopt for a new subscription) to `expire_after` (Unix seconds).
void record_subscription_history(pqxx::transaction_base& txn, int64_t user_id, std::string_view source,
                                 std::optional<int64_t> transaction_id, int64_t days,
                                 std::optional<int64_t> expire_before, int64_t expire_after);

}  // namespace cabinet
