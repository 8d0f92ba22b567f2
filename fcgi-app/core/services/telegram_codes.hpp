#pragma once
// One-time codes confirmed in the Telegram bot (docs/decisions.md "Telegram web login and
// account linking (issue 7)"): `weblogin` lets a browser sign in as the Telegram user who
// opens t.me/<bot>?start=weblogin_<code>; `link` merges a web account into the Telegram
// account that opens ...?start=link_<code> (services/account_merge.hpp).
#include <string>
#include <string_view>

#include "config/settings.hpp"
#include "db/db.hpp"
#include "db/linking_repo.hpp"
#include "services/web_auth.hpp"

namespace cabinet {

inline constexpr int64_t kWebLoginCodeTtlS = 300;
inline constexpr int64_t kLinkCodeTtlS = 900;
inline constexpr std::string_view kWebLoginPrefix = "weblogin_";
inline constexpr std::string_view kLinkPrefix = "link_";

struct TelegramCodeOffer {
    std::string code;  // base64url, 43 characters: with its prefix within Telegram's 64
    std::string url;   // https://t.me/<bot>?start=<prefix><code>
    int64_t expires_in = 0;
};

inline constexpr std::string_view kWebLoginKind = "weblogin";
inline constexpr std::string_view kLinkKind = "link";

// A new `weblogin` code (nobody is signed in yet), remembering the browser that asked.
TelegramCodeOffer start_web_login(Db& db, const Settings& s, const CodeStarter& starter);
// A new `link` code for the web user `user_id`.
TelegramCodeOffer start_telegram_link(Db& db, const Settings& s, int64_t user_id, const CodeStarter& starter);

// The bot, on /start with a code: what to ask the Telegram user before anything happens
// (nullopt: unknown, expired or used). Only the Confirm button then confirms or merges.
std::optional<CodePrompt> code_prompt(Db& db, std::string_view code, std::string_view kind);
// A code its browser approves that another Telegram account (not `telegram_id`) confirmed
// already: the browser is asking about that account, and the bot says so to this one
// ("answer No"), who may be the code's owner beaten to it by whoever read the QR code.
bool confirmed_by_another(Db& db, std::string_view code, std::string_view kind, int64_t telegram_id);
// The bot's Cancel button: the code is dead (the browser's poll says so); false when it
// was no longer live.
bool cancel_code(Db& db, std::string_view code, std::string_view kind);

// The bot's Confirm button: the Telegram user `user_id` confirms a web login. Whether its
// browser approves it still (then the bot says so); nullopt when the code is unknown,
// expired, cancelled or confirmed already.
std::optional<bool> confirm_web_login(Db& db, std::string_view code, int64_t user_id);
// The same for a link code its browser approves (starter.needs_approval): the Telegram user
// is named, nothing merges yet. False for any other code (a link code without approval
// merges on Confirm: services/account_merge.hpp).
bool confirm_link(Db& db, std::string_view code, int64_t user_id);

// What the browser of a link code sees while it waits: nobody yet, or the Telegram account
// that confirmed it in the bot, to approve or decline. 400 for a code that is unknown,
// another account's, expired, used or cancelled.
struct LinkWait {
    bool confirmed = false;
    CodeConfirmer telegram;
};
LinkWait link_wait(Db& db, std::string_view code, int64_t web_user_id);
// "Not me": the code ends, nothing merges; false when it was no longer live.
bool decline_link(Db& db, std::string_view code, int64_t web_user_id);

// The browser's poll. Nothing while unconfirmed. Once the bot's Confirm named someone: for
// a code its browser approves (starter.needs_approval), that Telegram account, to ask
// "is this you?" (approve_web_login); otherwise the session of the confirming user, once
// (the code is spent in the same transaction). `browser` is the poller's binding cookie: a
// code started by a browser with one answers only that browser. 400
// unknown/expired/used/cancelled/another browser's, 403 blocked.
struct WebLoginPoll {
    std::optional<WebSession> session;
    std::optional<CodeConfirmer> confirmer;
};
WebLoginPoll poll_web_login(Db& db, WebAuth& auth, std::string_view code, std::string_view browser);
// The browser's answer for a code it approves, once the bot named someone: the session of
// that Telegram user (`approve`; the code is spent), or nothing (declined: the code ends).
// 400 as the poll, and for a code not confirmed yet or not waiting for this browser.
std::optional<WebSession> approve_web_login(Db& db, WebAuth& auth, std::string_view code, std::string_view browser,
                                            bool approve);

}  // namespace cabinet
