#pragma once
// The mails of the web cabinet, plain text + HTML, in the customer's language (English or
// Russian: the account's `language`, or the page's at registration). Every value inserted
// into HTML is escaped here (html_escape, util/strings.hpp), so a template never trusts its
// arguments. Durations are given in seconds and written in the mail's language.
#include <cstdint>
#include <string>
#include <string_view>

namespace cabinet {

struct MailContent {
    std::string subject;
    std::string text;
    std::string html;
};

enum class MailLanguage { en, ru };
// "ru…" is Russian; anything else English (as the mini-app picks its language).
MailLanguage mail_language(std::string_view language);
// "30 minutes", "24 hours" / "30 минут", "24 часа".
std::string duration_text(int64_t seconds, MailLanguage lang);

// The one-time link that confirms a new account's address.
MailContent verification_mail(std::string_view link, int64_t ttl_s, MailLanguage lang);
// Someone tried to register an address that has a (verified) account already: the owner
// learns about it, the person registering learns nothing (docs/decisions.md).
MailContent already_registered_mail(std::string_view login_url, MailLanguage lang);
// "Forgot password": the single-use link that sets a new one.
MailContent password_reset_mail(std::string_view link, int64_t ttl_s, MailLanguage lang);
// The account's password was changed or reset: the owner of the address hears of it, and
// where to go if it was not them.
MailContent password_changed_mail(std::string_view forgot_url, MailLanguage lang);
// A guest purchase was made with an address that has an account: the purchase goes to that
// account, and its owner is told (nobody is signed in by it).
MailContent guest_purchase_known_address_mail(std::string_view login_url, MailLanguage lang);
// A guest's payment is fulfilled: the subscription link, and how to sign in later (a
// password through "Forgot password?", which also confirms the address). No sign-in link:
// an address typed by mistake must not let its owner into the buyer's account.
MailContent guest_subscription_mail(std::string_view subscription_url, std::string_view forgot_url, MailLanguage lang);
// The 6-digit code that links this address (and a password) to an existing account.
MailContent email_link_code_mail(std::string_view code, int64_t ttl_s, MailLanguage lang);

}  // namespace cabinet
