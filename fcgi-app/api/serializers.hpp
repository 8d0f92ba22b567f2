#pragma once
// JSON shapes shared by several endpoints (SPEC "Resources").
#include "app/context.hpp"
#include "domain/account.hpp"

namespace cabinet::api {

void write_user(JsonWriter& w, const Settings& s, const User& u);
// null when the user never had a subscription
void write_subscription(JsonWriter& w, const Settings& s, const std::optional<Subscription>& sub, int64_t now);
void write_app_config(JsonWriter& w, const Settings& s, const ThemeConfig& theme);

}  // namespace cabinet::api
