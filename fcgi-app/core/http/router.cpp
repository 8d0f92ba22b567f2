#include "http/router.hpp"

#include "errors.hpp"
#include "util/strings.hpp"

namespace cabinet {
namespace {

bool is_placeholder(std::string_view seg) { return seg.size() > 2 && seg.front() == '{' && seg.back() == '}'; }

// Split a raw path into decoded segments, refusing anything that could alias another
// path: empty path, dot segments, %2F, NUL, bad escapes; and bytes that are not UTF-8 (a
// path parameter reaches PostgreSQL and the panel).
bool decode_segments(std::string_view raw, std::vector<std::string>& out) {
    if (raw.empty() || raw.front() != '/') return false;
    for (auto seg : split(raw.substr(1), '/')) {
        auto decoded = percent_decode(seg);
        if (!decoded || *decoded == "." || *decoded == ".." || !valid_utf8(*decoded)) return false;
        if (decoded->find('/') != std::string::npos || decoded->find('\0') != std::string::npos) return false;
        out.push_back(std::move(*decoded));
    }
    return true;
}

}  // namespace

Router::Router(std::vector<Route> routes) : routes_(std::move(routes)) {
    for (const auto& r : routes_) {
        const std::string pattern(r.pattern);
        bool dynamic = false;
        Pattern p;
        for (auto seg : split(std::string_view(pattern).substr(1), '/')) {
            dynamic = dynamic || is_placeholder(seg);
            p.segments.emplace_back(is_placeholder(seg) ? "{}" : std::string(seg));
        }
        if (!dynamic) {
            static_[pattern].routes.push_back(&r);
            continue;
        }
        bool merged = false;
        for (auto& d : dynamic_)
            if (d.segments == p.segments) { d.routes.push_back(&r); merged = true; }
        if (!merged) {
            p.routes.push_back(&r);
            dynamic_.push_back(std::move(p));
        }
    }
}

const Router::Pattern* Router::find(std::string_view raw_path, std::vector<std::string>& params) const {
    // Fast path: a plain path that is in the static table as it is.
    if (raw_path.find('%') == std::string_view::npos && raw_path.find("/.") == std::string_view::npos) {
        if (auto it = static_.find(std::string(raw_path)); it != static_.end()) return &it->second;
    }
    std::vector<std::string> segments;
    if (!decode_segments(raw_path, segments)) throw not_found("not found");
    // An escaped spelling of a static path is that path ("/api/admin/maintenance/m%6Fde"
    // is "mode", not the {action} placeholder): one route per decoded path, no aliases.
    std::string decoded;
    for (const auto& s : segments) decoded.append("/").append(s);
    if (auto it = static_.find(decoded); it != static_.end()) return &it->second;
    for (const auto& d : dynamic_) {
        if (d.segments.size() != segments.size()) continue;
        bool ok = true;
        params.clear();
        for (size_t i = 0; i < segments.size() && ok; ++i) {
            if (d.segments[i] == "{}") {
                if (segments[i].empty()) ok = false;
                else params.push_back(segments[i]);
            } else {
                ok = d.segments[i] == segments[i];
            }
        }
        if (ok) return &d;
    }
    return nullptr;
}

RouteMatch Router::match(std::string_view method, std::string_view raw_path) const {
    RouteMatch m;
    const Pattern* p = find(raw_path, m.params);
    if (!p) throw not_found("not found");
    for (const Route* r : p->routes) {
        if (r->method == method) {
            m.route = r;
            return m;
        }
    }
    ApiError e(405, "method not allowed");
    e.headers.emplace_back("Allow", methods_for(raw_path));
    throw e;
}

std::string Router::methods_for(std::string_view raw_path) const {
    std::vector<std::string> params;
    const Pattern* p = nullptr;
    try {
        p = find(raw_path, params);
    } catch (const ApiError&) {
        return {};
    }
    std::string out;
    if (!p) return out;
    for (const Route* r : p->routes) {
        if (!out.empty()) out += ", ";
        out += r->method;
    }
    return out;
}

}  // namespace cabinet
