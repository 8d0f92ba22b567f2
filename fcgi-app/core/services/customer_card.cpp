#include "services/customer_card.hpp"
#include "db/fields.hpp"

#include "db/prepared.hpp"
#include "services/customer_search.hpp"
#include "util/json.hpp"
#include "util/json_fields.hpp"

namespace cabinet {
namespace {

void write_subscription(JsonWriter& w, pqxx::transaction_base& txn, int64_t id, const CustomerRow& c) {
    write_key(w, "subscription");
    const auto rows = exec_prepared(txn, "admin_customer_subscription", id);
    if (rows.empty()) {
        w.Null();
        return;
    }
    const auto& s = rows[0];
    w.StartObject();
    put_text(w, "status", c.status);  // as the customer sees it now
    put_bool(w, "is_trial", s["is_trial"].as<bool>());
    put_text(w, "plan_code", optional_text(s["plan_code"]));
    put_text(w, "plan_name", s["plan_name"].c_str());
    put_time(w, "start_at", s["start_at"].as<int64_t>());
    put_time(w, "expire_at", s["expire_at"].as<int64_t>());
    put_int(w, "device_limit", s["device_limit"].as<int64_t>());
    put_int(w, "traffic_limit_bytes", s["traffic_limit_bytes"].as<int64_t>());
    put_int(w, "traffic_used_bytes", s["traffic_used_bytes"].as<int64_t>());
    put_text(w, "subscription_url", optional_text(s["subscription_url"]));
    put_bool(w, "autopay_enabled", s["autopay_enabled"].as<bool>());
    w.EndObject();
}

void write_ledger(JsonWriter& w, pqxx::transaction_base& txn, int64_t id) {
    write_key(w, "ledger");
    w.StartArray();
    for (const auto& r : exec_prepared(txn, "admin_customer_ledger", id, kCardRows)) {
        w.StartObject();
        put_int(w, "id", r["id"].as<int64_t>());
        put_time(w, "at", r["at"].as<int64_t>());
        put_int(w, "delta_minor", r["delta_minor"].as<int64_t>());
        put_int(w, "balance_after", r["balance_after"].as<int64_t>());
        put_text(w, "reason", r["reason"].c_str());
        put_text(w, "note", r["note"].c_str());
        w.EndObject();
    }
    w.EndArray();
}

void write_payments(JsonWriter& w, pqxx::transaction_base& txn, int64_t id) {
    write_key(w, "payments");
    w.StartArray();
    for (const auto& r : exec_prepared(txn, "admin_customer_payments", id, kCardRows)) {
        w.StartObject();
        put_int(w, "id", r["id"].as<int64_t>());
        put_time(w, "at", r["at"].as<int64_t>());
        for (const char* f : {"type", "status"}) put_text(w, f, r[f].c_str());
        put_int(w, "amount_minor", r["amount_minor"].as<int64_t>());
        for (const char* f : {"currency", "method"}) put_text(w, f, r[f].c_str());
        put_text(w, "provider", optional_text(r["provider"]));
        put_text(w, "description", r["description"].c_str());
        w.EndObject();
    }
    w.EndArray();
}

void write_referrals(JsonWriter& w, pqxx::transaction_base& txn, int64_t id, const pqxx::row& profile) {
    write_key(w, "referrals");
    w.StartObject();
    write_key(w, "invited_by");
    if (profile["referred_by"].is_null()) {
        w.Null();
    } else {
        w.StartObject();
        put_int(w, "id", profile["referred_by"].as<int64_t>());
        put_text(w, "name", profile["referrer_name"].c_str());
        w.EndObject();
    }
    const pqxx::row totals = exec_prepared1(txn, "admin_customer_referral_totals", id);
    put_int(w, "invited_count", totals["invited"].as<int64_t>());
    put_int(w, "earnings_minor", totals["earned"].as<int64_t>());
    write_key(w, "invited");
    w.StartArray();
    for (const auto& r : exec_prepared(txn, "admin_customer_invited", id, kCardRows)) {
        w.StartObject();
        put_int(w, "id", r["id"].as<int64_t>());
        put_text(w, "name", r["name"].c_str());
        put_time(w, "created_at", r["created_at"].as<int64_t>());
        w.EndObject();
    }
    w.EndArray();
    w.EndObject();
}

void write_promo_codes(JsonWriter& w, pqxx::transaction_base& txn, int64_t id) {
    write_key(w, "promo_codes");
    w.StartArray();
    for (const auto& r : exec_prepared(txn, "admin_customer_promo_codes", id, kCardRows)) {
        w.StartObject();
        put_text(w, "code", r["code"].c_str());
        put_text(w, "reward_type", r["reward_type"].c_str());
        put_time(w, "at", r["at"].as<int64_t>());
        w.EndObject();
    }
    w.EndArray();
}

void write_support(JsonWriter& w, pqxx::transaction_base& txn, int64_t id) {
    write_key(w, "support");
    const auto rows = exec_prepared(txn, "admin_customer_ticket", id);
    if (rows.empty()) {
        w.Null();
        return;
    }
    w.StartObject();
    put_int(w, "ticket_id", rows[0]["id"].as<int64_t>());
    put_text(w, "status", rows[0]["status"].c_str());
    put_time(w, "updated_at", rows[0]["updated_at"].as<int64_t>());
    put_int(w, "message_count", rows[0]["message_count"].as<int64_t>());
    w.EndObject();
}

void write_audit_entries(JsonWriter& w, pqxx::transaction_base& txn, int64_t id) {
    write_key(w, "audit");
    w.StartArray();
    for (const auto& r : exec_prepared(txn, "admin_customer_audit", "user:" + std::to_string(id), kCardRows)) {
        w.StartObject();
        put_int(w, "id", r["id"].as<int64_t>());
        put_time(w, "at", r["at"].as<int64_t>());
        put_text(w, "actor", r["actor"].c_str());
        put_text(w, "action", r["action"].c_str());
        write_key(w, "payload");
        const std::string_view payload = r["payload"].c_str();
        w.RawValue(payload.data(), payload.size(), rapidjson::kObjectType);  // jsonb text, valid JSON
        w.EndObject();
    }
    w.EndArray();
}

}  // namespace

std::optional<std::string> customer_card_json(pqxx::transaction_base& txn, int64_t id) {
    const auto customer = customer_row(txn, id);
    if (!customer) return std::nullopt;
    const pqxx::row profile = exec_prepared1(txn, "admin_customer_profile", id);
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    w.StartObject();
    write_key(w, "customer");
    write_customer(w, *customer);
    put_text(w, "language", profile["language"].c_str());
    put_bool(w, "email_verified", profile["email_verified"].as<bool>());
    put_bool(w, "has_password", profile["has_password"].as<bool>());
    put_bool(w, "trial_used", profile["trial_used"].as<bool>());
    write_key(w, "logins");
    w.StartArray();
    for (const auto& r : exec_prepared(txn, "admin_customer_logins", id)) {
        w.StartObject();
        put_text(w, "provider", r["provider"].c_str());
        put_text(w, "email", optional_text(r["email"]));
        w.EndObject();
    }
    w.EndArray();
    write_subscription(w, txn, id, *customer);
    write_ledger(w, txn, id);
    write_payments(w, txn, id);
    write_referrals(w, txn, id, profile);
    write_promo_codes(w, txn, id);
    write_support(w, txn, id);
    write_audit_entries(w, txn, id);
    w.EndObject();
    return std::string(buf.GetString(), buf.GetSize());
}

}  // namespace cabinet
