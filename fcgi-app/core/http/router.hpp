#pragma once
// Exact route table: method + path pattern -> handler and its auth kind. Static paths are
// found with one hash lookup; patterns with {placeholders} (few) by segment comparison.
// Nothing is compiled or parsed per request beyond splitting the path.
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace cabinet {

struct Exchange;

// Who may call a route. The first four name a credential; the staff kinds (the owner's
// cabinet, /api/admin/*) take either credential of a staff member and name the roles
// admitted (domain/staff.hpp; app/authenticate.cpp admits(), everyone else 403):
enum class AuthKind {
    none,
    tma,
    jwt,
    tma_or_jwt,
    owner,          // owners only (ADMIN_IDS): every change but support work
    owner_viewer,   // owners and viewers: money, settings and the audit log, read
    owner_support,  // owners and support: customers and support work
    staff,          // any staff role: reads that every role may see
};
// Whether a route is one of the owner's cabinet.
constexpr bool is_staff_kind(AuthKind k) { return k >= AuthKind::owner; }

using Handler = void (*)(Exchange&);

struct Route {
    std::string_view method;
    std::string_view pattern;  // "/api/cabinet/devices/{hwid}"
    AuthKind auth;
    Handler handler;
    // Its writes change nothing an account read shows (sign-in tokens, a payment marked paid
    // for the worker to fulfil), so they do not flush the pool's account caches
    // (app/dispatch.cpp). Others' notifications still reach them through the triggers.
    bool leaves_accounts = false;
    // An authenticated request that may merge its caller with another account (linking):
    // its writes flush every cached account of the host, not only the caller's.
    bool merges_accounts = false;
};

struct RouteMatch {
    const Route* route = nullptr;     // null: no route for this method
    std::string allowed_methods;      // set when the path exists under other methods (405)
    std::vector<std::string> params;  // decoded placeholder values
};

class Router {
public:
    explicit Router(std::vector<Route> routes);
    // Throws ApiError 404 for an unknown path or a hostile one (dot segments, encoded
    // slashes, bad escapes) and 405 (with Allow) for a known path under another method.
    RouteMatch match(std::string_view method, std::string_view raw_path) const;
    // Methods registered for a path, for CORS preflight; empty when none.
    std::string methods_for(std::string_view raw_path) const;
    // The table as given, and a route's position in it (metrics count by position).
    const std::vector<Route>& routes() const { return routes_; }
    size_t index_of(const Route* r) const { return static_cast<size_t>(r - routes_.data()); }

private:
    struct Pattern {
        std::vector<std::string> segments;  // "{}" marks a placeholder
        std::vector<const Route*> routes;
    };
    const Pattern* find(std::string_view raw_path, std::vector<std::string>& params) const;

    std::vector<Route> routes_;
    std::unordered_map<std::string, Pattern> static_;
    std::vector<Pattern> dynamic_;
};

}  // namespace cabinet
