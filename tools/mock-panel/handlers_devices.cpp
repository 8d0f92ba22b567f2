// HWID devices of a user. Every user starts with two demo devices (user.hpp); they stay
// the same across calls until a client deletes them.
#include "handlers.hpp"
#include "json_output.hpp"
#include "ids.hpp"
#include "json_input.hpp"
#include "reply.hpp"
#include "user_view.hpp"

namespace mock {
namespace {

std::string body_user_uuid(const Fields& f) {
    std::string uuid = f.req_string("userUuid");
    if (!is_uuid(uuid)) throw ValidationError("userUuid", "Invalid uuid");
    return uuid;
}

void reply_devices(Call& c, const User& u) {
    reply(c.resp, [&](JsonWriter& w) { write_device_list(w, u); });
}

}  // namespace

// GetUserHwidDevicesCommand: {total, devices}.
void get_user_devices(Services& s, Call& c) {
    const std::string& uuid = uuid_param(c, 0, "userUuid");
    const UserPtr user = s.state.user(uuid);
    if (!user) throw user_not_found();
    reply_devices(c, *user);
}

// DeleteUserHwidDeviceCommand: body {userUuid, hwid}; answers with the devices left.
void delete_user_device(Services& s, Call& c) {
    const auto body = json_body(c);
    const Fields f(body);
    const std::string uuid = body_user_uuid(f);
    const std::string hwid = f.req_string("hwid");
    const User after = s.state.change([&](PanelChange& d) {
        User* u = d.edit(uuid);
        if (!u) throw user_not_found();
        if (std::erase_if(u->devices, [&](const Device& dev) { return dev.hwid == hwid; }) == 0) throw device_not_found();
        return *u;
    });
    reply_devices(c, after);
}

// DeleteAllUserHwidDevicesCommand: body {userUuid}.
void delete_all_user_devices(Services& s, Call& c) {
    const auto body = json_body(c);
    const std::string uuid = body_user_uuid(Fields(body));
    const User after = s.state.change([&](PanelChange& d) {
        User* u = d.edit(uuid);
        if (!u) throw user_not_found();
        u->devices.clear();
        return *u;
    });
    reply_devices(c, after);
}

}  // namespace mock
