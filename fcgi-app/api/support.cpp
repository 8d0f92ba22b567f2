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
    const auto ticket = ex.io.db.read([&](pqxx::transaction_base& txn) { return open_ticket_of_user(txn, user_id); });
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("ticket_id");
    if (ticket) w.Int64(ticket->id);
    else w.Null();
    w.Key("status");
    if (ticket) write_string(w, ticket->status);
    else w.Null();
    w.Key("messages");
    w.StartArray();
    if (ticket) {
        for (const SupportMessage& m : ticket->messages) {
            w.StartObject();
            w.Key("from");
            w.String(m.author == "user" ? "you" : "support");
            w.Key("text");
            write_string(w, m.text);
            w.Key("at");
            write_string(w, iso8601_utc(m.at));
            w.EndObject();
        }
    }
    w.EndArray();
    w.EndObject();
}

void post_support(Exchange& ex) {
    const JsonBody body(ex.req);
    const std::string text = require_string(body, "text", 1, kSupportTextMaxChars);
    if (!valid_support_text(text)) throw bad_request("text must not be blank", "blank_text");
    const int64_t user_id = ex.caller().user.id;
    const PostedMessage posted =
        ex.io.db.write([&](pqxx::work& txn) { return post_user_message(txn, ex.settings(), user_id, text); });
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("ok");
    w.Bool(true);
    w.Key("ticket_id");
    w.Int64(posted.ticket_id);
    w.EndObject();
}

}  // namespace cabinet::api
