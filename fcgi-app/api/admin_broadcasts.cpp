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
#include "api/admin_lists.hpp"
#include "api/handlers.hpp"
#include "api/serializers.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "http/query.hpp"
#include "services/broadcasts.hpp"
#include "util/strings.hpp"

namespace cabinet::api {
namespace {

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
    // Trimmed as it is sent and stored (the text is checked trimmed too).
    return UrlButton{std::string(trim(require_string(*b, "text", 0, 200))),
                     std::string(trim(require_string(*b, "url", 0, 600)))};
}

int64_t id_of(Exchange& ex) { return path_id(ex, "no broadcast with that id"); }

}  // namespace

void post_admin_broadcast_preview(Exchange& ex) {
    const JsonBody body(ex.req);
    const BroadcastAudience audience = audience_of(body);
    const std::string text = optional_string(body, "text", kMaxText).value_or("");
    const std::optional<UrlButton> button = button_of(body);
    std::vector<HtmlNode> nodes;
    if (!trim(text).empty() || button) nodes = check_broadcast_message(text, button);
    const int64_t count = audience_count(ex.io.db, audience);
    JsonObject o(ex.resp.json());
    o.put("count", count).put("length", telegram_text_length(nodes));
    write_html_nodes(o.key("nodes"), nodes);
    write_url_button(o, button);
}

void post_admin_broadcast_test(Exchange& ex) {
    const JsonBody body(ex.req);
    const std::string text = require_string(body, "text", 1, kMaxText);
    const std::optional<UrlButton> button = button_of(body);
    const auto chat = ex.caller().user.telegram_id;
    send_test_broadcast(ex.settings(), chat, text, button);
    JsonObject(ex.resp.json()).put("ok", true).put("chat_id", *chat);
}

void post_admin_broadcast(Exchange& ex) {
    const std::string& key = ex.req.idempotency_key;
    if (key.empty() || key.size() > 100)
        throw bad_request("an Idempotency-Key header (1..100 characters) is required: one per broadcast the page sends");
    const JsonBody body(ex.req);
    NewBroadcast b;
    b.audience = audience_of(body);
    b.text = require_string(body, "text", 1, kMaxText);
    b.button = button_of(body);
    check_broadcast_message(b.text, b.button);
    b.actor = admin_actor(ex);
    b.idempotency_key = key;
    const CreatedBroadcast made = create_broadcast(ex.io.db, b);
    if (made.replayed) ex.resp.header("Idempotent-Replayed", "true");
    else ex.resp.status = 201;
    write_broadcast(ex.resp.json(), made.broadcast);
}

void get_admin_broadcasts(Exchange& ex) {
    const auto before = page_cursor(ex);
    const int64_t limit = page_limit(ex);
    const auto items = list_broadcasts(ex.io.db, before, limit);
    write_page(ex.resp.json(), items, limit, write_broadcast);
}

void get_admin_broadcast(Exchange& ex) {
    const int64_t id = id_of(ex);
    const auto b = find_broadcast(ex.io.db, id);
    if (!b) throw not_found("no broadcast with that id");
    write_broadcast(ex.resp.json(), *b);
}

void get_admin_broadcast_recipients(Exchange& ex) {
    RecipientQuery q;
    q.broadcast_id = id_of(ex);
    q.state = query_param(ex.req.query, "state");
    if (q.state && q.state->empty()) q.state.reset();
    q.after = page_cursor(ex).value_or(0);
    q.limit = page_limit(ex);
    const auto items = list_recipients(ex.io.db, q);
    write_page(ex.resp.json(), items, q.limit, write_recipient);
}

void post_admin_broadcast_cancel(Exchange& ex) {
    const int64_t id = id_of(ex);
    const BroadcastRow b = cancel_broadcast(ex.io.db, id, admin_actor(ex));
    write_broadcast(ex.resp.json(), b);
}

}  // namespace cabinet::api
