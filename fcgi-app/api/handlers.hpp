#pragma once
// Every endpoint handler of the pool, one file each; routes.cpp binds them to paths.
#include "app/context.hpp"

namespace cabinet::api {

void get_me(Exchange& ex);
void get_config(Exchange& ex);
void get_health(Exchange& ex);
void get_health_deep(Exchange& ex);

std::vector<Route> routes();

}  // namespace cabinet::api
