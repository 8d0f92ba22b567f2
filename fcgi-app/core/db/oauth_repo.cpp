#include "db/oauth_repo.hpp"

#include "db/accounts_repo.hpp"
#include "db/prepared.hpp"

namespace cabinet {

void insert_oauth_state(pqxx::transaction_base& txn, const std::string& state_hash, const std::string& provider,
                        const std::string& code_verifier, int64_t user_id, int64_t ttl_s,
                        const std::string& browser_hash) {
    exec_prepared(txn, "oauth_state_insert", state_hash, provider, code_verifier, user_id, ttl_s, browser_hash);
}

std::optional<OAuthState> consume_oauth_state(pqxx::transaction_base& txn, const std::string& state_hash,
                                              const std::string& provider) {
    auto res = exec_prepared(txn, "oauth_state_consume", state_hash, provider);
    if (res.empty()) return std::nullopt;
    return OAuthState{res[0]["code_verifier"].c_str(), res[0]["user_id"].as<int64_t>(), res[0]["browser_hash"].c_str()};
}

void lock_oauth_identity(pqxx::transaction_base& txn, const std::string& provider, const std::string& subject) {
    exec_prepared(txn, "oauth_identity_lock", provider, subject);
}

std::optional<int64_t> oauth_link_owner(pqxx::transaction_base& txn, const std::string& provider,
                                        const std::string& subject) {
    auto res = exec_prepared(txn, "oauth_link_owner", provider, subject);
    if (res.empty()) return std::nullopt;
    return res[0][0].as<int64_t>();
}

std::optional<std::string> oauth_link_of_user(pqxx::transaction_base& txn, int64_t user_id, const std::string& provider) {
    auto res = exec_prepared(txn, "oauth_link_of_user", user_id, provider);
    if (res.empty()) return std::nullopt;
    return std::string(res[0][0].c_str());
}

void insert_oauth_link(pqxx::transaction_base& txn, int64_t user_id, const OAuthIdentity& id) {
    exec_prepared(txn, "oauth_link_insert", user_id, id.provider, id.subject, id.email, id.display_name);
}

void refresh_oauth_link(pqxx::transaction_base& txn, const OAuthIdentity& id) {
    exec_prepared(txn, "oauth_link_refresh", id.provider, id.subject, id.email, id.display_name);
}

int64_t count_oauth_links(pqxx::transaction_base& txn, int64_t user_id) {
    return exec_prepared(txn, "oauth_links_count", user_id)[0][0].as<int64_t>();
}

bool delete_oauth_link(pqxx::transaction_base& txn, int64_t user_id, const std::string& provider) {
    return !exec_prepared(txn, "oauth_link_delete", user_id, provider).empty();
}

int64_t insert_oauth_user(pqxx::dbtransaction& txn, const std::string& email, const std::string& provider,
                          const std::string& currency) {
    // An address taken meanwhile (no row inserted) makes an account without it.
    for (const std::string& address : {email, std::string()}) {
        const auto res = insert_with_referral_code(txn, "register_oauth", [&](pqxx::subtransaction& sub, const std::string& code) {
            return exec_prepared(sub, "register_oauth_user", address, provider, std::string("ru"), currency, code);
        });
        if (!res.empty()) return res[0][0].as<int64_t>();
        if (address.empty()) break;
    }
    throw std::runtime_error("could not insert an OAuth user");
}

}  // namespace cabinet
