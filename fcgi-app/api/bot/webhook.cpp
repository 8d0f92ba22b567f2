#include "api/bot/webhook.hpp"

#include <algorithm>

#include "api/bot/admin_menu.hpp"
#include "api/bot/replies.hpp"
#include "api/bot/stars.hpp"
#include "api/bot/support_reply.hpp"
#include "api/bot/updates.hpp"
#include "services/account_merge.hpp"
#include "services/bot_reachable.hpp"
#include "services/telegram_codes.hpp"
#include "services/telegram_contact.hpp"
#include "telegram/bot_api.hpp"
#include "util/strings.hpp"

namespace cabinet::bot {
namespace {

constexpr size_t kMaxStartParamChars = 64;  // Telegram's limit of a deep-link start parameter

// A staff account may use sign-in and link codes only where STAFF_CODE_SIGNIN allows it:
// a code is a page's request to take the account that confirms it, and the staff's is the
// one worth phishing. True when `from_id` is refused; the code is cancelled then.
bool staff_refused(Exchange& ex, int64_t from_id, std::string_view code, std::string_view kind) {
    const Settings& s = ex.settings();
    if (s.staff_code_signin || s.staff_role(from_id) == StaffRole::none) return false;
    cancel_code(ex.io.db, code, kind);
    return true;
}

// /start weblogin_<code> or link_<code>: the bot's half of Telegram web login and of
// linking a web account. Nothing happens yet: the bot asks, naming the browser that started
// the login or the e-mail of the account a link merges, and only the Confirm button acts
// (on_code_button). False for any other /start payload (ref_<code>, none).
bool on_code_start(Exchange& ex, BotApi& api, const std::string& chat, int64_t from_id, const std::string& payload) {
    const bool web_login = starts_with(payload, kWebLoginPrefix);
    if (!web_login && !starts_with(payload, kLinkPrefix)) return false;
    const std::string_view code = std::string_view(payload).substr((web_login ? kWebLoginPrefix : kLinkPrefix).size());
    const std::string_view kind = web_login ? kWebLoginKind : kLinkKind;
    if (staff_refused(ex, from_id, code, kind)) {
        api.send_message(chat, "", std::string(kStaffCodeRefusedText));
        return true;
    }
    const auto prompt = code_prompt(ex.io.db, code, kind);
    if (!prompt) {
        const bool taken = confirmed_by_another(ex.io.db, code, kind, from_id);
        api.send_message(chat, "", std::string(taken ? kCodeTakenText : kCodeExpiredText));
    } else if (web_login) {
        api.send_message(chat, "", web_login_prompt(*prompt), confirm_keyboard(kWebLoginConfirmData, kWebLoginCancelData, code));
    } else {
        api.send_message(chat, "", link_prompt(*prompt), confirm_keyboard(kLinkConfirmData, kLinkCancelData, code));
    }
    return true;
}

std::string_view merge_reply(MergeOutcome outcome) {
    switch (outcome) {
        case MergeOutcome::linked: return kAccountsLinkedText;
        case MergeOutcome::expired: return kCodeExpiredText;
        case MergeOutcome::email_conflict: return kLinkEmailConflictText;
        case MergeOutcome::same_account:
        case MergeOutcome::already_linked:
        case MergeOutcome::blocked: break;
    }
    return kLinkRefusedText;
}

// Confirm or Cancel under a web-login or link prompt; false for any other button. The
// answer replaces the prompt, so its buttons cannot be pressed twice by accident.
bool on_code_button(Exchange& ex, BotApi& api, const ButtonPress& b) {
    const auto code_after = [&](std::string_view prefix) { return std::string_view(b.data).substr(prefix.size()); };
    const auto presser = [&] { return telegram_account(ex.io.db, b.from.id); };
    std::string_view reply;
    if (starts_with(b.data, kWebLoginConfirmData) || starts_with(b.data, kLinkConfirmData)) {
        const bool login = starts_with(b.data, kWebLoginConfirmData);
        const auto account = presser();
        if (staff_refused(ex, b.from.id, code_after(login ? kWebLoginConfirmData : kLinkConfirmData),
                          login ? kWebLoginKind : kLinkKind))
            reply = kStaffCodeRefusedText;
        else if (!account) reply = kCodeExpiredText;
        else if (account->user.is_blocked) reply = kBlockedText;
        else if (login) {
            const auto code = code_after(kWebLoginConfirmData);
            const auto approval = confirm_web_login(ex.io.db, code, account->user.id);
            reply = approval ? (*approval ? kWebLoginApproveInBrowserText : kWebLoginDoneText)
                    : confirmed_by_another(ex.io.db, code, kWebLoginKind, b.from.id) ? kCodeTakenText
                                                                                     : kCodeExpiredText;
        }
        else if (confirm_link(ex.io.db, code_after(kLinkConfirmData), account->user.id))
            reply = kLinkApproveInBrowserText;  // its browser approves, then merges
        else if (confirmed_by_another(ex.io.db, code_after(kLinkConfirmData), kLinkKind, b.from.id))
            reply = kCodeTakenText;
        else
            reply = merge_reply(link_telegram_account(ex.io.db, ex.io.panel, code_after(kLinkConfirmData), account->user.id));
    } else if (starts_with(b.data, kWebLoginCancelData)) {
        reply = cancel_code(ex.io.db, code_after(kWebLoginCancelData), kWebLoginKind) ? kWebLoginCancelledText : kCodeExpiredText;
    } else if (starts_with(b.data, kLinkCancelData)) {
        reply = cancel_code(ex.io.db, code_after(kLinkCancelData), kLinkKind) ? kLinkCancelledText : kCodeExpiredText;
    } else {
        return false;
    }
    api.answer_callback_query(b.id, "", false);
    if (b.chat_id && b.message_id) api.edit_message_text(std::to_string(*b.chat_id), *b.message_id, std::string(reply));
    else api.send_message(std::to_string(b.from.id), "", std::string(reply));
    return true;
}

void on_message(Exchange& ex, BotApi& api, const ChatMessage& m) {
    if (is_reporting_group_reply(ex.settings(), m)) return answer_ticket_from_group(ex, api, m);
    if (!m.is_private) return;  // elsewhere in groups the bot only takes payments
    // Writing to the bot means it is not blocked (any more): broadcasts reach them again.
    mark_bot_reachable(ex.io.db, m.from.id);
    const Settings& s = ex.settings();
    const auto command = parse_command(m.text, s.bot_username);
    const bool start = command && command->name == "start";
    std::optional<Account> account;
    if (start) {
        const std::string start_param(utf8_prefix(command->payload, kMaxStartParamChars));
        account = telegram_contact(ex.io.db, m.from, s.default_currency, start_param);
    }
    const bool admin = s.is_admin(m.from.id);
    const std::string chat = std::to_string(m.chat_id);
    const MaintenanceState& maintenance = ex.io.maintenance.get(ex.io.db, s);
    if (maintenance.enabled && !admin) return api.send_message(chat, "", maintenance.message);
    if (command && command->name == "admin" && admin) return send_admin_menu(ex, api, m.chat_id);

    if (!account) account = telegram_account(ex.io.db, m.from.id);
    if (account && account->user.is_blocked) return api.send_message(chat, "", std::string(kBlockedText));
    const std::string keyboard = open_app_keyboard(s.miniapp_url);
    if (start && on_code_start(ex, api, chat, m.from.id, command->payload)) return;
    if (start) api.send_message(chat, "", welcome_text(account->user), keyboard);
    else api.send_message(chat, "", hint_text(!keyboard.empty()), keyboard);
}

void on_button(Exchange& ex, BotApi& api, const ButtonPress& b) {
    const Settings& s = ex.settings();
    const bool admin = s.is_admin(b.from.id);
    const MaintenanceState& maintenance = ex.io.maintenance.get(ex.io.db, s);
    if (maintenance.enabled && !admin)
        return api.answer_callback_query(b.id, utf8_prefix(maintenance.message, kMaintenanceAlertMaxChars), true);
    if (starts_with(b.data, kAdminButtonPrefix)) {
        if (!admin) return api.answer_callback_query(b.id, kNotAllowedText, true);
        return press_admin_button(ex, api, b);
    }
    if (on_code_button(ex, api, b)) return;
    api.answer_callback_query(b.id, "", false);  // a button we no longer know: stop its spinner
}

}  // namespace

void handle_update(Exchange& ex, const rapidjson::Value& update) {
    const Update u = parse_update(update);
    if (u.pre_checkout_query) return answer_pre_checkout(ex, *u.pre_checkout_query);
    if (u.successful_payment) return record_stars_payment(ex, *u.successful_payment);
    if (u.refunded_payment) return record_stars_refund(ex, *u.refunded_payment);
    if (!u.message && !u.button) return;
    BotApi api(ex.settings());
    if (u.message) on_message(ex, api, *u.message);
    else on_button(ex, api, *u.button);
}

}  // namespace cabinet::bot
