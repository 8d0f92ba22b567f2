#include "api/order_choice.hpp"

#include "errors.hpp"
#include "http/body.hpp"

namespace cabinet::api {

OrderChoice read_order_choice(const rapidjson::Value& body, const std::string& sales_mode) {
    OrderChoice c;
    if (sales_mode == "constructor") {
        if (has_field(body, "plan_id")) throw bad_request("this shop sells period + traffic pack, not plans", "sales_mode_changed");
        c.constructor = true;
        c.period_id = require_int(body, "period_id", 1, INT64_MAX);
        c.pack_id = require_int(body, "pack_id", 1, INT64_MAX);
        return c;
    }
    if (has_field(body, "period_id")) throw bad_request("this shop sells plans, not period + traffic pack", "sales_mode_changed");
    auto it = body.FindMember("plan_id");
    if (it == body.MemberEnd() || it->value.IsNull()) throw bad_request("plan_id is required");
    if (it->value.IsInt64()) c.plan_id = it->value.GetInt64();
    else if (it->value.IsString()) c.plan_code.assign(it->value.GetString(), it->value.GetStringLength());
    else throw bad_request("plan_id must be an integer or a plan code");
    c.days = require_int(body, "days", 1, 3650);
    return c;
}

}  // namespace cabinet::api
