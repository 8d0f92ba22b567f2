// GET/POST /api/cabinet/support (SPEC-GAPS "Cabinet shapes"): the caller's open support
// ticket and a new message in it. The ticket, its status and the group's notification are
// services/support.hpp's business; this file only parses and serializes.
#include "api/handlers.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "services/support.hpp"
#include "util/time.hpp"

namespace cabinet::api {

void get_support(Exchange& ex) {
    const int64_t user_id = ex.caller().user.id;
    const auto ticket = open_ticket_of_user(ex.io.db, user_id);
    JsonObject o(ex.resp.json());
    if (ticket) o.put("ticket_id", ticket->id).put("status", ticket->status);
    else o.null("ticket_id").null("status");
    auto messages = o.array("messages");
    if (!ticket) return;
    for (const SupportMessage& m : ticket->messages)
        messages.object().put("from", m.author == "user" ? "you" : "support").put("text", m.text)
            .put("at", iso8601_utc(m.at));
}

void post_support(Exchange& ex) {
    const JsonBody body(ex.req);
    const std::string text = require_string(body, "text", 1, kSupportTextMaxChars);
    if (!valid_support_text(text)) throw bad_request("text must not be blank", "blank_text");
    const int64_t user_id = ex.caller().user.id;
    const PostedMessage posted = post_user_message(ex.io.db, ex.settings(), user_id, text);
    JsonObject(ex.resp.json()).put("ok", true).put("ticket_id", posted.ticket_id);
}

}  // namespace cabinet::api
