#include "api/handlers.hpp"
#include "errors.hpp"

namespace cabinet::api {

void get_devices(Exchange&) { throw not_found("not implemented yet"); }  // placeholder, replaced in this session
void delete_device(Exchange&) { throw not_found("not implemented yet"); }  // placeholder, replaced in this session

}  // namespace cabinet::api
