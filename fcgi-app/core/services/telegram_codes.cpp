#include "services/telegram_codes.hpp"

#include "auth/web_tokens.hpp"
#include "db/linking_repo.hpp"
#include "db/web_auth_repo.hpp"
#include "errors.hpp"

namespace cabinet {
namespace {

TelegramCodeOffer start_code(Db& db, const Settings& s, const char* kind, std::string_view prefix, int64_t user_id,
                             int64_t ttl_s) {
    if (s.bot_username.empty()) throw unavailable("the bot is not configured (BOT_USERNAME)");
    TelegramCodeOffer out;
    out.code = new_opaque_token();
    out.url = "https://t.me/" + s.bot_username + "?start=" + std::string(prefix) + out.code;
    out.expires_in = ttl_s;
    db.write([&](pqxx::work& txn) {
        sweep_telegram_codes(txn);
        insert_telegram_code(txn, opaque_token_hash(out.code), kind, user_id, ttl_s);
    });
    return out;
}

}  // namespace

TelegramCodeOffer start_web_login(Db& db, const Settings& s) {
    return start_code(db, s, "weblogin", kWebLoginPrefix, 0, kWebLoginCodeTtlS);
}

TelegramCodeOffer start_telegram_link(Db& db, const Settings& s, int64_t user_id) {
    return start_code(db, s, "link", kLinkPrefix, user_id, kLinkCodeTtlS);
}

bool confirm_web_login(Db& db, std::string_view code, int64_t user_id) {
    const std::string hash = opaque_token_hash(code);
    return db.write([&](pqxx::work& txn) { return confirm_weblogin_code(txn, hash, user_id); });
}

std::optional<WebSession> poll_web_login(Db& db, WebAuth& auth, std::string_view code) {
    const std::string hash = opaque_token_hash(code);
    enum class Outcome { pending, ok, invalid, used, expired, blocked };
    WebSession session;
    const Outcome outcome = db.write([&](pqxx::work& txn) {
        const auto row = lock_telegram_code(txn, hash);
        if (!row || row->kind != "weblogin") return Outcome::invalid;
        if (row->spent) return Outcome::used;
        if (row->expired) return Outcome::expired;
        if (!row->confirmed) return Outcome::pending;
        // Spent whatever follows: a blocked user's code must not wait for an unblock.
        spend_telegram_code(txn, hash, row->confirmed_user_id);
        const auto user = find_web_login_by_id(txn, row->confirmed_user_id);
        if (!user) return Outcome::invalid;
        if (user->is_blocked) return Outcome::blocked;
        session = auth.open_session(txn, user->id, user->email, user->email_verified);
        return Outcome::ok;
    });
    switch (outcome) {
        case Outcome::pending: return std::nullopt;
        case Outcome::ok: return session;
        case Outcome::used: throw bad_request("code already used");
        case Outcome::expired: throw bad_request("code expired");
        case Outcome::blocked: throw forbidden("user is blocked");
        case Outcome::invalid: break;
    }
    throw bad_request("code is invalid");
}

}  // namespace cabinet
