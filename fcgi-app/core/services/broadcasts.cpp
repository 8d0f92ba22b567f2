#include "services/broadcasts.hpp"

#include <algorithm>

#include "db/audit_repo.hpp"
#include "db/fields.hpp"
#include "db/prepared.hpp"
#include "errors.hpp"
#include "jobs/job_queue.hpp"
#include "services/broadcast_sending.hpp"
#include "util/json_object.hpp"
#include "util/strings.hpp"

namespace cabinet {
namespace {

constexpr size_t kMaxShown = 4096;   // Telegram's limit on a message's text, in characters
constexpr size_t kMaxSource = 16384; // the text with its tags

constexpr const char* kKinds[] = {"all", "active", "trial", "expired", "never_paid", "promo_group", "customer"};

struct Resolved {
    std::optional<int64_t> group_id;
    std::optional<int64_t> customer_id;
};

Resolved resolve(pqxx::transaction_base& txn, const BroadcastAudience& a) {
    check_audience(a);
    Resolved r;
    if (a.kind == "promo_group") {
        const pqxx::result g = exec_prepared(txn, "broadcast_promo_group_id", *a.promo_group);
        if (g.empty()) throw ApiError(422, "audience.promo_group: no promo group with that name");
        r.group_id = g[0][0].as<int64_t>();
    } else if (a.kind == "customer") {
        if (exec_prepared(txn, "broadcast_customer_exists", *a.customer_id).empty())
            throw ApiError(422, "audience.customer_id: no customer with that id");
        r.customer_id = a.customer_id;
    }
    return r;
}

BroadcastRow row_of(const pqxx::row& r) {
    BroadcastRow b;
    b.id = r["id"].as<int64_t>();
    b.status = r["status"].c_str();
    b.audience.kind = r["audience_kind"].c_str();
    if (!r["promo_group"].is_null()) b.audience.promo_group = r["promo_group"].c_str();
    if (!r["customer_id"].is_null()) b.audience.customer_id = r["customer_id"].as<int64_t>();
    b.text = r["text"].c_str();
    if (!r["button_url"].is_null()) b.button = UrlButton{r["button_text"].c_str(), r["button_url"].c_str()};
    b.created_by = r["created_by"].c_str();
    if (!r["cancelled_by"].is_null()) b.cancelled_by = r["cancelled_by"].c_str();
    b.total = r["total"].as<int64_t>();
    b.delivered = r["delivered"].as<int64_t>();
    b.blocked = r["blocked"].as<int64_t>();
    b.failed = r["failed"].as<int64_t>();
    auto t = [&](const char* f) { return optional_int(r[f]); };
    b.created_at = t("created_at");
    b.started_at = t("started_at");
    b.finished_at = t("finished_at");
    return b;
}

BroadcastRow must_find(pqxx::transaction_base& txn, int64_t id) {
    auto b = find_broadcast(txn, id);
    if (!b) throw not_found("no broadcast with that id");
    return *b;
}

std::string audit_payload(const BroadcastRow& b, int64_t count) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    JsonObject(w)
        .put("audience", b.audience.kind)
        .put("promo_group", b.audience.promo_group)
        .put("customer_id", b.audience.customer_id)
        .put("count_now", count)
        .put("text", b.text)
        .put("button_url", b.button ? std::optional<std::string>(b.button->url) : std::nullopt);
    return {buf.GetString(), buf.GetSize()};
}

}  // namespace

void check_audience(const BroadcastAudience& a) {
    bool known = false;
    for (const char* k : kKinds) known = known || a.kind == k;
    if (!known) throw ApiError(422, "audience.kind must be one of: all, active, trial, expired, never_paid, promo_group, customer");
    if (a.kind == "promo_group" && (!a.promo_group || a.promo_group->empty() || utf8_length(*a.promo_group) > 64))
        throw ApiError(422, "audience.promo_group: the promo group's name is needed (1..64 characters)");
    if (a.kind == "customer" && (!a.customer_id || *a.customer_id < 1))
        throw ApiError(422, "audience.customer_id: the customer's id is needed");
}

std::vector<HtmlNode> check_broadcast_message(const std::string& text, const std::optional<UrlButton>& button) {
    if (text.size() > kMaxSource) throw ApiError(422, "text: at most 16384 characters with its tags");
    std::vector<HtmlNode> nodes;
    try {
        nodes = parse_telegram_html(text);
    } catch (const TelegramHtmlError& e) {
        throw ApiError(422, std::string("text: ") + e.what());
    }
    if (!has_visible_text(nodes)) throw ApiError(422, "text: the message has nothing to show");
    if (const size_t n = telegram_text_length(nodes); n > kMaxShown)
        throw ApiError(422, "text: " + std::to_string(n) + " characters shown, Telegram takes at most 4096");
    if (button) {
        const size_t n = utf8_length(trim(button->text));
        if (n < 1 || n > 64) throw ApiError(422, "button.text: 1 to 64 characters");
        if (!is_button_url(button->url))
            throw ApiError(422, "button.url: an http:// or https:// link of at most 512 characters, without spaces");
    }
    return nodes;
}

int64_t audience_count(pqxx::transaction_base& txn, const BroadcastAudience& a) {
    const Resolved r = resolve(txn, a);
    return exec_prepared1(txn, "broadcast_audience_count", a.kind, r.group_id, r.customer_id)[0].as<int64_t>();
}

int64_t audience_count(Db& db, const BroadcastAudience& a) {
    return db.read([&](auto& txn) { return audience_count(txn, a); });
}

void send_test_broadcast(const Settings& s, std::optional<int64_t> chat_id, const std::string& text,
                         std::optional<UrlButton> button) {
    check_broadcast_message(text, button);
    if (button) button->text = std::string(trim(button->text));
    if (!chat_id) throw ApiError(409, "your account has no Telegram to send the test to");
    const Delivery d = MessageSender(s).send_html(*chat_id, text, button);
    if (d.kind == Delivery::Kind::retry_after)
        throw retry_later(429, "Telegram asks to wait " + std::to_string(d.retry_after_s) + " s", d.retry_after_s);
    if (d.kind != Delivery::Kind::delivered) throw ApiError(502, "Telegram did not take the message: " + d.error);
}

CreatedBroadcast create_broadcast(pqxx::work& txn, const BroadcastAudience& a, const std::string& text,
                                  const std::optional<UrlButton>& button, const std::string& actor,
                                  const std::string& idempotency_key) {
    check_broadcast_message(text, button);
    const Resolved r = resolve(txn, a);
    const pqxx::result made = exec_prepared(
        txn, "broadcast_create", a.kind, r.group_id, r.customer_id, text,
        button ? std::optional<std::string>(std::string(trim(button->text))) : std::nullopt,
        button ? std::optional<std::string>(button->url) : std::nullopt, actor, idempotency_key);
    if (made.empty()) {
        const BroadcastRow first = must_find(txn, exec_prepared1(txn, "broadcast_by_key", idempotency_key)[0].as<int64_t>());
        if (first.text != text || first.audience.kind != a.kind)
            throw ApiError(409, "this Idempotency-Key was used for another broadcast; send a new one");
        return {first, true};
    }
    const int64_t id = made[0][0].as<int64_t>();
    jobs::enqueue(txn, kBroadcastJob, broadcast_job_payload(id));
    BroadcastRow b = must_find(txn, id);
    const int64_t count = exec_prepared1(txn, "broadcast_audience_count", a.kind, r.group_id, r.customer_id)[0].as<int64_t>();
    write_audit(txn, actor, "broadcast.create", "broadcast:" + std::to_string(id), audit_payload(b, count));
    return {std::move(b), false};
}

CreatedBroadcast create_broadcast(Db& db, const NewBroadcast& b) {
    return db.transact([&](pqxx::work& txn) {
        return create_broadcast(txn, b.audience, b.text, b.button, b.actor, b.idempotency_key);
    });
}

std::optional<BroadcastRow> find_broadcast(pqxx::transaction_base& txn, int64_t id) {
    const pqxx::result r = exec_prepared(txn, "broadcast_get", id);
    if (r.empty()) return std::nullopt;
    return row_of(r[0]);
}

std::optional<BroadcastRow> find_broadcast(Db& db, int64_t id) {
    return db.read([&](auto& txn) { return find_broadcast(txn, id); });
}

std::vector<BroadcastRow> list_broadcasts(pqxx::transaction_base& txn, std::optional<int64_t> before, int64_t limit) {
    std::vector<BroadcastRow> out;
    for (const auto& r : exec_prepared(txn, "broadcast_page", before, limit)) out.push_back(row_of(r));
    return out;
}

std::vector<BroadcastRow> list_broadcasts(Db& db, std::optional<int64_t> before, int64_t limit) {
    return db.read([&](auto& txn) { return list_broadcasts(txn, before, limit); });
}

std::vector<RecipientRow> list_recipients(pqxx::transaction_base& txn, int64_t id, const std::optional<std::string>& state,
                                          int64_t after, int64_t limit) {
    static constexpr std::string_view kStates[] = {"pending", "sending", "delivered", "blocked", "failed"};
    if (state && std::find(std::begin(kStates), std::end(kStates), *state) == std::end(kStates))
        throw bad_request("state must be one of pending, sending, delivered, blocked, failed");
    must_find(txn, id);
    std::vector<RecipientRow> out;
    for (const auto& r : exec_prepared(txn, "broadcast_recipients_page", id, state, after, limit)) {
        RecipientRow x;
        x.id = r["user_id"].as<int64_t>();
        x.customer = {x.id, r["telegram_id"].as<int64_t>(), r["username"].c_str(), r["first_name"].c_str()};
        x.state = r["state"].c_str();
        x.error = optional_text(r["error"]);
        x.sent_at = optional_int(r["sent_at"]);
        out.push_back(std::move(x));
    }
    return out;
}

std::vector<RecipientRow> list_recipients(Db& db, const RecipientQuery& q) {
    return db.read([&](auto& txn) { return list_recipients(txn, q.broadcast_id, q.state, q.after, q.limit); });
}

void write_recipient(JsonWriter& w, const RecipientRow& r) {
    JsonObject o(w);
    write_customer_handle(o, r.customer);
    o.put("state", r.state).put("error", r.error).time("sent_at", r.sent_at);
}

BroadcastRow cancel_broadcast(pqxx::work& txn, int64_t id, const std::string& actor) {
    const BroadcastRow before = must_find(txn, id);
    if (exec_prepared(txn, "broadcast_cancel", id, actor).empty())
        throw ApiError(409, "the broadcast has already " + std::string(before.status == "done" ? "finished" : "been cancelled"));
    write_audit(txn, actor, "broadcast.cancel", "broadcast:" + std::to_string(id),
                "{\"delivered_before\":" + std::to_string(before.delivered) + "}");
    return must_find(txn, id);
}

BroadcastRow cancel_broadcast(Db& db, int64_t id, const std::string& actor) {
    return db.write([&](pqxx::work& txn) { return cancel_broadcast(txn, id, actor); });
}

void note_bot_reachable(pqxx::transaction_base& txn, int64_t telegram_id) {
    exec_prepared(txn, "broadcast_bot_reachable", telegram_id);
}

void write_url_button(JsonObject& o, const std::optional<UrlButton>& button) {
    if (button) o.object("button").put("text", button->text).put("url", button->url);
    else o.null("button");
}

void write_broadcast(JsonWriter& w, const BroadcastRow& b) {
    JsonObject o(w);
    o.put("id", b.id).put("status", b.status);
    o.object("audience")
        .put("kind", b.audience.kind)
        .put("promo_group", b.audience.promo_group)
        .put("customer_id", b.audience.customer_id);
    o.put("text", b.text);
    write_url_button(o, b.button);
    o.put("total", b.total).put("delivered", b.delivered).put("blocked", b.blocked).put("failed", b.failed);
    o.put("pending", std::max<int64_t>(b.total - b.delivered - b.blocked - b.failed, 0));
    o.put("created_by", b.created_by).put("cancelled_by", b.cancelled_by);
    o.time("created_at", b.created_at).time("started_at", b.started_at).time("finished_at", b.finished_at);
}

}  // namespace cabinet
