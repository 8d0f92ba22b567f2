#pragma once
// Decoding of panel answers ({"response": ...}) into panel_types; PanelError on anything
// that does not have the contract's shape.
#include <string>
#include <vector>

#include "panel/panel_types.hpp"
#include "util/json.hpp"

namespace cabinet::panel_json {

// The "response" member of an answer body.
const rapidjson::Value& response_of(const rapidjson::Document& doc, const std::string& body);
PanelUser user_from(const rapidjson::Value& v);
std::vector<PanelUser> users_from(const rapidjson::Value& v);
// GetAllUsersCommand's {users, total}.
PanelUserPage user_page_from(const rapidjson::Value& v);
std::vector<PanelDevice> devices_from(const rapidjson::Value& v);

}  // namespace cabinet::panel_json
