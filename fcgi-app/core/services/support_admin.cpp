#include "services/support_admin.hpp"

#include <algorithm>

#include "db/audit_repo.hpp"
#include "db/fields.hpp"
#include "db/prepared.hpp"
#include "errors.hpp"
#include "util/strings.hpp"

namespace cabinet {
namespace {

// "u.updated_us.id": the three parts of the order, plain numbers.
constexpr char kCursorSep = '.';


// A LIKE pattern matching `s` literally (PostgreSQL's default escape is '\').
std::string like_escaped(std::string_view s) {
    std::string out;
    for (const char c : s) {
        if (c == '\\' || c == '%' || c == '_') out += '\\';
        out += c;
    }
    return out;
}

SupportTicket ticket_header(const pqxx::row& r) {
    SupportTicket t = ticket_from_row(r);
    t.message_count = r["messages"].as<int64_t>();
    return t;
}

CustomerSummary customer_summary(pqxx::transaction_base& txn, int64_t user_id) {
    const auto r = exec_prepared1(txn, "support_customer_summary", user_id);
    CustomerSummary c;
    read_customer_handle(c, r);
    c.last_name = r["last_name"].c_str();
    if (!r["email"].is_null()) c.email = r["email"].c_str();
    c.is_blocked = r["is_blocked"].as<bool>();
    c.balance_minor = r["balance_minor"].as<int64_t>();
    c.currency = r["currency"].c_str();
    c.created_at = r["created_at"].as<int64_t>();
    c.subscription = subscription_glance(r, "sub_status");
    return c;
}

// The ticket as it is now, read in the transaction that changed it; opened by the one who
// changed it, so read.
StaffTicket ticket_now(pqxx::transaction_base& txn, int64_t id) {
    auto t = staff_ticket(txn, id, std::nullopt, kStaffMessagesPage, true);
    if (!t) throw not_found("no ticket with that id");
    return std::move(*t);
}

ApiError newer_ticket_open(int64_t other) {
    return ApiError(409, "the customer has a newer ticket that is open" +
                             (other > 0 ? " (#" + std::to_string(other) + "); answer there" : std::string()));
}

}  // namespace

std::string inbox_cursor_text(const InboxCursor& c) {
    return std::string(c.unread ? "1" : "0") + kCursorSep + std::to_string(c.updated_us) + kCursorSep + std::to_string(c.id);
}

std::optional<InboxCursor> parse_inbox_cursor(std::string_view text) {
    const auto parts = split(text, kCursorSep);
    InboxCursor c;
    if (parts.size() != 3 || (parts[0] != "0" && parts[0] != "1")) return std::nullopt;
    c.unread = parts[0] == "1";
    if (!parse_int64(parts[1], c.updated_us) || !parse_int64(parts[2], c.id) || c.id < 1) return std::nullopt;
    return c;
}

InboxPage list_inbox(pqxx::transaction_base& txn, const InboxFilter& f) {
    std::optional<int64_t> number;
    std::optional<std::string> fragment;
    const std::string_view q = trim(f.q);
    if (int64_t n = 0; !q.empty() && q.find_first_not_of("0123456789") == std::string_view::npos && parse_int64(q, n)) {
        number = n;
    } else if (const std::string_view handle = q.empty() || q[0] != '@' ? q : q.substr(1); !handle.empty()) {
        fragment = like_escaped(handle);
    }
    std::optional<bool> unread;
    std::optional<int64_t> updated_us, id;
    if (f.after) unread = f.after->unread, updated_us = f.after->updated_us, id = f.after->id;
    const auto rows = exec_prepared(txn, f.status.empty() ? StatementName("support_inbox_any") : StatementName("support_inbox_by_status"), f.status,
                                    unread, updated_us, id, number, fragment, f.limit);
    InboxPage page;
    for (const auto& r : rows) {
        InboxItem& it = page.items.emplace_back();
        it.ticket = ticket_header(r);
        it.first_name = r["first_name"].c_str();
        it.unread = r["unread"].as<bool>();
        it.place = {it.unread, r["updated_us"].as<int64_t>(), it.ticket.id};
        if (!r["last_author"].is_null())
            it.last_message = SupportMessage{r["last_author"].c_str(), r["last_text"].c_str(), r["last_at"].as<int64_t>()};
    }
    if (static_cast<int64_t>(page.items.size()) == f.limit && !page.items.empty()) page.next = page.items.back().place;
    return page;
}

InboxCounts inbox_counts(pqxx::transaction_base& txn) {
    const auto r = exec_prepared1(txn, "support_inbox_counts");
    return {r["open"].as<int64_t>(), r["waiting"].as<int64_t>(), r["unread"].as<int64_t>()};
}

std::optional<StaffTicket> staff_ticket(pqxx::transaction_base& txn, int64_t ticket_id, std::optional<int64_t> before,
                                        int64_t limit, bool mark_read) {
    if (mark_read) exec_prepared(txn, "support_mark_read", ticket_id);
    const auto head = exec_prepared(txn, "support_staff_ticket", ticket_id);
    if (head.empty()) return std::nullopt;
    StaffTicket out;
    out.ticket = ticket_header(head[0]);
    out.unread = head[0]["unread"].as<bool>();
    // One more than asked tells whether older ones remain.
    const auto rows = exec_prepared(txn, "support_staff_messages", ticket_id, before, limit + 1);
    const size_t shown = std::min<size_t>(rows.size(), static_cast<size_t>(limit));
    for (size_t i = shown; i-- > 0;) {
        const auto& r = rows[static_cast<pqxx::result::size_type>(i)];
        out.messages.push_back({r["id"].as<int64_t>(), {r["author"].c_str(), r["text"].c_str(), r["at"].as<int64_t>()}});
    }
    if (rows.size() > shown && !out.messages.empty()) out.more_before = out.messages.front().id;
    out.customer = customer_summary(txn, out.ticket.user_id);
    return out;
}

ReopenOutcome reopen_ticket(pqxx::transaction_base& txn, int64_t ticket_id, std::string_view actor, int64_t& other) {
    const auto res = exec_prepared(txn, "support_ticket_for_update", ticket_id);
    if (res.empty()) return ReopenOutcome::not_found;
    if (std::string_view(res[0]["status"].c_str()) != "closed") return ReopenOutcome::was_open;
    // The customer's newer ticket, if any, is the one their messages go to: this one stays
    // closed. The partial unique index (one not-closed ticket a customer) settles a race
    // with their first message of a new ticket: the loser's statement fails (the caller
    // answers 409).
    const auto newer = exec_prepared(txn, "support_other_open_ticket", res[0]["user_id"].as<int64_t>(), ticket_id);
    if (!newer.empty()) {
        other = newer[0][0].as<int64_t>();
        return ReopenOutcome::other_open;
    }
    exec_prepared0(txn, "support_reopen", ticket_id);
    write_audit(txn, actor, "support.reopen", "ticket:" + std::to_string(ticket_id));
    return ReopenOutcome::reopened;
}

InboxPage list_inbox(Db& db, const InboxFilter& f) {
    return db.read([&](auto& txn) { return list_inbox(txn, f); });
}

InboxCounts inbox_counts(Db& db) {
    return db.read([](auto& txn) { return inbox_counts(txn); });
}

std::optional<StaffTicket> open_staff_ticket(Db& db, int64_t ticket_id, std::optional<int64_t> before, bool may_answer) {
    const auto load = [&](pqxx::transaction_base& txn) {
        return staff_ticket(txn, ticket_id, before, kStaffMessagesPage, may_answer && !before);
    };
    return may_answer ? db.write([&](pqxx::work& txn) { return load(txn); })
                      : db.read([&](auto& txn) { return load(txn); });
}

StaffTicket reply_as_staff(Db& db, const StaffReply& r) {
    return db.write([&](pqxx::work& txn) {
        switch (reply_to_ticket(txn, r.ticket_id, r.text, r.actor, r.source_ref)) {
            case ReplyOutcome::not_found: throw not_found("no ticket with that id");
            case ReplyOutcome::closed: throw ApiError(409, "the ticket is closed; reopen it to answer");
            case ReplyOutcome::replied:
            case ReplyOutcome::already_stored: break;
        }
        return ticket_now(txn, r.ticket_id);
    });
}

StaffTicket close_as_staff(Db& db, int64_t ticket_id, const std::string& actor) {
    return db.write([&](pqxx::work& txn) {
        if (!close_ticket(txn, ticket_id, actor)) throw not_found("no ticket with that id");
        return ticket_now(txn, ticket_id);
    });
}

StaffTicket reopen_as_staff(Db& db, int64_t ticket_id, const std::string& actor) {
    try {
        return db.write([&](pqxx::work& txn) {
            int64_t other = 0;
            switch (reopen_ticket(txn, ticket_id, actor, other)) {
                case ReopenOutcome::not_found: throw not_found("no ticket with that id");
                case ReopenOutcome::other_open: throw newer_ticket_open(other);
                case ReopenOutcome::reopened:
                case ReopenOutcome::was_open: break;
            }
            return ticket_now(txn, ticket_id);
        });
    } catch (const pqxx::unique_violation&) {
        // The customer's first message of a new ticket committed while this reopen ran.
        throw newer_ticket_open(0);
    }
}

}  // namespace cabinet
