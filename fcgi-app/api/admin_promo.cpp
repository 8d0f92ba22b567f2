// The owner's promo codes (services/promo_admin.hpp; docs/api.md "Promo codes"). Reads are
// the owner's and the viewer's, changes the owner's (routes.cpp); each change is audited
// with the code before and after.
//   GET  /api/admin/promo-codes?q=&status=active|disabled|all&cursor=&limit=
//        {items: [code…], next_cursor}: newest first, `limit` (1..200, 50) a page; the
//        cursor is the last item's id, as text
//   POST /api/admin/promo-codes {code, reward_type, value, plan_code?, max_uses?,
//        valid_from?, valid_until?} → 201 the code
//   POST /api/admin/promo-codes/{id}/disable | /enable → the code
//   POST /api/admin/promo-codes/batch {count, reward_type, value, plan_code?, valid_until?,
//        prefix?} → text/csv, one new one-use code a line
#include <limits>

#include "api/handlers.hpp"
#include "api/serializers.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "http/query.hpp"
#include "services/promo_admin.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet::api {
namespace {

constexpr int64_t kDefaultPage = 50, kMaxPage = 200;
constexpr int64_t kAnyInt = std::numeric_limits<int64_t>::max();

std::optional<int64_t> optional_time(const rapidjson::Value& body, const char* field) {
    if (!has_field(body, field) || body[field].IsNull()) return std::nullopt;
    const auto t = parse_iso8601(require_string(body, field, 1, 40));
    if (!t) throw ApiError(422, std::string(field) + " must be an ISO-8601 instant, e.g. 2026-01-31T00:00:00Z");
    return t;
}

std::optional<int64_t> optional_int(const rapidjson::Value& body, const char* field) {
    if (!has_field(body, field) || body[field].IsNull()) return std::nullopt;
    return require_int(body, field, -kAnyInt, kAnyInt);
}

std::optional<std::string> optional_text(const rapidjson::Value& body, const char* field) {
    if (!has_field(body, field) || body[field].IsNull()) return std::nullopt;
    std::string v(trim(require_string(body, field, 0, 64)));
    if (v.empty()) return std::nullopt;
    return v;
}

int64_t id_of(Exchange& ex) {
    int64_t id = 0;
    if (!parse_int64(ex.req.path_params.at(0), id) || id < 1) throw not_found("no promo code with that id");
    return id;
}

void answer_code(Exchange& ex, const AdminPromoCode& c) { write_promo_code(ex.resp.json(), c); }

}  // namespace

void get_admin_promo_codes(Exchange& ex) {
    PromoCodeFilter f;
    f.text = query_param(ex.req.query, "q");
    if (f.text && trim(*f.text).empty()) f.text.reset();
    const auto status = query_param(ex.req.query, "status").value_or("all");
    if (status == "active" || status == "disabled") f.status = status;
    else if (status != "all") throw bad_request("status must be active, disabled or all");
    f.before_id = query_int(ex.req.query, "cursor", 1, kAnyInt);
    f.limit = query_int(ex.req.query, "limit", 1, kMaxPage).value_or(kDefaultPage);
    write_page(ex.resp.json(), list_promo_codes(ex.io.db, f), f.limit, write_promo_code);
}

void post_admin_promo_code(Exchange& ex) {
    const JsonBody body(ex.req);
    PromoCodeInput in;
    in.code = std::string(trim(require_string(body, "code", 1, 64)));
    in.reward_type = require_string(body, "reward_type", 1, 20);
    in.value = require_int(body, "value", -kAnyInt, kAnyInt);
    in.plan_code = optional_text(body, "plan_code");
    in.max_uses = optional_int(body, "max_uses");
    in.valid_from = optional_time(body, "valid_from");
    in.valid_until = optional_time(body, "valid_until");
    const AdminPromoCode made = create_promo_code(ex.io.db, in, admin_actor(ex));
    ex.resp.status = 201;
    answer_code(ex, made);
}

void post_admin_promo_code_disable(Exchange& ex) {
    const int64_t id = id_of(ex);
    answer_code(ex, set_promo_code_enabled(ex.io.db, id, false, admin_actor(ex)));
}

void post_admin_promo_code_enable(Exchange& ex) {
    const int64_t id = id_of(ex);
    answer_code(ex, set_promo_code_enabled(ex.io.db, id, true, admin_actor(ex)));
}

void post_admin_promo_code_batch(Exchange& ex) {
    const JsonBody body(ex.req);
    GiftBatchInput in;
    in.count = require_int(body, "count", -kAnyInt, kAnyInt);
    in.reward_type = require_string(body, "reward_type", 1, 20);
    in.value = require_int(body, "value", -kAnyInt, kAnyInt);
    in.plan_code = optional_text(body, "plan_code");
    in.valid_until = optional_time(body, "valid_until");
    in.prefix = optional_text(body, "prefix").value_or("");
    const auto codes = create_gift_batch(ex.io.db, in, admin_actor(ex));

    // Spreadsheet-safe: a code starts with a letter or digit (services/promo_admin.cpp).
    const std::string reward = in.reward_type + "," + std::to_string(in.value) + "," + in.plan_code.value_or("") + "," +
                               (in.valid_until ? iso8601_utc(*in.valid_until) : std::string()) + "\r\n";
    std::string csv = "code,reward_type,value,plan_code,valid_until\r\n";
    csv.reserve(csv.size() + codes.size() * (codes.front().size() + reward.size() + 1));
    for (const auto& c : codes) csv += c + "," + reward;
    ex.resp.text("text/csv; charset=utf-8", csv);
    ex.resp.header("Content-Disposition", "attachment; filename=\"gift-codes-" + std::to_string(unix_now()) + ".csv\"");
}

}  // namespace cabinet::api
