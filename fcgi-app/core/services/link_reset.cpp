#include "services/link_reset.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "db/accounts_repo.hpp"
#include "db/prepared.hpp"
#include "domain/subscription_status.hpp"
#include "errors.hpp"
#include "panel/panel_errors.hpp"

namespace cabinet {
namespace {
constexpr int64_t kResetInterval = 600;
}

std::string reset_subscription_link(Db& db, PanelClient& panel, int64_t user_id) {
    return db.transact([&](pqxx::work& txn) {
        // link_reset_at as read after the lock: of N parallel calls the first rotates and the
        // others, waiting here, see its commit and get 429 without calling the panel.
        const LockedAccount locked = lock_account(txn, user_id);
        const int64_t now = locked.locked_at;
        const auto& sub = locked.subscription;
        if (!sub || !is_usable(*sub, now) || sub->panel_uuid.empty()) throw not_found("no active subscription", "no_subscription");
        if (sub->link_reset_at > 0 && now - sub->link_reset_at < kResetInterval) {
            const int64_t wait = std::clamp<int64_t>(kResetInterval - (now - sub->link_reset_at), 1, kResetInterval);
            throw retry_later(429, "the link can be reset once per 10 minutes; try again in " + std::to_string(wait) + " s",
                              wait, "reset_too_soon");
        }
        const PanelUser pu = panel.revoke_subscription(sub->panel_uuid);
        exec_prepared(txn, "set_subscription_link", locked.user.id, pu.short_uuid, pu.subscription_url);
        try {
            panel.drop_connections(sub->panel_uuid);
        } catch (const PanelError& e) {
            spdlog::warn("link reset of user {}: connections not dropped: {}", locked.user.id, e.why());
        }
        return pu.subscription_url;
    });
}

}  // namespace cabinet
