#pragma once
// Client of the Remnawave panel API (or the mock panel), one per thread.
// Every failure (down, slow, 5xx, garbage) is one PanelError, which is an ApiError 502.
#include <string>

#include "errors.hpp"
#include "net/http_client.hpp"

namespace cabinet {

class PanelError : public ApiError {
public:
    explicit PanelError(const std::string& why) : ApiError(502, "panel unavailable"), why_(why) {}
    const std::string& why() const { return why_; }

private:
    std::string why_;
};

class PanelClient {
public:
    PanelClient(std::string base_url, std::string token, int64_t connect_timeout_ms, int64_t timeout_ms);
    // The panel's version string (GET /api/system/metadata, falling back to /api/system/health).
    std::string version();

private:
    std::string get_response_json(const std::string& path);

    std::string base_url_;
    std::string auth_header_;
    HttpClient http_;
};

}  // namespace cabinet
