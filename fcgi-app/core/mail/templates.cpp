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

// The sentence of a notice that carries its link: in the text "lead: <url>", in HTML a
// sentence with the link on some of its words.
struct LinkSentence {
    std::string_view text_lead;    // "If it was you, sign in instead: "
    std::string_view html_before;  // "If it was you, "
    std::string_view label;        // "sign in"
    std::string_view html_after;   // " instead."
};

// A notice: hello, what happened, the sentence with the link, and an optional last line.
MailContent notice_mail(std::string subject, std::string_view hello, std::string_view what, std::string_view link,
                        const LinkSentence& s, std::string_view last = {}) {
    MailContent m;
    m.subject = std::move(subject);
    m.text = std::string(hello) + "\n\n" + std::string(what) + "\n" + std::string(s.text_lead) + std::string(link) + "\n";
    std::string body = p(hello) + "\n" + p(what) + "\n" + p(std::string(s.html_before) + a(link, s.label) + std::string(s.html_after));
    if (!last.empty()) {
        m.text += std::string(last) + "\n";
        body += "\n" + p(last);
    }
    m.html = html_page(body);
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
    if (lang == MailLanguage::ru)
        return notice_mail("Попытка регистрации с вашим e-mail", "Здравствуйте!",
                           "Кто-то пытался создать аккаунт с этим e-mail, а у него аккаунт уже есть.", login_url,
                           {"Если это были вы, просто войдите: ", "Если это были вы, просто ", "войдите", "."},
                           "Если нет, ничего делать не нужно: ничего не изменилось.");
    return notice_mail("Sign-up attempt with your e-mail", "Hello!",
                       "Someone tried to create an account with this e-mail, which already has one.", login_url,
                       {"If it was you, sign in instead: ", "If it was you, ", "sign in", " instead."},
                       "If it was not you, ignore this mail: nothing has changed.");
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
    if (lang == MailLanguage::ru)
        return notice_mail("Пароль изменён", "Здравствуйте!", "Пароль вашего аккаунта только что изменён, другие сеансы завершены.",
                           forgot_url,
                           {"Если это были не вы, сразу задайте новый пароль: ", "Если это были не вы, сразу ", "задайте новый пароль", "."});
    return notice_mail("Your password was changed", "Hello!",
                       "The password of your account was just changed, and its other sessions were ended.", forgot_url,
                       {"If it was not you, choose a new password at once: ", "If it was not you, ", "choose a new password", " at once."});
}

MailContent guest_purchase_known_address_mail(std::string_view login_url, MailLanguage lang) {
    struct Texts {
        const char *subject, *hello, *what, *label;
    };
    static constexpr Texts kRu{"Покупка для вашего аккаунта", "Здравствуйте!",
                               "Кто-то начал покупку подписки без входа, указав этот адрес. Если оплата пройдёт, подписка "
                               "добавится к вашему аккаунту.",
                               "Войти и посмотреть"};
    static constexpr Texts kEn{"A purchase for your account", "Hello!",
                               "Someone started buying a subscription without signing in and gave this address. If the "
                               "payment goes through, the subscription is added to your account.",
                               "Sign in to see it"};
    const Texts& x = lang == MailLanguage::ru ? kRu : kEn;
    const std::string l(login_url);
    MailContent m;
    m.subject = x.subject;
    m.text = std::string(x.hello) + "\n\n" + x.what + " " + x.label + ": " + l + "\n";
    m.html = html_page(p(x.hello) + "\n" + p(x.what) + "\n" + p(a(l, x.label)));
    return m;
}

MailContent guest_subscription_mail(std::string_view subscription_url, std::string_view forgot_url, MailLanguage lang) {
    struct Texts {
        const char *subject, *hello, *what, *to_sign_in, *label;
    };
    static constexpr Texts kRu{"Ваша подписка готова", "Здравствуйте!", "Оплата получена, подписка активна. Ссылка для VPN-приложения:",
                               "Чтобы входить в кабинет, ", "задайте пароль"};
    static constexpr Texts kEn{"Your subscription is ready", "Hello!",
                               "The payment arrived and the subscription is active. The link for your VPN app:",
                               "To sign in to the cabinet later, ", "set a password"};
    const Texts& x = lang == MailLanguage::ru ? kRu : kEn;
    const std::string sub(subscription_url), f(forgot_url);
    MailContent m;
    m.subject = x.subject;
    m.text = std::string(x.hello) + "\n\n" + x.what + "\n" + sub + "\n\n" + x.to_sign_in + x.label + ": " + f + "\n";
    m.html = html_page(p(x.hello) + "\n" + p(x.what) + "\n" + p("<code>" + html_escape(sub) + "</code>") + "\n" +
                       p(x.to_sign_in + a(f, x.label) + "."));
    return m;
}

MailContent email_link_code_mail(std::string_view code, int64_t ttl_s, MailLanguage lang) {
    struct Texts {
        const char *subject, *hello, *what, *valid_for, *not_asked;
    };
    static constexpr Texts kRu{"Ваш код: ", "Здравствуйте!", "Чтобы добавить этот e-mail к аккаунту, введите код в кабинете:",
                               "Код действует ", "Если вы его не запрашивали, не отвечайте на письмо: без кода ничего не изменится."};
    static constexpr Texts kEn{"Your code: ", "Hello!", "To add this e-mail to your account, enter this code in the cabinet:",
                               "The code expires in ", "If you did not ask for it, ignore this mail: nothing changes without the code."};
    const Texts& x = lang == MailLanguage::ru ? kRu : kEn;
    const std::string ttl = duration_text(ttl_s, lang);
    const std::string c(code);
    const std::string big = "<p style=\"font-size:1.6em;letter-spacing:0.2em\"><b>" + html_escape(code) + "</b></p>";
    MailContent m;
    m.subject = x.subject + c;
    m.text = std::string(x.hello) + "\n\n" + x.what + "\n\n" + c + "\n\n" + x.valid_for + ttl + ".\n" + x.not_asked + "\n";
    m.html = html_page(p(x.hello) + "\n" + p(x.what) + "\n" + big + "\n" + p(x.valid_for + html_escape(ttl) + ". " + x.not_asked));
    return m;
}

}  // namespace cabinet
