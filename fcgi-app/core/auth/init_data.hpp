#pragma once
// Telegram mini-app init data: parsing and signature check, pure (no I/O).
// Rules (core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app):
// secret = HMAC-SHA256(key "WebAppData", bot token); the data-check string is every field
// but `hash`, sorted by key, `key=value` with decoded values, joined by '\n'; the hex
// `hash` must equal HMAC-SHA256(secret, data-check string).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "domain/telegram_user.hpp"
#include "util/crypto.hpp"

namespace cabinet {

struct InitData {
    int64_t auth_date = 0;
    TelegramUser user;
    std::string start_param;
};

// The verifier keeps the derived secret: built once at start from the bot token.
class InitDataVerifier {
public:
    InitDataVerifier(std::string_view bot_token, int64_t max_age_s);
    // Throws ApiError(401) on anything malformed, forged or stale. `now` in Unix seconds.
    InitData verify(std::string_view raw, int64_t now) const;

    static constexpr size_t kMaxLength = 8192;  // Telegram's own init data stays far below

private:
    Sha256 secret_;
    int64_t max_age_s_;
};

}  // namespace cabinet
