#include "db/catalog_repo.hpp"
#include "db/prepared.hpp"

namespace cabinet {

std::vector<Sale> pending_sales(pqxx::transaction_base& txn) {
    std::vector<Sale> sales;
    for (const auto& r : exec_prepared(txn, "catalog_sales"))
        sales.push_back({r[0].as<int64_t>(), r[1].as<int64_t>(), r[2].as<int64_t>()});
    return sales;
}

int64_t catalog_version(pqxx::transaction_base& txn) {
    return exec_prepared1(txn, "catalog_version")[0].as<int64_t>();
}

std::vector<Plan> active_plans(pqxx::transaction_base& txn) {
    std::vector<Plan> plans;
    for (const auto& r : exec_prepared(txn, "catalog_active_plans")) {
        const auto id = r["id"].as<int64_t>();
        if (plans.empty() || plans.back().id != id) {
            Plan& p = plans.emplace_back();
            p.id = id;
            p.public_code = r["public_code"].c_str();
            p.name = r["name"].c_str();
            p.description = r["description"].c_str();
            // NULL and 0 both mean unlimited in the table; the API has one spelling: null.
            const auto limit = r["traffic_limit_bytes"];
            if (!limit.is_null() && limit.as<int64_t>() > 0) p.traffic_limit_bytes = limit.as<int64_t>();
            p.device_limit = r["device_limit"].as<int64_t>();
        }
        plans.back().durations.push_back(
            {r["days"].as<int64_t>(), r["months"].as<int64_t>(), r["price_minor"].as<int64_t>()});
    }
    return plans;
}

ConstructorPriceList constructor_price_list(pqxx::transaction_base& txn) {
    ConstructorPriceList list;
    for (const auto& r : exec_prepared(txn, "catalog_constructor")) {
        const auto id = r["id"].as<int64_t>();
        const auto amount = r["amount"].as<int64_t>();
        const auto price = r["price_minor"].as<int64_t>();
        if (std::string_view(r["kind"].c_str()) == "p")
            list.periods.push_back({id, amount, r["months"].as<int64_t>(), price});
        else
            list.packs.push_back({id, amount, price});
    }
    return list;
}

ReferralStats referral_stats(pqxx::transaction_base& txn, int64_t user_id) {
    const auto r = exec_prepared1(txn, "catalog_referral_stats", user_id);
    return {r["invited_count"].as<int64_t>(), r["earnings_minor"].as<int64_t>()};
}

std::vector<PaymentItem> recent_payments(pqxx::transaction_base& txn, int64_t user_id, int64_t limit) {
    std::vector<PaymentItem> items;
    const auto res = exec_prepared(txn, "catalog_recent_payments", user_id, limit);
    items.reserve(res.size());
    for (const auto& r : res) {
        items.push_back({r["id"].as<int64_t>(), r["type"].c_str(), r["status"].c_str(), r["amount_minor"].as<int64_t>(),
                         r["currency"].c_str(), r["method"].c_str(), r["created_unix"].as<int64_t>(),
                         r["expires_unix"].is_null() ? 0 : r["expires_unix"].as<int64_t>()});
    }
    return items;
}

}  // namespace cabinet
