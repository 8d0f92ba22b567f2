// The owner's broadcasts (services/broadcasts.hpp; docs/api.md "Broadcasts"). Reads are the
// owner's and the viewer's, the rest the owner's (routes.cpp).
//   POST /api/admin/broadcasts/preview {audience, text?, button?}
//        → {count, length, nodes, button}: the audience's size now, and the text as
//        Telegram will show it (a tree the page draws), or 422 naming the field
//   POST /api/admin/broadcasts/test {text, button?} → {ok, chat_id}: the message to the
//        caller's own Telegram, now; Telegram's refusal as 502 with its words
//   POST /api/admin/broadcasts {audience, text, button?} (Idempotency-Key) → 201 the
//        broadcast, queued for the worker; the same key again → 200 the same broadcast
//   GET  /api/admin/broadcasts?cursor=&limit= → {items, next_cursor}, newest first
//   GET  /api/admin/broadcasts/{id} → the broadcast with its counts
//   GET  /api/admin/broadcasts/{id}/recipients?state=&cursor=&limit= → {items, next_cursor}:
//        who it reached and who not (state delivered, blocked, failed, pending), by customer
//   POST /api/admin/broadcasts/{id}/cancel → the broadcast, cancelled
#include "api/handlers.hpp"
#include <limits>

#include "api/serializers.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "http/query.hpp"
#include "services/broadcasts.hpp"
#include "telegram/message_delivery.hpp"
#include "util/json_fields.hpp"
#include "util/strings.hpp"

namespace cabinet::api {
namespace {

constexpr int64_t kDefaultPage = 50, kMaxPage = 200;
constexpr int64_t kMaxText = 16384;

const rapidjson::Value* member(const rapidjson::Value& obj, const char* field) {
    const auto it = obj.FindMember(field);
    return it == obj.MemberEnd() || it->value.IsNull() ? nullptr : &it->value;
}

BroadcastAudience audience_of(const rapidjson::Value& body) {
    const rapidjson::Value* a = member(body, "audience");
    if (!a || !a->IsObject()) throw ApiError(422, "audience: an object {kind, promo_group?, customer_id?} is required");
    BroadcastAudience out;
    out.kind = require_string(*a, "kind", 1, 20);
    if (const auto* g = member(*a, "promo_group")) {
        if (!g->IsString()) throw ApiError(422, "audience.promo_group must be a string");
        out.promo_group = std::string(trim(std::string_view(g->GetString(), g->GetStringLength())));
    }
    if (const auto* c = member(*a, "customer_id")) {
        if (!c->IsInt64()) throw ApiError(422, "audience.customer_id must be an integer");
        out.customer_id = c->GetInt64();
    }
    check_audience(out);
    return out;
}

std::optional<UrlButton> button_of(const rapidjson::Value& body) {
    const rapidjson::Value* b = member(body, "button");
    if (!b) return std::nullopt;
    if (!b->IsObject()) throw ApiError(422, "button: an object {text, url} or null");
    return UrlButton{require_string(*b, "text", 0, 200), std::string(trim(require_string(*b, "url", 0, 600)))};
}

int64_t id_of(Exchange& ex) {
    int64_t id = 0;
    if (!parse_int64(ex.req.path_params.at(0), id) || id < 1) throw not_found("no broadcast with that id");
    return id;
}

}  // namespace

void post_admin_broadcast_preview(Exchange& ex) {
    const JsonBody body(ex.req);
    const BroadcastAudience audience = audience_of(body);
    const std::string text = optional_string(body, "text", kMaxText).value_or("");
    const std::optional<UrlButton> button = button_of(body);
    std::vector<HtmlNode> nodes;
    if (!trim(text).empty() || button) nodes = check_broadcast_message(text, button);
    const int64_t count = ex.io.db.read([&](auto& txn) { return audience_count(txn, audience); });
    auto& w = ex.resp.json();
    w.StartObject();
    put_int(w, "count", count);
    put_int(w, "length", static_cast<int64_t>(telegram_text_length(nodes)));
    write_key(w, "nodes");
    write_html_nodes(w, nodes);
    write_key(w, "button");
    if (button) {
        w.StartObject();
        put_text(w, "text", std::string(trim(button->text)));
        put_text(w, "url", button->url);
        w.EndObject();
    } else {
        w.Null();
    }
    w.EndObject();
}

void post_admin_broadcast_test(Exchange& ex) {
    const JsonBody body(ex.req);
    const std::string text = require_string(body, "text", 1, kMaxText);
    std::optional<UrlButton> button = button_of(body);
    check_broadcast_message(text, button);
    if (button) button->text = std::string(trim(button->text));
    const auto chat = ex.caller().user.telegram_id;
    if (!chat) throw ApiError(409, "your account has no Telegram to send the test to");
    const Delivery d = MessageSender(ex.settings()).send_html(*chat, text, button);
    if (d.kind == Delivery::Kind::retry_after) {
        ApiError e(429, "Telegram asks to wait " + std::to_string(d.retry_after_s) + " s");
        e.headers.emplace_back("Retry-After", std::to_string(d.retry_after_s));
        throw e;
    }
    if (d.kind != Delivery::Kind::delivered) throw ApiError(502, "Telegram did not take the message: " + d.error);
    auto& w = ex.resp.json();
    w.StartObject();
    put_bool(w, "ok", true);
    put_int(w, "chat_id", *chat);
    w.EndObject();
}

void post_admin_broadcast(Exchange& ex) {
    const std::string& key = ex.req.idempotency_key;
    if (key.empty() || key.size() > 100)
        throw bad_request("an Idempotency-Key header (1..100 characters) is required: one per broadcast the page sends");
    const JsonBody body(ex.req);
    const BroadcastAudience audience = audience_of(body);
    const std::string text = require_string(body, "text", 1, kMaxText);
    const std::optional<UrlButton> button = button_of(body);
    check_broadcast_message(text, button);
    const std::string by = admin_actor(ex);
    const CreatedBroadcast made =
        ex.io.db.transact([&](pqxx::work& txn) { return create_broadcast(txn, audience, text, button, by, key); });
    if (made.replayed) ex.resp.header("Idempotent-Replayed", "true");
    else ex.resp.status = 201;
    write_broadcast(ex.resp.json(), made.broadcast);
}

void get_admin_broadcasts(Exchange& ex) {
    const auto before = query_int(ex.req.query, "cursor", 1, std::numeric_limits<int64_t>::max());
    const int64_t limit = query_int(ex.req.query, "limit", 1, kMaxPage).value_or(kDefaultPage);
    const auto items = ex.io.db.read([&](auto& txn) { return list_broadcasts(txn, before, limit); });
    write_page(ex.resp.json(), items, limit, write_broadcast);
}

void get_admin_broadcast(Exchange& ex) {
    const int64_t id = id_of(ex);
    const auto b = ex.io.db.read([&](auto& txn) { return find_broadcast(txn, id); });
    if (!b) throw not_found("no broadcast with that id");
    write_broadcast(ex.resp.json(), *b);
}

void get_admin_broadcast_recipients(Exchange& ex) {
    const int64_t id = id_of(ex);
    auto state = query_param(ex.req.query, "state");
    if (state && state->empty()) state.reset();
    const int64_t after = query_int(ex.req.query, "cursor", 1, std::numeric_limits<int64_t>::max()).value_or(0);
    const int64_t limit = query_int(ex.req.query, "limit", 1, kMaxPage).value_or(kDefaultPage);
    const auto items = ex.io.db.read([&](auto& txn) { return list_recipients(txn, id, state, after, limit); });
    write_page(ex.resp.json(), items, limit, write_recipient);
}

void post_admin_broadcast_cancel(Exchange& ex) {
    const int64_t id = id_of(ex);
    const std::string by = admin_actor(ex);
    write_broadcast(ex.resp.json(), ex.io.db.write([&](pqxx::work& txn) { return cancel_broadcast(txn, id, by); }));
}

}  // namespace cabinet::api
