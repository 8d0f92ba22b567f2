#pragma once
// The owner's support inbox (/api/admin/support/*; docs/api.md "Support inbox"): the tickets
// of every customer, unread first, one ticket with its messages and its customer, reopening.
// Answers and closes are services/support.hpp's, shared with the admins' group and
// cabinetctl. "Unread" (sql 0049, docs/decisions.md): the customer wrote and no one who may
// answer has opened the ticket or answered it since; one flag for the whole team.
#include <pqxx/pqxx>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

struct InboxCounts {
    int64_t open = 0, waiting = 0, unread = 0;  // unread: of the tickets not closed
};
InboxCounts inbox_counts(pqxx::transaction_base& txn);

struct StaffMessage {
    int64_t id = 0;
    SupportMessage message;
};
struct CustomerSummary {
    int64_t id = 0;
    std::optional<int64_t> telegram_id;
    std::string username, first_name, last_name;
    std::optional<std::string> email;
    bool is_blocked = false;
    int64_t balance_minor = 0;
    std::string currency;
    int64_t created_at = 0;
    struct Sub {
        std::string status;  // effective (domain/subscription_status.hpp)
        bool is_trial = false;
        std::string plan_name;
        int64_t expire_at = 0;
        int64_t traffic_limit_bytes = 0, traffic_used_bytes = 0;
    };
    std::optional<Sub> subscription;
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

}  // namespace cabinet
