#include "app/account_reads.hpp"

#include "db/accounts_repo.hpp"
#include "db/catalog_repo.hpp"
#include "services/telegram_contact.hpp"

namespace cabinet {

Account telegram_caller(Exchange& ex, const TelegramUser& tg, const std::string& start_param) {
    const AccountCache& cache = ex.shared.accounts;
    if (auto a = cache.account_by_telegram_id(tg.id); a && !profile_changed(a->user, tg)) return std::move(*a);
    const AccountCache::Ticket ticket = cache.ticket_for_telegram_id(tg.id);
    Account a = telegram_contact(ex.io.db, tg, ex.settings().default_currency, start_param);
    cache.keep_account(ticket, a);
    return a;
}

std::optional<Account> account_by_id(Exchange& ex, int64_t user_id) {
    const AccountCache& cache = ex.shared.accounts;
    if (auto a = cache.account_by_id(user_id)) return a;
    const AccountCache::Ticket ticket = cache.ticket_for_id(user_id);
    auto a = ex.io.db.read([&](auto& txn) { return find_account_by_id(txn, user_id); });
    if (a) cache.keep_account(ticket, *a);
    return a;
}

ReferralStats caller_referral_stats(Exchange& ex) {
    const AccountCache& cache = ex.shared.accounts;
    const int64_t id = ex.caller().user.id;
    if (auto s = cache.referral_stats(id)) return *s;
    const AccountCache::Ticket ticket = cache.ticket_for_id(id);
    const ReferralStats s = ex.io.db.read([&](auto& txn) { return referral_stats(txn, id); });
    cache.keep_referral_stats(ticket, s);
    return s;
}

std::vector<TrafficDay> caller_traffic_series(Exchange& ex) {
    const AccountCache& cache = ex.shared.accounts;
    const int64_t id = ex.caller().user.id;
    if (auto s = cache.traffic_series(id)) return std::move(*s);
    const AccountCache::Ticket ticket = cache.ticket_for_id(id);
    auto s = ex.io.db.read([&](auto& txn) { return traffic_series(txn, id); });
    cache.keep_traffic_series(ticket, s);
    return s;
}

}  // namespace cabinet
