#include "services/email_link.hpp"

#include <sodium.h>

#include <cstdio>

#include "db/linking_repo.hpp"
#include "db/web_auth_repo.hpp"
#include "errors.hpp"
#include "mail/templates.hpp"
#include "services/mail_queue.hpp"
#include "util/web_tokens.hpp"

namespace cabinet {
namespace {

// Salted with the user id, so equal codes of two users hash differently.
std::string code_hash(int64_t user_id, std::string_view code) {
    return opaque_token_hash(std::to_string(user_id) + ":" + std::string(code));
}

std::string new_code() {
    char buf[8];
    std::snprintf(buf, sizeof buf, "%06u", static_cast<unsigned>(randombytes_uniform(1000000)));
    return buf;
}

bool same_hash(const std::string& a, const std::string& b) {
    return a.size() == b.size() && sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

ApiError taken() { return {409, "this e-mail belongs to another account", "email_taken"}; }

std::string misses_key(const std::string& email) { return "emaillink:" + email; }

// The address took its day's wrong codes: 429 until the window ends.
void refuse_if_resting(pqxx::transaction_base& txn, const std::string& email) {
    const FailureCount misses = auth_failure_count(txn, misses_key(email), kEmailLinkMissWindowS);
    if (misses.count < kEmailLinkMissesPerDay) return;
    throw retry_later(429, "too many wrong codes for this e-mail today; try again later", misses.retry_after_s);
}

}  // namespace

void EmailLink::request(int64_t user_id, std::string_view ip, const std::string& email, std::string_view password,
                        const std::string& language) {
    // One request for an address at a time, as registration and login (before the limits
    // are read): parallel ones all passed the same reading and each mailed a code.
    const OneCheckPerEmail one_at_a_time(redis_, db_, email);
    throttle_.check(ip, email);
    // Every request mails a code: counted like a failure, which caps mail bombing.
    throttle_.failed(ip, email);
    const auto [profile, owner] = db_.read([&](auto& txn) {
        refuse_if_resting(txn, email);
        return std::make_pair(find_linked_profile(txn, user_id), email_owner(txn, email));
    });
    if (!profile) throw unauthorized("user not found");
    if (owner && *owner != user_id) throw taken();
    if (!profile->email.empty() && profile->email_verified)
        throw ApiError(409, "this account already has an e-mail", "has_email");
    // Hashed now, while we have the password; only the hash waits with the code.
    const std::string hash = passwords_.hash(password);
    const std::string code = new_code();
    db_.write([&](pqxx::work& txn) {
        replace_email_link_code(txn, user_id, email, code_hash(user_id, code), hash, kEmailLinkCodeTtlS);
        enqueue_mail(txn, email, email_link_code_mail(code, kEmailLinkCodeTtlS, mail_language(language)));
    });
}

std::string EmailLink::confirm(int64_t user_id, std::string_view code) {
    const std::string presented = code_hash(user_id, code);
    enum class Outcome { ok, none, expired, wrong, dead, taken, has_email };
    std::string email;
    Outcome outcome = Outcome::none;
    try {
        outcome = db_.write([&](pqxx::work& txn) {
            // Locked: of parallel confirmations the first uses the code, the rest find none.
            const auto row = lock_email_link_code(txn, user_id);
            if (!row) return Outcome::none;
            if (row->attempts >= kEmailLinkMaxAttempts) return Outcome::dead;
            if (row->expired) return Outcome::expired;
            refuse_if_resting(txn, row->email);
            if (!same_hash(row->code_hash, presented)) {
                auth_failure_hit(txn, misses_key(row->email), kEmailLinkMissWindowS);
                return email_link_code_failed(txn, row->id) >= kEmailLinkMaxAttempts ? Outcome::dead : Outcome::wrong;
            }
            const auto owner = email_owner(txn, row->email);
            if (owner && *owner != user_id) return Outcome::taken;
            // Asked for while the account had no verified e-mail; one merged in since keeps
            // its address and password (a code is no way to change them).
            const auto profile = find_linked_profile(txn, user_id);
            if (profile && !profile->email.empty() && profile->email_verified) return Outcome::has_email;
            use_email_link_code(txn, row->id);
            // The code proved the mailbox: a web registration that never did loses the address.
            release_unverified_email(txn, row->email, user_id);
            set_linked_email(txn, user_id, row->email, row->password_hash);
            email = row->email;
            return Outcome::ok;
        });
    } catch (const pqxx::unique_violation&) {
        outcome = Outcome::taken;  // another account took the address between our check and write
    }
    switch (outcome) {
        case Outcome::ok: return email;
        case Outcome::none: throw bad_request("no pending e-mail link, or its code was already used", "code_used");
        case Outcome::expired: throw bad_request("code expired; request a new one", "code_expired");
        case Outcome::wrong: throw bad_request("wrong code", "wrong_code");
        case Outcome::dead: throw ApiError(429, "too many wrong codes; request a new one", "too_many_codes");
        case Outcome::taken: throw taken();
        case Outcome::has_email: throw ApiError(409, "this account already has an e-mail", "has_email");
    }
    throw bad_request("wrong code", "wrong_code");
}

}  // namespace cabinet
