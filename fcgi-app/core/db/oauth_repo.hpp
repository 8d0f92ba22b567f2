#pragma once
// OAuth states and the identities linked to users (statements in oauth_statements.cpp;
// migrations 0008 and 0009). State values arrive here already hashed (util/web_tokens.hpp).
#include <pqxx/pqxx>

#include <optional>
#include <string>
#include <vector>

namespace cabinet {

// `user_id` 0: a login; otherwise the user a link was asked for.
void insert_oauth_state(pqxx::transaction_base& txn, const std::string& state_hash, const std::string& provider,
                        const std::string& code_verifier, int64_t user_id, int64_t ttl_s,
                        const std::string& browser_hash);
struct OAuthState {
    std::string code_verifier;
    int64_t user_id = 0;
    std::string browser_hash;  // of the browser binding cookie set at authorize
};
// Marks an unused, unexpired state of `provider` used; nullopt when there is none (a state
// of another provider stays as it was).
std::optional<OAuthState> consume_oauth_state(pqxx::transaction_base& txn, const std::string& state_hash,
                                              const std::string& provider);

// Serializes every change of one provider identity until the transaction ends, so two
// concurrent first logins make one user, not two.
void lock_oauth_identity(pqxx::transaction_base& txn, const std::string& provider, const std::string& subject);

struct OAuthIdentity {
    std::string provider;
    std::string subject;
    std::string email;
    std::string display_name;
};
std::optional<int64_t> oauth_link_owner(pqxx::transaction_base& txn, const std::string& provider,
                                        const std::string& subject);
// The subject the user has linked for `provider`, if any.
std::optional<std::string> oauth_link_of_user(pqxx::transaction_base& txn, int64_t user_id, const std::string& provider);
void insert_oauth_link(pqxx::transaction_base& txn, int64_t user_id, const OAuthIdentity& id);
// Keeps the stored e-mail and name as the provider last reported them.
void refresh_oauth_link(pqxx::transaction_base& txn, const OAuthIdentity& id);
int64_t count_oauth_links(pqxx::transaction_base& txn, int64_t user_id);
bool delete_oauth_link(pqxx::transaction_base& txn, int64_t user_id, const std::string& provider);

// A new web-only account made by an OAuth login: no password; `email` (canonical, verified
// by the provider) or empty. The address is left out when someone took it meanwhile.
int64_t insert_oauth_user(pqxx::dbtransaction& txn, const std::string& email, const std::string& provider,
                          const std::string& currency);

}  // namespace cabinet
