#include "site/landing_page.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "util/strings.hpp"

namespace cabinet {
namespace {

// The page's own words, in the two languages the shop's pages speak.
struct Labels {
    const char* lang;
    const char* locale;  // og:locale
    const char* nav;
    const char* features;
    const char* plans;
    const char* faq;
    const char* open_cabinet;
    const char* open_bot;
    const char* choose;
    const char* days_one;   // plural forms for a number of days: 1 / 2–4 / 5+ (en uses one and many)
    const char* days_few;
    const char* days_many;
    const char* unlimited_traffic;
    const char* traffic_gb;  // "{n} GB of traffic"
    const char* devices;     // "up to {n} devices"
    const char* pay_with;
    const char* prices_note;
    const char* off_text;
    const char* footer_bot;
    const char* footer_cabinet;
};

constexpr Labels kEn{"en", "en_US", "Sections", "Why us", "Plans", "Questions", "Open the cabinet", "Open in Telegram",
                     "Choose", "day", "days", "days", "Unlimited traffic", " GB of traffic", "Devices: up to ",
                     "Pay with", "List prices; personal discounts and promo codes apply after sign-in.",
                     "The shop works in Telegram.", "Telegram bot", "Web cabinet"};
constexpr Labels kRu{"ru", "ru_RU", "Разделы", "Почему мы", "Тарифы", "Вопросы", "Открыть кабинет", "Открыть в Telegram",
                     "Выбрать", "день", "дня", "дней", "Безлимитный трафик", " ГБ трафика", "Устройств: до ",
                     "Способы оплаты", "Цены без скидок; личные скидки и промокоды применяются после входа.",
                     "Магазин работает в Telegram.", "Telegram-бот", "Веб-кабинет"};

const Labels& labels_for(const std::string& lang) { return lang == "ru" ? kRu : kEn; }

std::string days_text(int64_t n, const Labels& l) {
    const char* word = l.days_many;
    if (std::string(l.lang) == "ru") {
        const int64_t m10 = n % 10, m100 = n % 100;
        if (m10 == 1 && m100 != 11) word = l.days_one;
        else if (m10 >= 2 && m10 <= 4 && (m100 < 12 || m100 > 14)) word = l.days_few;
    } else if (n == 1) {
        word = l.days_one;
    }
    return std::to_string(n) + " " + word;
}

const char* method_label(const std::string& id, const std::string& lang) {
    const bool ru = lang == "ru";
    if (id == "yookassa") return ru ? "Банковская карта" : "Bank card";
    if (id == "cryptobot") return ru ? "Криптовалюта" : "Crypto";
    if (id == "stars") return "Telegram Stars";
    return nullptr;
}

// Digits grouped by three: "12 990" (a no-break space) in Russian, "12,990" in English.
std::string grouped(int64_t whole, const std::string& lang) {
    const std::string digits = std::to_string(whole);
    const std::string sep = lang == "ru" ? "\u00a0" : ",";
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += sep;
        out += digits[i];
    }
    return out;
}

struct Page {
    std::string html;
    void raw(std::string_view s) { html += s; }
    void text(std::string_view s) { append_html_escaped(html, s); }
    // <tag attrs>text</tag> with the text escaped.
    void element(std::string_view open, std::string_view tag, std::string_view body) {
        html += '<';
        html += open;
        html += '>';
        append_html_escaped(html, body);
        html += "</";
        html += tag;
        html += ">\n";
    }
    void meta(std::string_view attr, std::string_view name, std::string_view content) {
        if (content.empty()) return;
        html += "<meta ";
        html += attr;
        html += "=\"";
        html += name;
        html += "\" content=\"";
        append_html_escaped(html, content);
        html += "\">\n";
    }
};

bool valid_template(const std::string& t) { return t.size() == 1 && t[0] >= 'a' && t[0] <= 'h'; }

bool valid_color(const std::string& c) {
    if (c.size() != 4 && c.size() != 7) return false;
    if (c[0] != '#') return false;
    return std::all_of(c.begin() + 1, c.end(), [](char ch) { return std::isxdigit(static_cast<unsigned char>(ch)); });
}

std::string first_line_cut(const std::string& s, size_t max_bytes) {
    if (s.size() <= max_bytes) return s;
    size_t cut = max_bytes;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 sequence
    return s.substr(0, cut) + "…";
}

struct Cta {
    std::string href;
    std::string label;
};

// The main call to action per cta_target, and the other way in when there is one.
std::pair<Cta, Cta> ctas(const LandingPageInput& in, const Labels& l) {
    const Cta web = in.cabinet_url.empty() ? Cta{} : Cta{in.cabinet_url + "/", l.open_cabinet};
    const Cta bot = in.bot_username.empty() ? Cta{} : Cta{"https://t.me/" + in.bot_username, l.open_bot};
    if (in.landing.cta_target == "bot" || web.href.empty()) return {bot.href.empty() ? web : bot, bot.href.empty() ? Cta{} : web};
    return {web, bot};
}

void head(Page& p, const LandingPageInput& in, const Labels& l, const std::string& title, const std::string& description,
          bool index) {
    const std::string tmpl = valid_template(in.theme.template_id) ? in.theme.template_id : "a";
    p.raw("<!doctype html>\n<html lang=\"");
    p.raw(l.lang);
    p.raw("\" data-template=\"" + tmpl + "\"");
    if (valid_color(in.theme.accent_color)) p.raw(" data-accent=\"" + in.theme.accent_color + "\"");
    p.raw(">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<meta name=\"color-scheme\" content=\"light dark\">\n");
    p.element("title", "title", title);
    p.meta("name", "description", description);
    if (!index) p.raw("<meta name=\"robots\" content=\"noindex\">\n");
    if (!in.site_url.empty()) {
        p.raw("<link rel=\"canonical\" href=\"");
        p.text(in.site_url + "/");
        p.raw("\">\n");
    }
    p.meta("property", "og:type", "website");
    p.meta("property", "og:site_name", in.theme.title);
    p.meta("property", "og:title", title);
    p.meta("property", "og:description", description);
    if (!in.site_url.empty()) p.meta("property", "og:url", in.site_url + "/");
    p.meta("property", "og:locale", l.locale);
    p.meta("name", "twitter:card", "summary");
    p.raw("<link rel=\"icon\" href=\"/static/__RELEASE__/shared/icon.svg\" type=\"image/svg+xml\">\n"
          "<link rel=\"stylesheet\" href=\"/static/__RELEASE__/themes/base.css\">\n"
          "<link rel=\"stylesheet\" href=\"/static/__RELEASE__/themes/" + tmpl + ".css\">\n"
          "<link rel=\"stylesheet\" href=\"/static/__RELEASE__/site/landing.css\">\n"
          "<script type=\"module\" src=\"/static/__RELEASE__/site/landing.js\"></script>\n"
          "</head>\n");
}

void link_button(Page& p, const Cta& c, std::string_view cls) {
    if (c.href.empty()) return;
    p.raw("<a class=\"");
    p.raw(cls);
    p.raw("\" href=\"");
    p.text(c.href);
    p.raw("\">");
    p.text(c.label);
    p.raw("</a>");
}

void plans_section(Page& p, const LandingPageInput& in, const Labels& l, const Cta& cta) {
    if (in.plans.empty()) return;
    p.raw("<section class=\"site-section\" id=\"plans\" aria-labelledby=\"plans-title\">\n");
    p.element("h2 id=\"plans-title\"", "h2", l.plans);
    p.raw("<ul class=\"site-plans\">\n");
    for (const Plan& plan : in.plans) {
        p.raw("<li class=\"site-plan\">\n");
        p.element("h3", "h3", plan.name);
        if (!plan.description.empty()) p.element("p class=\"site-plan-text\"", "p", plan.description);
        p.raw("<ul class=\"site-plan-prices\">\n");
        for (const PlanDuration& d : plan.durations) {
            p.raw("<li><span>");
            p.text(days_text(d.days, l));
            p.raw("</span> <strong>");
            p.text(landing_money(d.price_minor, in.currency, l.lang));
            p.raw("</strong></li>\n");
        }
        p.raw("</ul>\n<ul class=\"site-plan-facts\">\n");
        p.element("li", "li", plan.traffic_limit_bytes
                                  ? std::to_string(*plan.traffic_limit_bytes / (int64_t{1} << 30)) + l.traffic_gb
                                  : std::string(l.unlimited_traffic));
        p.element("li", "li", l.devices + std::to_string(plan.device_limit));
        p.raw("</ul>\n");
        if (!cta.href.empty()) {
            p.raw("<a class=\"btn btn-ghost\" href=\"");
            p.text(cta.href);
            p.raw("\" aria-label=\"");
            p.text(std::string(l.choose) + ": " + plan.name);
            p.raw("\">");
            p.text(l.choose);
            p.raw("</a>\n");
        }
        p.raw("</li>\n");
    }
    p.raw("</ul>\n");
    std::vector<std::string> methods;
    for (const auto& id : in.payment_methods)
        if (const char* label = method_label(id, l.lang)) methods.emplace_back(label);
    if (!methods.empty()) {
        std::string joined;
        for (const auto& m : methods) joined += (joined.empty() ? "" : " · ") + m;
        p.raw("<p class=\"site-methods\"><span>");
        p.text(l.pay_with);
        p.raw(":</span> ");
        p.text(joined);
        p.raw("</p>\n");
    }
    p.element("p class=\"site-note\"", "p", l.prices_note);
    p.raw("</section>\n");
}

void features_section(Page& p, const LandingPageInput& in, const Labels& l) {
    if (in.landing.features.empty()) return;
    p.raw("<section class=\"site-section\" id=\"features\" aria-labelledby=\"features-title\">\n");
    p.element("h2 id=\"features-title\"", "h2", l.features);
    p.raw("<ul class=\"site-features\">\n");
    for (const auto& f : in.landing.features) {
        p.raw("<li class=\"site-feature\">\n");
        if (!f.title.empty()) p.element("h3", "h3", f.title);
        if (!f.text.empty()) p.element("p", "p", f.text);
        p.raw("</li>\n");
    }
    p.raw("</ul>\n</section>\n");
}

void faq_section(Page& p, const LandingPageInput& in, const Labels& l) {
    if (in.landing.faq.empty()) return;
    p.raw("<section class=\"site-section\" id=\"faq\" aria-labelledby=\"faq-title\">\n");
    p.element("h2 id=\"faq-title\"", "h2", l.faq);
    for (const auto& q : in.landing.faq) {
        p.raw("<details class=\"site-question\">");
        p.element("summary", "summary", q.q);
        p.element("p", "p", q.a);
        p.raw("</details>\n");
    }
    p.raw("</section>\n");
}

void header(Page& p, const LandingPageInput& in, const Labels& l, const Cta& main, bool sections) {
    p.raw("<header class=\"site-header\">\n<a class=\"brand\" href=\"/\"><span class=\"brand-mark\" aria-hidden=\"true\"></span>"
          "<span class=\"brand-title\">");
    p.text(in.theme.title.empty() ? "VPN" : in.theme.title);
    p.raw("</span></a>\n");
    if (sections) {
        p.raw("<nav class=\"site-nav\" aria-label=\"");
        p.text(l.nav);
        p.raw("\">");
        if (!in.landing.features.empty()) p.raw("<a href=\"#features\">" + html_escape(l.features) + "</a>");
        if (!in.plans.empty()) p.raw("<a href=\"#plans\">" + html_escape(l.plans) + "</a>");
        if (!in.landing.faq.empty()) p.raw("<a href=\"#faq\">" + html_escape(l.faq) + "</a>");
        p.raw("</nav>\n");
    }
    link_button(p, main, "btn btn-primary site-header-cta");
    p.raw("\n</header>\n");
}

void footer(Page& p, const LandingPageInput& in, const Labels& l) {
    p.raw("<footer class=\"site-footer\">\n<p>");
    p.text(in.theme.title);
    p.raw("</p>\n<p class=\"site-footer-links\">");
    if (!in.bot_username.empty()) link_button(p, {"https://t.me/" + in.bot_username, l.footer_bot}, "site-link");
    if (!in.cabinet_url.empty()) link_button(p, {in.cabinet_url + "/", l.footer_cabinet}, "site-link");
    p.raw("</p>\n</footer>\n");
}

}  // namespace

std::string landing_language(const Landing& l) {
    size_t cyrillic = 0, latin = 0;
    const std::string text = l.headline + " " + l.subheadline;
    for (size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if ((c == 0xD0 || c == 0xD1) && i + 1 < text.size()) {  // U+0400..U+047F in UTF-8
            ++cyrillic;
            ++i;
        } else if (std::isalpha(c)) {
            ++latin;
        }
    }
    return cyrillic > latin ? "ru" : "en";
}

std::string landing_money(int64_t minor, const std::string& currency, const std::string& lang) {
    const bool negative = minor < 0;
    const int64_t abs = negative ? -minor : minor;
    std::string amount = grouped(abs / 100, lang);
    if (abs % 100 != 0) {
        const int64_t cents = abs % 100;
        amount += (lang == "ru" ? "," : ".") + std::string(cents < 10 ? "0" : "") + std::to_string(cents);
    }
    if (negative) amount = "-" + amount;
    static constexpr std::array<std::pair<const char*, const char*>, 4> kSymbols{
        {{"RUB", "₽"}, {"USD", "$"}, {"EUR", "€"}, {"UAH", "₴"}}};
    for (const auto& [code, symbol] : kSymbols)
        if (currency == code) return amount + "\u00a0" + symbol;
    return amount + "\u00a0" + currency;
}

std::string render_landing_page(const LandingPageInput& in) {
    const std::string lang = landing_language(in.landing);
    const Labels& l = labels_for(lang);
    const auto [main_cta, other_cta] = ctas(in, l);
    const std::string shop = in.theme.title.empty() ? "VPN" : in.theme.title;
    Page p;
    p.html.reserve(16384);

    if (!in.landing.enabled) {
        // The owner switched the landing off: the shop's name and the ways in, nothing to index.
        head(p, in, l, shop, l.off_text, false);
        p.raw("<body class=\"site site-off\">\n<main class=\"site-main\">\n<section class=\"site-hero\">\n");
        p.element("h1", "h1", shop);
        p.element("p class=\"site-lead\"", "p", l.off_text);
        p.raw("<p class=\"site-actions\">");
        link_button(p, main_cta, "btn btn-primary");
        link_button(p, other_cta, "btn btn-ghost");
        p.raw("</p>\n</section>\n</main>\n</body>\n</html>\n");
        return p.html;
    }

    const std::string title = in.landing.headline.empty() ? shop : shop + " — " + in.landing.headline;
    head(p, in, l, title, first_line_cut(in.landing.subheadline, 300), true);
    p.raw("<body class=\"site\">\n");
    header(p, in, l, main_cta, true);
    p.raw("<main class=\"site-main\" id=\"main\">\n<section class=\"site-hero\">\n");
    p.element("h1", "h1", in.landing.headline.empty() ? shop : in.landing.headline);
    if (!in.landing.subheadline.empty()) p.element("p class=\"site-lead\"", "p", in.landing.subheadline);
    p.raw("<p class=\"site-actions\">");
    link_button(p, main_cta, "btn btn-primary");
    link_button(p, other_cta, "btn btn-ghost");
    p.raw("</p>\n</section>\n");
    features_section(p, in, l);
    plans_section(p, in, l, main_cta);
    faq_section(p, in, l);
    p.raw("</main>\n");
    footer(p, in, l);
    p.raw("</body>\n</html>\n");
    return p.html;
}

}  // namespace cabinet
