#include "app/account_reads.hpp"

#include <algorithm>

#include "db/accounts_repo.hpp"
#include "db/catalog_repo.hpp"
#include "db/web_auth_repo.hpp"
#include "services/telegram_contact.hpp"
#include "services/web_auth.hpp"

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

bool session_ended(Exchange& ex, int64_t user_id, const std::string& session_id) {
    // An access token lives kAccessTokenTtlS from its issue by one host's clock, and
    // revoked_at is the database's: a minute more covers the clocks' drift.
    constexpr int64_t kLookBackS = kAccessTokenTtlS + 60;
    const AccountCache& cache = ex.shared.accounts;
    auto ended = cache.ended_sessions(user_id);
    if (!ended) {
        const AccountCache::Ticket ticket = cache.ticket_for_id(user_id);
        ended = ex.io.db.read([&](auto& txn) { return ended_sessions(txn, user_id, kLookBackS); });
        cache.keep_ended_sessions(ticket, *ended);
    }
    return std::find(ended->begin(), ended->end(), session_id) != ended->end();
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
