// Who the owner's cabinet is talking to, so its pages show the sections and controls of the
// caller's role (the server still refuses every other route with 403: routes.cpp).
//   GET /api/admin/whoami → {role: owner|support|viewer, user_id, telegram_id, first_name}
#include "api/handlers.hpp"

namespace cabinet::api {

void get_admin_whoami(Exchange& ex) {
    const User& u = ex.caller().user;
    JsonObject(ex.resp.json())
        .put("role", staff_role_name(ex.staff_role))
        .put("user_id", u.id)
        .put("telegram_id", u.telegram_id)
        .put("first_name", u.first_name);
}

}  // namespace cabinet::api
