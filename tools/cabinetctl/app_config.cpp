// cabinetctl config set KEY VALUE | get [KEY]: the owner's copy of the mini-app, web
// cabinet and landing (services/app_config_admin.hpp checks, stores and audits; the admin
// API's /api/admin/app-config is the same). Each change bumps published_at, so clients see
// that the theme changed; every pool process has it within a second. A refused value
// changes nothing.
#include <iostream>

#include "commands.hpp"
#include "db/db.hpp"
#include "domain/landing.hpp"
#include "errors.hpp"
#include "services/app_config_admin.hpp"
#include "util/time.hpp"

namespace cabinet::ctl {
namespace {

constexpr const char* kConfigUsage = "usage: cabinetctl config set KEY VALUE | get [KEY]";

int config_get(const Settings& s, Db& db, const Args& args) {
    const AppConfigView view = db.read([&](auto& txn) { return app_config_view(txn, s.web_cabinet_enabled); });
    if (args.size() == 2) {
        for (const auto& [k, v] : view.values)
            if (k == args[1]) {
                std::cout << v << "\n";
                return 0;
            }
        std::cerr << "unknown key " << args[1] << "\n";
        return 2;
    }
    for (const auto& [k, v] : view.values) std::cout << k << " = " << v << "\n";
    std::cout << "published_at = " << iso8601_utc(view.published_at) << "\n";
    return 0;
}

int config_set(const Settings& s, Db& db, const std::string& key, const std::string& value) {
    const std::string by = os_actor();
    try {
        db.write([&](pqxx::work& txn) { return set_app_config_value(txn, key, value, by, s.web_cabinet_enabled); });
    } catch (const ApiError& e) {
        std::cerr << "cabinetctl config: " << e.detail() << "; nothing changed\n";
        return 2;
    }
    std::cout << key << " set\n";
    return 0;
}

}  // namespace

int config(const Args& args) {
    const std::string action = args.empty() ? "" : args[0];
    const bool ok = (action == "set" && args.size() == 3) || (action == "get" && args.size() <= 2);
    if (!ok) {
        std::cerr << kConfigUsage << "\nkeys:";
        for (const auto& k : config_keys()) std::cerr << " " << k;
        std::cerr << "\n";
        return 2;
    }
    const Settings s = load_or_die();
    Db db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);
    return action == "get" ? config_get(s, db, args) : config_set(s, db, args[1], args[2]);
}

}  // namespace cabinet::ctl
