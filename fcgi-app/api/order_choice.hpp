#pragma once
// The plan a purchase request names, read from its JSON body once, before anything else is
// done (POST /purchase and POST /auth/guest/purchase): plan_id (an integer or a plan's
// public code) + days, or period_id + pack_id, as the shop's SALES_MODE sells. 400 for a
// missing or malformed field, and `sales_mode_changed` for a body of the other mode.
#include <string>

#include "services/order.hpp"
#include "util/json.hpp"

namespace cabinet::api {

OrderChoice read_order_choice(const rapidjson::Value& body, const std::string& sales_mode);

}  // namespace cabinet::api
