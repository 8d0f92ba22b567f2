#include "services/payment_admin.hpp"

#include <spdlog/spdlog.h>

#include "db/audit_repo.hpp"
#include "db/fields.hpp"
#include "db/filtered_query.hpp"
#include "db/ledger_repo.hpp"
#include "db/prepared.hpp"
#include "domain/states.hpp"
#include "errors.hpp"
#include "payments/yookassa.hpp"
#include "services/admin_action_keys.hpp"
#include "services/customer_handle.hpp"
#include "services/panel_restore.hpp"
#include "services/payment_confirmation.hpp"
#include "services/payment_refund.hpp"
#include "services/subscription_grant.hpp"
#include "telegram/bot_api.hpp"
#include "util/csv.hpp"
#include "util/json_object.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet {
namespace {

constexpr const char* kSelect =
    "SELECT t.id, floor(extract(epoch FROM t.created_at))::bigint AS created_at,"
    " coalesce(floor(extract(epoch FROM t.paid_at))::bigint, 0) AS paid_at,"
    " coalesce(floor(extract(epoch FROM t.completed_at))::bigint, 0) AS completed_at,"
    " t.type, t.status, t.method, t.currency, t.description, coalesce(t.plan_snapshot->>'name', '') AS plan_name,"
    " t.provider, t.provider_payment_id, t.amount_minor, t.user_id, u.telegram_id, u.username, u.first_name"
    " FROM transactions t JOIN users u ON u.id = t.user_id";

void add_filters(FilteredQuery& q, const PaymentFilter& f) {
    if (f.status) q.where("t.status = " + q.param(*f.status));
    if (f.method) q.where("t.method = " + q.param(*f.method));
    if (f.type) q.where("t.type = " + q.param(*f.type));
    if (f.user_id) q.where("t.user_id = " + q.param(std::to_string(*f.user_id)) + "::bigint");
    if (f.from) q.where("t.created_at >= to_timestamp(" + q.param(std::to_string(*f.from)) + "::bigint)");
    if (f.until) q.where("t.created_at < to_timestamp(" + q.param(std::to_string(*f.until)) + "::bigint)");
}

PaymentRow row_of(const pqxx::row& r) {
    PaymentRow p;
    p.id = r["id"].as<int64_t>();
    p.created_at = r["created_at"].as<int64_t>();
    p.paid_at = r["paid_at"].as<int64_t>();
    p.completed_at = r["completed_at"].as<int64_t>();
    for (auto [field, out] : {std::pair{"type", &p.type}, {"status", &p.status}, {"method", &p.method},
                              {"currency", &p.currency}, {"description", &p.description}, {"plan_name", &p.plan_name}})
        *out = r[field].c_str();
    p.provider = optional_text(r["provider"]);
    p.provider_payment_id = optional_text(r["provider_payment_id"]);
    p.amount_minor = r["amount_minor"].as<int64_t>();
    read_customer_handle(p.customer, r, "user_id");
    return p;
}

// How a payment can be given back, or why it cannot.
struct RefundPath {
    bool possible = false;
    std::string note;
};

RefundPath refund_path(std::string_view type_text, std::string_view status_text, const std::optional<std::string>& provider,
                       std::string_view method) {
    const auto status = state_from_text<TransactionStatus>(status_text);
    const auto type = state_from_text<TransactionType>(type_text);
    if (status == TransactionStatus::refunded) return {false, "refunded already"};
    if (status != TransactionStatus::completed) return {false, "only a completed payment can be refunded"};
    if (type != TransactionType::subscription_payment && type != TransactionType::deposit)
        return {false, "not a payment (a gift, a reward…)"};
    const auto taker = provider ? parse_state<Provider>(*provider) : std::nullopt;
    if (taker == Provider::yookassa) return {true, "YooKassa gives the money back to the card"};
    if (taker == Provider::stars) return {true, "Telegram gives the stars back"};
    if (taker == Provider::cryptobot) return {false, "CryptoBot has no refund API: pay it back in CryptoBot"};
    if (!provider && method == "balance") return {true, "the money goes back to the customer's balance"};
    return {false, "no way to give this payment back from here"};
}

// A balance purchase given back: its price to the balance, its days off the subscription.
void refund_balance_purchase(pqxx::work& txn, PanelClient& panel, const LockedAccount& locked, int64_t id,
                             const pqxx::row& t, const std::string& reason) {
    const PanelRestore restore(panel, locked);
    const int64_t amount = t["amount_minor"].as<int64_t>();
    if (amount > 0) move_balance(txn, locked.user.id, amount, LedgerReason::refund, id, reason);
    take_back_days(txn, panel, locked, t["days"].as<int64_t>(), id);
    exec_prepared(txn, "mark_payment_refunded", id);
    record_payment_event(txn, id, "owner", "refund: taken back", amount);
}

}  // namespace

void check_payment_filter(const PaymentFilter& f) {
    if (f.status && !parse_state<TransactionStatus>(*f.status))
        throw bad_request("status must be one of: " + StateTexts<TransactionStatus>::table.list());
    if (f.type && !parse_state<TransactionType>(*f.type))
        throw bad_request("type must be one of: " + StateTexts<TransactionType>::table.list());
    if (f.method && (f.method->empty() || f.method->size() > 32)) throw bad_request("method must be 1..32 characters");
}

std::vector<PaymentRow> search_payments(pqxx::transaction_base& txn, const PaymentFilter& f) {
    FilteredQuery q(kSelect);
    add_filters(q, f);
    return q.newest_page(txn, "t.id", f.before_id, f.limit, row_of);
}

std::vector<PaymentRow> search_payments(Db& db, const PaymentFilter& f) {
    return db.read([&](auto& txn) { return search_payments(txn, f); });
}

void write_payment(JsonWriter& w, const PaymentRow& p) {
    JsonObject o(w);
    o.put("id", p.id);
    o.time("created_at", p.created_at).time("paid_at", p.paid_at).time("completed_at", p.completed_at);
    o.put("type", p.type).put("status", p.status).put("method", p.method);
    o.put("provider", p.provider).put("provider_payment_id", p.provider_payment_id);
    o.put("amount_minor", p.amount_minor).put("currency", p.currency);
    o.put("plan_name", p.plan_name).put("description", p.description);
    write_customer_handle(o, p.customer);
}

namespace {

// The totals' statement. One customer's payments are read as they are (the user index finds
// a few); otherwise the hours wholly inside the dates come from payment_totals (sql 0053, a
// few rows an hour) and the part-hours at the ends, if any, from transactions.
FilteredQuery totals_query(const PaymentFilter& f) {
    if (f.user_id) {
        FilteredQuery q("SELECT t.currency, count(*) AS n, coalesce(sum(t.amount_minor), 0)::bigint AS amount"
                        " FROM transactions t");
        add_filters(q, f);
        q.append(" GROUP BY t.currency ORDER BY t.currency");
        return q;
    }
    FilteredQuery q("SELECT currency, sum(n)::bigint AS n, sum(amount)::bigint AS amount FROM (");
    std::string same;  // the conditions both tables share, by their shared column names
    if (f.status) same += " AND status = " + q.param(*f.status);
    if (f.method) same += " AND method = " + q.param(*f.method);
    if (f.type) same += " AND type = " + q.param(*f.type);
    const auto at = [&q](int64_t t) { return "to_timestamp(" + q.param(std::to_string(t)) + "::bigint)"; };
    const auto exact = [&](int64_t from, int64_t until) {
        return "SELECT currency, 1::bigint AS n, amount_minor AS amount FROM transactions WHERE created_at >= " +
               at(from) + " AND created_at < " + at(until) + same;
    };
    // [first_hour, end_hour): the whole hours inside [from, until) (a bound that is absent
    // bounds nothing).
    const int64_t first_hour = f.from ? (*f.from + 3599) / 3600 * 3600 : 0;
    const int64_t end_hour = f.until ? *f.until / 3600 * 3600 : 0;
    if (f.from && f.until && first_hour >= end_hour) {
        q.append(exact(*f.from, *f.until));
    } else {
        std::string hours = "SELECT currency, n, amount_minor AS amount FROM payment_totals WHERE true" + same;
        if (f.from) hours += " AND hour >= " + at(first_hour);
        if (f.until) hours += " AND hour < " + at(end_hour);
        q.append(hours);
        if (f.from && first_hour > *f.from) q.append(" UNION ALL " + exact(*f.from, first_hour));
        if (f.until && end_hour < *f.until) q.append(" UNION ALL " + exact(end_hour, *f.until));
    }
    q.append(") parts GROUP BY currency HAVING sum(n) <> 0 ORDER BY currency");
    return q;
}

}  // namespace

void write_payment_totals(JsonWriter& w, pqxx::transaction_base& txn, const PaymentFilter& f) {
    const FilteredQuery q = totals_query(f);
    int64_t count = 0;
    const pqxx::result rows = q.run(txn);
    JsonObject o(w);
    {
        JsonArray amounts = o.array("amounts");
        for (const auto& r : rows) {
            count += r["n"].as<int64_t>();
            amounts.object().put("currency", r["currency"].c_str()).put("amount_minor", r["amount"].as<int64_t>());
        }
    }
    o.put("count", count);
}

const char* const kPaymentCsvHeader =
    "id,created_at,paid_at,type,status,method,provider,provider_payment_id,amount_minor,currency,plan,customer_id,"
    "telegram_id,username,description\r\n";

PaymentPage payments_page(Db& db, const PaymentFilter& f) {
    // Read whole, then written: a retried read must not write the answer twice.
    return db.read([&](auto& txn) {
        const auto write_totals = [&](JsonWriter& w, const PaymentFilter& g) { write_payment_totals(w, txn, g); };
        std::string totals = json_text(write_totals, f);
        return PaymentPage{search_payments(txn, f), std::move(totals)};
    });
}

void append_payment_csv(std::string& out, const PaymentRow& p) {
    out += std::to_string(p.id) + ',' + iso8601_utc(p.created_at) + ',';
    if (p.paid_at) out += iso8601_utc(p.paid_at);
    out += ',' + p.type + ',' + p.status + ',';
    append_csv_cell(out, p.method);
    out += ',';
    append_csv_cell(out, p.provider.value_or(""));
    out += ',';
    append_csv_cell(out, p.provider_payment_id.value_or(""));
    out += ',' + std::to_string(p.amount_minor) + ',' + p.currency + ',';
    append_csv_cell(out, p.plan_name);
    out += ',' + std::to_string(p.customer.id) + ',';
    if (p.customer.telegram_id) out += std::to_string(*p.customer.telegram_id);
    out += ',';
    append_csv_cell(out, p.customer.username);
    out += ',';
    append_csv_cell(out, p.description);
    out += "\r\n";
}

std::optional<std::string> payment_detail_json(pqxx::transaction_base& txn, int64_t id) {
    FilteredQuery q(kSelect);
    q.where("t.id = " + q.param(std::to_string(id)) + "::bigint");
    const pqxx::result rows = q.run(txn);
    if (rows.empty()) return std::nullopt;
    const PaymentRow p = row_of(rows[0]);
    const RefundPath path = refund_path(p.type, p.status, p.provider, p.method);
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    {
        JsonObject o(w);
        write_payment(o.key("payment"), p);
        o.put("refundable", path.possible).put("refund_note", path.note);
        if (const auto by = exec_prepared(txn, "admin_payment_refunded_by", id, p.customer.id); !by.empty())
            o.object("refunded_by")
                .put("actor", by[0]["actor"].c_str())
                .put("reason", by[0]["reason"].c_str())
                .time("at", by[0]["at"].as<int64_t>());
        else
            o.null("refunded_by");
        JsonArray events = o.array("events");
        for (const auto& e : exec_prepared(txn, "admin_payment_events", id))
            events.object()
                .time("at", e["at"].as<int64_t>())
                .put("provider", e["provider"].c_str())
                .put("outcome", e["outcome"].c_str())
                .put("amount", optional_int(e["amount"]));
    }
    return std::string(buf.GetString(), buf.GetSize());
}

std::optional<std::string> payment_detail_json(Db& db, int64_t id) {
    return db.read([&](auto& txn) { return payment_detail_json(txn, id); });
}

std::string refund_by_owner(pqxx::work& txn, PanelClient& panel, const Settings& s, int64_t id, const std::string& actor,
                            const std::string& reason, const std::string& idempotency_key) {
    // The buyer's row first, as every payment writer locks; then the payment's (FOR UPDATE).
    const auto payer = lock_payer(txn, id);
    if (!payer) throw not_found("no payment with that id");
    if (auto first = claim_action_key(txn, idempotency_key, actor, "refund", payer->user.id)) return std::move(*first);
    const auto rows = exec_prepared(txn, "admin_payment_for_refund", id);
    if (rows.empty()) throw not_found("no payment with that id");
    const auto& t = rows[0];
    const std::optional<std::string> provider = optional_text(t["provider"]);
    const RefundPath path = refund_path(t["type"].c_str(), t["status"].c_str(), provider, t["method"].c_str());
    if (!path.possible) throw ApiError(409, "this payment cannot be refunded: " + path.note);
    const int64_t amount = t["amount_minor"].as<int64_t>();
    // The provider's refund cannot be undone: whatever taking back makes of it afterwards is
    // kept and audited, never rolled back with an error. Under the payment's lock it is
    // taken_back; anything else is a bug worth a loud line.
    RefundOutcome outcome = RefundOutcome::taken_back;
    if (provider == "yookassa") {
        YooKassa(s).refund(t["provider_payment_id"].c_str(), amount, t["currency"].c_str(), "refund-" + std::to_string(id));
        outcome = refund_payment(txn, panel, id, "yookassa", amount);
    } else if (provider == "stars") {
        if (!payer->user.telegram_id) throw ApiError(409, "this payment cannot be refunded: the buyer has no Telegram id");
        std::string charge = t["provider_payment_id"].c_str();
        if (starts_with(charge, "stars:")) charge = charge.substr(6);
        try {
            BotApi(s).refund_star_payment(*payer->user.telegram_id, charge);
        } catch (const BotApiError& e) {
            if (e.http_status() >= 400 && e.http_status() < 500 && e.http_status() != 429)
                throw GatewayRefusal("Telegram refused the refund (" + e.why() + ")");
            throw;
        }
        outcome = refund_payment(txn, panel, id, "stars", t["stars"].as<int64_t>());
    } else {
        refund_balance_purchase(txn, panel, *payer, id, t, reason);
    }
    if (outcome != RefundOutcome::taken_back)
        spdlog::error("payment {}: refunded by the provider, but taking back what it bought said {}", id,
                      refund_outcome_name(outcome));
    rapidjson::StringBuffer audit;
    JsonWriter w(audit);
    JsonObject(w)
        .put("reason", reason)
        .put("transaction_id", id)
        .put("amount_minor", amount)
        .put("currency", t["currency"].c_str())
        .put("outcome", refund_outcome_name(outcome))
        .put("provider", provider.value_or("balance"));
    write_audit(txn, actor, "payment.refund", "user:" + std::to_string(payer->user.id), audit.GetString());
    spdlog::info("payment {} refunded by {} ({})", id, actor, provider.value_or("balance"));
    std::string answer = *payment_detail_json(txn, id);
    store_action_answer(txn, idempotency_key, answer);
    return answer;
}

std::string refund_by_owner(Db& db, PanelClient& panel, const Settings& s, const OwnerRefund& r) {
    return db.transact([&](pqxx::work& txn) {
        return refund_by_owner(txn, panel, s, r.payment_id, r.actor, r.reason, r.idempotency_key);
    });
}

}  // namespace cabinet
