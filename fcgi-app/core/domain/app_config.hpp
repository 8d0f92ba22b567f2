#pragma once
// The owner's look of the mini-app and web cabinet (table app_config, one row).
#include <cstdint>
#include <optional>
#include <string>

namespace cabinet {

struct ThemeConfig {
    std::string template_id;
    std::string title;
    std::string greeting;
    std::string accent_color;
    std::optional<std::string> mtproto_proxy;
    std::string ui_json = "{}";  // free-form object, passed through as stored
    int64_t published_at = 0;
};

}  // namespace cabinet
