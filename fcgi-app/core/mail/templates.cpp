#include "mail/templates.hpp"

#include "util/strings.hpp"

namespace cabinet {
namespace {

std::string html_page(std::string_view body) {
    return "<!DOCTYPE html>\n<html><body style=\"font-family:sans-serif;line-height:1.5\">\n" + std::string(body) +
           "\n</body></html>\n";
}

}  // namespace

MailContent verification_mail(std::string_view link, std::string_view ttl_text) {
    MailContent m;
    m.subject = "Confirm your e-mail";
    m.text = "Hello!\n\nTo finish creating your account, open this link:\n\n" + std::string(link) +
             "\n\nThe link works once and expires in " + std::string(ttl_text) +
             ".\nIf you did not sign up, ignore this mail.\n";
    const std::string l = html_escape(link);
    m.html = html_page("<p>Hello!</p>\n<p>To finish creating your account, confirm your e-mail:</p>\n<p><a href=\"" + l +
                       "\">Confirm e-mail</a></p>\n<p>Or open this link: " + l + "</p>\n<p>The link works once and expires in " +
                       html_escape(ttl_text) + ". If you did not sign up, ignore this mail.</p>");
    return m;
}

MailContent already_registered_mail(std::string_view login_url) {
    MailContent m;
    m.subject = "Sign-up attempt with your e-mail";
    m.text = "Hello!\n\nSomeone tried to create an account with this e-mail, which already has one.\n"
             "If it was you, sign in instead: " + std::string(login_url) +
             "\nIf it was not you, ignore this mail: nothing has changed.\n";
    const std::string l = html_escape(login_url);
    m.html = html_page("<p>Hello!</p>\n<p>Someone tried to create an account with this e-mail, which already has one.</p>\n"
                       "<p>If it was you, <a href=\"" + l + "\">sign in</a> instead.</p>\n"
                       "<p>If it was not you, ignore this mail: nothing has changed.</p>");
    return m;
}

MailContent password_reset_mail(std::string_view link, std::string_view ttl_text) {
    MailContent m;
    m.subject = "Reset your password";
    m.text = "Hello!\n\nTo choose a new password, open this link:\n\n" + std::string(link) +
             "\n\nThe link works once and expires in " + std::string(ttl_text) +
             ". Setting a new password signs you out everywhere.\nIf you did not ask for it, ignore this mail: "
             "your password stays as it is.\n";
    const std::string l = html_escape(link);
    m.html = html_page("<p>Hello!</p>\n<p>To choose a new password, open this link:</p>\n<p><a href=\"" + l +
                       "\">Choose a new password</a></p>\n<p>Or open this link: " + l +
                       "</p>\n<p>The link works once and expires in " + html_escape(ttl_text) +
                       ". Setting a new password signs you out everywhere.</p>\n"
                       "<p>If you did not ask for it, ignore this mail: your password stays as it is.</p>");
    return m;
}

MailContent password_changed_mail(std::string_view forgot_url) {
    MailContent m;
    m.subject = "Your password was changed";
    m.text = "Hello!\n\nThe password of your account was just changed, and its other sessions were ended.\n"
             "If it was not you, choose a new password at once: " + std::string(forgot_url) + "\n";
    const std::string l = html_escape(forgot_url);
    m.html = html_page("<p>Hello!</p>\n<p>The password of your account was just changed, and its other sessions were ended.</p>\n"
                       "<p>If it was not you, <a href=\"" + l + "\">choose a new password</a> at once.</p>");
    return m;
}

MailContent email_link_code_mail(std::string_view code, std::string_view ttl_text) {
    MailContent m;
    m.subject = "Your code: " + std::string(code);
    m.text = "Hello!\n\nTo add this e-mail to your account, enter this code in the cabinet:\n\n" + std::string(code) +
             "\n\nThe code expires in " + std::string(ttl_text) +
             ".\nIf you did not ask for it, ignore this mail: nothing changes without the code.\n";
    m.html = html_page("<p>Hello!</p>\n<p>To add this e-mail to your account, enter this code in the cabinet:</p>\n"
                       "<p style=\"font-size:1.6em;letter-spacing:0.2em\"><b>" + html_escape(code) + "</b></p>\n"
                       "<p>The code expires in " + html_escape(ttl_text) +
                       ". If you did not ask for it, ignore this mail: nothing changes without the code.</p>");
    return m;
}

}  // namespace cabinet
