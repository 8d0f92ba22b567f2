#include "services/broadcasts.hpp"

#include <algorithm>

#include "db/audit_repo.hpp"
#include "db/fields.hpp"
#include "db/prepared.hpp"
#include "errors.hpp"
#include "jobs/job_queue.hpp"
#include "services/broadcast_sending.hpp"
#include "util/json_fields.hpp"
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
    w.StartObject();
    put_text(w, "audience", b.audience.kind);
    put_text(w, "promo_group", b.audience.promo_group);
    put_int(w, "customer_id", b.audience.customer_id);
    put_int(w, "count_now", count);
    put_text(w, "text", b.text);
    put_text(w, "button_url", b.button ? std::optional<std::string>(b.button->url) : std::nullopt);
    w.EndObject();
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

std::optional<BroadcastRow> find_broadcast(pqxx::transaction_base& txn, int64_t id) {
    const pqxx::result r = exec_prepared(txn, "broadcast_get", id);
    if (r.empty()) return std::nullopt;
    return row_of(r[0]);
}

std::vector<BroadcastRow> list_broadcasts(pqxx::transaction_base& txn, std::optional<int64_t> before, int64_t limit) {
    std::vector<BroadcastRow> out;
    for (const auto& r : exec_prepared(txn, "broadcast_page", before, limit)) out.push_back(row_of(r));
    return out;
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

void write_recipient(JsonWriter& w, const RecipientRow& r) {
    w.StartObject();
    write_customer_handle(w, r.customer);
    put_text(w, "state", r.state);
    put_text(w, "error", r.error);
    put_time(w, "sent_at", r.sent_at);
    w.EndObject();
}

BroadcastRow cancel_broadcast(pqxx::work& txn, int64_t id, const std::string& actor) {
    const BroadcastRow before = must_find(txn, id);
    if (exec_prepared(txn, "broadcast_cancel", id, actor).empty())
        throw ApiError(409, "the broadcast has already " + std::string(before.status == "done" ? "finished" : "been cancelled"));
    write_audit(txn, actor, "broadcast.cancel", "broadcast:" + std::to_string(id),
                "{\"delivered_before\":" + std::to_string(before.delivered) + "}");
    return must_find(txn, id);
}

void note_bot_reachable(pqxx::transaction_base& txn, int64_t telegram_id) {
    exec_prepared(txn, "broadcast_bot_reachable", telegram_id);
}

void write_broadcast(JsonWriter& w, const BroadcastRow& b) {
    w.StartObject();
    put_int(w, "id", b.id);
    put_text(w, "status", b.status);
    write_key(w, "audience");
    w.StartObject();
    put_text(w, "kind", b.audience.kind);
    put_text(w, "promo_group", b.audience.promo_group);
    put_int(w, "customer_id", b.audience.customer_id);
    w.EndObject();
    put_text(w, "text", b.text);
    write_key(w, "button");
    if (b.button) {
        w.StartObject();
        put_text(w, "text", b.button->text);
        put_text(w, "url", b.button->url);
        w.EndObject();
    } else {
        w.Null();
    }
    put_int(w, "total", b.total);
    put_int(w, "delivered", b.delivered);
    put_int(w, "blocked", b.blocked);
    put_int(w, "failed", b.failed);
    put_int(w, "pending", std::max<int64_t>(b.total - b.delivered - b.blocked - b.failed, 0));
    put_text(w, "created_by", b.created_by);
    put_text(w, "cancelled_by", b.cancelled_by);
    put_time(w, "created_at", b.created_at);
    put_time(w, "started_at", b.started_at);
    put_time(w, "finished_at", b.finished_at);
    w.EndObject();
}

}  // namespace cabinet
