// Users: create, read, update, delete, look-ups and the user actions.
#include "handlers.hpp"

#include <algorithm>

#include "json_output.hpp"
#include "ids.hpp"
#include "reply.hpp"
#include "user_input.hpp"
#include "user_view.hpp"
#include "util/strings.hpp"

namespace mock {
namespace {

void reply_user(Services& s, Call& c, const User& u, int status = 200) {
    reply(c.resp, [&](JsonWriter& w) { write_api_user(w, u, s.settings.public_url, now_ms()); }, status);
}

User& existing(PanelChange& d, const std::string& uuid) {
    User* u = d.edit(uuid);
    if (!u) throw user_not_found();
    return *u;
}

// Runs `act` on the user of path parameter 0 as one change of the state; answers with
// the user afterwards.
template <class Act>
void change_user(Services& s, Call& c, Act&& act) {
    const std::string& uuid = uuid_param(c, 0, "uuid");
    const int64_t now = now_ms();
    const User after = s.state.change([&](PanelChange& d) {
        User& u = existing(d, uuid);
        act(u, d, now);
        u.updated_at = now;
        return u;
    });
    reply_user(s, c, after);
}

void do_update(Services& s, Call& c, const std::optional<std::string>& path_uuid) {
    const int64_t now = now_ms();
    const auto body = json_body(c);
    const UpdateUserInput in = parse_update_user(body, path_uuid, now);
    if (in.active_internal_squads) check_squads(*in.active_internal_squads);
    const User after = s.state.change([&](PanelChange& d) {
        const User* found = in.uuid ? d.find(*in.uuid) : d.find_by_username(*in.username);
        if (!found) throw user_not_found();
        User* u = d.edit(found->uuid);
        apply_update(*u, in, now);
        return *u;
    });
    reply_user(s, c, after);
}

}  // namespace

// CreateUserCommand: 201 with the new user.
void create_user(Services& s, Call& c) {
    const auto body = json_body(c);
    const CreateUserInput in = parse_create_user(body);
    check_squads(in.active_internal_squads);
    const int64_t now = now_ms();
    const User created = s.state.change([&](PanelChange& d) {
        if (d.find_by_username(in.username)) throw username_taken();
        if (in.short_uuid && d.find_by_short_uuid(*in.short_uuid)) throw short_uuid_taken();
        if (in.uuid && d.find(*in.uuid)) throw PanelError(400, "A018", "Failed to create user");
        return d.add(make_user(in, d.take_id(), now));
    });
    reply_user(s, c, created, 201);
}

// GetAllUsersCommand: {users, total}; ?start=&size= page through them.
void list_users(Services& s, Call& c) {
    int64_t start = 0, size = 25;
    for (auto pair : cabinet::split(c.req.query, '&')) {
        const auto eq = pair.find('=');
        if (eq == std::string_view::npos) continue;
        int64_t v = 0;
        if (!cabinet::parse_int64(pair.substr(eq + 1), v) || v < 0)
            throw ValidationError(std::string(pair.substr(0, eq)), "Expected number");
        if (pair.substr(0, eq) == "start") start = v;
        if (pair.substr(0, eq) == "size") size = v;
    }
    // Not a structured binding: clang before 16 cannot capture one in the lambda below.
    const auto listed = s.state.page(static_cast<size_t>(start), static_cast<size_t>(size));
    const std::vector<UserPtr>& page = listed.first;
    const int64_t total = listed.second;
    const int64_t now = now_ms();
    reply(c.resp, [&](JsonWriter& w) {
        w.StartObject();
        cabinet::write_key(w, "users");
        w.StartArray();
        for (const auto& u : page) write_api_user(w, *u, s.settings.public_url, now);
        w.EndArray();
        put_int(w, "total", total);
        w.EndObject();
    });
}

void get_user(Services& s, Call& c) {
    const std::string& uuid = uuid_param(c, 0, "uuid");
    const UserPtr user = s.state.user(uuid);
    if (!user) throw user_not_found();
    reply_user(s, c, *user);
}

// GetUserByUsernameCommand: the user; none is 404 A063, as on the real panel.
void get_user_by_username(Services& s, Call& c) {
    const UserPtr user = s.state.user_by_username(c.params.at(0));
    if (!user) throw no_user_with_params();
    reply_user(s, c, *user);
}

// GetUserByTelegramIdCommand: an array; none found is 404 A062, as on the real panel.
void get_users_by_telegram_id(Services& s, Call& c) {
    int64_t telegram_id = 0;
    if (!cabinet::parse_int64(c.params.at(0), telegram_id)) throw ValidationError("telegramId", "Expected a number");
    const auto found = s.state.users_by_telegram_id(telegram_id);
    if (found.empty()) throw users_not_found();
    const int64_t now = now_ms();
    reply(c.resp, [&](JsonWriter& w) {
        w.StartArray();
        for (const auto& u : found) write_api_user(w, *u, s.settings.public_url, now);
        w.EndArray();
    });
}

void update_user(Services& s, Call& c) { do_update(s, c, std::nullopt); }

void update_user_by_path(Services& s, Call& c) { do_update(s, c, uuid_param(c, 0, "uuid")); }

// DeleteUserCommand: {isDeleted: true}. The user's link stops working at once.
void delete_user(Services& s, Call& c) {
    const std::string& uuid = uuid_param(c, 0, "uuid");
    s.state.change([&](PanelChange& d) {
        if (!d.find(uuid)) throw user_not_found();
        d.remove(uuid);
    });
    reply(c.resp, [](JsonWriter& w) {
        w.StartObject();
        put_bool(w, "isDeleted", true);
        w.EndObject();
    });
}

void enable_user(Services& s, Call& c) {
    change_user(s, c, [](User& u, PanelChange&, int64_t) {
        if (u.status == "ACTIVE") throw already_enabled();
        u.status = "ACTIVE";
    });
}

void disable_user(Services& s, Call& c) {
    change_user(s, c, [](User& u, PanelChange&, int64_t) {
        if (u.status == "DISABLED") throw already_disabled();
        u.status = "DISABLED";
    });
}

void reset_user_traffic(Services& s, Call& c) {
    change_user(s, c, [](User& u, PanelChange&, int64_t now) {
        u.used_traffic_bytes = 0;
        u.last_traffic_reset_at = now;
        u.last_triggered_threshold = 0;
        if (u.status == "LIMITED") u.status = "ACTIVE";
    });
}

// Test hook POST /__mock/users/{uuid}/traffic {"usedTrafficBytes": N}: the usage a client's
// connections would have made (nothing else in the mock counts traffic).
void set_user_traffic(Services& s, Call& c) {
    const auto body = json_body(c);
    const Fields f(body);
    const int64_t used = f.req_int("usedTrafficBytes");
    if (used < 0) throw ValidationError("usedTrafficBytes", "Expected 0 or more");
    change_user(s, c, [&](User& u, PanelChange&, int64_t) {
        u.lifetime_used_traffic_bytes += std::max<int64_t>(used - u.used_traffic_bytes, 0);
        u.used_traffic_bytes = used;
    });
}

// RevokeUserSubscriptionCommand: new passwords and, unless revokeOnlyPasswords, a new
// shortUuid, so the old subscription link is dead from this answer on.
void revoke_user_subscription(Services& s, Call& c) {
    const auto body = json_body(c, true);
    const RevokeInput in = parse_revoke(body);
    change_user(s, c, [&](User& u, PanelChange& d, int64_t now) {
        if (!in.revoke_only_passwords) {
            if (in.short_uuid && d.find_by_short_uuid(*in.short_uuid)) throw short_uuid_taken();
            u.short_uuid = in.short_uuid.value_or(new_short_uuid());
        }
        u.trojan_password = new_password();
        u.ss_password = new_password();
        u.vless_uuid = new_uuid();
        u.sub_revoked_at = now;
    });
}

// SPEC's per-user spelling of ip-control/drop-connections; same answer.
void drop_user_connections(Services& s, Call& c) {
    const std::string& uuid = uuid_param(c, 0, "uuid");
    if (!s.state.user(uuid)) throw user_not_found();
    reply(c.resp, [](JsonWriter& w) {
        w.StartObject();
        put_bool(w, "eventSent", true);
        w.EndObject();
    });
}

}  // namespace mock
