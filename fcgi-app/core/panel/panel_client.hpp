#pragma once
// Client of the Remnawave panel API (or the mock panel), one per thread; paths and bodies
// follow @remnawave/backend-contract 2.7.x (tests/contract checks both sides).
// Every failure (down, slow, 5xx, garbage, an unexpected 4xx) is one PanelError, which is
// an ApiError 502. Nothing is retried here: writes carry absolute values, so the caller
// may retry a failed write safely, and a read is cheap to repeat.
#include <optional>
#include <string>
#include <vector>

#include "errors.hpp"
#include "metrics/counter.hpp"
#include "net/call_slots.hpp"
#include "net/http_client.hpp"
#include "panel/panel_errors.hpp"
#include "panel/panel_types.hpp"

namespace cabinet {


// Oldest panel API the client speaks.
inline constexpr const char* kMinPanelVersion = "2.1.0";
// The largest page GET /api/users accepts (the contract's TanstackQueryRequestQuerySchema).
inline constexpr int64_t kMaxPanelPageSize = 1000;
// True when `version` ("2.8.4", "v2.7.0-beta") is at least `minimum`.
bool version_at_least(const std::string& version, const std::string& minimum);

class PanelClient {
public:
    // `slots`: the pool process's limit on panel requests in flight (null: none).
    PanelClient(std::string base_url, std::string token, int64_t connect_timeout_ms, int64_t timeout_ms,
                const CallSlots* slots = nullptr);

    std::string version();

    // `state.description` should name the user (panel_mark.hpp's panel_description).
    PanelUser create_user(const std::string& username, std::optional<int64_t> telegram_id, const PanelUserState& state);
    std::optional<PanelUser> get_user(const std::string& uuid);  // nullopt: no such user
    std::vector<PanelUser> users_by_telegram_id(int64_t telegram_id);
    // Users `start` .. `start + size - 1` of the panel's list (the contract allows a size of
    // 1..1000), and the panel's total; an empty page past the end.
    PanelUserPage list_users(int64_t start, int64_t size);
    // nullopt: no user has this username (GET /api/users/by-username, 404 A063).
    std::optional<PanelUser> user_by_username(const std::string& username);
    // nullopt: the panel has no such user (any more).
    std::optional<PanelUser> update_user(const std::string& uuid, const PanelUserState& state);
    // Re-owns a panel user (account merge): its telegramId becomes `telegram_id`.
    std::optional<PanelUser> set_telegram_id(const std::string& uuid, int64_t telegram_id);
    PanelUser enable_user(const std::string& uuid);
    PanelUser disable_user(const std::string& uuid);
    // Disables the user and sets its description in one PATCH, expiry untouched (the panel
    // refuses one in the past); nullopt: the panel has no such user (any more).
    std::optional<PanelUser> disable_user(const std::string& uuid, const std::string& description);
    PanelUser reset_traffic(const std::string& uuid);
    // New short id and subscription URL; the old link stops working at once.
    PanelUser revoke_subscription(const std::string& uuid);
    void drop_connections(const std::string& uuid);
    void delete_user(const std::string& uuid);

    std::vector<PanelDevice> devices(const std::string& uuid);
    void delete_device(const std::string& uuid, const std::string& hwid);

    // Writes (anything but GET) the panel acknowledged with a 2xx, since this client was
    // made: a caller compares two readings to know whether it changed the panel
    // (services/panel_restore.hpp).
    uint64_t writes_acknowledged() const { return writes_acknowledged_; }

    // Counts requests, failures, their time, and the ones refused for want of a slot.
    // Set once by a pool thread; unset, nothing is counted.
    void count_into(metrics::CallCounters calls, metrics::Counter busy) {
        counters_ = calls;
        busy_ = busy;
    }

private:
    // Sends the request and returns the body of a 2xx answer; 404 gives nullopt when
    // `not_found_ok`, every other failure throws PanelError.
    std::optional<std::string> call(const std::string& method, const std::string& path, const std::string& body,
                                    bool not_found_ok = false);
    PanelUser user_action(const std::string& uuid, const char* action, const std::string& body = "{}");
    // Sends a PATCH /api/users body naming the user `uuid`; the user as the panel now has
    // it, nullopt when the panel has no such user.
    std::optional<PanelUser> patch(const std::string& uuid, const std::string& json);

    std::string base_url_;
    std::string auth_header_;
    HttpClient http_;
    const CallSlots* slots_;
    metrics::CallCounters counters_;
    metrics::Counter busy_;
    uint64_t writes_acknowledged_ = 0;
};

}  // namespace cabinet
