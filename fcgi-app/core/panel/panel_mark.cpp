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

struct DescriptionParts {
    std::string_view user;  // digits
    std::string_view mark;  // empty, or kMarkDigits lowercase hex digits
};

// The parts of a description panel_description wrote; nullopt for any other text.
std::optional<DescriptionParts> split_description(std::string_view d) {
    if (d.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
    d.remove_prefix(kPrefix.size());
    const size_t label = d.find(kMarkLabel);
    DescriptionParts parts{d.substr(0, label), {}};
    if (!all_of(parts.user, "0123456789")) return std::nullopt;
    if (label == std::string_view::npos) return parts;
    parts.mark = d.substr(label + kMarkLabel.size());
    if (parts.mark.size() != kMarkDigits || !all_of(parts.mark, "0123456789abcdef")) return std::nullopt;
    return parts;
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
    const auto parts = split_description(description);
    return parts ? parts->mark : std::string_view{};
}

std::optional<int64_t> panel_user_of(std::string_view description) {
    const auto parts = split_description(description);
    int64_t id = 0;
    if (!parts || !parse_int64(parts->user, id)) return std::nullopt;
    return id;
}

}  // namespace cabinet
