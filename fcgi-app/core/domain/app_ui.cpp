#include "domain/app_ui.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

#include "util/json_object.hpp"
#include "util/strings.hpp"

namespace cabinet {
namespace {

using Value = rapidjson::Value;

constexpr std::array<std::string_view, 5> kSections = {"status", "plans", "referral", "proxy", "custom"};
constexpr std::array<std::string_view, 6> kButtons = {"renew", "share", "open_app", "get_link", "connect_proxy", "trial"};
constexpr std::array<std::string_view, 3> kScreens = {"home", "connect", "account"};
constexpr size_t kMaxItems = 16;
constexpr size_t kMaxLink = 512;
constexpr int64_t kScaleMin = 85, kScaleMax = 115;

template <size_t N>
bool one_of(const std::array<std::string_view, N>& set, std::string_view v) {
    for (auto s : set)
        if (s == v) return true;
    return false;
}

// A string member of at most `max` characters; nullptr when absent, not a string or longer.
const Value* text(const Value& obj, const char* key, size_t max) {
    const auto it = obj.FindMember(key);
    if (it == obj.MemberEnd() || !it->value.IsString()) return nullptr;
    const std::string_view v(it->value.GetString(), it->value.GetStringLength());
    return utf8_length(v) <= max ? &it->value : nullptr;
}

std::string_view view(const Value* v) { return v ? std::string_view(v->GetString(), v->GetStringLength()) : ""; }

bool hex_digit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// #RGB or #RRGGBB, else nothing.
bool is_color(std::string_view c) {
    if ((c.size() != 4 && c.size() != 7) || c[0] != '#') return false;
    for (size_t i = 1; i < c.size(); ++i)
        if (!hex_digit(c[i])) return false;
    return true;
}

// https, http, tg or mailto, at most 512 characters, no spaces or control characters.
bool is_link(std::string_view u) {
    if (u.size() > kMaxLink) return false;
    if (!starts_with(u, "https://") && !starts_with(u, "http://") && !starts_with(u, "tg://") && !starts_with(u, "mailto:"))
        return false;
    for (unsigned char c : u)
        if (c <= ' ' || c == 0x7f) return false;
    return true;
}

// An id of letters, digits, '-' and '_' (≤ 32), else one made from the position.
std::string item_id(const Value& obj, const char* prefix, size_t index) {
    const std::string_view id = view(text(obj, "id", 32));
    bool ok = !id.empty();
    for (char c : id)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_')) ok = false;
    return ok ? std::string(id) : prefix + std::to_string(index + 1);
}

// A colour, or null.
std::optional<std::string_view> color_of(const Value& obj) {
    const std::string_view c = view(text(obj, "color", 7));
    if (is_color(c)) return c;
    return std::nullopt;
}

// A link, or null.
std::optional<std::string_view> link_or_null(std::string_view url) {
    if (is_link(url)) return url;
    return std::nullopt;
}

std::string_view screen_of(const Value& obj) {
    const std::string_view s = view(text(obj, "screen", 16));
    return one_of(kScreens, s) ? s : "home";
}

// The member `key` of `doc` when it is of `type`, else nullptr.
const Value* member_of(const Value& doc, const char* key, rapidjson::Type type) {
    const auto it = doc.FindMember(key);
    return it != doc.MemberEnd() && it->value.GetType() == type ? &it->value : nullptr;
}

// Each known name once, in the given order.
void section_list(JsonObject& ui, const Value& doc, const char* key) {
    const Value* list = member_of(doc, key, rapidjson::kArrayType);
    if (!list) return;
    std::vector<std::string_view> seen;
    for (const auto& v : list->GetArray()) {
        if (!v.IsString()) continue;
        const std::string_view s(v.GetString(), v.GetStringLength());
        if (one_of(kSections, s) && std::find(seen.begin(), seen.end(), s) == seen.end()) seen.push_back(s);
    }
    auto out = ui.array(key);
    for (auto s : seen) out.add(s);
}

void buttons(JsonObject& ui, const Value& doc) {
    const Value* given = member_of(doc, "buttons", rapidjson::kObjectType);
    if (!given) return;
    auto out = ui.object("buttons");
    for (auto key : kButtons) {
        const auto b = given->FindMember(std::string(key).c_str());
        if (b == given->MemberEnd() || !b->value.IsObject()) continue;
        out.object(key).put("text", trim(view(text(b->value, "text", 32)))).put("color", color_of(b->value));
    }
}

// The array `key` of at most kMaxItems objects: `write(out, item, index)` writes the item
// at `index` among those kept, or nothing and false when it is not worth keeping.
template <class Write>
void item_list(JsonObject& ui, const Value& doc, const char* key, Write&& write) {
    const Value* given = member_of(doc, key, rapidjson::kArrayType);
    if (!given) return;
    auto out = ui.array(key);
    size_t kept = 0;
    for (const auto& item : given->GetArray()) {
        if (kept == kMaxItems) break;
        if (item.IsObject() && write(out, item, kept)) ++kept;
    }
}

// One block of the owner's text; false when its title, text and button label are all blank.
bool write_block(JsonArray& out, const Value& b, size_t index) {
    const std::string_view title = view(text(b, "title", 64)), body = view(text(b, "text", 1000)),
                           label = view(text(b, "button_label", 32));
    if (trim(title).empty() && trim(body).empty() && trim(label).empty()) return false;
    const std::string_view url = view(text(b, "url", kMaxLink));
    auto o = out.object();
    o.put("id", item_id(b, "block", index)).put("screen", screen_of(b));
    o.put("title", title).put("text", body).put("icon", view(text(b, "icon", 8)));
    o.put("url", link_or_null(url)).put("button_label", label).put("color", color_of(b));
    return true;
}

// One more link button; false without a label or a link.
bool write_extra_button(JsonArray& out, const Value& b, size_t index) {
    const std::string_view label = view(text(b, "label", 32)), url = view(text(b, "url", kMaxLink));
    if (trim(label).empty() || !is_link(url)) return false;
    const std::string_view style = view(text(b, "style", 16));
    auto o = out.object();
    o.put("id", item_id(b, "button", index)).put("screen", screen_of(b));
    o.put("label", label).put("url", url).put("color", color_of(b));
    o.put("style", style == "ghost" ? "ghost" : "primary");
    return true;
}

}  // namespace

std::string clean_app_ui(std::string_view json) {
    SmallDocument doc;
    doc.Parse<kStrictParse>(json.data(), json.size());
    if (doc.HasParseError() || !doc.IsObject()) throw std::invalid_argument("ui must be a JSON object");
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    {
        JsonObject ui(w);
        if (const auto s = doc.FindMember("scale"); s != doc.MemberEnd() && s->value.IsNumber()) {
            const double v = s->value.GetDouble();
            ui.put("scale", v < kScaleMin ? kScaleMin : v > kScaleMax ? kScaleMax : static_cast<int64_t>(v));
        }
        // The account menu's support entry (the original's key; app/screens/account.js).
        if (const auto s = doc.FindMember("show_support"); s != doc.MemberEnd() && s->value.IsBool())
            ui.put("show_support", s->value.GetBool());
        section_list(ui, doc, "sections");
        section_list(ui, doc, "hidden");
        buttons(ui, doc);
        item_list(ui, doc, "blocks", write_block);
        item_list(ui, doc, "buttons_extra", write_extra_button);
    }
    return {buf.GetString(), buf.GetSize()};
}

std::string app_ui_without_landing(std::string_view stored_ui_json) {
    SmallDocument doc;
    doc.Parse<kStrictParse>(stored_ui_json.data(), stored_ui_json.size());
    if (doc.HasParseError() || !doc.IsObject()) return "{}";
    doc.RemoveMember("landing");
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    doc.Accept(w);
    return {buf.GetString(), buf.GetSize()};
}

}  // namespace cabinet
