#include "services/customer_search.hpp"

#include <algorithm>
#include <cctype>

#include "db/filtered_query.hpp"
#include "domain/account.hpp"
#include "domain/subscription_status.hpp"
#include "errors.hpp"
#include "util/csv.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet {
namespace {

// The search is one statement put together from the fixed fragments below
// (db/filtered_query.hpp says why).
constexpr const char* kSelect =
    "SELECT u.id, u.telegram_id, u.username, u.first_name, u.last_name, u.email, u.balance_minor, u.currency,"
    " u.is_blocked, u.personal_discount_pct, g.name AS promo_group,"
    " extract(epoch FROM u.created_at)::bigint AS created_at,"
    " s.status, s.is_trial, coalesce(s.plan_snapshot->>'name', '') AS plan_name,"
    " extract(epoch FROM s.expire_at)::bigint AS expire_at, s.traffic_limit_bytes, s.traffic_used_bytes"
    " FROM users u LEFT JOIN subscriptions s ON s.user_id = u.id LEFT JOIN promo_groups g ON g.id = u.promo_group_id";

// A subscription's status as the customer sees it (domain/subscription_status.cpp) in SQL:
// `expired` takes the disabled ones in too, as neither gives access.
constexpr const char* kRunning = "s.status NOT IN ('disabled', 'pending') AND s.expire_at > now()";

enum class QueryKind { none, number, username, email, link, name };

bool all_digits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

bool looks_like_uuid(const std::string& s) {
    if (s.size() != 36) return false;
    for (size_t i = 0; i < s.size(); ++i) {
        const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? s[i] != '-' : !std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
    }
    return true;
}

QueryKind kind_of(const std::string& q) {
    if (q.empty()) return QueryKind::none;
    if (all_digits(q) && q.size() <= 18) return QueryKind::number;
    if (q[0] == '@') return QueryKind::username;
    if (q.find("://") != std::string::npos || starts_with(q, "/sub/") || looks_like_uuid(q)) return QueryKind::link;
    if (q.find('@') != std::string::npos) return QueryKind::email;
    return QueryKind::name;
}

// LIKE's own characters taken literally.
std::string like_escaped(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (c == '%' || c == '_' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

// The last path segment of a link (its query and fragment cut off): a subscription URL
// ends with the short id.
std::string last_segment(const std::string& link) {
    std::string path = link.substr(0, link.find_first_of("?#"));
    while (!path.empty() && path.back() == '/') path.pop_back();
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The list's statement: the select above and the filters below (db/filtered_query.hpp).
class Sql : public FilteredQuery {
public:
    Sql() : FilteredQuery(kSelect) {}
};

void add_query(Sql& sql, const std::string& q) {
    switch (kind_of(q)) {
        case QueryKind::none: return;
        case QueryKind::number: {
            const std::string n = sql.param(q);
            sql.where("(u.telegram_id = " + n + "::bigint OR u.id = " + n + "::bigint)");
            return;
        }
        // A prefix is looked up in its own index first (an init plan: the ids, then those rows
        // in order): read in id order with the prefix as a filter, "@bench12" walked most of a
        // million rows before its first match (the planner cannot know where the ids are).
        case QueryKind::username: {
            const std::string name = to_lower_utf8(q.substr(1));
            if (utf8_length(name) < 3) {  // "@ab": too many to sort; the name itself only
                sql.where("lower(u.username) = " + sql.param(name) + " AND u.username <> ''");
                return;
            }
            sql.where("u.id = ANY(ARRAY(SELECT id FROM users WHERE lower(username) LIKE " + sql.param(like_escaped(name)) +
                      " || '%' AND username <> ''))");
            return;
        }
        case QueryKind::email:
            sql.where("u.id = ANY(ARRAY(SELECT id FROM users WHERE email LIKE " + sql.param(like_escaped(to_lower_utf8(q))) +
                      " || '%'))");
            return;
        case QueryKind::link: {
            const std::string id = last_segment(q);
            if (looks_like_uuid(id)) {
                sql.where("s.panel_uuid = " + sql.param(id) + "::uuid");
                return;
            }
            // The URL ends with the short id; a crypto link (happ://crypt…) is kept whole.
            sql.where("(s.short_uuid = " + sql.param(id) + " OR (s.crypto_link = " + sql.param(q) +
                      " AND s.crypto_link <> ''))");
            return;
        }
        case QueryKind::name:
            sql.where("customer_names(u.first_name, u.last_name, u.username) LIKE '%' || " +
                      sql.param(like_escaped(to_lower_utf8(q))) + " || '%'");
            return;
    }
}

void add_status(Sql& sql, CustomerStatus status) {
    switch (status) {
        case CustomerStatus::any: return;
        case CustomerStatus::active: sql.where(std::string("(") + kRunning + " AND NOT s.is_trial)"); return;
        case CustomerStatus::trial: sql.where(std::string("(") + kRunning + " AND s.is_trial)"); return;
        case CustomerStatus::expired:
            sql.where("(s.status = 'disabled' OR (s.status <> 'pending' AND s.expire_at <= now()))");
            return;
        case CustomerStatus::none: sql.where("NOT u.subscribed"); return;
        case CustomerStatus::blocked: sql.where("u.is_blocked"); return;
    }
}

CustomerRow row_of(const pqxx::row& r) {
    CustomerRow c;
    read_customer_handle(c, r);
    c.last_name = r["last_name"].c_str();
    if (!r["email"].is_null()) c.email = r["email"].c_str();
    c.balance_minor = r["balance_minor"].as<int64_t>();
    c.currency = r["currency"].c_str();
    c.is_blocked = r["is_blocked"].as<bool>();
    c.personal_discount_pct = r["personal_discount_pct"].as<int64_t>();
    if (!r["promo_group"].is_null()) c.promo_group = r["promo_group"].c_str();
    c.created_at = r["created_at"].as<int64_t>();
    c.subscription = subscription_glance(r, "status");
    return c;
}

}  // namespace

std::optional<SubscriptionGlance> subscription_glance(const pqxx::row& r, const char* status_column) {
    if (r[status_column].is_null()) return std::nullopt;
    Subscription s;
    s.status = subscription_status_from_text(r[status_column].c_str());
    s.is_trial = r["is_trial"].as<bool>();
    s.expire_at = r["expire_at"].as<int64_t>();
    s.traffic_limit_bytes = r["traffic_limit_bytes"].as<int64_t>();
    s.traffic_used_bytes = r["traffic_used_bytes"].as<int64_t>();
    const std::string status(to_text(effective_status(s, unix_now())));
    return SubscriptionGlance{status, s.is_trial, r["plan_name"].c_str(), s.expire_at, s.traffic_limit_bytes,
                              s.traffic_used_bytes};
}

void write_subscription_glance(JsonObject& o, const std::optional<SubscriptionGlance>& s, bool with_traffic) {
    if (!s) {
        o.null("subscription");
        return;
    }
    JsonObject sub = o.object("subscription");
    sub.put("status", s->status).put("is_trial", s->is_trial).put("plan_name", s->plan_name);
    sub.time("expire_at", s->expire_at);
    if (with_traffic)
        sub.put("traffic_limit_bytes", s->traffic_limit_bytes).put("traffic_used_bytes", s->traffic_used_bytes);
}

CustomerStatus customer_status_named(const std::string& name) {
    if (name.empty() || name == "all") return CustomerStatus::any;
    if (name == "active") return CustomerStatus::active;
    if (name == "trial") return CustomerStatus::trial;
    if (name == "expired") return CustomerStatus::expired;
    if (name == "none") return CustomerStatus::none;
    if (name == "blocked") return CustomerStatus::blocked;
    throw bad_request("status must be one of: active, trial, expired, none, blocked, all");
}

void check_customer_query(const std::string& q) {
    if (utf8_length(q) > 200) throw ApiError(422, "q must be at most 200 characters");
    if (kind_of(q) == QueryKind::name && utf8_length(q) < 3)
        throw ApiError(422, "q needs at least 3 characters of a name (or a Telegram id, @username, e-mail or link)");
    if (kind_of(q) == QueryKind::username && q.size() < 2) throw ApiError(422, "q needs a username after the @");
}

std::vector<CustomerRow> search_customers(pqxx::transaction_base& txn, const CustomerFilter& f) {
    Sql sql;
    // A word could also be a subscription's short id pasted alone: one index probe decides.
    std::optional<int64_t> by_short_id;
    if (kind_of(f.q) == QueryKind::name && f.q.find_first_of(" \t") == std::string::npos) {
        const auto hit = txn.exec_params("SELECT user_id FROM subscriptions WHERE short_uuid = $1", f.q);
        if (!hit.empty()) by_short_id = hit[0][0].as<int64_t>();
    }
    if (by_short_id) sql.where("u.id = " + sql.param(std::to_string(*by_short_id)) + "::bigint");
    else add_query(sql, f.q);
    add_status(sql, f.status);
    if (f.promo_group) sql.where("u.promo_group_id = (SELECT id FROM promo_groups WHERE name = " + sql.param(*f.promo_group) + ")");
    if (f.joined_from) sql.where("u.created_at >= to_timestamp(" + sql.param(std::to_string(*f.joined_from)) + "::bigint)");
    if (f.joined_until) sql.where("u.created_at < to_timestamp(" + sql.param(std::to_string(*f.joined_until)) + "::bigint)");
    return sql.newest_page(txn, "u.id", f.before_id, f.limit, row_of);
}

std::vector<CustomerRow> search_customers(Db& db, const CustomerFilter& f) {
    return db.read([&](auto& txn) { return search_customers(txn, f); });
}

std::optional<CustomerRow> customer_row(pqxx::transaction_base& txn, int64_t user_id) {
    Sql sql;
    sql.where("u.id = " + sql.param(std::to_string(user_id)) + "::bigint");
    const pqxx::result rows = sql.run(txn);
    if (rows.empty()) return std::nullopt;
    return row_of(rows[0]);
}

void write_customer(JsonWriter& w, const CustomerRow& c) {
    JsonObject o(w);
    put_customer_handle(o, c).put("last_name", c.last_name).put("email", c.email);
    o.put("balance_minor", c.balance_minor).put("currency", c.currency).put("is_blocked", c.is_blocked);
    o.put("personal_discount_pct", c.personal_discount_pct).put("promo_group", c.promo_group);
    o.time("created_at", c.created_at);
    write_subscription_glance(o, c.subscription);
}

const char* const kCustomerCsvHeader =
    "id,telegram_id,username,first_name,last_name,email,balance_minor,currency,status,expire_at,is_blocked,promo_group,"
    "created_at\r\n";

void append_customer_csv(std::string& out, const CustomerRow& c) {
    out += std::to_string(c.id);
    out += ',';
    if (c.telegram_id) out += std::to_string(*c.telegram_id);
    for (const std::string* v : {&c.username, &c.first_name, &c.last_name}) {
        out += ',';
        append_csv_cell(out, *v);
    }
    out += ',';
    append_csv_cell(out, c.email.value_or(""));
    out += ',' + std::to_string(c.balance_minor) + ',' + c.currency + ',';
    out += c.subscription ? c.subscription->status : "none";
    out += ',';
    if (c.subscription) out += iso8601_utc(c.subscription->expire_at);
    out += c.is_blocked ? ",true," : ",false,";
    append_csv_cell(out, c.promo_group.value_or(""));
    out += ',' + iso8601_utc(c.created_at) + "\r\n";
}

}  // namespace cabinet
