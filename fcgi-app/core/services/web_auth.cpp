#include "services/web_auth.hpp"

#include <spdlog/spdlog.h>

#include "auth/refresh_grace.hpp"
#include "db/accounts_repo.hpp"
#include "db/prepared.hpp"
#include "db/web_auth_repo.hpp"
#include "errors.hpp"
#include "mail/templates.hpp"
#include "services/mail_queue.hpp"
#include "util/time.hpp"
#include "util/web_tokens.hpp"

namespace cabinet {
namespace {

// The link of one registration, carrying that registration's password hash, in `language`.
void queue_verification(pqxx::transaction_base& txn, const Settings& s, int64_t user_id, const std::string& email,
                        const std::string& password_hash, bool contested, const std::string& language) {
    const std::string token = new_opaque_token();
    insert_verification_token(txn, opaque_token_hash(token), user_id, email, s.verify_token_ttl_s, password_hash,
                              contested);
    enqueue_mail(txn, email, verification_mail(s.web_cabinet_url + "/verify?token=" + token, s.verify_token_ttl_s,
                                               mail_language(language)));
}

ApiError bad_credentials() { return unauthorized("invalid e-mail or password", "invalid_credentials"); }

// What using a mailed link (verification, password reset) came to.
enum class LinkOutcome { ok, invalid, blocked };
// Throws what the page needs for a link that did not sign in; an invalid one counts as a
// failure of the client address.
void settle_link(LinkOutcome o, AuthThrottle& throttle, std::string_view ip, const char* invalid_detail) {
    if (o == LinkOutcome::blocked) throw forbidden("user is blocked", "user_blocked");
    if (o == LinkOutcome::invalid) {
        throttle.failed(ip, {});
        throw bad_request(invalid_detail, "link_invalid");
    }
}
ApiError password_needed() {
    return ApiError(409, "this address was registered more than once: enter the password you chose", "password_needed");
}

}  // namespace

std::string oauth_session_origin(std::string_view provider) { return "oauth:" + std::string(provider); }

WebSession WebAuth::issue_access(int64_t user_id, const std::string& email, bool verified,
                                 const std::string& family_id) const {
    WebSession out;
    out.access_token = jwt_.issue(user_id, unix_now(), kAccessTokenTtlS, family_id);
    out.expires_in = kAccessTokenTtlS;
    out.user_id = user_id;
    out.email = email;
    out.email_verified = verified;
    return out;
}

WebSession WebAuth::issue(pqxx::transaction_base& txn, int64_t user_id, const std::string& email, bool verified,
                          const std::string& origin) {
    const std::string refresh_token = new_opaque_token();
    const std::string family =
        insert_refresh_family(txn, opaque_token_hash(refresh_token), user_id, s_.refresh_token_ttl_s, origin);
    WebSession out = issue_access(user_id, email, verified, family);
    out.refresh_token = refresh_token;
    return out;
}

void WebAuth::register_account(std::string_view ip, const std::string& email, std::string_view password,
                               const std::string& language) {
    // One registration of an address at a time, as one login (before the limits are read):
    // parallel ones all passed the same reading and each sent a mail.
    const OneCheckPerEmail one_at_a_time(redis_, db_, email);
    throttle_.check(ip, email);
    // Every attempt counts: each one sends a mail, so this also caps mail bombing.
    throttle_.failed(ip, email);
    // Hashed before we know whether the address is taken: both answers cost the same.
    const std::string hash = passwords_.hash(password);
    db_.write([&](pqxx::work& txn) {
        if (auto id = insert_web_user(txn, email, hash, s_.default_currency, language)) {
            queue_verification(txn, s_, *id, email, hash, false, language);
            return;
        }
        const auto existing = find_web_login_by_email(txn, email);
        if (!existing) return;  // deleted meanwhile: nothing to tell anyone
        // Not verified yet: the address is contested. The mailbox cannot tell one
        // registration's mail from another's, so no click alone may choose a password: each
        // link now asks for the password of its own registration (verify), whichever came
        // first, the owner's or a squatter's. Verified: a notice that someone tried, and
        // nothing else.
        // Written in the account's language: the mailbox's owner made it.
        if (!existing->email_verified) queue_verification(txn, s_, existing->id, email, hash, true, existing->language);
        else enqueue_mail(txn, email, already_registered_mail(s_.web_cabinet_url + "/login", mail_language(existing->language)));
    });
}

WebSession WebAuth::verify(std::string_view ip, std::string_view token, const std::optional<std::string>& password) {
    throttle_.check(ip, {});
    const std::string hash = opaque_token_hash(token);
    // A contested link proves the mailbox, not the registration: its own password must come
    // with it. Checked before the link is used, and outside the transaction (hashing is slow).
    bool password_proven = false;
    if (const auto link = db_.read([&](auto& txn) { return peek_verification_token(txn, hash); });
        link && link->contested) {
        if (!password) throw password_needed();
        throttle_.check(ip, link->email);
        if (link->password_hash.empty() || !passwords_.verify(link->password_hash, *password)) {
            throttle_.failed(ip, link->email);
            throw unauthorized("the password is not the one of this link's registration", "wrong_password");
        }
        password_proven = true;
    }
    WebSession session;
    const LinkOutcome outcome = db_.write([&](pqxx::work& txn) {
        const auto used = use_verification_token(txn, hash);
        if (!used) return LinkOutcome::invalid;
        if (used->contested && !password_proven) throw password_needed();  // registered again since the peek
        mark_email_verified(txn, used->user_id, used->email);
        const auto user = find_web_login_by_id(txn, used->user_id);
        if (!user || user->email != used->email) return LinkOutcome::invalid;  // the address changed since
        // The password of the registration whose link this is.
        if (!used->password_hash.empty()) update_password_hash(txn, used->user_id, used->password_hash);
        if (user->is_blocked) return LinkOutcome::blocked;
        session = issue(txn, user->id, user->email, true, kSessionByPassword);
        return LinkOutcome::ok;
    });
    settle_link(outcome, throttle_, ip, "verification link is invalid, used or expired");
    return session;
}

WebSession WebAuth::login(std::string_view ip, const std::string& email, std::string_view password) {
    const OneCheckPerEmail one_at_a_time(redis_, db_, email);  // before the limits are read
    throttle_.check(ip, email);
    const auto user = db_.read([&](auto& txn) { return find_web_login_by_email(txn, email); });
    // Unknown e-mails verify against a dummy hash: the answer takes as long as a real one.
    bool ok = false;
    if (user && !user->password_hash.empty()) ok = passwords_.verify(user->password_hash, password);
    else passwords_.verify_dummy(password);
    if (!ok) {
        throttle_.failed(ip, email);
        throw bad_credentials();
    }
    if (user->is_blocked) throw forbidden("user is blocked", "user_blocked");
    if (!user->email_verified) throw forbidden("e-mail is not verified", "email_unverified");
    // Hashes made with older (weaker) limits are upgraded while we have the password.
    std::string upgraded;
    if (passwords_.needs_rehash(user->password_hash)) upgraded = passwords_.hash(password);
    return db_.write([&](pqxx::work& txn) {
        if (!upgraded.empty()) update_password_hash(txn, user->id, upgraded);
        return issue(txn, user->id, user->email, true, kSessionByPassword);
    });
}

void WebAuth::forgot_password(std::string_view ip, const std::string& email) {
    const OneCheckPerEmail one_at_a_time(redis_, db_, email);
    throttle_.check(ip, email);
    throttle_.failed(ip, email);  // each call may send a mail: counted like a registration
    // One transaction either way, the lookup in it: a known and an unknown address cost the
    // same but for two small inserts.
    db_.write([&](pqxx::work& txn) {
        const auto user = find_web_login_by_email(txn, email);
        if (!user) return;
        const std::string token = new_opaque_token();
        if (insert_reset_token(txn, opaque_token_hash(token), user->id, email, kResetTtlS))
            enqueue_mail(txn, email, password_reset_mail(s_.web_cabinet_url + "/reset?token=" + token, kResetTtlS,
                                                         mail_language(user->language)));
    });
}

WebSession WebAuth::reset_password(std::string_view ip, std::string_view token, std::string_view password) {
    throttle_.check(ip, {});
    const std::string hash = passwords_.hash(password);  // slow: before the transaction
    WebSession session;
    const LinkOutcome outcome = db_.write([&](pqxx::work& txn) {
        const auto used = use_reset_token(txn, opaque_token_hash(token));
        if (!used) return LinkOutcome::invalid;
        const auto user = find_web_login_by_id(txn, used->user_id);
        if (!user || user->email != used->email) return LinkOutcome::invalid;  // the address changed since
        update_password_hash(txn, user->id, hash);
        mark_email_verified(txn, user->id, user->email);
        revoke_refresh_families(txn, user->id, "");
        enqueue_mail(txn, user->email, password_changed_mail(s_.web_cabinet_url + "/login?forgot=1", mail_language(user->language)));
        if (user->is_blocked) return LinkOutcome::blocked;
        session = issue(txn, user->id, user->email, true, kSessionByPassword);
        return LinkOutcome::ok;
    });
    settle_link(outcome, throttle_, ip, "the reset link is invalid, used or expired");
    return session;
}

int64_t WebAuth::change_password(std::string_view ip, int64_t user_id, std::string_view current, std::string_view password,
                                 const std::string& keep_session) {
    const auto user = db_.read([&](auto& txn) { return find_web_login_by_id(txn, user_id); });
    if (!user || user->password_hash.empty() || user->email.empty())
        throw ApiError(409, "this account has no password: add an e-mail sign-in first", "no_password");
    const OneCheckPerEmail one_at_a_time(redis_, db_, user->email);
    throttle_.check(ip, user->email);
    if (!passwords_.verify(user->password_hash, current)) {
        throttle_.failed(ip, user->email);
        throw ApiError(422, "current_password is not the account's password", "wrong_password");
    }
    const std::string hash = passwords_.hash(password);
    return db_.write([&](pqxx::work& txn) {
        update_password_hash(txn, user_id, hash);
        const int64_t ended = revoke_refresh_families(txn, user_id, keep_session);
        enqueue_mail(txn, user->email, password_changed_mail(s_.web_cabinet_url + "/login?forgot=1", mail_language(user->language)));
        return ended;
    });
}

void WebAuth::remove_email_sign_in(int64_t user_id, const std::string& keep_session) {
    enum class Result { ok, none, last_way_in };
    const Result r = db_.write([&](pqxx::work& txn) {
        // The user row lock queues it behind concurrent unlinks of the other ways in
        // (OAuthLogin::unlink takes the same), so two of them cannot each leave the other.
        lock_account(txn, user_id);
        const auto login = find_web_login_by_id(txn, user_id);
        if (!login || login->email.empty()) return Result::none;
        if (!remove_email_login(txn, user_id)) return Result::last_way_in;
        revoke_refresh_families(txn, user_id, keep_session, kSessionByPassword);
        return Result::ok;
    });
    if (r == Result::none) throw not_found("the account has no e-mail sign-in", "no_email_sign_in");
    if (r == Result::last_way_in) throw conflict("cannot remove the e-mail sign-in: it is the only way to sign in to this account", "last_sign_in");
}

void WebAuth::resend_verification(std::string_view ip, const std::string& email) {
    const OneCheckPerEmail one_at_a_time(redis_, db_, email);
    throttle_.check(ip, email);
    throttle_.failed(ip, email);  // each call may send a mail
    db_.write([&](pqxx::work& txn) {
        // A contested address's new link asks for a password too (register_account).
        if (const auto due = verification_resend_due(txn, email))
            queue_verification(txn, s_, due->user_id, due->email, due->password_hash, due->contested, due->language);
    });
}

void WebAuth::count_guest_purchase(std::string_view ip, const std::string& email) {
    const OneCheckPerEmail one_at_a_time(redis_, db_, email);
    throttle_.check(ip, email);
    throttle_.failed(ip, email);  // it may make an account and send mails: as a registration
}

WebSession WebAuth::guest_sign_in(std::string_view ip, std::string_view token, const std::string& browser_hash) {
    throttle_.check(ip, {});
    const auto session = db_.write([&](pqxx::work& txn) -> std::optional<WebSession> {
        const auto redeemed = exec_prepared(txn, "redeem_guest_token", opaque_token_hash(token), browser_hash);
        if (redeemed.empty()) return std::nullopt;
        const int64_t user_id = redeemed[0]["user_id"].as<int64_t>();
        const auto user = find_web_login_by_id(txn, user_id);
        const auto tg = redeemed[0]["telegram_id"];
        // Staff sign in their own way (STAFF_CODE_SIGNIN's reasoning): an account linked to
        // a staff Telegram id since the purchase gets nothing from a guest's token.
        if (!user || user->is_blocked || (!tg.is_null() && s_.staff_role(tg.as<int64_t>()) != StaffRole::none))
            return std::nullopt;
        return issue(txn, user->id, user->email, user->email_verified, kSessionByGuestPurchase);
    });
    if (!session) {
        throttle_.failed(ip, {});
        throw bad_request("this sign-in link is invalid, used or expired", "link_invalid");
    }
    return *session;
}

WebSession WebAuth::refresh(std::string_view token) {
    const std::string hash = opaque_token_hash(token);
    enum class Outcome { ok, invalid, reused, blocked };
    WebSession session;
    const Outcome outcome = db_.write([&](pqxx::work& txn) {
        const auto row = lock_refresh_token(txn, hash, kRefreshGraceS, s_.web_session_max_age_s);
        if (!row || row->revoked || row->expired) return Outcome::invalid;
        if (row->rotated) {
            // Within the grace period the holder of the rotated token is the other tab of the
            // same browser: it gets the same successor, while that is still good.
            const auto successor = open_successor(token, row->successor_sealed);
            const auto next =
                successor ? lock_refresh_token(txn, opaque_token_hash(*successor), kRefreshGraceS, s_.web_session_max_age_s) : std::nullopt;
            const bool next_good = next && !next->rotated && !next->revoked && !next->expired;
            const auto owner = next_good ? find_web_login_by_id(txn, row->user_id) : std::nullopt;
            if (owner && !owner->is_blocked) {
                session = issue_access(owner->id, owner->email, owner->email_verified, row->family_id);
                session.refresh_token = *successor;
                return Outcome::ok;
            }
            // Otherwise a rotated token presented again was copied: end every session of this login.
            revoke_refresh_family(txn, row->family_id);
            return Outcome::reused;
        }
        const auto user = find_web_login_by_id(txn, row->user_id);
        if (!user) return Outcome::invalid;
        if (user->is_blocked) return Outcome::blocked;
        session = issue_access(user->id, user->email, user->email_verified, row->family_id);
        session.refresh_token = new_opaque_token();
        insert_refresh_successor(txn, opaque_token_hash(session.refresh_token), row->id, s_.refresh_token_ttl_s,
                                 s_.web_session_max_age_s);
        rotate_refresh_token(txn, row->id, seal_successor(token, session.refresh_token));
        return Outcome::ok;
    });
    switch (outcome) {
        case Outcome::ok: return session;
        case Outcome::blocked: throw forbidden("user is blocked", "user_blocked");
        case Outcome::reused:
            spdlog::warn("a rotated refresh token was presented again; its family is revoked");
            throw unauthorized("refresh token was already used; please sign in again", "session_expired");
        case Outcome::invalid: break;
    }
    throw unauthorized("refresh token is invalid or expired", "session_expired");
}

int64_t WebAuth::end_other_sessions(int64_t user_id, const std::string& keep_session) {
    return db_.write([&](pqxx::work& txn) { return revoke_refresh_families(txn, user_id, keep_session); });
}

std::optional<int64_t> WebAuth::logout(std::string_view token) {
    const std::string hash = opaque_token_hash(token);
    return db_.write([&](pqxx::work& txn) { return revoke_refresh_family_of_token(txn, hash); });
}

}  // namespace cabinet
