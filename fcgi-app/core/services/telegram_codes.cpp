#include "services/telegram_codes.hpp"

#include "auth/web_tokens.hpp"
#include "db/linking_repo.hpp"
#include "db/web_auth_repo.hpp"
#include "errors.hpp"

namespace cabinet {
namespace {

TelegramCodeOffer start_code(Db& db, const Settings& s, std::string_view kind, std::string_view prefix, int64_t user_id,
                             int64_t ttl_s, const CodeStarter& starter) {
    if (s.bot_username.empty()) throw unavailable("the bot is not configured (BOT_USERNAME)");
    TelegramCodeOffer out;
    out.code = new_opaque_token();
    out.url = "https://t.me/" + s.bot_username + "?start=" + std::string(prefix) + out.code;
    out.expires_in = ttl_s;
    db.write([&](pqxx::work& txn) {
        sweep_telegram_codes(txn);
        insert_telegram_code(txn, opaque_token_hash(out.code), std::string(kind), user_id, ttl_s, starter);
    });
    return out;
}

}  // namespace

TelegramCodeOffer start_web_login(Db& db, const Settings& s, const CodeStarter& starter) {
    return start_code(db, s, kWebLoginKind, kWebLoginPrefix, 0, kWebLoginCodeTtlS, starter);
}

TelegramCodeOffer start_telegram_link(Db& db, const Settings& s, int64_t user_id, const CodeStarter& starter) {
    return start_code(db, s, kLinkKind, kLinkPrefix, user_id, kLinkCodeTtlS, starter);
}

std::optional<CodePrompt> code_prompt(Db& db, std::string_view code, std::string_view kind) {
    const std::string hash = opaque_token_hash(code);
    return db.read([&](pqxx::transaction_base& txn) { return telegram_code_for_prompt(txn, hash, std::string(kind)); });
}

bool cancel_code(Db& db, std::string_view code, std::string_view kind) {
    const std::string hash = opaque_token_hash(code);
    return db.write([&](pqxx::work& txn) { return cancel_telegram_code(txn, hash, std::string(kind)); });
}

bool confirm_web_login(Db& db, std::string_view code, int64_t user_id) {
    const std::string hash = opaque_token_hash(code);
    return db.write([&](pqxx::work& txn) { return confirm_weblogin_code(txn, hash, user_id); });
}

bool confirm_link(Db& db, std::string_view code, int64_t user_id) {
    const std::string hash = opaque_token_hash(code);
    return db.write([&](pqxx::work& txn) { return confirm_link_code(txn, hash, user_id); });
}

LinkWait link_wait(Db& db, std::string_view code, int64_t web_user_id) {
    const std::string hash = opaque_token_hash(code);
    // A read: the page asks every few seconds, and a commit would empty the account caches.
    return db.read([&](pqxx::transaction_base& txn) {
        const auto row = peek_telegram_code(txn, hash);
        if (!row || row->kind != kLinkKind || row->user_id != web_user_id || !row->needs_approval || row->spent ||
            row->expired)
            throw bad_request("link code is invalid, used or expired");
        LinkWait out;
        if (!row->confirmed) return out;
        const auto who = telegram_code_confirmer(txn, hash);
        if (!who) throw bad_request("link code is invalid, used or expired");  // the confirmer was merged away
        out.confirmed = true;
        out.telegram = *who;
        return out;
    });
}

bool decline_link(Db& db, std::string_view code, int64_t web_user_id) {
    const std::string hash = opaque_token_hash(code);
    return db.write([&](pqxx::work& txn) { return decline_link_code(txn, hash, web_user_id); });
}

std::optional<WebSession> poll_web_login(Db& db, WebAuth& auth, std::string_view code, std::string_view browser) {
    const std::string hash = opaque_token_hash(code);
    const std::string browser_hash = browser.empty() ? std::string() : opaque_token_hash(browser);
    enum class Outcome { pending, ok, invalid, used, expired, blocked, cancelled, confirmed, other_browser };
    const auto state = [&browser_hash](const std::optional<TelegramCode>& row) {
        if (!row || row->kind != kWebLoginKind) return Outcome::invalid;
        // Before anything else: another browser learns nothing about the code, and its
        // polls spend nothing (the owner's still gets in).
        if (!row->browser_hash.empty() && row->browser_hash != browser_hash) return Outcome::other_browser;
        if (row->cancelled) return Outcome::cancelled;
        if (row->spent) return Outcome::used;
        if (row->expired) return Outcome::expired;
        if (!row->confirmed) return Outcome::pending;
        return Outcome::confirmed;
    };
    // A browser polls every two seconds until the bot's Confirm, and anyone may poll any
    // code: those answers come from a read. A commit would make every pool process of the
    // host forget every account it keeps (http/dispatch.cpp).
    Outcome outcome = db.read([&](pqxx::transaction_base& txn) { return state(peek_telegram_code(txn, hash)); });
    WebSession session;
    if (outcome == Outcome::confirmed) outcome = db.write([&](pqxx::work& txn) {
        const auto row = lock_telegram_code(txn, hash);
        if (const Outcome now = state(row); now != Outcome::confirmed) return now;  // spent by a parallel poll
        // Spent whatever follows: a blocked user's code must not wait for an unblock.
        spend_telegram_code(txn, hash, row->confirmed_user_id);
        const auto user = find_web_login_by_id(txn, row->confirmed_user_id);
        if (!user) return Outcome::invalid;
        if (user->is_blocked) return Outcome::blocked;
        session = auth.open_session(txn, user->id, user->email, user->email_verified, kSessionByTelegram);
        return Outcome::ok;
    });
    switch (outcome) {
        case Outcome::pending:
        case Outcome::confirmed: return std::nullopt;
        case Outcome::ok: return session;
        case Outcome::used: throw bad_request("code already used");
        case Outcome::cancelled: throw bad_request("sign-in was cancelled in Telegram");
        case Outcome::expired: throw bad_request("code expired");
        case Outcome::blocked: throw forbidden("user is blocked");
        case Outcome::other_browser: throw bad_request("this sign-in was started in another browser");
        case Outcome::invalid: break;
    }
    throw bad_request("code is invalid");
}

}  // namespace cabinet
