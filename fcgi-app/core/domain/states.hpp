#pragma once
// The shop's states beyond a subscription's, each an enum with its texts (util/enum_text.hpp),
// the column it is stored in named beside it. Text appears only where SQL or JSON needs it.
#include <cstdint>

#include "util/enum_text.hpp"

namespace cabinet {

// A payment (transactions.status, sql 0002):
//   pending    -- opened, not paid yet (or paid, its fulfilment queued)
//   completed  -- paid and granted or credited
//   canceled   -- ended unpaid (expired, canceled by the buyer or the provider)
//   refunded   -- the money went back
//   failed     -- the provider refused it, or it was underpaid
enum class TransactionStatus : uint8_t { pending, completed, canceled, refunded, failed };
template <>
struct StateTexts<TransactionStatus> {
    static constexpr EnumText<TransactionStatus, 5> table{{"pending", "completed", "canceled", "refunded", "failed"},
                                                          "transaction status"};
};

// What a transaction is (transactions.type, sql 0002): money in (deposit), a purchase
// (subscription_payment), money out (withdrawal, refund), a referrer's reward, a gift.
enum class TransactionType : uint8_t { deposit, withdrawal, subscription_payment, refund, referral_reward, gift };
template <>
struct StateTexts<TransactionType> {
    static constexpr EnumText<TransactionType, 6> table{
        {"deposit", "withdrawal", "subscription_payment", "refund", "referral_reward", "gift"}, "transaction type"};
};

// Money that reached us: paid, and possibly refunded since.
constexpr bool was_paid(TransactionStatus s) { return s == TransactionStatus::completed || s == TransactionStatus::refunded; }

// Who is asked for the money: Telegram Stars or an online gateway. A balance purchase asks none.
enum class Provider : uint8_t { stars, yookassa, cryptobot };
template <>
struct StateTexts<Provider> {
    static constexpr EnumText<Provider, 3> table{{"stars", "yookassa", "cryptobot"}, "payment provider"};
};

// What a promo code gives (promo_codes.reward_type, sql 0002); its `value` means minor
// units, days, days of a plan, or percent.
enum class PromoReward : uint8_t { balance, days, subscription, discount };
template <>
struct StateTexts<PromoReward> {
    static constexpr EnumText<PromoReward, 4> table{{"balance", "days", "subscription", "discount"}, "promo reward type"};
};

// A reward of days (free ones, or of a plan): it extends or starts a subscription.
constexpr bool grants_days(PromoReward r) { return r == PromoReward::days || r == PromoReward::subscription; }

// A support ticket (support_tickets.status, sql 0007): waiting means answered, the
// customer's turn.
enum class TicketStatus : uint8_t { open, waiting, closed };
template <>
struct StateTexts<TicketStatus> {
    static constexpr EnumText<TicketStatus, 3> table{{"open", "waiting", "closed"}, "ticket status"};
};

// An owner's broadcast (broadcasts.status, sql 0050): queued until the worker fills its
// recipients, sending, then done or cancelled.
enum class BroadcastStatus : uint8_t { queued, sending, done, cancelled };
template <>
struct StateTexts<BroadcastStatus> {
    static constexpr EnumText<BroadcastStatus, 4> table{{"queued", "sending", "done", "cancelled"}, "broadcast status"};
};

}  // namespace cabinet
