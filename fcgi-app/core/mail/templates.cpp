#include "mail/templates.hpp"

#include "util/strings.hpp"

namespace cabinet {
namespace {

std::string html_page(std::string_view body) {
    return "<!DOCTYPE html>\n<html><body style=\"font-family:sans-serif;line-height:1.5\">\n" + std::string(body) +
           "\n</body></html>\n";
}

// Russian plural of `n`: one (1, 21 …), few (2–4, 22–24 …), many (the rest).
const char* ru_plural(int64_t n, const char* one, const char* few, const char* many) {
    const int64_t d = n % 10, dd = n % 100;
    if (d == 1 && dd != 11) return one;
    if (d >= 2 && d <= 4 && (dd < 12 || dd > 14)) return few;
    return many;
}

std::string p(std::string_view text) { return "<p>" + std::string(text) + "</p>"; }
std::string a(std::string_view url, std::string_view label) {
    return "<a href=\"" + html_escape(url) + "\">" + std::string(label) + "</a>";
}

// A mail that carries one link: hello, why, the link (as a button and as text), the rules.
MailContent link_mail(std::string subject, std::string_view hello, std::string_view why, std::string_view link,
                      std::string_view button, std::string_view or_open, std::string_view rules) {
    MailContent m;
    m.subject = std::move(subject);
    m.text = std::string(hello) + "\n\n" + std::string(why) + "\n\n" + std::string(link) + "\n\n" + std::string(rules) + "\n";
    m.html = html_page(p(hello) + "\n" + p(why) + "\n" + p(a(link, button)) + "\n" + p(std::string(or_open) + " " + html_escape(link)) +
                       "\n" + p(html_escape(rules)));
    return m;
}

}  // namespace

MailLanguage mail_language(std::string_view language) {
    return language.substr(0, 2) == "ru" ? MailLanguage::ru : MailLanguage::en;
}

std::string duration_text(int64_t s, MailLanguage lang) {
    const bool hours = s % 3600 == 0;
    const int64_t n = hours ? s / 3600 : (s + 59) / 60;
    if (lang == MailLanguage::ru)
        return std::to_string(n) + " " + (hours ? ru_plural(n, "час", "часа", "часов") : ru_plural(n, "минуту", "минуты", "минут"));
    return std::to_string(n) + (hours ? (n == 1 ? " hour" : " hours") : (n == 1 ? " minute" : " minutes"));
}

MailContent verification_mail(std::string_view link, int64_t ttl_s, MailLanguage lang) {
    const std::string ttl = duration_text(ttl_s, lang);
    if (lang == MailLanguage::ru)
        return link_mail("Подтвердите e-mail", "Здравствуйте!", "Чтобы закончить создание аккаунта, откройте ссылку:", link,
                         "Подтвердить e-mail", "Или откройте эту ссылку:",
                         "Ссылка работает один раз, " + ttl + ". Если вы не регистрировались, просто не отвечайте на это письмо.");
    return link_mail("Confirm your e-mail", "Hello!", "To finish creating your account, open this link:", link, "Confirm e-mail",
                     "Or open this link:", "The link works once and expires in " + ttl + ". If you did not sign up, ignore this mail.");
}

MailContent already_registered_mail(std::string_view login_url, MailLanguage lang) {
    MailContent m;
    const std::string l(login_url);
    if (lang == MailLanguage::ru) {
        m.subject = "Попытка регистрации с вашим e-mail";
        m.text = "Здравствуйте!\n\nКто-то пытался создать аккаунт с этим e-mail, а у него аккаунт уже есть.\n"
                 "Если это были вы, просто войдите: " + l + "\nЕсли нет, ничего делать не нужно: ничего не изменилось.\n";
        m.html = html_page(p("Здравствуйте!") + "\n" + p("Кто-то пытался создать аккаунт с этим e-mail, а у него аккаунт уже есть.") +
                           "\n" + p("Если это были вы, просто " + a(l, "войдите") + ".") + "\n" +
                           p("Если нет, ничего делать не нужно: ничего не изменилось."));
        return m;
    }
    m.subject = "Sign-up attempt with your e-mail";
    m.text = "Hello!\n\nSomeone tried to create an account with this e-mail, which already has one.\n"
             "If it was you, sign in instead: " + l + "\nIf it was not you, ignore this mail: nothing has changed.\n";
    m.html = html_page(p("Hello!") + "\n" + p("Someone tried to create an account with this e-mail, which already has one.") + "\n" +
                       p("If it was you, " + a(l, "sign in") + " instead.") + "\n" +
                       p("If it was not you, ignore this mail: nothing has changed."));
    return m;
}

MailContent password_reset_mail(std::string_view link, int64_t ttl_s, MailLanguage lang) {
    const std::string ttl = duration_text(ttl_s, lang);
    if (lang == MailLanguage::ru)
        return link_mail("Сброс пароля", "Здравствуйте!", "Чтобы задать новый пароль, откройте ссылку:", link, "Задать новый пароль",
                         "Или откройте эту ссылку:",
                         "Ссылка работает один раз, " + ttl + ". Новый пароль завершит все сеансы. Если вы не просили сброс, "
                         "не отвечайте на это письмо: пароль останется прежним.");
    return link_mail("Reset your password", "Hello!", "To choose a new password, open this link:", link, "Choose a new password",
                     "Or open this link:",
                     "The link works once and expires in " + ttl + ". Setting a new password signs you out everywhere. "
                     "If you did not ask for it, ignore this mail: your password stays as it is.");
}

MailContent password_changed_mail(std::string_view forgot_url, MailLanguage lang) {
    MailContent m;
    const std::string l(forgot_url);
    if (lang == MailLanguage::ru) {
        m.subject = "Пароль изменён";
        m.text = "Здравствуйте!\n\nПароль вашего аккаунта только что изменён, другие сеансы завершены.\n"
                 "Если это были не вы, сразу задайте новый пароль: " + l + "\n";
        m.html = html_page(p("Здравствуйте!") + "\n" + p("Пароль вашего аккаунта только что изменён, другие сеансы завершены.") + "\n" +
                           p("Если это были не вы, сразу " + a(l, "задайте новый пароль") + "."));
        return m;
    }
    m.subject = "Your password was changed";
    m.text = "Hello!\n\nThe password of your account was just changed, and its other sessions were ended.\n"
             "If it was not you, choose a new password at once: " + l + "\n";
    m.html = html_page(p("Hello!") + "\n" + p("The password of your account was just changed, and its other sessions were ended.") +
                       "\n" + p("If it was not you, " + a(l, "choose a new password") + " at once."));
    return m;
}

MailContent guest_purchase_known_address_mail(std::string_view login_url, MailLanguage lang) {
    MailContent m;
    const std::string l(login_url);
    if (lang == MailLanguage::ru) {
        m.subject = "Покупка для вашего аккаунта";
        m.text = "Здравствуйте!\n\nКто-то начал покупку подписки без входа, указав этот адрес. Если оплата пройдёт, "
                 "подписка добавится к вашему аккаунту. Войти и посмотреть: " + l + "\n";
        m.html = html_page(p("Здравствуйте!") + "\n" +
                           p("Кто-то начал покупку подписки без входа, указав этот адрес. Если оплата пройдёт, подписка добавится к вашему аккаунту.") +
                           "\n" + p(a(l, "Войти и посмотреть")));
        return m;
    }
    m.subject = "A purchase for your account";
    m.text = "Hello!\n\nSomeone started buying a subscription without signing in and gave this address. If the payment "
             "goes through, the subscription is added to your account. Sign in to see it: " + l + "\n";
    m.html = html_page(p("Hello!") + "\n" +
                       p("Someone started buying a subscription without signing in and gave this address. If the payment goes through, the subscription is added to your account.") +
                       "\n" + p(a(l, "Sign in to see it")));
    return m;
}

MailContent guest_subscription_mail(std::string_view subscription_url, std::string_view forgot_url, MailLanguage lang) {
    MailContent m;
    const std::string sub(subscription_url), f(forgot_url);
    if (lang == MailLanguage::ru) {
        m.subject = "Ваша подписка готова";
        m.text = "Здравствуйте!\n\nОплата получена, подписка активна. Ссылка для VPN-приложения:\n" + sub +
                 "\n\nЧтобы входить в кабинет, задайте пароль: " + f + "\n";
        m.html = html_page(p("Здравствуйте!") + "\n" + p("Оплата получена, подписка активна. Ссылка для VPN-приложения:") + "\n" +
                           p("<code>" + html_escape(sub) + "</code>") + "\n" + p("Чтобы входить в кабинет, " + a(f, "задайте пароль") + "."));
        return m;
    }
    m.subject = "Your subscription is ready";
    m.text = "Hello!\n\nThe payment arrived and the subscription is active. The link for your VPN app:\n" + sub +
             "\n\nTo sign in to the cabinet later, set a password: " + f + "\n";
    m.html = html_page(p("Hello!") + "\n" + p("The payment arrived and the subscription is active. The link for your VPN app:") + "\n" +
                       p("<code>" + html_escape(sub) + "</code>") + "\n" + p("To sign in to the cabinet later, " + a(f, "set a password") + "."));
    return m;
}

MailContent email_link_code_mail(std::string_view code, int64_t ttl_s, MailLanguage lang) {
    MailContent m;
    const std::string ttl = duration_text(ttl_s, lang);
    const std::string c(code);
    const std::string big = "<p style=\"font-size:1.6em;letter-spacing:0.2em\"><b>" + html_escape(code) + "</b></p>";
    if (lang == MailLanguage::ru) {
        m.subject = "Ваш код: " + c;
        m.text = "Здравствуйте!\n\nЧтобы добавить этот e-mail к аккаунту, введите код в кабинете:\n\n" + c + "\n\nКод действует " +
                 ttl + ".\nЕсли вы его не запрашивали, не отвечайте на письмо: без кода ничего не изменится.\n";
        m.html = html_page(p("Здравствуйте!") + "\n" + p("Чтобы добавить этот e-mail к аккаунту, введите код в кабинете:") + "\n" + big +
                           "\n" + p("Код действует " + html_escape(ttl) + ". Если вы его не запрашивали, не отвечайте на письмо: без кода ничего не изменится."));
        return m;
    }
    m.subject = "Your code: " + c;
    m.text = "Hello!\n\nTo add this e-mail to your account, enter this code in the cabinet:\n\n" + c + "\n\nThe code expires in " + ttl +
             ".\nIf you did not ask for it, ignore this mail: nothing changes without the code.\n";
    m.html = html_page(p("Hello!") + "\n" + p("To add this e-mail to your account, enter this code in the cabinet:") + "\n" + big + "\n" +
                       p("The code expires in " + html_escape(ttl) + ". If you did not ask for it, ignore this mail: nothing changes without the code."));
    return m;
}

}  // namespace cabinet
