#pragma once
// OAuth login and linking of the web cabinet (SPEC-GAPS "Auth and sessions", "Cabinet
// shapes"; docs/decisions.md "OAuth login (issue 7)"): single-use states, the code exchange,
// which user an identity signs in as, linking to a signed-in user, and unlinking without
// locking anyone out. Errors are ApiErrors.
#include <string>

#include "auth/oauth.hpp"
#include "config/settings.hpp"
#include "db/db.hpp"
#include "services/web_auth.hpp"

namespace cabinet {

struct OAuthStart {
    std::string authorize_url;
    std::string state;
};

inline constexpr int64_t kOAuthStateTtlS = 600;


class OAuthLogin {
public:
    OAuthLogin(const Settings& s, Db& db) : s_(s), db_(db) {}

    // A new state for `p`, bound to the browser whose binding value is `browser` (the
    // browser binding cookie, api/web_session.hpp); `link_user_id` non-zero binds it to that signed-in user.
    OAuthStart start(oauth::Provider p, int64_t link_user_id, const std::string& browser);
    // Consumes the state, exchanges the code, and answers a session for the user the
    // identity belongs to (made or linked as needed). 400 bad state or a state started in
    // another browser (`browser` is this request's cookie), 403 a link-mode state finished
    // without the credential of the user who started it (`caller_id`, 0 for none),
    // 502 provider failure, 409 identity taken, 403 blocked.
    WebSession complete(WebAuth& auth, oauth::Provider p, const oauth::CodeGrant& grant, const std::string& browser,
                        int64_t caller_id);
    // 404 when not linked, 409 when it is the user's last way in. The sessions the provider
    // opened end with it (whoever signed in through it may be why it is unlinked), all but
    // the caller's own (`keep_session`, a refresh family; empty for none).
    void unlink(int64_t user_id, oauth::Provider p, const std::string& keep_session);

private:
    const Settings& s_;
    Db& db_;
};

}  // namespace cabinet
