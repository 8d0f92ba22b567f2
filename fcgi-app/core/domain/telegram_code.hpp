#pragma once
// What a Telegram one-time code (sign-in from a browser, or linking a web account) shows to
// the people on both ends: the bot's prompt names the browser that asked, the browser names
// the Telegram account that confirmed (db/linking_repo.hpp stores them).
#include <cstdint>
#include <string>

namespace cabinet {

// The browser that asked for a code, as the bot's prompt names it.
struct CodeStarter {
    std::string ip;
    std::string user_agent;
    std::string browser_hash;  // of the browser binding cookie; empty: the code is not bound
    // A `link` code merges, a `weblogin` code signs in, only once its browser approves the
    // Telegram account that confirmed it.
    bool needs_approval = false;
};

// A live code of a kind, with what the bot's prompt shows.
struct CodePrompt {
    CodeStarter starter;
    int64_t created_at = 0;  // Unix seconds
    std::string email;       // of the web account a `link` code merges
    bool has_password = false;  // that account signs in with e-mail + password
    std::string oauth_providers{};  // and with these ("google,vk": user_oauth_links.provider)
};

// Who confirmed a code in the bot, as the browser shows it before it approves.
struct CodeConfirmer {
    int64_t telegram_id = 0;
    std::string username;
    std::string first_name;
};

}  // namespace cabinet
