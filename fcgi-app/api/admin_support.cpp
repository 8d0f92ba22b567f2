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

#include "api/handlers.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "http/query.hpp"
#include "services/customer_handle.hpp"
#include "services/support_admin.hpp"
#include "util/json_fields.hpp"
#include "util/strings.hpp"

namespace cabinet::api {
namespace {

constexpr int64_t kDefaultPage = 50, kMaxPage = 200;
constexpr size_t kMaxIdempotencyKey = 100;

int64_t ticket_id_of(Exchange& ex) {
    int64_t id = 0;
    if (!parse_int64(ex.req.path_params.at(0), id) || id < 1) throw not_found("no ticket with that id");
    return id;
}

void write_ticket_fields(JsonWriter& w, const SupportTicket& t, bool unread) {
    put_int(w, "id", t.id);
    put_text(w, "status", t.status);
    put_bool(w, "unread", unread);
    put_time(w, "created_at", t.created_at);
    put_time(w, "updated_at", t.updated_at);
    put_int(w, "message_count", t.message_count);
}

void write_item(JsonWriter& w, const InboxItem& it) {
    w.StartObject();
    write_ticket_fields(w, it.ticket, it.unread);
    write_customer_handle(w, {it.ticket.user_id, it.ticket.telegram_id, it.ticket.username, it.first_name});
    write_key(w, "last_message");
    if (it.last_message) {
        w.StartObject();
        put_text(w, "author", it.last_message->author);
        put_text(w, "text", it.last_message->text);
        put_time(w, "at", it.last_message->at);
        w.EndObject();
    } else {
        w.Null();
    }
    w.EndObject();
}

void write_summary(JsonWriter& w, const CustomerSummary& c) {
    write_key(w, "customer");
    w.StartObject();
    put_int(w, "id", c.id);
    put_int(w, "telegram_id", c.telegram_id);
    put_text(w, "username", c.username);
    put_text(w, "first_name", c.first_name);
    put_text(w, "last_name", c.last_name);
    put_text(w, "email", c.email);
    put_bool(w, "is_blocked", c.is_blocked);
    put_int(w, "balance_minor", c.balance_minor);
    put_text(w, "currency", c.currency);
    put_time(w, "created_at", c.created_at);
    write_key(w, "subscription");
    if (c.subscription) {
        const auto& s = *c.subscription;
        w.StartObject();
        put_text(w, "status", s.status);
        put_bool(w, "is_trial", s.is_trial);
        put_text(w, "plan_name", s.plan_name);
        put_time(w, "expire_at", s.expire_at);
        put_int(w, "traffic_limit_bytes", s.traffic_limit_bytes);
        put_int(w, "traffic_used_bytes", s.traffic_used_bytes);
        w.EndObject();
    } else {
        w.Null();
    }
    w.EndObject();
}

void answer_ticket(Exchange& ex, const StaffTicket& t) {
    auto& w = ex.resp.json();
    w.StartObject();
    write_ticket_fields(w, t.ticket, t.unread);
    write_summary(w, t.customer);
    write_key(w, "messages");
    w.StartArray();
    for (const auto& m : t.messages) {
        w.StartObject();
        put_int(w, "id", m.id);
        put_text(w, "author", m.message.author);
        put_text(w, "text", m.message.text);
        put_time(w, "at", m.message.at);
        w.EndObject();
    }
    w.EndArray();
    write_key(w, "more_before");
    if (t.more_before) write_string(w, std::to_string(*t.more_before));
    else w.Null();
    w.EndObject();
}

// The ticket as it is now, read in the transaction that changed it; opened by the one who
// changed it, so read.
StaffTicket ticket_now(pqxx::transaction_base& txn, int64_t id) {
    auto t = staff_ticket(txn, id, std::nullopt, kStaffMessagesPage, true);
    if (!t) throw not_found("no ticket with that id");
    return std::move(*t);
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
    f.limit = query_int(ex.req.query, "limit", 1, kMaxPage).value_or(kDefaultPage);
    const InboxPage page = ex.io.db.read([&](auto& txn) { return list_inbox(txn, f); });
    auto& w = ex.resp.json();
    w.StartObject();
    write_key(w, "items");
    w.StartArray();
    for (const auto& it : page.items) write_item(w, it);
    w.EndArray();
    write_key(w, "next_cursor");
    if (page.next) write_string(w, inbox_cursor_text(*page.next));
    else w.Null();
    w.EndObject();
}

void get_admin_support_counts(Exchange& ex) {
    const InboxCounts c = ex.io.db.read([&](auto& txn) { return inbox_counts(txn); });
    auto& w = ex.resp.json();
    w.StartObject();
    put_int(w, "open", c.open);
    put_int(w, "waiting", c.waiting);
    put_int(w, "unread", c.unread);
    w.EndObject();
}

void get_admin_support_ticket(Exchange& ex) {
    const int64_t id = ticket_id_of(ex);
    const auto before = query_int(ex.req.query, "before", 1, std::numeric_limits<int64_t>::max());
    // Only someone who may answer reads it by opening it: a viewer's look leaves it unread.
    const bool answers = ex.staff_role == StaffRole::owner || ex.staff_role == StaffRole::support;
    const auto load = [&](pqxx::transaction_base& txn) { return staff_ticket(txn, id, before, kStaffMessagesPage, answers && !before); };
    const auto t = answers ? ex.io.db.write([&](pqxx::work& txn) { return load(txn); })
                           : ex.io.db.read([&](auto& txn) { return load(txn); });
    if (!t) throw not_found("no ticket with that id");
    answer_ticket(ex, *t);
}

void post_admin_support_reply(Exchange& ex) {
    const int64_t id = ticket_id_of(ex);
    const JsonBody body(ex.req);
    if (!has_field(body, "text") || !body["text"].IsString()) throw bad_request("text must be a string");
    const std::string text(body["text"].GetString(), body["text"].GetStringLength());
    if (!valid_support_text(text)) throw ApiError(422, "text must be 1..4096 characters, not blank");
    const auto source = answer_source(ex, id);
    const std::string by = admin_actor(ex);
    const StaffTicket t = ex.io.db.write([&](pqxx::work& txn) {
        switch (reply_to_ticket(txn, id, text, by, source)) {
            case ReplyOutcome::not_found: throw not_found("no ticket with that id");
            case ReplyOutcome::closed: throw ApiError(409, "the ticket is closed; reopen it to answer");
            case ReplyOutcome::replied:
            case ReplyOutcome::already_stored: break;
        }
        return ticket_now(txn, id);
    });
    answer_ticket(ex, t);
}

void post_admin_support_close(Exchange& ex) {
    const int64_t id = ticket_id_of(ex);
    const std::string by = admin_actor(ex);
    answer_ticket(ex, ex.io.db.write([&](pqxx::work& txn) {
        if (!close_ticket(txn, id, by)) throw not_found("no ticket with that id");
        return ticket_now(txn, id);
    }));
}

void post_admin_support_reopen(Exchange& ex) {
    const int64_t id = ticket_id_of(ex);
    const std::string by = admin_actor(ex);
    const auto conflict = [](int64_t other) {
        return ApiError(409, "the customer has a newer ticket that is open" +
                                 (other > 0 ? " (#" + std::to_string(other) + "); answer there" : std::string()));
    };
    try {
        answer_ticket(ex, ex.io.db.write([&](pqxx::work& txn) {
            int64_t other = 0;
            switch (reopen_ticket(txn, id, by, other)) {
                case ReopenOutcome::not_found: throw not_found("no ticket with that id");
                case ReopenOutcome::other_open: throw conflict(other);
                case ReopenOutcome::reopened:
                case ReopenOutcome::was_open: break;
            }
            return ticket_now(txn, id);
        }));
    } catch (const pqxx::unique_violation&) {
        // The customer's first message of a new ticket committed while this reopen ran.
        throw conflict(0);
    }
}

}  // namespace cabinet::api
