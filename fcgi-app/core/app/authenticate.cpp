#include "app/authenticate.hpp"

#include <algorithm>

#include "app/account_reads.hpp"
#include "errors.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet {
namespace {

bool scheme_is(std::string_view header, std::string_view scheme, std::string_view& rest) {
    if (header.size() <= scheme.size() || header[scheme.size()] != ' ') return false;
    if (to_lower(header.substr(0, scheme.size())) != scheme) return false;
    rest = trim(header.substr(scheme.size() + 1));
    return true;
}

Account from_init_data(Exchange& ex, std::string_view raw) {
    const InitData data = ex.shared.init_data.verify(raw, unix_now());
    return telegram_caller(ex, data.user, data.start_param);
}

Account from_jwt(Exchange& ex, std::string_view token) {
    AccessClaims claims = ex.shared.jwt.verify(token, unix_now());
    auto account = account_by_id(ex, claims.user_id);
    if (!account) throw unauthorized("token user does not exist");
    // Tokens from before session ids name none; they expired long ago.
    if (!claims.session_id.empty() && session_ended(ex, claims.user_id, claims.session_id))
        throw unauthorized("this session has ended; please sign in again", "session_expired");
    ex.session_id = std::move(claims.session_id);
    return std::move(*account);
}

}  // namespace

bool admits(AuthKind kind, StaffRole role) {
    switch (kind) {
        case AuthKind::owner: return role == StaffRole::owner;
        case AuthKind::owner_viewer: return role == StaffRole::owner || role == StaffRole::viewer;
        case AuthKind::owner_support: return role == StaffRole::owner || role == StaffRole::support;
        case AuthKind::staff: return role != StaffRole::none;
        default: return false;
    }
}

void authenticate(Exchange& ex, AuthKind kind) {
    const std::string_view header = trim(ex.req.authorization);
    if (header.empty()) throw unauthorized("authorization required");
    const bool tma_ok = kind == AuthKind::tma || kind == AuthKind::tma_or_jwt || is_staff_kind(kind);
    const bool jwt_ok = kind == AuthKind::jwt || kind == AuthKind::tma_or_jwt || is_staff_kind(kind);

    std::string_view credential;
    if (scheme_is(header, "tma", credential)) {
        if (!tma_ok) throw unauthorized("this endpoint needs a web-cabinet token");
        ex.account = from_init_data(ex, credential);
    } else if (scheme_is(header, "bearer", credential)) {
        if (!jwt_ok) throw unauthorized("this endpoint needs Telegram init data");
        // Bearer tokens come only from the web cabinet: switching it off ends them too, not
        // only new logins (issue 13).
        if (!ex.settings().web_cabinet_enabled) throw forbidden("web cabinet is disabled", "web_cabinet_off");
        ex.account = from_jwt(ex, credential);
        ex.web_session = true;
    } else {
        throw unauthorized("unsupported authorization scheme");
    }

    const User& u = ex.account->user;
    if (u.is_blocked) throw forbidden("user is blocked", "user_blocked");
    if (is_staff_kind(kind)) {
        ex.staff_role = u.telegram_id ? ex.settings().staff_role(*u.telegram_id) : StaffRole::none;
        if (ex.staff_role == StaffRole::none) throw forbidden("admins only");
        if (!admits(kind, ex.staff_role))
            throw forbidden("the " + std::string(staff_role_name(ex.staff_role)) + " role may not do this");
    }
}

}  // namespace cabinet
