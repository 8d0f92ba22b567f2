// Who the owner's cabinet is talking to, so its pages show the sections and controls of the
// caller's role (the server still refuses every other route with 403: routes.cpp).
//   GET /api/admin/whoami → {role: owner|support|viewer, user_id, telegram_id, first_name}
#include "api/handlers.hpp"
#include "util/json_fields.hpp"

namespace cabinet::api {

void get_admin_whoami(Exchange& ex) {
    const User& u = ex.caller().user;
    auto& w = ex.resp.json();
    w.StartObject();
    put_text(w, "role", staff_role_name(ex.staff_role));
    put_int(w, "user_id", u.id);
    put_int(w, "telegram_id", u.telegram_id);
    put_text(w, "first_name", u.first_name);
    w.EndObject();
}

}  // namespace cabinet::api
