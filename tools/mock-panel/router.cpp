#include "router.hpp"

#include "util/strings.hpp"

namespace mock {
namespace {

std::vector<std::string> pattern_segments(std::string_view pattern) {
    std::vector<std::string> out;
    for (auto seg : cabinet::split(pattern.substr(1), '/')) {
        const bool placeholder = seg.size() > 2 && seg.front() == '{' && seg.back() == '}';
        out.emplace_back(placeholder ? "{}" : std::string(seg));
    }
    return out;
}

}  // namespace

Router::Router(std::vector<Route> routes) {
    for (const auto& r : routes) routes_.push_back({r, pattern_segments(r.pattern)});
}

const Route* Router::match(std::string_view method, std::string_view raw_path, std::vector<std::string>& params) const {
    if (raw_path.empty() || raw_path.front() != '/') return nullptr;
    if (raw_path.size() > 1 && raw_path.back() == '/') raw_path.remove_suffix(1);
    std::vector<std::string> segments;
    for (auto seg : cabinet::split(raw_path.substr(1), '/')) {
        auto decoded = cabinet::percent_decode(seg);
        if (!decoded) return nullptr;
        segments.push_back(std::move(*decoded));
    }
    for (const auto& c : routes_) {
        if (c.route.method != method || c.segments.size() != segments.size()) continue;
        params.clear();
        bool ok = true;
        for (size_t i = 0; i < segments.size() && ok; ++i) {
            if (c.segments[i] == "{}") {
                ok = !segments[i].empty();
                params.push_back(segments[i]);
            } else {
                ok = c.segments[i] == segments[i];
            }
        }
        if (ok) return &c.route;
    }
    return nullptr;
}

}  // namespace mock
