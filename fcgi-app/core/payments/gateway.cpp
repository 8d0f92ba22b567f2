#include "payments/gateway.hpp"

#include <spdlog/spdlog.h>

#include "payments/cryptobot.hpp"
#include "payments/yookassa.hpp"

namespace cabinet {

std::unique_ptr<Gateway> make_gateway(const std::string& id, const Settings& s, const CallSlots* slots) {
    // Enabled without credentials would fail every call at the provider (401): treat it as
    // not configured, so the method is not offered and its webhook is a 404.
    if (id == "yookassa" && s.yookassa_enabled) {
        if (s.yookassa_shop_id.empty() || s.yookassa_secret_key.empty()) {
            spdlog::warn("YOOKASSA_ENABLED but YOOKASSA_SHOP_ID or YOOKASSA_SECRET_KEY is empty: gateway off");
            return nullptr;
        }
        return std::make_unique<YooKassa>(s, slots);
    }
    if (id == "cryptobot" && s.cryptobot_enabled) {
        if (s.cryptobot_token.empty()) {
            spdlog::warn("CRYPTOBOT_ENABLED but CRYPTOBOT_TOKEN is empty: gateway off");
            return nullptr;
        }
        return std::make_unique<CryptoBot>(s, slots);
    }
    return nullptr;
}

}  // namespace cabinet
