#pragma once
// Telegram's "HTML" parse_mode, checked before a message is sent to thousands of customers:
// a text Telegram would refuse ("can't parse entities") is refused here first, with the
// reason, and the text that passes is returned as a tree the owner's page draws as the
// preview with its own elements (never as markup). The tags are the Bot API's: b/strong,
// i/em, u/ins, s/strike/del, span class="tg-spoiler"/tg-spoiler, a href, code, pre (with
// one code class="language-…" inside), blockquote [expandable], tg-emoji emoji-id; the
// entities &lt; &gt; &amp; &quot; and numeric ones. A "<" that starts no tag must be
// written &lt;; a lone "&" is text, as Telegram reads it.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "util/json.hpp"

namespace cabinet {

struct HtmlNode {
    std::string tag;   // empty for text; else b, i, u, s, a, code, pre, blockquote, tg-spoiler, tg-emoji
    std::string text;  // a text node's characters, entities decoded
    std::string href;  // an a's link
    std::vector<HtmlNode> children;
};

class TelegramHtmlError : public std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// The text's tree; TelegramHtmlError says what Telegram would refuse and where.
std::vector<HtmlNode> parse_telegram_html(std::string_view html);
// The message's length as Telegram counts it (UTF-16 units of the visible text).
size_t telegram_text_length(const std::vector<HtmlNode>& nodes);
// True when the visible text has a character other than white space.
bool has_visible_text(const std::vector<HtmlNode>& nodes);
// [{"text": "…"} | {"tag": "b", "children": [...]} | {"tag": "a", "href": "…", "children": [...]}]
void write_html_nodes(JsonWriter& w, const std::vector<HtmlNode>& nodes);

// A URL button's link: http(s)://host…, at most 512 characters, no spaces or control
// characters (as the owner's other links, domain/app_ui.cpp, without tg: and mailto:).
bool is_button_url(std::string_view url);

}  // namespace cabinet
