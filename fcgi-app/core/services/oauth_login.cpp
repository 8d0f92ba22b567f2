#include "services/oauth_login.hpp"

#include <algorithm>

#include "db/accounts_repo.hpp"
#include "db/oauth_repo.hpp"
#include "db/web_auth_repo.hpp"
#include "domain/email.hpp"
#include "errors.hpp"
#include "util/web_tokens.hpp"

namespace cabinet {
namespace {

// The user a login resolves to, or why not; decided inside the transaction, thrown after.
enum class Outcome { ok, blocked, gone, taken, other_linked };

}  // namespace

OAuthStart OAuthLogin::start(oauth::Provider p, int64_t link_user_id, const std::string& browser) {
    OAuthStart out;
    out.state = new_opaque_token();
    // Only vk uses PKCE; the others authenticate the exchange with the client secret.
    const std::string verifier = p == oauth::Provider::vk ? oauth::new_code_verifier() : std::string();
    db_.write([&](pqxx::work& txn) {
        insert_oauth_state(txn, opaque_token_hash(out.state), oauth::provider_name(p), verifier, link_user_id,
                           kOAuthStateTtlS, opaque_token_hash(browser));
    });
    out.authorize_url = oauth::authorize_url(s_, p, out.state, verifier);
    return out;
}

WebSession OAuthLogin::complete(WebAuth& auth, oauth::Provider p, const oauth::CodeGrant& grant,
                                const std::string& browser, int64_t caller_id) {
    const std::string provider = oauth::provider_name(p);
    if (p == oauth::Provider::vk && grant.device_id.empty()) throw bad_request("device_id is required for vk");
    // Consumed before the provider is asked, in its own transaction: no network call holds a
    // transaction open, and a state is spent even when the exchange then fails (the browser
    // starts over; a code is single use at the provider anyway).
    // An unknown state throws inside, so nothing commits: anyone may post one, and a commit
    // would make every pool process of the host forget every account it keeps
    // (app/dispatch.cpp).
    const auto state = db_.write([&](pqxx::work& txn) {
        auto found = consume_oauth_state(txn, opaque_token_hash(grant.state), provider);
        if (!found) throw bad_request("OAuth state is invalid, used or expired");
        return found;
    });
    // Spent either way: a state finished in the wrong browser is not tried again.
    if (browser.empty() || state->browser_hash != opaque_token_hash(browser))
        throw bad_request("OAuth sign-in was started in another browser; start again");
    if (state->user_id != 0 && caller_id != state->user_id)
        throw forbidden("linking must be finished by the account that started it");

    oauth::CodeGrant full = grant;
    full.code_verifier = state->code_verifier;
    oauth::Profile profile;
    try {
        HttpClient http(std::min<int64_t>(3000, s_.gateway_timeout_ms), s_.gateway_timeout_ms);
        profile = oauth::fetch_profile(http, s_, p, full);
    } catch (const oauth::ProviderError& e) {
        throw bad_gateway(e.what());
    }
    const auto email = profile.email.empty() ? std::nullopt : normalize_email(profile.email);
    const std::string verified_email = email && profile.email_verified ? *email : std::string();
    const OAuthIdentity identity{provider, profile.subject, email.value_or(std::string()), profile.display_name};

    WebSession session;
    const Outcome outcome = db_.write([&](pqxx::work& txn) {
        lock_oauth_identity(txn, provider, identity.subject);
        const auto owner = oauth_link_owner(txn, provider, identity.subject);
        int64_t user_id = 0;
        if (state->user_id != 0) {
            // Link mode: the identity joins the user who asked, never another one.
            if (lock_account(txn, state->user_id).user.is_blocked) return Outcome::blocked;  // nothing linked
            if (owner && *owner != state->user_id) return Outcome::taken;
            if (!owner) {
                if (oauth_link_of_user(txn, state->user_id, provider)) return Outcome::other_linked;
                insert_oauth_link(txn, state->user_id, identity);
            }
            user_id = state->user_id;
        } else if (owner) {
            user_id = *owner;
        } else if (const auto by_email = verified_email.empty() ? std::nullopt : find_web_login_by_email(txn, verified_email);
                   by_email && !by_email->email_verified) {
            // An account that claims the address but never proved it may be a squatter's:
            // the provider's user gets an account of their own, without the address.
            user_id = insert_oauth_user(txn, "", provider, s_.default_currency);
            insert_oauth_link(txn, user_id, identity);
        } else if (by_email) {
            // Both the provider and the account proved the address: the same person.
            if (by_email->is_blocked) return Outcome::blocked;
            if (oauth_link_of_user(txn, by_email->id, provider)) return Outcome::other_linked;
            insert_oauth_link(txn, by_email->id, identity);
            user_id = by_email->id;
        } else {
            user_id = insert_oauth_user(txn, verified_email, provider, s_.default_currency);
            insert_oauth_link(txn, user_id, identity);
        }
        if (owner) refresh_oauth_link(txn, identity);
        const auto user = find_web_login_by_id(txn, user_id);
        if (!user) return Outcome::gone;
        if (user->is_blocked) return Outcome::blocked;
        session = auth.open_session(txn, user->id, user->email, user->email_verified, oauth_session_origin(provider));
        return Outcome::ok;
    });
    switch (outcome) {
        case Outcome::ok: return session;
        case Outcome::blocked: throw forbidden("user is blocked");
        case Outcome::taken: throw conflict("this " + provider + " account is linked to another user");
        case Outcome::other_linked:
            throw conflict("another " + provider + " account is linked already; unlink it first");
        case Outcome::gone: break;
    }
    throw bad_request("OAuth state is invalid, used or expired");  // the user was deleted meanwhile
}

void OAuthLogin::unlink(int64_t user_id, oauth::Provider p, const std::string& keep_session) {
    const std::string provider = oauth::provider_name(p);
    enum class Result { ok, not_linked, last_way_in };
    const Result r = db_.write([&](pqxx::work& txn) {
        // The user row lock makes concurrent unlinks (and links) of one user queue up, so two
        // of them cannot each see the other's identity and remove both.
        const Account account = lock_account(txn, user_id);
        if (!oauth_link_of_user(txn, user_id, provider)) return Result::not_linked;
        const auto login = find_web_login_by_id(txn, user_id);
        const bool has_password = login && !login->email.empty() && login->email_verified && !login->password_hash.empty();
        const bool has_telegram = account.user.telegram_id.has_value();
        if (!has_telegram && !has_password && count_oauth_links(txn, user_id) <= 1) return Result::last_way_in;
        delete_oauth_link(txn, user_id, provider);
        revoke_refresh_families(txn, user_id, keep_session, oauth_session_origin(provider));
        return Result::ok;
    });
    if (r == Result::not_linked) throw not_found(provider + " is not linked");
    if (r == Result::last_way_in)
        throw conflict("cannot unlink " + provider + ": it is the only way to sign in to this account");
}

}  // namespace cabinet
