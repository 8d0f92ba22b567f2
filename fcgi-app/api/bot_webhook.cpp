#include "api/handlers.hpp"
#include "errors.hpp"

namespace cabinet::api {

void post_bot_webhook(Exchange&) { throw not_found("not implemented yet"); }  // placeholder, replaced in this session

}  // namespace cabinet::api
