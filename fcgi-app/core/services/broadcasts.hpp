#pragma once
// The owner's broadcasts as the API sees them (api/admin_broadcasts.cpp; docs/api.md
// "Broadcasts"): the message checked as Telegram would take it, the audience counted,
// a broadcast made once per Idempotency-Key and queued for the worker
// (services/broadcast_sending.hpp), read back with its counts, cancelled. Bad input is an
// ApiError 422 whose detail starts with the field's name, and nothing is written.
// The handlers call the Db& functions, each its own read or transaction; the txn-taking
// ones are their parts.
#include <pqxx/pqxx>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/settings.hpp"
#include "db/db.hpp"
#include "domain/telegram_html.hpp"
#include "services/customer_handle.hpp"
#include "telegram/message_delivery.hpp"
#include "util/json_object.hpp"

namespace cabinet {

struct BroadcastAudience {
    std::string kind;  // all, active, trial, expired, never_paid, promo_group, customer
    std::optional<std::string> promo_group;
    std::optional<int64_t> customer_id;
};

// "audience.kind …" unless one of the kinds, with the member its kind needs.
void check_audience(const BroadcastAudience& a);
// The text's tree, or 422 "text: …" (Telegram's HTML, 1..4096 characters shown); the
// button's text 1..64 characters and its URL http(s) ("button.url: …").
std::vector<HtmlNode> check_broadcast_message(const std::string& text, const std::optional<UrlButton>& button);

// How many customers the audience has now (422 for a promo group or customer not found).
int64_t audience_count(pqxx::transaction_base& txn, const BroadcastAudience& a);
int64_t audience_count(Db& db, const BroadcastAudience& a);

// The owner's test: the message, checked, sent now to `chat_id` (the caller's Telegram; none:
// 409). Telegram's "wait" is a 429 with Retry-After, any other refusal a 502 with its words.
void send_test_broadcast(const Settings& s, std::optional<int64_t> chat_id, const std::string& text,
                         std::optional<UrlButton> button);

struct BroadcastRow {
    int64_t id = 0;
    std::string status;
    BroadcastAudience audience;
    std::string text;
    std::optional<UrlButton> button;
    std::string created_by;
    std::optional<std::string> cancelled_by;
    int64_t total = 0, delivered = 0, blocked = 0, failed = 0;
    std::optional<int64_t> created_at, started_at, finished_at;
};

struct CreatedBroadcast {
    BroadcastRow broadcast;
    bool replayed = false;  // the key's broadcast, made by an earlier request
};

// Checks everything, then writes the broadcast (queued) and its first job, audited. The
// same key again gives the broadcast it made; with another text, 409.
CreatedBroadcast create_broadcast(pqxx::work& txn, const BroadcastAudience& a, const std::string& text,
                                  const std::optional<UrlButton>& button, const std::string& actor,
                                  const std::string& idempotency_key);
struct NewBroadcast {
    BroadcastAudience audience;
    std::string text;
    std::optional<UrlButton> button;
    std::string actor;
    std::string idempotency_key;
};
// create_broadcast in a transaction of its own.
CreatedBroadcast create_broadcast(Db& db, const NewBroadcast& b);
std::optional<BroadcastRow> find_broadcast(pqxx::transaction_base& txn, int64_t id);
std::optional<BroadcastRow> find_broadcast(Db& db, int64_t id);
// Newest first, ids below `before` when given.
std::vector<BroadcastRow> list_broadcasts(pqxx::transaction_base& txn, std::optional<int64_t> before, int64_t limit);
std::vector<BroadcastRow> list_broadcasts(Db& db, std::optional<int64_t> before, int64_t limit);
// One customer of a broadcast and what became of their message.
struct RecipientRow {
    int64_t id = 0;  // the customer's (the page's cursor)
    CustomerHandle customer;
    std::string state;  // pending, sending, delivered, blocked, failed
    std::optional<std::string> error;  // Telegram's words, or "unknown" (the worker stopped mid-call)
    std::optional<int64_t> sent_at;
};
// Broadcast `id`'s recipients in customer order after `after`, of one `state` or all;
// 404 for an unknown broadcast, 400 for an unknown state.
std::vector<RecipientRow> list_recipients(pqxx::transaction_base& txn, int64_t id, const std::optional<std::string>& state,
                                          int64_t after, int64_t limit);
struct RecipientQuery {
    int64_t broadcast_id = 0;
    std::optional<std::string> state;
    int64_t after = 0;  // a customer's id; 0: from the first
    int64_t limit = 50;
};
std::vector<RecipientRow> list_recipients(Db& db, const RecipientQuery& q);
void write_recipient(JsonWriter& w, const RecipientRow& r);

// Queued or sending → cancelled (audited); 404 unknown, 409 when it already ended.
BroadcastRow cancel_broadcast(pqxx::work& txn, int64_t id, const std::string& actor);
BroadcastRow cancel_broadcast(Db& db, int64_t id, const std::string& actor);

// A private message from `telegram_id` reached the bot: a customer marked bot-blocked has
// it unblocked, and later audiences count them again (api/bot/webhook.cpp).
void note_bot_reachable(pqxx::transaction_base& txn, int64_t telegram_id);

// {id, status, audience: {kind, promo_group, customer_id}, text, button: {text, url} | null,
//  total, delivered, blocked, failed, pending, created_by, cancelled_by, created_at,
//  started_at, finished_at}
void write_broadcast(JsonWriter& w, const BroadcastRow& b);
// "button": {text, url}, or null for none.
void write_url_button(JsonObject& o, const std::optional<UrlButton>& button);

}  // namespace cabinet
