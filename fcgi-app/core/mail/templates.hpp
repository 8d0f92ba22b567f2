#pragma once
// The mails of the web cabinet, plain text + HTML. Every value inserted into HTML is
// escaped here (html_escape, util/strings.hpp), so a template never trusts its arguments.
#include <string>
#include <string_view>

namespace cabinet {

struct MailContent {
    std::string subject;
    std::string text;
    std::string html;
};

// The one-time link that confirms a new account's address.
MailContent verification_mail(std::string_view link, std::string_view ttl_text);
// Someone tried to register an address that has a (verified) account already: the owner
// learns about it, the person registering learns nothing (docs/decisions.md).
MailContent already_registered_mail(std::string_view login_url);
// "Forgot password": the single-use link that sets a new one.
MailContent password_reset_mail(std::string_view link, std::string_view ttl_text);
// The account's password was changed or reset: the owner of the address hears of it, and
// where to go if it was not them.
MailContent password_changed_mail(std::string_view forgot_url);
// The 6-digit code that links this address (and a password) to an existing account.
MailContent email_link_code_mail(std::string_view code, std::string_view ttl_text);

}  // namespace cabinet
