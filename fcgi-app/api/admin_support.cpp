// The owner's support inbox (services/support_admin.hpp, services/support.hpp; docs/api.md
// "Support inbox"). Reads are every staff role's, answers, closes and reopens the owner's
// and support's (routes.cpp); each change is audited with the caller as actor.
//   GET  /api/admin/support/tickets?status=open|waiting|closed|all&q=&cursor=&limit=
//        {items: [ticket…], next_cursor}: unread first, then the newest activity
//   GET  /api/admin/support/counts → {open, waiting, unread}
//   GET  /api/admin/support/tickets/{id}?before= → the ticket, its last 200 messages (older
//        ones by `before`, the answer's more_before) and its customer; opening it reads it
//        (owner, support; a viewer's look leaves it unread)
//   POST /api/admin/support/tickets/{id}/reply {text} (Idempotency-Key optional) → the ticket
//   POST /api/admin/support/tickets/{id}/close | /reopen → the ticket
#include <limits>

#include "api/admin_lists.hpp"
#include "api/handlers.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "http/query.hpp"
#include "services/customer_handle.hpp"
#include "services/support_admin.hpp"
#include "util/strings.hpp"

namespace cabinet::api {
namespace {

constexpr size_t kMaxIdempotencyKey = 100;

int64_t ticket_id_of(Exchange& ex) { return path_id(ex, "no ticket with that id"); }

JsonObject& put_ticket_fields(JsonObject& o, const SupportTicket& t, bool unread) {
    o.put("id", t.id).put("status", t.status).put("unread", unread);
    return o.time("created_at", t.created_at).time("updated_at", t.updated_at).put("message_count", t.message_count);
}

JsonObject& put_message(JsonObject& o, const SupportMessage& m) {
    return o.put("author", m.author).put("text", m.text).time("at", m.at);
}

void write_item(JsonWriter& w, const InboxItem& it) {
    JsonObject o(w);
    put_ticket_fields(o, it.ticket, it.unread);
    write_customer_handle(o, {it.ticket.user_id, it.ticket.telegram_id, it.ticket.username, it.first_name});
    if (it.last_message) {
        JsonObject last = o.object("last_message");
        put_message(last, *it.last_message);
    } else {
        o.null("last_message");
    }
}

void write_summary(JsonObject& o, const CustomerSummary& c) {
    JsonObject customer = o.object("customer");
    put_customer_handle(customer, c).put("last_name", c.last_name).put("email", c.email);
    customer.put("is_blocked", c.is_blocked).put("balance_minor", c.balance_minor).put("currency", c.currency);
    customer.time("created_at", c.created_at);
    write_subscription_glance(customer, c.subscription, true);
}

void answer_ticket(Exchange& ex, const StaffTicket& t) {
    JsonObject o(ex.resp.json());
    put_ticket_fields(o, t.ticket, t.unread);
    write_summary(o, t.customer);
    {
        JsonArray messages = o.array("messages");
        for (const auto& m : t.messages) {
            JsonObject item = messages.object();
            put_message(item.put("id", m.id), m.message);
        }
    }
    o.put("more_before", t.more_before ? std::optional(std::to_string(*t.more_before)) : std::nullopt);
}

// The source of a web answer under an Idempotency-Key: the same key on the same ticket is
// one answer (services/support.hpp reply_to_ticket's source_ref).
std::optional<std::string> answer_source(Exchange& ex, int64_t ticket_id) {
    const std::string& key = ex.req.idempotency_key;
    if (key.empty()) return std::nullopt;
    if (utf8_prefix(key, kMaxIdempotencyKey).size() != key.size() || has_control_chars(key) || !valid_utf8(key))
        throw bad_request("Idempotency-Key must be 1..100 characters of printable text");
    return "admin:" + std::to_string(ticket_id) + ":" + key;
}

}  // namespace

void get_admin_support_tickets(Exchange& ex) {
    InboxFilter f;
    const auto status = query_param(ex.req.query, "status").value_or("all");
    if (status == "open" || status == "waiting" || status == "closed") f.status = status;
    else if (status != "all") throw bad_request("status must be open, waiting, closed or all");
    f.q = query_param(ex.req.query, "q").value_or("");
    if (utf8_prefix(f.q, 100).size() != f.q.size()) throw bad_request("q must be at most 100 characters");
    if (const auto c = query_param(ex.req.query, "cursor"); c && !c->empty()) {
        f.after = parse_inbox_cursor(*c);
        if (!f.after) throw bad_request("cursor must be a next_cursor this list gave");
    }
    f.limit = page_limit(ex);
    const InboxPage page = list_inbox(ex.io.db, f);
    JsonObject o(ex.resp.json());
    {
        JsonArray items = o.array("items");
        for (const auto& it : page.items) write_item(items.writer(), it);
    }
    o.put("next_cursor", page.next ? std::optional(inbox_cursor_text(*page.next)) : std::nullopt);
}

void get_admin_support_counts(Exchange& ex) {
    const InboxCounts c = inbox_counts(ex.io.db);
    JsonObject(ex.resp.json()).put("open", c.open).put("waiting", c.waiting).put("unread", c.unread);
}

void get_admin_support_ticket(Exchange& ex) {
    const int64_t id = ticket_id_of(ex);
    const auto before = query_int(ex.req.query, "before", 1, std::numeric_limits<int64_t>::max());
    // Only someone who may answer reads it by opening it: a viewer's look leaves it unread.
    const bool answers = ex.staff_role == StaffRole::owner || ex.staff_role == StaffRole::support;
    const auto t = open_staff_ticket(ex.io.db, id, before, answers);
    if (!t) throw not_found("no ticket with that id");
    answer_ticket(ex, *t);
}

void post_admin_support_reply(Exchange& ex) {
    StaffReply r;
    r.ticket_id = ticket_id_of(ex);
    const JsonBody body(ex.req);
    if (!has_field(body, "text") || !body["text"].IsString()) throw bad_request("text must be a string");
    r.text.assign(body["text"].GetString(), body["text"].GetStringLength());
    if (!valid_support_text(r.text)) throw ApiError(422, "text must be 1..4096 characters, not blank");
    r.source_ref = answer_source(ex, r.ticket_id);
    r.actor = admin_actor(ex);
    answer_ticket(ex, reply_as_staff(ex.io.db, r));
}

void post_admin_support_close(Exchange& ex) {
    const int64_t id = ticket_id_of(ex);
    answer_ticket(ex, close_as_staff(ex.io.db, id, admin_actor(ex)));
}

void post_admin_support_reopen(Exchange& ex) {
    const int64_t id = ticket_id_of(ex);
    answer_ticket(ex, reopen_as_staff(ex.io.db, id, admin_actor(ex)));
}

}  // namespace cabinet::api
