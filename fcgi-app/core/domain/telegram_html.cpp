#include "domain/telegram_html.hpp"

#include <cctype>
#include <cstdint>
#include <optional>
#include <utility>

#include "util/strings.hpp"

namespace cabinet {
namespace {

struct Attr {
    std::string name;
    std::string value;
};

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool is_link(std::string_view u) {
    if (!starts_with(u, "https://") && !starts_with(u, "http://") && !starts_with(u, "tg://") && !starts_with(u, "mailto:"))
        return false;
    for (unsigned char c : u)
        if (c <= ' ' || c == 0x7f) return false;
    return u.size() <= 2048;
}

class Parser {
public:
    explicit Parser(std::string_view in) : in_(in) {}

    std::vector<HtmlNode> document() { return children_of("", ""); }

private:
    [[noreturn]] void fail(const std::string& why) const {
        throw TelegramHtmlError(why + " (at character " + std::to_string(utf8_length(in_.substr(0, pos_)) + 1) + ")");
    }

    bool at_end() const { return pos_ >= in_.size(); }
    char peek(size_t ahead = 0) const { return pos_ + ahead < in_.size() ? in_[pos_ + ahead] : '\0'; }

    static void add_text(std::vector<HtmlNode>& nodes, std::string_view text) {
        if (text.empty()) return;
        if (nodes.empty() || !nodes.back().tag.empty()) nodes.push_back(HtmlNode{});
        nodes.back().text += text;
    }

    // An entity at pos_ ('&'): its characters, pos_ past it; a lone '&' is itself.
    std::string entity() {
        const size_t semi = in_.find(';', pos_);
        const std::string_view body = semi == std::string_view::npos || semi - pos_ > 12
                                          ? std::string_view() : in_.substr(pos_ + 1, semi - pos_ - 1);
        if (!body.empty() && body[0] == '#') {
            const bool hex = body.size() > 1 && (body[1] == 'x' || body[1] == 'X');
            const std::string_view digits = body.substr(hex ? 2 : 1);
            uint32_t cp = 0;
            bool ok = !digits.empty();
            for (char c : digits) {
                const int v = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                              : hex && std::isxdigit(static_cast<unsigned char>(c)) ? std::tolower(c) - 'a' + 10 : -1;
                if (v < 0 || cp > 0x10FFFF) { ok = false; break; }
                cp = cp * (hex ? 16 : 10) + static_cast<uint32_t>(v);
            }
            if (!ok || cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) fail("&" + std::string(body) + "; is not a character");
            pos_ = semi + 1;
            std::string out;
            append_utf8(out, static_cast<char32_t>(cp));
            return out;
        }
        bool word = !body.empty();
        for (char c : body) word = word && std::isalpha(static_cast<unsigned char>(c));
        if (!word) {
            ++pos_;
            return "&";
        }
        static const std::pair<std::string_view, std::string_view> known[] = {
            {"lt", "<"}, {"gt", ">"}, {"amp", "&"}, {"quot", "\""}};
        for (const auto& [entity_name, ch] : known) {
            if (body == entity_name) {
                pos_ = semi + 1;
                return std::string(ch);
            }
        }
        fail("&" + std::string(body) + "; is not an entity Telegram knows (&lt; &gt; &amp; &quot; and &#NNN;)");
    }

    std::string name() {
        const size_t start = pos_;
        while (!at_end() && (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '-' || peek() == '_')) ++pos_;
        return lower(in_.substr(start, pos_ - start));
    }

    void skip_space() {
        while (!at_end() && std::isspace(static_cast<unsigned char>(peek()))) ++pos_;
    }

    std::vector<Attr> attributes(const std::string& tag) {
        std::vector<Attr> attrs;
        while (true) {
            skip_space();
            if (at_end()) fail("<" + tag + " is never finished with >");
            if (peek() == '>') {
                ++pos_;
                return attrs;
            }
            Attr a;
            a.name = name();
            if (a.name.empty()) fail("<" + tag + "> has something that is not an attribute");
            skip_space();
            if (peek() == '=') {
                ++pos_;
                skip_space();
                const char quote = peek();
                if (quote == '"' || quote == '\'') {
                    ++pos_;
                    while (!at_end() && peek() != quote) {
                        if (peek() == '&') a.value += entity();
                        else a.value += in_[pos_++];
                    }
                    if (at_end()) fail("an attribute of <" + tag + "> has no closing quote");
                    ++pos_;
                } else {
                    while (!at_end() && !std::isspace(static_cast<unsigned char>(peek())) && peek() != '>') {
                        if (peek() == '&') a.value += entity();
                        else a.value += in_[pos_++];
                    }
                }
            }
            attrs.push_back(std::move(a));
        }
    }

    static const Attr* find(const std::vector<Attr>& attrs, std::string_view name) {
        for (const auto& a : attrs)
            if (a.name == name) return &a;
        return nullptr;
    }

    // The tag's node (children still empty), its raw name checked against where it stands.
    HtmlNode open(const std::string& raw, const std::vector<Attr>& attrs, const std::string& parent) {
        HtmlNode n;
        auto only = [&](std::initializer_list<std::string_view> allowed) {
            for (const auto& a : attrs) {
                bool ok = false;
                for (auto allowed_name : allowed) ok = ok || a.name == allowed_name;
                if (!ok) fail("<" + raw + "> takes no attribute " + a.name);
            }
        };
        if (raw == "b" || raw == "strong") n.tag = "b";
        else if (raw == "i" || raw == "em") n.tag = "i";
        else if (raw == "u" || raw == "ins") n.tag = "u";
        else if (raw == "s" || raw == "strike" || raw == "del") n.tag = "s";
        else if (raw == "tg-spoiler") n.tag = "tg-spoiler";
        else if (raw == "code") n.tag = "code";
        else if (raw == "pre") n.tag = "pre";
        else if (raw == "blockquote") n.tag = "blockquote";
        else if (raw == "span") {
            const Attr* c = find(attrs, "class");
            if (!c || c->value != "tg-spoiler") fail("<span> is formatted only as <span class=\"tg-spoiler\">");
            only({"class"});
            n.tag = "tg-spoiler";
            return n;
        } else if (raw == "a") {
            const Attr* href = find(attrs, "href");
            if (!href || !is_link(href->value)) fail("<a> needs href=\"https://…\" (http, https, tg or mailto)");
            only({"href"});
            n.tag = "a";
            n.href = href->value;
            return n;
        } else if (raw == "tg-emoji") {
            const Attr* id = find(attrs, "emoji-id");
            bool digits = id && !id->value.empty();
            for (char c : id ? id->value : std::string()) digits = digits && std::isdigit(static_cast<unsigned char>(c));
            if (!digits) fail("<tg-emoji> needs emoji-id=\"digits\"");
            only({"emoji-id"});
            n.tag = "tg-emoji";
            return n;
        } else {
            fail("<" + raw + "> is not a tag Telegram formats (b, i, u, s, a, code, pre, blockquote, tg-spoiler)");
        }
        if (n.tag == "code" && parent == "pre") {
            const Attr* c = find(attrs, "class");
            if (c && !starts_with(c->value, "language-")) fail("<code> inside <pre> takes only class=\"language-…\"");
            only({"class"});
        } else if (n.tag == "blockquote") {
            only({"expandable"});
        } else {
            only({});
        }
        return n;
    }

    // Nodes up to the closing tag of `raw` (the end of the text at the top, raw ""), inside
    // a parent whose canonical tag is `parent`.
    std::vector<HtmlNode> children_of(const std::string& raw, const std::string& parent) {
        std::vector<HtmlNode> nodes;
        while (true) {
            if (at_end()) {
                if (!raw.empty()) fail("<" + raw + "> is never closed");
                return nodes;
            }
            const char c = peek();
            if (c == '<' && peek(1) == '/') {
                pos_ += 2;
                const std::string closing = name();
                skip_space();
                if (peek() != '>') fail("</" + closing + " is never finished with >");
                ++pos_;
                if (raw.empty()) fail("</" + closing + "> closes nothing open");
                if (closing != raw) fail("</" + closing + "> comes before </" + raw + ">: tags must close in order");
                return nodes;
            }
            if (c == '<') {
                if (!std::isalpha(static_cast<unsigned char>(peek(1)))) fail("a \"<\" that starts no tag: write &lt;");
                ++pos_;
                const std::string tag_raw = name();
                const std::vector<Attr> attrs = attributes(tag_raw);
                HtmlNode n = open(tag_raw, attrs, parent);
                if (parent == "code" || (parent == "pre" && n.tag != "code"))
                    fail("<" + parent + "> holds text only" + std::string(parent == "pre" ? " (or one <code>)" : ""));
                if (n.tag == parent && (n.tag == "blockquote" || n.tag == "a" || n.tag == "pre"))
                    fail("<" + tag_raw + "> cannot be inside another");
                n.children = children_of(tag_raw, n.tag);
                nodes.push_back(std::move(n));
                continue;
            }
            if (c == '&') {
                add_text(nodes, entity());
                continue;
            }
            const size_t next = in_.find_first_of("<&", pos_);
            const size_t end = next == std::string_view::npos ? in_.size() : next;
            add_text(nodes, in_.substr(pos_, end - pos_));
            pos_ = end;
        }
    }

    std::string_view in_;
    size_t pos_ = 0;
};

size_t utf16_units(std::string_view s) {
    size_t n = 0;
    for (unsigned char c : s) {
        if ((c & 0xC0) != 0x80) ++n;   // a code point starts
        if ((c & 0xF8) == 0xF0) ++n;   // four bytes: a surrogate pair in UTF-16
    }
    return n;
}

}  // namespace

std::vector<HtmlNode> parse_telegram_html(std::string_view html) { return Parser(html).document(); }

size_t telegram_text_length(const std::vector<HtmlNode>& nodes) {
    size_t n = 0;
    for (const auto& node : nodes) n += node.tag.empty() ? utf16_units(node.text) : telegram_text_length(node.children);
    return n;
}

bool has_visible_text(const std::vector<HtmlNode>& nodes) {
    for (const auto& node : nodes) {
        if (!node.tag.empty()) {
            if (has_visible_text(node.children)) return true;
            continue;
        }
        for (unsigned char c : node.text)
            if (!std::isspace(c)) return true;
    }
    return false;
}

void write_html_nodes(JsonWriter& w, const std::vector<HtmlNode>& nodes) {
    w.StartArray();
    for (const auto& n : nodes) {
        w.StartObject();
        if (n.tag.empty()) {
            write_key(w, "text");
            write_string(w, n.text);
        } else {
            write_key(w, "tag");
            write_string(w, n.tag);
            if (!n.href.empty()) {
                write_key(w, "href");
                write_string(w, n.href);
            }
            write_key(w, "children");
            write_html_nodes(w, n.children);
        }
        w.EndObject();
    }
    w.EndArray();
}

bool is_button_url(std::string_view url) {
    if (url.size() > 512) return false;
    std::string_view rest;
    if (starts_with(url, "https://")) rest = url.substr(8);
    else if (starts_with(url, "http://")) rest = url.substr(7);
    else return false;
    if (rest.empty() || rest[0] == '/' || rest[0] == '?' || rest[0] == '#' || rest[0] == '@') return false;
    for (unsigned char c : url)
        if (c <= ' ' || c == 0x7f) return false;
    return true;
}

}  // namespace cabinet
