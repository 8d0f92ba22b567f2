#include "http/query.hpp"

#include "errors.hpp"
#include "util/strings.hpp"

namespace cabinet {

std::optional<std::string> query_param(std::string_view query, std::string_view name) {
    for (auto part : split(query, '&')) {
        const auto eq = part.find('=');
        if (part.substr(0, eq) != name) continue;
        if (eq == std::string_view::npos) return std::string();
        auto v = form_decode(part.substr(eq + 1));
        // Not UTF-8: it could never match anything of ours, and PostgreSQL would refuse it.
        if (!v || !valid_utf8(*v)) throw bad_request(std::string(name) + " is not validly encoded");
        return v;
    }
    return std::nullopt;
}

std::optional<int64_t> query_int(std::string_view query, std::string_view name, int64_t min, int64_t max) {
    const auto text = query_param(query, name);
    if (!text) return std::nullopt;
    int64_t v = 0;
    if (!parse_int64(*text, v) || v < min || v > max)
        throw bad_request(std::string(name) + " must be an integer between " + std::to_string(min) + " and " +
                          std::to_string(max));
    return v;
}

std::optional<std::string> cookie_value(std::string_view header, std::string_view name) {
    while (!header.empty()) {
        const size_t end = header.find(';');
        std::string_view pair = header.substr(0, end);
        header = end == std::string_view::npos ? std::string_view() : header.substr(end + 1);
        while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
        const size_t eq = pair.find('=');
        if (eq != std::string_view::npos && pair.substr(0, eq) == name) return std::string(pair.substr(eq + 1));
    }
    return std::nullopt;
}

}  // namespace cabinet
