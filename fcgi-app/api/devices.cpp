// GET /api/cabinet/devices and DELETE /api/cabinet/devices/{hwid}: the HWID devices the
// panel has seen for the user's subscription. Panel unreachable: 502.
#include "api/handlers.hpp"
#include "api/serializers.hpp"
#include "errors.hpp"
#include "util/time.hpp"

namespace cabinet::api {

void get_devices(Exchange& ex) {
    const auto& sub = ex.caller().subscription;
    JsonObject o(ex.resp.json());
    if (!sub || sub->panel_uuid.empty()) {
        o.array("items");
        o.null("device_limit");
        return;
    }
    const auto devices = ex.io.panel.devices(sub->panel_uuid);
    {
        auto items = o.array("items");
        for (const auto& d : devices)
            items.object().put("hwid", d.hwid).put("platform", d.platform).put("model", d.device_model)
                .put("created_at", iso8601_utc(d.created_at));
    }
    o.put("device_limit", sub->device_limit);
}

void delete_device(Exchange& ex) {
    const auto& sub = ex.caller().subscription;
    if (!sub || sub->panel_uuid.empty()) throw bad_request("no subscription", "no_subscription");
    const std::string& hwid = ex.req.path_params.at(0);
    if (hwid.empty() || hwid.size() > 256) throw bad_request("hwid must be 1..256 characters");
    // Only a device of this user may be unbound: look it up first.
    bool known = false;
    for (const auto& d : ex.io.panel.devices(sub->panel_uuid)) known = known || d.hwid == hwid;
    if (!known) throw not_found("device not found", "device_not_found");
    ex.io.panel.delete_device(sub->panel_uuid, hwid);
    write_ok(ex);
}

}  // namespace cabinet::api
