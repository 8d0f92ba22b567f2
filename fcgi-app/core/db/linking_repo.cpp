#include "db/linking_repo.hpp"

#include <algorithm>

#include "db/ledger_repo.hpp"
#include "db/prepared.hpp"

namespace cabinet {

void insert_telegram_code(pqxx::transaction_base& txn, const std::string& code_hash, const std::string& kind,
                          int64_t user_id, int64_t ttl_s, const CodeStarter& starter) {
    exec_prepared(txn, "insert_telegram_code", code_hash, kind, user_id, ttl_s, starter.ip, starter.user_agent,
                  starter.browser_hash, starter.needs_approval);
}

std::optional<CodePrompt> telegram_code_for_prompt(pqxx::transaction_base& txn, const std::string& code_hash,
                                                   const std::string& kind) {
    const auto res = exec_prepared(txn, "telegram_code_for_prompt", code_hash, kind);
    if (res.empty()) return std::nullopt;
    const auto& r = res[0];
    return CodePrompt{{r["start_ip"].c_str(), r["start_user_agent"].c_str(), ""}, r["created_at"].as<int64_t>(), r["email"].c_str(),
                      r["has_password"].as<bool>(), r["oauth_providers"].c_str()};
}

bool cancel_telegram_code(pqxx::transaction_base& txn, const std::string& code_hash, const std::string& kind) {
    return !exec_prepared(txn, "cancel_telegram_code", code_hash, kind).empty();
}

void sweep_telegram_codes(pqxx::transaction_base& txn) { exec_prepared(txn, "sweep_telegram_codes"); }

std::optional<bool> confirm_weblogin_code(pqxx::transaction_base& txn, const std::string& code_hash,
                                         int64_t telegram_user_id) {
    const auto res = exec_prepared(txn, "confirm_weblogin_code", code_hash, telegram_user_id);
    if (res.empty()) return std::nullopt;
    return res[0][0].as<bool>();
}

bool confirm_link_code(pqxx::transaction_base& txn, const std::string& code_hash, int64_t telegram_user_id) {
    return !exec_prepared(txn, "confirm_link_code", code_hash, telegram_user_id).empty();
}

bool decline_link_code(pqxx::transaction_base& txn, const std::string& code_hash, int64_t user_id) {
    return !exec_prepared(txn, "decline_link_code", code_hash, user_id).empty();
}

bool decline_weblogin_code(pqxx::transaction_base& txn, const std::string& code_hash) {
    return !exec_prepared(txn, "decline_weblogin_code", code_hash).empty();
}

std::optional<CodeConfirmer> telegram_code_confirmer(pqxx::transaction_base& txn, const std::string& code_hash) {
    const auto res = exec_prepared(txn, "telegram_code_confirmer", code_hash);
    if (res.empty() || res[0]["telegram_id"].is_null()) return std::nullopt;
    return CodeConfirmer{res[0]["telegram_id"].as<int64_t>(), res[0]["username"].c_str(), res[0]["first_name"].c_str()};
}

namespace {
std::optional<TelegramCode> telegram_code(pqxx::transaction_base& txn, StatementName statement, const std::string& code_hash) {
    const auto res = exec_prepared(txn, statement, code_hash);
    if (res.empty()) return std::nullopt;
    const auto& r = res[0];
    return TelegramCode{r["kind"].c_str(), r["user_id"].as<int64_t>(), r["confirmed_user_id"].as<int64_t>(),
                        r["confirmed"].as<bool>(), r["spent"].as<bool>(), r["expired"].as<bool>(),
                        r["cancelled"].as<bool>(), r["browser_hash"].c_str(), r["needs_approval"].as<bool>()};
}
}  // namespace

std::optional<TelegramCode> lock_telegram_code(pqxx::transaction_base& txn, const std::string& code_hash) {
    return telegram_code(txn, "lock_telegram_code", code_hash);
}

std::optional<TelegramCode> peek_telegram_code(pqxx::transaction_base& txn, const std::string& code_hash) {
    return telegram_code(txn, "peek_telegram_code", code_hash);
}

void spend_telegram_code(pqxx::transaction_base& txn, const std::string& code_hash, int64_t confirmed_user_id) {
    exec_prepared(txn, "spend_telegram_code", code_hash, confirmed_user_id);
}

std::optional<LinkedProfile> find_linked_profile(pqxx::transaction_base& txn, int64_t user_id) {
    const auto res = exec_prepared(txn, "linked_profile", user_id);
    if (res.empty()) return std::nullopt;
    const auto& r = res[0];
    LinkedProfile p;
    p.email = r["email"].is_null() ? "" : r["email"].c_str();
    p.email_verified = r["email_verified"].as<bool>();
    p.has_password = r["has_password"].as<bool>();
    if (!r["telegram_id"].is_null()) p.telegram_id = r["telegram_id"].as<int64_t>();
    p.username = r["username"].c_str();
    return p;
}

std::vector<OAuthLink> oauth_links_of(pqxx::transaction_base& txn, int64_t user_id) {
    std::vector<OAuthLink> out;
    for (const auto& r : exec_prepared(txn, "oauth_links_of_user", user_id))
        out.push_back({r["provider"].c_str(), r["email"].is_null() ? "" : r["email"].c_str(), r["display_name"].c_str()});
    return out;
}

std::optional<int64_t> email_owner(pqxx::transaction_base& txn, const std::string& email) {
    const auto res = exec_prepared(txn, "email_owner", email);
    if (res.empty()) return std::nullopt;
    return res[0][0].as<int64_t>();
}

void release_unverified_email(pqxx::transaction_base& txn, const std::string& email, int64_t taker) {
    exec_prepared(txn, "release_unverified_email", email, taker);
}

void replace_email_link_code(pqxx::transaction_base& txn, int64_t user_id, const std::string& email,
                             const std::string& code_hash, const std::string& password_hash, int64_t ttl_s) {
    exec_prepared(txn, "drop_live_email_link_code", user_id);
    exec_prepared(txn, "insert_email_link_code", user_id, email, code_hash, password_hash, ttl_s);
}

std::optional<EmailLinkCode> lock_email_link_code(pqxx::transaction_base& txn, int64_t user_id) {
    const auto res = exec_prepared(txn, "lock_email_link_code", user_id);
    if (res.empty()) return std::nullopt;
    const auto& r = res[0];
    return EmailLinkCode{r["id"].as<int64_t>(), r["email"].c_str(), r["code_hash"].c_str(), r["password_hash"].c_str(),
                         r["attempts"].as<int64_t>(), r["expired"].as<bool>()};
}

int64_t email_link_code_failed(pqxx::transaction_base& txn, int64_t code_id) {
    return exec_prepared(txn, "email_link_code_failed", code_id)[0][0].as<int64_t>();
}

void use_email_link_code(pqxx::transaction_base& txn, int64_t code_id) {
    exec_prepared(txn, "use_email_link_code", code_id);
}

void set_linked_email(pqxx::transaction_base& txn, int64_t user_id, const std::string& email,
                      const std::string& password_hash) {
    exec_prepared(txn, "set_linked_email", user_id, email, password_hash);
}

std::optional<MergeUser> lock_merge_user(pqxx::transaction_base& txn, int64_t user_id) {
    const auto res = exec_prepared(txn, "lock_merge_user", user_id);
    if (res.empty()) return std::nullopt;
    const auto& r = res[0];
    MergeUser u;
    u.id = r["id"].as<int64_t>();
    if (!r["telegram_id"].is_null()) u.telegram_id = r["telegram_id"].as<int64_t>();
    u.email = r["email"].c_str();
    u.email_verified = r["email_verified"].as<bool>();
    u.password_hash = r["password_hash"].c_str();
    u.balance_minor = r["balance_minor"].as<int64_t>();
    u.trial_used = r["trial_used"].as<bool>();
    u.is_blocked = r["is_blocked"].as<bool>();
    return u;
}

std::optional<MergeSubscription> merge_subscription_of(pqxx::transaction_base& txn, int64_t user_id) {
    const auto res = exec_prepared(txn, "merge_subscription_of", user_id);
    if (res.empty()) return std::nullopt;
    return MergeSubscription{res[0]["expire_at"].as<int64_t>(), res[0]["panel_uuid"].c_str(), res[0]["free_trial"].as<bool>()};
}

void move_user_rows(pqxx::transaction_base& txn, int64_t from, int64_t to) {
    for (const StatementName name : {StatementName("merge_move_transactions"), StatementName("merge_move_referrer_earnings"), StatementName("merge_move_referral_earnings"),
                             StatementName("merge_close_clashing_ticket"), StatementName("merge_move_tickets"), StatementName("merge_move_promo_activations"),
                             StatementName("merge_move_events"), StatementName("merge_move_referrals"), StatementName("merge_end_web_sessions"),
                             StatementName("merge_move_oauth_links")})
        exec_prepared(txn, name, from, to);
}

void move_subscription(pqxx::transaction_base& txn, int64_t from, int64_t to) {
    exec_prepared(txn, "merge_move_subscription", from, to);
    exec_prepared(txn, "merge_move_traffic", from, to);
}

void drop_subscription(pqxx::transaction_base& txn, int64_t user_id) {
    exec_prepared(txn, "merge_drop_subscription", user_id);
}

TakenBack merge_user_fields(pqxx::transaction_base& txn, const MergeUser& from, int64_t to) {
    const auto repeated = exec_prepared1(txn, "merge_repeated_rewards", from.id, to);
    TakenBack back;
    int64_t balance = from.balance_minor;
    // Up to what is still there: money already spent bought days, which the merge's rule for
    // two subscriptions (the later expiry stays, not both) already keeps from adding up.
    const auto take = [&](int64_t owed, LedgerReason reason) {
        const int64_t amount = std::min(owed, balance);
        if (amount <= 0) return int64_t{0};
        move_balance(txn, from.id, -amount, reason);
        balance -= amount;
        return amount;
    };
    back.promo_minor = take(repeated["promo_minor"].as<int64_t>(), LedgerReason::promo);
    back.commission_minor = take(repeated["commission_minor"].as<int64_t>(), LedgerReason::referral_commission);
    if (balance > 0) {
        move_balance(txn, from.id, -balance, LedgerReason::merge_out);
        move_balance(txn, to, balance, LedgerReason::merge_in);
    }
    exec_prepared(txn, "merge_empty_web_user", from.id);
    exec_prepared(txn, "merge_into_telegram_user", to, from.trial_used, from.email,
                  from.email_verified, from.password_hash, from.id);
    return back;
}

void record_merge(pqxx::transaction_base& txn, int64_t user_id, const std::string& payload_json) {
    exec_prepared(txn, "merge_record", user_id, payload_json);
}

void delete_user(pqxx::transaction_base& txn, int64_t user_id) { exec_prepared(txn, "merge_delete_web_user", user_id); }

}  // namespace cabinet
