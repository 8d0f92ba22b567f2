#include "db/accounts_repo.hpp"

#include <sodium.h>

#include "db/prepared.hpp"
#include "domain/subscription_status.hpp"
#include "errors.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet {
namespace {

Account account_from_row(const pqxx::row& r) {
    Account a;
    User& u = a.user;
    u.id = r["id"].as<int64_t>();
    if (!r["telegram_id"].is_null()) u.telegram_id = r["telegram_id"].as<int64_t>();
    u.username = r["username"].c_str();
    u.first_name = r["first_name"].c_str();
    u.last_name = r["last_name"].c_str();
    u.language = r["language"].c_str();
    if (!r["email"].is_null() && r["email_verified"].as<bool>()) u.email = r["email"].c_str();
    u.currency = r["currency"].c_str();
    u.balance_minor = r["balance_minor"].as<int64_t>();
    u.referral_code = r["referral_code"].c_str();
    u.personal_discount_pct = r["personal_discount_pct"].as<int64_t>();
    u.is_blocked = r["is_blocked"].as<bool>();
    u.trial_used = r["trial_used"].as<bool>();
    if (!r["referred_by"].is_null()) u.referred_by = r["referred_by"].as<int64_t>();
    u.group_discount_pct = r["group_discount_pct"].as<int64_t>();
    u.promo_discount_pct = r["promo_discount_pct"].as<int64_t>();
    u.promo_discount_until = r["promo_discount_until"].as<int64_t>();
    if (!r["sub_status"].is_null()) {
        Subscription s;
        s.status = subscription_status_from_text(r["sub_status"].c_str());
        s.is_trial = r["is_trial"].as<bool>();
        s.plan_name = r["plan_name"].is_null() ? "" : r["plan_name"].c_str();
        s.start_at = r["start_at"].as<int64_t>();
        s.expire_at = r["expire_at"].as<int64_t>();
        s.device_limit = r["device_limit"].as<int64_t>();
        s.traffic_limit_bytes = r["traffic_limit_bytes"].as<int64_t>();
        s.traffic_used_bytes = r["traffic_used_bytes"].as<int64_t>();
        if (!r["subscription_url"].is_null()) s.subscription_url = r["subscription_url"].c_str();
        s.crypto_link = r["crypto_link"].c_str();
        s.autopay_enabled = r["autopay_enabled"].as<bool>();
        if (!r["plan_id"].is_null()) s.plan_id = r["plan_id"].as<int64_t>();
        if (!r["panel_uuid"].is_null()) s.panel_uuid = r["panel_uuid"].c_str();
        if (!r["short_uuid"].is_null()) s.short_uuid = r["short_uuid"].c_str();
        s.link_reset_at = r["link_reset_at"].as<int64_t>();
        s.revision = r["sub_revision"].as<int64_t>();
        s.traffic_synced_at = r["traffic_synced_at"].as<int64_t>();
        a.subscription = std::move(s);
    }
    a.catalog_version = r["catalog_version"].as<int64_t>();
    return a;
}

std::optional<Account> first_account(const pqxx::result& res) {
    if (res.empty()) return std::nullopt;
    return account_from_row(res[0]);
}

}  // namespace

// 8 characters from an alphabet without look-alikes (0/O, 1/I): 32^8 codes.
std::string new_referral_code() {
    static constexpr char kAlphabet[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    std::string code(8, 'A');
    for (auto& c : code) c = kAlphabet[randombytes_uniform(32)];
    return code;
}

std::optional<Account> find_account_by_telegram_id(pqxx::transaction_base& txn, int64_t telegram_id) {
    return first_account(exec_prepared(txn, "account_by_telegram_id", telegram_id));
}

LockedAccount lock_account(pqxx::transaction_base& txn, int64_t user_id) {
    // The SQL function locks the row, then reads in a statement of its own, so with a new
    // snapshot: it sees every commit made before the lock was ours (sql 0036).
    const pqxx::result res = exec_prepared(txn, "lock_account", user_id);
    auto a = first_account(res);
    // Gone since the caller was authenticated: a web account joined with a Telegram one (the
    // merge deletes it) while this request waited for its lock. Its token means nobody now.
    if (!a) throw unauthorized("this account no longer exists (it was joined with another); sign in again");
    return LockedAccount(std::move(*a), unix_now(), res[0]["running_sale_pct"].as<int64_t>());
}

std::optional<Account> find_account_by_id(pqxx::transaction_base& txn, int64_t user_id) {
    return first_account(exec_prepared(txn, "account_by_id", user_id));
}

std::vector<TrafficDay> traffic_series(pqxx::transaction_base& txn, int64_t user_id) {
    std::vector<TrafficDay> days;
    for (const auto& row : exec_prepared(txn, "traffic_series", user_id))
        days.push_back({row[0].as<int32_t>(), row[1].as<int64_t>()});
    return days;
}

std::string language_for(const std::string& code) { return starts_with(to_lower(code), "en") ? "en" : "ru"; }

int64_t register_telegram_user(pqxx::dbtransaction& txn, const TelegramUser& tg, const std::string& currency,
                               const std::string& start_param) {
    const std::string referrer_code = starts_with(start_param, "ref_") ? start_param.substr(4) : std::string();
    const auto inserted = insert_with_referral_code(txn, "register", [&](pqxx::subtransaction& sub, const std::string& code) {
        return exec_prepared(sub, "register_telegram_user", tg.id, tg.username, tg.first_name, tg.last_name,
                             language_for(tg.language_code), currency, code, referrer_code);
    });
    if (!inserted.empty()) return inserted[0][0].as<int64_t>();
    // Empty: the row exists (maybe created concurrently).
    // ON CONFLICT DO NOTHING waited for the other inserter; its row is visible to a new statement.
    auto res = exec_prepared(txn, "user_id_by_telegram_id", tg.id);
    if (res.empty()) throw std::runtime_error("registration raced with a delete");
    return res[0][0].as<int64_t>();
}

void refresh_telegram_profile(pqxx::transaction_base& txn, int64_t user_id, const TelegramUser& tg) {
    exec_prepared(txn, "refresh_telegram_profile", user_id, tg.username, tg.first_name, tg.last_name);
}

bool crypto_link_issued(pqxx::transaction_base& txn, const std::string& link) {
    return !exec_prepared(txn, "crypto_link_issued", link).empty();
}

}  // namespace cabinet
