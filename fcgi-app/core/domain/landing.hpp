#pragma once
// The public landing page's copy and the owner's edits of the app config (table app_config:
// theme columns, and the landing under the `ui` JSONB's "landing" key). Pure: no I/O.
#include <string>
#include <string_view>
#include <vector>

#include "util/json.hpp"

namespace cabinet {

struct LandingFeature {
    std::string title;
    std::string text;
};

struct LandingQuestion {
    std::string q;
    std::string a;
};

struct Landing {
    bool enabled = true;
    std::string headline;
    std::string subheadline;
    std::vector<LandingFeature> features;
    std::vector<LandingQuestion> faq;
    std::string cta_target;  // "web" | "bot"
};

// The landing stored in app_config.ui ("landing" object). Each absent or malformed field
// falls back to its default (English copy; cta_target "web" when the web cabinet is on,
// else "bot"), and "web" is never offered while the web cabinet is off: `ui` may have been
// edited by hand, and the page must render anyway.
Landing landing_from_ui(std::string_view ui_json, bool web_cabinet_enabled);

void write_landing_features(JsonWriter& w, const std::vector<LandingFeature>& features);
void write_landing_faq(JsonWriter& w, const std::vector<LandingQuestion>& faq);

// One `cabinetctl config set KEY VALUE`, checked: either a theme column or a key under
// ui.landing, with the value to store (column text, or the JSON for ui.landing).
struct ConfigChange {
    std::string column;       // title | greeting | accent_color | template; empty for a landing key
    std::string landing_key;  // headline | subheadline | cta_target | enabled | features | faq
    std::string value;
};
// Throws std::invalid_argument saying what is wrong with `key` or `value`.
ConfigChange parse_config_change(std::string_view key, std::string_view value);
// Every key `config set` accepts, in the order `config get` prints them.
const std::vector<std::string>& config_keys();

}  // namespace cabinet
