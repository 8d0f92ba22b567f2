#include "domain/landing.hpp"

#include <regex>
#include <stdexcept>

#include "util/client_json.hpp"
#include "util/strings.hpp"

namespace cabinet {
namespace {

// Limits keep the page laid out as designed and a hand-edited value from bloating every
// GET /public/landing; they are the owner's copy, not user input, so they are generous.
constexpr size_t kMaxFeatures = 12;
constexpr size_t kMaxQuestions = 30;

struct TextLimit {
    size_t min;
    size_t max;
};
constexpr TextLimit kTitle{1, 64}, kGreeting{0, 500}, kHeadline{1, 120}, kSubheadline{0, 300};
constexpr TextLimit kFeatureTitle{1, 80}, kFeatureText{1, 400}, kQuestion{1, 200}, kAnswer{1, 2000};

bool fits(std::string_view s, TextLimit l) { return utf8_length(s) >= l.min && utf8_length(s) <= l.max; }

std::string check_text(std::string_view what, std::string_view v, TextLimit l) {
    if (!fits(v, l))
        throw std::invalid_argument(std::string(what) + " must be " + std::to_string(l.min) + ".." + std::to_string(l.max) +
                                    " characters (got " + std::to_string(utf8_length(v)) + ")");
    return std::string(v);
}

Landing defaults(bool web_cabinet_enabled) {
    Landing l;
    l.headline = "Fast, private VPN in a minute";
    l.subheadline = "One subscription for every device. Pay by card, crypto or Telegram Stars.";
    l.features = {{"Fast servers", "Stable speed for streaming, calls and games."},
                  {"Every device", "iOS, Android, macOS, Windows and Linux with one link."},
                  {"Set up in a minute", "Pick a plan, pay, and add the subscription to your VPN app in one tap."}};
    l.faq = {{"How do I connect?",
              "Choose a plan or start a trial, then open the cabinet and add your subscription to a VPN client app."},
             {"Can I use it on several devices?", "Yes: each plan says how many devices it allows."},
             {"How do I get help?", "Write to support from the cabinet; we answer in the same chat."}};
    l.cta_target = web_cabinet_enabled ? "web" : "bot";
    return l;
}

const rapidjson::Value* string_member(const rapidjson::Value& o, const char* name) {
    const auto it = o.FindMember(name);
    return it != o.MemberEnd() && it->value.IsString() ? &it->value : nullptr;
}

std::string str(const rapidjson::Value& v) { return {v.GetString(), v.GetStringLength()}; }

// An array of objects with exactly two string fields `a` and `b` within their limits; the
// parsed pairs, or an explanation of the first problem.
template <class Item>
std::vector<Item> parse_pairs(const rapidjson::Value& arr, std::string_view what, size_t max_items, const char* a,
                              TextLimit la, const char* b, TextLimit lb) {
    if (!arr.IsArray()) throw std::invalid_argument(std::string(what) + " must be a JSON array");
    if (arr.Size() > max_items)
        throw std::invalid_argument(std::string(what) + " has at most " + std::to_string(max_items) + " items");
    std::vector<Item> out;
    for (rapidjson::SizeType i = 0; i < arr.Size(); ++i) {
        const std::string at = std::string(what) + "[" + std::to_string(i) + "]";
        const auto& o = arr[i];
        if (!o.IsObject() || o.MemberCount() != 2 || !string_member(o, a) || !string_member(o, b))
            throw std::invalid_argument(at + " must be an object {\"" + a + "\": string, \"" + b + "\": string}");
        out.push_back({check_text(at + "." + a, str(*string_member(o, a)), la),
                       check_text(at + "." + b, str(*string_member(o, b)), lb)});
    }
    return out;
}

std::vector<LandingFeature> parse_features(const rapidjson::Value& v) {
    return parse_pairs<LandingFeature>(v, "landing.features", kMaxFeatures, "title", kFeatureTitle, "text", kFeatureText);
}
std::vector<LandingQuestion> parse_faq(const rapidjson::Value& v) {
    return parse_pairs<LandingQuestion>(v, "landing.faq", kMaxQuestions, "q", kQuestion, "a", kAnswer);
}

// The stored value if it passes the same checks as `config set`, else the default.
template <class Parse, class T>
void take(const rapidjson::Value& landing, const char* name, Parse parse, T& out) {
    const auto it = landing.FindMember(name);
    if (it == landing.MemberEnd()) return;
    try {
        out = parse(it->value);
    } catch (const std::exception&) {
    }
}

// [{a: item.*first, b: item.*second}, ...]: features and FAQ items are both pairs of texts.
template <class Item>
void write_pairs(JsonWriter& w, const std::vector<Item>& items, const char* a, std::string Item::*first, const char* b,
                 std::string Item::*second) {
    w.StartArray();
    for (const Item& item : items) {
        w.StartObject();
        w.Key(a);
        write_string(w, item.*first);
        w.Key(b);
        write_string(w, item.*second);
        w.EndObject();
    }
    w.EndArray();
}

std::string json_string(std::string_view s) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    write_string(w, s);
    return buf.GetString();
}

}  // namespace

Landing landing_from_ui(std::string_view ui_json, bool web_cabinet_enabled) {
    Landing l = defaults(web_cabinet_enabled);
    rapidjson::Document doc;
    doc.Parse<kStrictParse>(ui_json.data(), ui_json.size());
    if (doc.HasParseError() || !doc.IsObject()) return l;
    const auto it = doc.FindMember("landing");
    if (it == doc.MemberEnd() || !it->value.IsObject()) return l;
    const rapidjson::Value& v = it->value;
    const auto text = [](TextLimit lim) {
        return [lim](const rapidjson::Value& x) {
            if (!x.IsString() || !fits(str(x), lim)) throw std::invalid_argument("bad text");
            return str(x);
        };
    };
    take(v, "enabled", [](const rapidjson::Value& x) { return x.IsBool() ? x.GetBool() : throw std::invalid_argument("bool"); }, l.enabled);
    take(v, "headline", text(kHeadline), l.headline);
    take(v, "subheadline", text(kSubheadline), l.subheadline);
    take(v, "features", parse_features, l.features);
    take(v, "faq", parse_faq, l.faq);
    std::string cta = l.cta_target;
    take(v, "cta_target", text(TextLimit{3, 3}), cta);
    if (cta == "bot" || (cta == "web" && web_cabinet_enabled)) l.cta_target = cta;
    return l;
}

void write_landing_features(JsonWriter& w, const std::vector<LandingFeature>& features) {
    write_pairs(w, features, "title", &LandingFeature::title, "text", &LandingFeature::text);
}

void write_landing_faq(JsonWriter& w, const std::vector<LandingQuestion>& faq) {
    write_pairs(w, faq, "q", &LandingQuestion::q, "a", &LandingQuestion::a);
}

const std::vector<std::string>& config_keys() {
    static const std::vector<std::string> keys = {
        "template", "title", "greeting", "accent_color", "landing.enabled", "landing.headline",
        "landing.subheadline", "landing.cta_target", "landing.features", "landing.faq"};
    return keys;
}

ConfigChange parse_config_change(std::string_view key, std::string_view value) {
    ConfigChange c;
    if (key == "template") {
        static const std::regex re("^[a-h]$");
        if (!std::regex_match(std::string(value), re)) throw std::invalid_argument("template must be one letter a..h");
        c.column = "template";
        c.value = std::string(value);
    } else if (key == "title") {
        c.column = "title";
        c.value = check_text("title", trim(value), kTitle);
    } else if (key == "greeting") {
        c.column = "greeting";
        c.value = check_text("greeting", value, kGreeting);
    } else if (key == "accent_color") {
        static const std::regex re("^#[0-9a-fA-F]{6}$");
        if (!std::regex_match(std::string(value), re))
            throw std::invalid_argument("accent_color must be a colour like #2481cc");
        c.column = "accent_color";
        c.value = std::string(value);
    } else if (key == "landing.enabled") {
        if (value != "true" && value != "false") throw std::invalid_argument("landing.enabled must be true or false");
        c.value = std::string(value);
    } else if (key == "landing.headline") {
        c.value = json_string(check_text("landing.headline", trim(value), kHeadline));
    } else if (key == "landing.subheadline") {
        c.value = json_string(check_text("landing.subheadline", trim(value), kSubheadline));
    } else if (key == "landing.cta_target") {
        if (value != "web" && value != "bot") throw std::invalid_argument("landing.cta_target must be web or bot");
        c.value = json_string(value);
    } else if (key == "landing.features" || key == "landing.faq") {
        // The client parse: a "\u0000" or a lone surrogate would otherwise reach jsonb, which
        // refuses them (a 500 instead of this 422).
        rapidjson::Document doc;
        std::string dup;
        if (const JsonFault fault = parse_client_json(doc, value, &dup); fault != JsonFault::none)
            throw std::invalid_argument(std::string(key) + " must be valid JSON (an array): " + describe(fault, dup));
        // Stored re-serialized from the parsed items: exactly the checked shape, nothing else.
        c.value = key == "landing.features" ? json_text(write_landing_features, parse_features(doc))
                                            : json_text(write_landing_faq, parse_faq(doc));
    } else {
        std::string list;
        for (const auto& k : config_keys()) list += (list.empty() ? "" : ", ") + k;
        throw std::invalid_argument("unknown key " + std::string(key) + " (one of: " + list + ")");
    }
    if (c.column.empty()) c.landing_key = std::string(key.substr(std::string_view("landing.").size()));
    return c;
}

}  // namespace cabinet
