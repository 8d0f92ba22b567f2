#pragma once
// The owner's texts and theme (table app_config: title, greeting, template, accent colour
// and the landing page's copy under ui.landing), the same for `cabinetctl config` and
// /api/admin/app-config: every value is checked by domain/landing.hpp (a refused one is
// ApiError 422 with its reason and writes nothing; an unknown key 404), stored with a new
// published_at, and audited as `catalog.config` {"args": ["set", KEY, VALUE]}. The table's
// trigger (sql 0020) tells every pool process within a second.
// Each takes a transaction, for cabinetctl, or `Db&` for the admin API: then it opens its
// own, a read for the view and one write for a change, so a change and its audit commit as one.
#include <pqxx/pqxx>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "db/db.hpp"

namespace cabinet {

struct AppConfigView {
    // Every key of domain/landing.hpp config_keys(), in that order, with its value in force
    // (defaults filled in; features and faq as JSON text).
    std::vector<std::pair<std::string, std::string>> values;
    int64_t published_at = 0;  // unix seconds
};

// `web_cabinet_enabled`: the landing's call to action falls back to the bot without it.
AppConfigView app_config_view(pqxx::transaction_base& txn, bool web_cabinet_enabled);
AppConfigView app_config_view(Db& db, bool web_cabinet_enabled);
AppConfigView set_app_config_value(pqxx::work& txn, const std::string& key, const std::string& value,
                                   const std::string& actor, bool web_cabinet_enabled);
AppConfigView set_app_config_value(Db& db, const std::string& key, const std::string& value, const std::string& actor,
                                   bool web_cabinet_enabled);

}  // namespace cabinet
