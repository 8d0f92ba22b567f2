#pragma once
// The owner's customisation of the mini-app (app_config.ui without its "landing" key;
// SPEC-GAPS "app.ui"): checked when written, so what is stored is only what the pages
// understand. Unknown keys and bad values are dropped, never stored; the pages still treat
// every field as text and check links again. Pure: no I/O.
#include <string>
#include <string_view>

namespace cabinet {

// The cleaned object as JSON text (never with "landing": that is domain/landing.hpp's).
// Throws std::invalid_argument when `json` is not a JSON object.
std::string clean_app_ui(std::string_view json);

// The stored ui without its "landing" key, as JSON text ("{}" when it is not an object).
std::string app_ui_without_landing(std::string_view stored_ui_json);

}  // namespace cabinet
