#pragma once
// What the gateways share on the wire: decimal money strings, HTTP Basic credentials,
// one call that turns every upstream failure into GatewayError, and JSON field access
// that treats an off-contract answer as a gateway failure rather than a crash.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "net/http_client.hpp"
#include "payments/gateway.hpp"
#include "util/json.hpp"

namespace cabinet::payments {

// Minor units as the decimal string gateways take: 29900 -> "299.00", 5 -> "0.05".
// Every currency we sell in (RUB, USD, EUR, ...) has two decimals.
std::string format_minor(int64_t minor);
// "299.00", "299.5", "299" -> minor units. Digits past the second decimal are cut off
// (rounded down: a payment is never taken for more than it says). nullopt on anything
// that is not a plain non-negative decimal.
std::optional<int64_t> parse_minor(std::string_view decimal);

std::string base64(std::string_view data);
// "Authorization: Basic ..." for user:password.
std::string basic_auth_header(std::string_view user, std::string_view password);

// One request to a gateway, in one of `slots` (null: no limit; none free: GatewayBusy).
// Transport errors, timeouts and any status other than 2xx (and 404 when `not_found_ok`,
// any 4xx when `refusals_ok`: the provider's "no", for the caller to read) become
// GatewayError, logged with `provider`.
HttpResponse call_gateway(HttpClient& http, const CallSlots* slots, const char* provider, const std::string& method, const std::string& url,
                          const std::vector<std::string>& headers, const std::string& body = {},
                          bool not_found_ok = false, bool refusals_ok = false);

// The answer parsed as a JSON object; GatewayError otherwise.
rapidjson::Document parse_object(const char* provider, const std::string& body);
// A string member, or nullptr when absent or not a string.
const rapidjson::Value* string_member(const rapidjson::Value& obj, const char* name);
std::string string_or_empty(const rapidjson::Value& obj, const char* name);

// The HTTP client a gateway owns: the connect phase capped at 3 s inside the total budget.
HttpClient gateway_http(const Settings& s);

}  // namespace cabinet::payments
