#include "api/handlers.hpp"

namespace cabinet::api {

// The whole HTTP surface of the pool at one glance.
std::vector<Route> routes() {
    return {
        {"GET", "/health", AuthKind::none, get_health},
        {"GET", "/health/deep", AuthKind::none, get_health_deep},
        {"GET", "/api/cabinet/config", AuthKind::none, get_config},
        {"GET", "/api/cabinet/me", AuthKind::tma_or_jwt, get_me},
    };
}

}  // namespace cabinet::api
