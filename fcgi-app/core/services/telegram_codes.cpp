#include "services/telegram_codes.hpp"

#include "db/linking_repo.hpp"
#include "db/web_auth_repo.hpp"
#include "errors.hpp"
#include "util/web_tokens.hpp"

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

bool confirmed_by_another(Db& db, std::string_view code, std::string_view kind, int64_t telegram_id) {
    const std::string hash = opaque_token_hash(code);
    return db.read([&](pqxx::transaction_base& txn) {
        const auto row = peek_telegram_code(txn, hash);
        if (!row || row->kind != kind || !row->needs_approval || !row->confirmed || row->spent || row->expired) return false;
        const auto who = telegram_code_confirmer(txn, hash);
        return who && who->telegram_id != telegram_id;
    });
}

bool cancel_code(Db& db, std::string_view code, std::string_view kind) {
    const std::string hash = opaque_token_hash(code);
    return db.write([&](pqxx::work& txn) { return cancel_telegram_code(txn, hash, std::string(kind)); });
}

std::optional<bool> confirm_web_login(Db& db, std::string_view code, int64_t user_id) {
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

namespace {

enum class CodeState { pending, awaiting_approval, ok, declined, invalid, used, expired, blocked, cancelled, confirmed, other_browser };

// Where a web-login code stands for the browser `browser_hash` (the poll's and the
// approval's first check).
CodeState web_login_state(const std::optional<TelegramCode>& row, const std::string& browser_hash) {
    if (!row || row->kind != kWebLoginKind) return CodeState::invalid;
    // Before anything else: another browser learns nothing about the code, and its polls
    // spend nothing (the owner's still gets in).
    if (!row->browser_hash.empty() && row->browser_hash != browser_hash) return CodeState::other_browser;
    if (row->cancelled) return CodeState::cancelled;
    if (row->spent) return CodeState::used;
    if (row->expired) return CodeState::expired;
    if (!row->confirmed) return CodeState::pending;
    return CodeState::confirmed;
}

// Spends a confirmed code (its row locked) and opens the confirming user's session:
// spent whatever follows, so a blocked user's code does not wait for an unblock.
CodeState sign_in_confirmer(pqxx::work& txn, WebAuth& auth, const std::string& hash, int64_t user_id, WebSession& session) {
    spend_telegram_code(txn, hash, user_id);
    const auto user = find_web_login_by_id(txn, user_id);
    if (!user) return CodeState::invalid;
    if (user->is_blocked) return CodeState::blocked;
    session = auth.open_session(txn, user->id, user->email, user->email_verified, kSessionByTelegram);
    return CodeState::ok;
}

// The 4xx of a code that cannot sign in.
[[noreturn]] void refuse_web_login(CodeState outcome) {
    switch (outcome) {
        case CodeState::used: throw bad_request("code already used");
        case CodeState::cancelled: throw bad_request("sign-in was cancelled in Telegram");
        case CodeState::expired: throw bad_request("code expired");
        case CodeState::blocked: throw forbidden("user is blocked");
        case CodeState::other_browser: throw bad_request("this sign-in was started in another browser");
        default: throw bad_request("code is invalid");
    }
}

std::string browser_hash_of(std::string_view browser) {
    return browser.empty() ? std::string() : opaque_token_hash(browser);
}

}  // namespace

WebLoginPoll poll_web_login(Db& db, WebAuth& auth, std::string_view code, std::string_view browser) {
    const std::string hash = opaque_token_hash(code);
    const std::string browser_hash = browser_hash_of(browser);
    // A browser polls every two seconds until the bot's Confirm, and anyone may poll any
    // code: those answers come from a read. A commit would make every pool process of the
    // host forget every account it keeps (app/dispatch.cpp).
    WebLoginPoll out;
    CodeState outcome = db.read([&](pqxx::transaction_base& txn) {
        const auto row = peek_telegram_code(txn, hash);
        const CodeState now = web_login_state(row, browser_hash);
        if (now != CodeState::confirmed || !row->needs_approval) return now;
        // Its browser approves first: who confirmed it, for the page's question.
        out.confirmer = telegram_code_confirmer(txn, hash);
        return out.confirmer ? CodeState::awaiting_approval : CodeState::invalid;  // the confirmer was merged away
    });
    if (outcome == CodeState::confirmed) outcome = db.write([&](pqxx::work& txn) {
        const auto row = lock_telegram_code(txn, hash);
        const CodeState now = web_login_state(row, browser_hash);
        if (now != CodeState::confirmed || row->needs_approval) return now;  // spent by a parallel poll
        WebSession session;
        const CodeState done = sign_in_confirmer(txn, auth, hash, row->confirmed_user_id, session);
        if (done == CodeState::ok) out.session = std::move(session);
        return done;
    });
    if (outcome == CodeState::pending || outcome == CodeState::awaiting_approval || outcome == CodeState::ok) return out;
    refuse_web_login(outcome);
}

std::optional<WebSession> approve_web_login(Db& db, WebAuth& auth, std::string_view code, std::string_view browser,
                                            bool approve) {
    const std::string hash = opaque_token_hash(code);
    const std::string browser_hash = browser_hash_of(browser);
    std::optional<WebSession> out;
    const CodeState outcome = db.write([&](pqxx::work& txn) {
        const auto row = lock_telegram_code(txn, hash);
        const CodeState now = web_login_state(row, browser_hash);
        // Only the browser that asked approves (a code without approval has none to give),
        // and only once the bot named someone.
        if (now == CodeState::pending || (now == CodeState::confirmed && (!row->needs_approval || row->browser_hash.empty())))
            return CodeState::invalid;
        if (now != CodeState::confirmed) return now;
        if (!approve) return decline_weblogin_code(txn, hash) ? CodeState::declined : CodeState::invalid;
        WebSession session;
        const CodeState done = sign_in_confirmer(txn, auth, hash, row->confirmed_user_id, session);
        if (done == CodeState::ok) out = std::move(session);
        return done;
    });
    if (outcome == CodeState::ok || outcome == CodeState::declined) return out;
    refuse_web_login(outcome);
}

}  // namespace cabinet
