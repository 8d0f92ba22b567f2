#pragma once
// The panel failed us: 502 "panel unavailable" (the detail a user sees; `why` is for the
// log). PanelBusy: this process already has PANEL_CONCURRENCY requests waiting on the panel
// (net/call_slots.hpp): 503 "busy, try again" with Retry-After. Both are thrown before
// anything is committed, so callers that fall back on a panel failure fall back on both.
#include <string>

#include "errors.hpp"

namespace cabinet {

class PanelError : public ApiError {
public:
    explicit PanelError(const std::string& why) : ApiError(502, "panel unavailable", "panel_unavailable"), why_(why) {}
    const std::string& why() const { return why_; }

protected:
    PanelError(int status, const std::string& detail, const std::string& why)
        : ApiError(status, detail, status == kBusyStatus ? "busy" : "panel_unavailable"), why_(why) {}

private:
    std::string why_;
};

// The panel answered with a status outside 2xx (a 404 the caller accepts is no error).
class PanelRefusal : public PanelError {
public:
    PanelRefusal(int panel_status, const std::string& why) : PanelError(why), panel_status_(panel_status) {}
    int panel_status() const { return panel_status_; }

private:
    int panel_status_;
};

class PanelBusy : public PanelError {
public:
    PanelBusy() : PanelError(kBusyStatus, kBusyDetail, "all panel slots of this process are in use") {
        add_retry_after(*this);
    }
};

}  // namespace cabinet
