#include "db/web_auth_repo.hpp"

#include "db/accounts_repo.hpp"
#include "db/prepared.hpp"

namespace cabinet {
namespace {

std::optional<WebLogin> first_login(const pqxx::result& res) {
    if (res.empty()) return std::nullopt;
    const auto& r = res[0];
    WebLogin w;
    w.id = r["id"].as<int64_t>();
    w.email = r["email"].is_null() ? "" : r["email"].c_str();
    w.email_verified = r["email_verified"].as<bool>();
    w.password_hash = r["password_hash"].is_null() ? "" : r["password_hash"].c_str();
    w.is_blocked = r["is_blocked"].as<bool>();
    w.language = r["language"].c_str();
    return w;
}

std::optional<UsedVerification> verification_of(const pqxx::result& res) {
    if (res.empty()) return std::nullopt;
    return UsedVerification{res[0]["user_id"].as<int64_t>(), res[0]["email"].c_str(), res[0]["password_hash"].c_str(),
                            res[0]["contested"].as<bool>()};
}

}  // namespace

std::optional<int64_t> insert_web_user(pqxx::dbtransaction& txn, const std::string& email,
                                       const std::string& password_hash, const std::string& currency,
                                       const std::string& language) {
    const auto res = insert_with_referral_code(txn, "register_web", [&](pqxx::subtransaction& sub, const std::string& code) {
        return exec_prepared(sub, "register_web_user", email, password_hash, language, currency, code);
    });
    if (res.empty()) return std::nullopt;
    return res[0][0].as<int64_t>();
}

std::optional<WebLogin> find_web_login_by_email(pqxx::transaction_base& txn, const std::string& email) {
    return first_login(exec_prepared(txn, "web_login_by_email", email));
}

std::optional<WebLogin> find_web_login_by_id(pqxx::transaction_base& txn, int64_t user_id) {
    return first_login(exec_prepared(txn, "web_user_by_id", user_id));
}

void update_password_hash(pqxx::transaction_base& txn, int64_t user_id, const std::string& hash) {
    exec_prepared(txn, "update_password_hash", user_id, hash);
}

void insert_verification_token(pqxx::transaction_base& txn, const std::string& token_hash, int64_t user_id,
                               const std::string& email, int64_t ttl_s, const std::string& password_hash,
                               bool contested) {
    exec_prepared(txn, "insert_verification_token", token_hash, user_id, email, ttl_s, password_hash, contested);
}

std::optional<UsedVerification> peek_verification_token(pqxx::transaction_base& txn, const std::string& token_hash) {
    return verification_of(exec_prepared(txn, "peek_verification_token", token_hash));
}

std::optional<UsedVerification> use_verification_token(pqxx::transaction_base& txn, const std::string& token_hash) {
    return verification_of(exec_prepared(txn, "use_verification_token", token_hash));
}

bool insert_reset_token(pqxx::transaction_base& txn, const std::string& token_hash, int64_t user_id,
                        const std::string& email, int64_t ttl_s) {
    return !exec_prepared(txn, "insert_reset_token", token_hash, user_id, email, ttl_s).empty();
}

std::optional<UsedReset> use_reset_token(pqxx::transaction_base& txn, const std::string& token_hash) {
    const auto r = exec_prepared(txn, "use_reset_token", token_hash);
    if (r.empty()) return std::nullopt;
    return UsedReset{r[0]["user_id"].as<int64_t>(), r[0]["email"].c_str()};
}

std::optional<ResendDue> verification_resend_due(pqxx::transaction_base& txn, const std::string& email) {
    const auto r = exec_prepared(txn, "verification_resend_due", email);
    if (r.empty()) return std::nullopt;
    return ResendDue{r[0]["id"].as<int64_t>(), r[0]["email"].c_str(), r[0]["password_hash"].c_str(),
                     r[0]["language"].c_str(), r[0]["contested"].as<bool>()};
}

bool remove_email_login(pqxx::transaction_base& txn, int64_t user_id) {
    return !exec_prepared(txn, "remove_email_login", user_id).empty();
}

void mark_email_verified(pqxx::transaction_base& txn, int64_t user_id, const std::string& email) {
    exec_prepared(txn, "mark_email_verified", user_id, email);
}

std::string insert_refresh_family(pqxx::transaction_base& txn, const std::string& token_hash, int64_t user_id,
                                  int64_t ttl_s, const std::string& origin) {
    return exec_prepared1(txn, "insert_refresh_family", token_hash, user_id, ttl_s, origin)[0].c_str();
}

void insert_refresh_successor(pqxx::transaction_base& txn, const std::string& token_hash, int64_t predecessor_id,
                              int64_t ttl_s, int64_t family_max_age_s) {
    exec_prepared(txn, "insert_refresh_successor", token_hash, predecessor_id, ttl_s, family_max_age_s);
}

std::optional<RefreshRow> lock_refresh_token(pqxx::transaction_base& txn, const std::string& token_hash,
                                             int64_t grace_s, int64_t family_max_age_s) {
    auto res = exec_prepared(txn, "lock_refresh_token", token_hash, grace_s, family_max_age_s);
    if (res.empty()) return std::nullopt;
    const auto& r = res[0];
    return RefreshRow{r["id"].as<int64_t>(), r["family_id"].c_str(), r["user_id"].as<int64_t>(),
                      r["rotated"].as<bool>(), r["revoked"].as<bool>(), r["expired"].as<bool>(),
                      r["successor_sealed"].c_str()};
}

void rotate_refresh_token(pqxx::transaction_base& txn, int64_t id, const std::string& successor_sealed) {
    exec_prepared(txn, "rotate_refresh_token", id, successor_sealed);
}

void revoke_refresh_family(pqxx::transaction_base& txn, const std::string& family_id) {
    exec_prepared(txn, "revoke_refresh_family", family_id);
}

// A revocation's UPDATE would not see a successor that a refresh running at the same time
// inserts (after the UPDATE's snapshot) while the UPDATE waits for the old token's lock:
// that successor would live on. So the rows are locked first, and the UPDATE, a statement
// of its own, reads after the refresh committed. lock_refresh_token also refuses any token
// of a family that lost one to a revocation.
int64_t revoke_refresh_families(pqxx::transaction_base& txn, int64_t user_id, const std::string& keep_family,
                                const std::string& origin) {
    exec_prepared(txn, "lock_user_refresh_tokens", user_id);
    return exec_prepared1(txn, "revoke_refresh_families", user_id, keep_family, origin)[0].as<int64_t>();
}

std::optional<int64_t> revoke_refresh_family_of_token(pqxx::transaction_base& txn, const std::string& token_hash) {
    exec_prepared(txn, "lock_refresh_family_of_token", token_hash);  // as revoke_refresh_families
    const auto res = exec_prepared(txn, "revoke_refresh_family_of_token", token_hash);
    if (res.empty()) return std::nullopt;
    return res[0][0].as<int64_t>();
}

std::vector<std::string> ended_sessions(pqxx::transaction_base& txn, int64_t user_id, int64_t within_s) {
    std::vector<std::string> ids;
    for (const auto& row : exec_prepared(txn, "ended_sessions", user_id, within_s)) ids.push_back(row[0].as<std::string>());
    return ids;
}

FailureCount auth_failure_count(pqxx::transaction_base& txn, const std::string& key, int64_t window_s) {
    auto res = exec_prepared(txn, "auth_failure_count", key, window_s);
    if (res.empty()) return {};
    return FailureCount{res[0][0].as<int64_t>(), res[0][1].as<int64_t>(), res[0][2].as<int64_t>()};
}

void auth_failure_hit(pqxx::transaction_base& txn, const std::string& key, int64_t window_s) {
    exec_prepared(txn, "auth_failure_hit", key, window_s);
}

}  // namespace cabinet
