#pragma once
// What the bot says to users, and its inline keyboards as Bot API JSON: pure, no I/O.
// English only for now; the texts live here so that translating them touches one file.
#include <string>
#include <string_view>
#include <vector>

#include "domain/telegram_code.hpp"
#include "domain/account.hpp"

namespace cabinet::bot {

// One inline keyboard button: a callback button when `callback_data` is set, else one that
// opens `web_app_url` as a mini-app.
struct Button {
    std::string text;
    std::string callback_data;
    std::string web_app_url;
};
// An InlineKeyboardMarkup object as JSON text, rows of buttons.
std::string inline_keyboard(const std::vector<std::vector<Button>>& rows);
// The one button that opens the mini-app; "" (no keyboard) when MINIAPP_URL is empty.
std::string open_app_keyboard(const std::string& miniapp_url);

std::string welcome_text(const User& u);
inline constexpr std::string_view kBlockedText = "Your account is blocked.";
// The answer to anything the bot does not understand.
std::string hint_text(bool has_app_button);
// An admin button pressed by someone who is not (or no longer) in ADMIN_IDS.
// /start weblogin_<code> and /start link_<code> (services/telegram_codes.hpp, account_merge.hpp).
inline constexpr std::string_view kWebLoginDoneText = "You are logged in on the web, go back to the browser.";
inline constexpr std::string_view kCodeExpiredText =
    "Sorry, this link has expired or was already used. Please start again on the website.";
inline constexpr std::string_view kAccountsLinkedText =
    "Accounts linked: your web account is now part of this Telegram account.";
inline constexpr std::string_view kLinkEmailConflictText =
    "Accounts not linked: this Telegram account already has another e-mail. Nothing was changed.";
inline constexpr std::string_view kLinkRefusedText = "Accounts not linked: this link cannot be used with this account.";
inline constexpr std::string_view kNotAllowedText = "Not allowed: this button is for admins.";

// The bot asks before a web login or an account merge happens (issue 13): whoever made the
// code is not necessarily the person who taps the link. Buttons carry "<prefix><code>".
inline constexpr std::string_view kWebLoginConfirmData = "wl+";
inline constexpr std::string_view kWebLoginCancelData = "wl-";
inline constexpr std::string_view kLinkConfirmData = "ln+";
inline constexpr std::string_view kLinkCancelData = "ln-";
// "Sign in to the web cabinet from <browser>, IP <ip>, started <time>? ..."
std::string web_login_prompt(const CodePrompt& p);
// "Link the web account <email> to this Telegram account? ...", saying that its password
// will sign in here when it has one.
std::string link_prompt(const CodePrompt& p);
// Confirm / Cancel for one code.
std::string confirm_keyboard(std::string_view confirm_data, std::string_view cancel_data, std::string_view code);
inline constexpr std::string_view kWebLoginCancelledText = "Sign-in cancelled. Nobody was signed in.";
inline constexpr std::string_view kLinkCancelledText = "Linking cancelled. Nothing was changed.";
// To whoever opens a code another Telegram account confirmed first (services/telegram_codes.hpp
// confirmed_by_another): maybe its owner, beaten to it by someone who read the QR code.
inline constexpr std::string_view kCodeTakenText =
    "Another Telegram account has already confirmed this link. If your browser now asks whether that account is "
    "yours, answer No, then start again.";
// To a staff account that opens or confirms a sign-in or link code while STAFF_CODE_SIGNIN
// is off: the code is cancelled, so a stranger's page that talked them into it gets nothing.
inline constexpr std::string_view kStaffCodeRefusedText =
    "This Telegram account is the shop's staff: it does not sign in to a browser or link accounts with a code. "
    "The code is cancelled. Open the cabinet here in Telegram, or sign in with the e-mail linked to this account.";
inline constexpr std::string_view kWebLoginApproveInBrowserText =
    "Confirmed. Now go back to the browser and approve this Telegram account there; it is signed in then.";
inline constexpr std::string_view kLinkApproveInBrowserText =
    "Confirmed. Now go back to the browser that showed the link and approve this Telegram account there; "
    "the accounts are linked then.";

}  // namespace cabinet::bot
