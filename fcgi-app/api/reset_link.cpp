// POST /api/cabinet/subscription/reset-devices (alias reset-link): revoke the subscription
// link on the panel (the old one dies at once) and drop connections. The new link is stored
// whatever the drop does: after the revoke only the new one works, and a failed drop
// leaves sessions that end when their client next fetches the dead link. Once per 10 minutes
// per user, enforced in PostgreSQL under the user's row lock so it holds without Redis;
// nginx's limit_req only shields against floods.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "api/connection_links.hpp"
#include "api/handlers.hpp"
#include "db/accounts_repo.hpp"
#include "db/prepared.hpp"
#include "domain/subscription_status.hpp"
#include "errors.hpp"

namespace cabinet::api {
namespace {
constexpr int64_t kResetInterval = 600;
}

void post_reset_link(Exchange& ex) {
    const std::string url = ex.io.db.transact([&](pqxx::work& txn) {
        // link_reset_at as read after the lock: of N parallel calls the first rotates and the
        // others, waiting here, see its commit and get 429 without calling the panel.
        const LockedAccount locked = lock_account(txn, ex.caller().user.id);
        const int64_t now = locked.locked_at;
        const auto& sub = locked.subscription;
        if (!sub || !is_usable(*sub, now) || sub->panel_uuid.empty()) throw not_found("no active subscription", "no_subscription");
        if (sub->link_reset_at > 0 && now - sub->link_reset_at < kResetInterval) {
            const int64_t wait = std::clamp<int64_t>(kResetInterval - (now - sub->link_reset_at), 1, kResetInterval);
            ApiError e(429, "the link can be reset once per 10 minutes; try again in " + std::to_string(wait) + " s", "reset_too_soon");
            e.headers.emplace_back("Retry-After", std::to_string(wait));
            throw e;
        }
        const PanelUser pu = ex.io.panel.revoke_subscription(sub->panel_uuid);
        exec_prepared(txn, "set_subscription_link", locked.user.id, pu.short_uuid, pu.subscription_url);
        try {
            ex.io.panel.drop_connections(sub->panel_uuid);
        } catch (const PanelError& e) {
            spdlog::warn("link reset of user {}: connections not dropped: {}", locked.user.id, e.why());
        }
        return pu.subscription_url;
    });
    const Settings& s = ex.settings();
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("ok");
    w.Bool(true);
    w.Key("subscription_url");
    write_nullable(w, s.hide_subscription_link ? nullptr : &url);
    w.Key("deep_links");
    write_deep_links(w, url, "");  // the old crypto link wrapped the revoked URL
    w.EndObject();
}

}  // namespace cabinet::api
