#include "panel/panel_mark.hpp"

#include "util/strings.hpp"

namespace cabinet {
namespace {

constexpr std::string_view kPrefix = "cabinet user ";
constexpr std::string_view kMarkLabel = "; write ";
constexpr size_t kMarkDigits = 16;

bool all_of(std::string_view s, std::string_view allowed) {
    return !s.empty() && s.find_first_not_of(allowed) == std::string_view::npos;
}

}  // namespace

std::string new_panel_mark() { return random_hex(kMarkDigits / 2); }

std::string panel_description(int64_t user_id, std::string_view mark) {
    std::string out(kPrefix);
    out += std::to_string(user_id);
    if (!mark.empty()) {
        out += kMarkLabel;
        out += mark;
    }
    return out;
}

std::string_view panel_mark_of(std::string_view description) {
    if (description.substr(0, kPrefix.size()) != kPrefix) return {};
    description.remove_prefix(kPrefix.size());
    const size_t label = description.find(kMarkLabel);
    if (label == std::string_view::npos || !all_of(description.substr(0, label), "0123456789")) return {};
    const std::string_view mark = description.substr(label + kMarkLabel.size());
    if (mark.size() != kMarkDigits || !all_of(mark, "0123456789abcdef")) return {};
    return mark;
}

}  // namespace cabinet
