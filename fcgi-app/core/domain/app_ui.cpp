#include "domain/app_ui.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "util/json.hpp"
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

void put(JsonWriter& w, const char* key, std::string_view v) {
    w.Key(key);
    write_string(w, v);
}

void put_color(JsonWriter& w, const Value& obj) {
    const std::string_view c = view(text(obj, "color", 7));
    w.Key("color");
    if (is_color(c)) write_string(w, c);
    else w.Null();
}

std::string_view screen_of(const Value& obj) {
    const std::string_view s = view(text(obj, "screen", 16));
    return one_of(kScreens, s) ? s : "home";
}

// Each known name once, in the given order.
void section_list(JsonWriter& w, const Value& doc, const char* key) {
    const auto it = doc.FindMember(key);
    if (it == doc.MemberEnd() || !it->value.IsArray()) return;
    std::vector<std::string_view> seen;
    for (const auto& v : it->value.GetArray()) {
        if (!v.IsString()) continue;
        const std::string_view s(v.GetString(), v.GetStringLength());
        if (one_of(kSections, s) && std::find(seen.begin(), seen.end(), s) == seen.end()) seen.push_back(s);
    }
    w.Key(key);
    w.StartArray();
    for (auto s : seen) write_string(w, s);
    w.EndArray();
}

void buttons(JsonWriter& w, const Value& doc) {
    const auto it = doc.FindMember("buttons");
    if (it == doc.MemberEnd() || !it->value.IsObject()) return;
    w.Key("buttons");
    w.StartObject();
    for (auto key : kButtons) {
        const auto b = it->value.FindMember(std::string(key).c_str());
        if (b == it->value.MemberEnd() || !b->value.IsObject()) continue;
        write_key(w, key);
        w.StartObject();
        put(w, "text", trim(view(text(b->value, "text", 32))));
        put_color(w, b->value);
        w.EndObject();
    }
    w.EndObject();
}

void blocks(JsonWriter& w, const Value& doc) {
    const auto it = doc.FindMember("blocks");
    if (it == doc.MemberEnd() || !it->value.IsArray()) return;
    w.Key("blocks");
    w.StartArray();
    size_t kept = 0;
    for (const auto& b : it->value.GetArray()) {
        if (kept == kMaxItems) break;
        if (!b.IsObject()) continue;
        const std::string_view title = view(text(b, "title", 64)), body = view(text(b, "text", 1000)),
                               label = view(text(b, "button_label", 32));
        if (trim(title).empty() && trim(body).empty() && trim(label).empty()) continue;
        const std::string_view url = view(text(b, "url", kMaxLink));
        w.StartObject();
        put(w, "id", item_id(b, "block", kept));
        put(w, "screen", screen_of(b));
        put(w, "title", title);
        put(w, "text", body);
        put(w, "icon", view(text(b, "icon", 8)));
        w.Key("url");
        if (is_link(url)) write_string(w, url);
        else w.Null();
        put(w, "button_label", label);
        put_color(w, b);
        w.EndObject();
        ++kept;
    }
    w.EndArray();
}

void extra_buttons(JsonWriter& w, const Value& doc) {
    const auto it = doc.FindMember("buttons_extra");
    if (it == doc.MemberEnd() || !it->value.IsArray()) return;
    w.Key("buttons_extra");
    w.StartArray();
    size_t kept = 0;
    for (const auto& b : it->value.GetArray()) {
        if (kept == kMaxItems) break;
        if (!b.IsObject()) continue;
        const std::string_view label = view(text(b, "label", 32)), url = view(text(b, "url", kMaxLink));
        if (trim(label).empty() || !is_link(url)) continue;
        const std::string_view style = view(text(b, "style", 16));
        w.StartObject();
        put(w, "id", item_id(b, "button", kept));
        put(w, "screen", screen_of(b));
        put(w, "label", label);
        put(w, "url", url);
        put_color(w, b);
        put(w, "style", style == "ghost" ? "ghost" : "primary");
        w.EndObject();
        ++kept;
    }
    w.EndArray();
}

}  // namespace

std::string clean_app_ui(std::string_view json) {
    SmallDocument doc;
    doc.Parse<kStrictParse>(json.data(), json.size());
    if (doc.HasParseError() || !doc.IsObject()) throw std::invalid_argument("ui must be a JSON object");
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    w.StartObject();
    if (const auto s = doc.FindMember("scale"); s != doc.MemberEnd() && s->value.IsNumber()) {
        const double v = s->value.GetDouble();
        w.Key("scale");
        w.Int64(v < kScaleMin ? kScaleMin : v > kScaleMax ? kScaleMax : static_cast<int64_t>(v));
    }
    // The account menu's support entry (the original's key; app/screens/account.js).
    if (const auto s = doc.FindMember("show_support"); s != doc.MemberEnd() && s->value.IsBool()) {
        w.Key("show_support");
        w.Bool(s->value.GetBool());
    }
    section_list(w, doc, "sections");
    section_list(w, doc, "hidden");
    buttons(w, doc);
    blocks(w, doc);
    extra_buttons(w, doc);
    w.EndObject();
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
