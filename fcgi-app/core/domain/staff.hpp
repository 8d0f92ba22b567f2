#pragma once
// The shop's staff and what each role is for (the owner's cabinet, /admin/). Roles come from
// settings: ADMIN_IDS are owners, SUPPORT_IDS support, VIEWER_IDS viewers; an id in more
// than one list has the widest role. Which routes a role may call is the route table's
// AuthKind (http/router.hpp), checked in one place (app/authenticate.cpp).
#include <string_view>

namespace cabinet {

enum class StaffRole {
    none,
    owner,    // everything: catalogue, prices, settings, money, maintenance
    support,  // customers and support work; no money, no settings
    viewer,   // sees every section, changes nothing (demos, an accountant)
};

constexpr std::string_view staff_role_name(StaffRole r) {
    switch (r) {
        case StaffRole::owner: return "owner";
        case StaffRole::support: return "support";
        case StaffRole::viewer: return "viewer";
        case StaffRole::none: break;
    }
    return "none";
}

}  // namespace cabinet
