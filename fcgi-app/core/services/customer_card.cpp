#include "services/customer_card.hpp"
#include "db/fields.hpp"

#include "db/prepared.hpp"
#include "services/customer_search.hpp"
#include "util/json_object.hpp"

namespace cabinet {
namespace {

int64_t number(const pqxx::row& r, const char* column) { return r[column].as<int64_t>(); }

// The first members of an entry of the card's ledger, payments and audit lists.
JsonObject& put_id_at(JsonObject& o, const pqxx::row& r) {
    return o.put("id", number(r, "id")).time("at", number(r, "at"));
}

// `key`: [{…} a row, as `put_row` writes it].
template <class PutRow>
void write_rows(JsonObject& card, std::string_view key, const pqxx::result& rows, PutRow put_row) {
    JsonArray list = card.array(key);
    for (const pqxx::row& r : rows) {
        JsonObject item = list.object();
        put_row(item, r);
    }
}

void write_subscription(JsonObject& card, pqxx::transaction_base& txn, int64_t id, const CustomerRow& c) {
    const auto rows = exec_prepared(txn, "admin_customer_subscription", id);
    if (rows.empty()) {
        card.null("subscription");
        return;
    }
    const auto& s = rows[0];
    JsonObject o = card.object("subscription");
    o.put("status", c.subscription ? c.subscription->status : std::string());  // as the customer sees it now
    o.put("is_trial", s["is_trial"].as<bool>());
    o.put("plan_code", optional_text(s["plan_code"])).put("plan_name", s["plan_name"].c_str());
    o.time("start_at", number(s, "start_at")).time("expire_at", number(s, "expire_at"));
    o.put("device_limit", number(s, "device_limit"));
    o.put("traffic_limit_bytes", number(s, "traffic_limit_bytes"));
    o.put("traffic_used_bytes", number(s, "traffic_used_bytes"));
    o.put("subscription_url", optional_text(s["subscription_url"]));
    o.put("autopay_enabled", s["autopay_enabled"].as<bool>());
}

void write_ledger(JsonObject& card, pqxx::transaction_base& txn, int64_t id) {
    const auto rows = exec_prepared(txn, "admin_customer_ledger", id, kCardRows);
    write_rows(card, "ledger", rows, [](JsonObject& o, const pqxx::row& r) {
        put_id_at(o, r).put("delta_minor", number(r, "delta_minor")).put("balance_after", number(r, "balance_after"));
        o.put("reason", r["reason"].c_str()).put("note", r["note"].c_str());
    });
}

void write_payments(JsonObject& card, pqxx::transaction_base& txn, int64_t id) {
    const auto rows = exec_prepared(txn, "admin_customer_payments", id, kCardRows);
    write_rows(card, "payments", rows, [](JsonObject& o, const pqxx::row& r) {
        put_id_at(o, r).put("type", r["type"].c_str()).put("status", r["status"].c_str());
        o.put("amount_minor", number(r, "amount_minor"));
        o.put("currency", r["currency"].c_str()).put("method", r["method"].c_str());
        o.put("provider", optional_text(r["provider"])).put("description", r["description"].c_str());
    });
}

void write_referrals(JsonObject& card, pqxx::transaction_base& txn, int64_t id, const pqxx::row& profile) {
    JsonObject o = card.object("referrals");
    if (profile["referred_by"].is_null())
        o.null("invited_by");
    else
        o.object("invited_by").put("id", number(profile, "referred_by")).put("name", profile["referrer_name"].c_str());
    const pqxx::row totals = exec_prepared1(txn, "admin_customer_referral_totals", id);
    o.put("invited_count", number(totals, "invited")).put("earnings_minor", number(totals, "earned"));
    const auto invited = exec_prepared(txn, "admin_customer_invited", id, kCardRows);
    write_rows(o, "invited", invited, [](JsonObject& i, const pqxx::row& r) {
        i.put("id", number(r, "id")).put("name", r["name"].c_str()).time("created_at", number(r, "created_at"));
    });
}

void write_promo_codes(JsonObject& card, pqxx::transaction_base& txn, int64_t id) {
    const auto rows = exec_prepared(txn, "admin_customer_promo_codes", id, kCardRows);
    write_rows(card, "promo_codes", rows, [](JsonObject& o, const pqxx::row& r) {
        o.put("code", r["code"].c_str()).put("reward_type", r["reward_type"].c_str()).time("at", number(r, "at"));
    });
}

void write_support(JsonObject& card, pqxx::transaction_base& txn, int64_t id) {
    const auto rows = exec_prepared(txn, "admin_customer_ticket", id);
    if (rows.empty()) {
        card.null("support");
        return;
    }
    card.object("support")
        .put("ticket_id", number(rows[0], "id"))
        .put("status", rows[0]["status"].c_str())
        .time("updated_at", number(rows[0], "updated_at"))
        .put("message_count", number(rows[0], "message_count"));
}

void write_audit_entries(JsonObject& card, pqxx::transaction_base& txn, int64_t id) {
    const auto rows = exec_prepared(txn, "admin_customer_audit", "user:" + std::to_string(id), kCardRows);
    write_rows(card, "audit", rows, [](JsonObject& o, const pqxx::row& r) {
        put_id_at(o, r).put("actor", r["actor"].c_str()).put("action", r["action"].c_str());
        o.raw("payload", r["payload"].c_str());  // jsonb text, valid JSON
    });
}

}  // namespace

std::optional<std::string> customer_card_json(pqxx::transaction_base& txn, int64_t id) {
    const auto customer = customer_row(txn, id);
    if (!customer) return std::nullopt;
    const pqxx::row profile = exec_prepared1(txn, "admin_customer_profile", id);
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    {
        JsonObject card(w);
        write_customer(card.key("customer"), *customer);
        const auto flag = [&](const char* column) { return profile[column].as<bool>(); };
        card.put("language", profile["language"].c_str()).put("email_verified", flag("email_verified"));
        card.put("has_password", flag("has_password")).put("trial_used", flag("trial_used"));
        const auto logins = exec_prepared(txn, "admin_customer_logins", id);
        write_rows(card, "logins", logins, [](JsonObject& o, const pqxx::row& r) {
            o.put("provider", r["provider"].c_str()).put("email", optional_text(r["email"]));
        });
        write_subscription(card, txn, id, *customer);
        write_ledger(card, txn, id);
        write_payments(card, txn, id);
        write_referrals(card, txn, id, profile);
        write_promo_codes(card, txn, id);
        write_support(card, txn, id);
        write_audit_entries(card, txn, id);
    }
    return std::string(buf.GetString(), buf.GetSize());
}

std::optional<std::string> customer_card_json(Db& db, int64_t id) {
    return db.read([&](auto& txn) { return customer_card_json(txn, id); });
}

}  // namespace cabinet
