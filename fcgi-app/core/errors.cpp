#include "errors.hpp"

namespace cabinet {

const char* status_code_name(int status) noexcept {
    switch (status) {
        case 400: return "invalid_request";
        case 401: return "unauthorized";
        case 402: return "payment_required";
        case 403: return "forbidden";
        case 404: return "not_found";
        case 405: return "method_not_allowed";
        case 409: return "conflict";
        case 413: return "too_large";
        case 415: return "unsupported_media_type";
        case 422: return "unprocessable";
        case 429: return "too_many_requests";
        case 500: return "internal";
        case 502: return "upstream_unavailable";
        case 503: return "unavailable";
        case 504: return "upstream_timeout";
        default: return status < 500 ? "invalid_request" : "internal";
    }
}

}  // namespace cabinet
