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
        if (!v) throw bad_request(std::string(name) + " is not validly encoded");
        return v;
    }
    return std::nullopt;
}

}  // namespace cabinet
