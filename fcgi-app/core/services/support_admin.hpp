#pragma once
// The owner's support inbox (/api/admin/support/*; docs/api.md "Support inbox"): the tickets
// of every customer, unread first, one ticket with its messages and its customer, reopening.
// Answers and closes are services/support.hpp's, shared with the admins' group and
// cabinetctl; the web inbox's are wrapped here with its answers (404, 409) and the ticket as
// it is after the change. "Unread" (sql 0049, docs/decisions.md): the customer wrote and no
// one who may answer has opened the ticket or answered it since; one flag for the whole team.
// The Db& functions are the handlers' (api/admin_support.cpp): each opens its own read or
// transaction; the txn-taking ones are their parts.
#include <pqxx/pqxx>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "db/db.hpp"
#include "services/customer_search.hpp"
#include "services/support.hpp"

namespace cabinet {

// Where a page of the inbox ends: the last ticket's place in the order.
struct InboxCursor {
    bool unread = false;
    int64_t updated_us = 0;  // updated_at, microseconds since the epoch
    int64_t id = 0;
};
std::string inbox_cursor_text(const InboxCursor& c);
// nullopt for text no page ever gave.
std::optional<InboxCursor> parse_inbox_cursor(std::string_view text);

struct InboxFilter {
    std::string status;  // open | waiting | closed; empty: every status
    std::string q;       // a number (ticket, customer or Telegram id) or a handle fragment; empty: none
    std::optional<InboxCursor> after;
    int64_t limit = 50;
};

struct InboxItem {
    SupportTicket ticket;  // no messages; message_count set
    std::string first_name;
    bool unread = false;
    InboxCursor place;
    std::optional<SupportMessage> last_message;  // its text cut to 200 characters
};
struct InboxPage {
    std::vector<InboxItem> items;
    std::optional<InboxCursor> next;  // set when the page is full
};
InboxPage list_inbox(pqxx::transaction_base& txn, const InboxFilter& f);
InboxPage list_inbox(Db& db, const InboxFilter& f);

struct InboxCounts {
    int64_t open = 0, waiting = 0, unread = 0;  // unread: of the tickets not closed
};
InboxCounts inbox_counts(pqxx::transaction_base& txn);
InboxCounts inbox_counts(Db& db);

struct StaffMessage {
    int64_t id = 0;
    SupportMessage message;
};
struct CustomerSummary : CustomerHandle {
    std::string last_name;
    std::optional<std::string> email;
    bool is_blocked = false;
    int64_t balance_minor = 0;
    std::string currency;
    int64_t created_at = 0;
    std::optional<SubscriptionGlance> subscription;
};
struct StaffTicket {
    SupportTicket ticket;  // no messages; message_count set
    bool unread = false;
    std::vector<StaffMessage> messages;   // oldest first
    std::optional<int64_t> more_before;   // the cursor for older messages, when there are
    CustomerSummary customer;
};
inline constexpr int64_t kStaffMessagesPage = 200;
// The ticket with its newest `limit` messages before message `before` (none: the newest);
// nullopt for an unknown ticket. `mark_read`: the caller may answer it, so opening it reads it.
std::optional<StaffTicket> staff_ticket(pqxx::transaction_base& txn, int64_t ticket_id, std::optional<int64_t> before,
                                        int64_t limit, bool mark_read);

enum class ReopenOutcome { reopened, not_found, was_open, other_open };
// A closed ticket back in the inbox (open when the customer spoke last, waiting when support
// did), audited as support.reopen. other_open: the customer has written since and has a
// newer ticket that is not closed (one per customer); `other` is set to it.
ReopenOutcome reopen_ticket(pqxx::transaction_base& txn, int64_t ticket_id, std::string_view actor,
                            int64_t& other);

// A staff member opens ticket `ticket_id` (its newest messages before `before`); nullopt for
// an unknown ticket. One who `may_answer` reads it by opening it (a write transaction; not
// when paging back with `before`); anyone else's look is a read and leaves it unread.
std::optional<StaffTicket> open_staff_ticket(Db& db, int64_t ticket_id, std::optional<int64_t> before, bool may_answer);

// The web inbox's answer. `source_ref`: reply_to_ticket's, from the Idempotency-Key.
struct StaffReply {
    int64_t ticket_id = 0;
    std::string text;  // valid_support_text
    std::string actor;
    std::optional<std::string> source_ref;
};
// Each of these returns the ticket as it is after the change, read in the transaction that
// made it, opened (so read) by `actor`. 404 for an unknown ticket.
// 409 when the ticket is closed; an answer already stored under its source_ref is no error.
StaffTicket reply_as_staff(Db& db, const StaffReply& r);
StaffTicket close_as_staff(Db& db, int64_t ticket_id, const std::string& actor);
// 409 when the customer has a newer ticket that is not closed (reopen_ticket's other_open,
// or their first message of one committing meanwhile).
StaffTicket reopen_as_staff(Db& db, int64_t ticket_id, const std::string& actor);

}  // namespace cabinet
