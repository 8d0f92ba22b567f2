// cabinetctl config set KEY VALUE | get [KEY]: the owner's copy of the mini-app, web
// cabinet and landing (table app_config; domain/landing.hpp checks every value). Each
// change bumps published_at, so clients see that the theme changed; pool threads pick it
// up within APP_CONFIG_TTL_MS. A refused value changes nothing.
#include <pqxx/pqxx>

#include <iostream>

#include "commands.hpp"
#include "domain/landing.hpp"
#include "util/time.hpp"

namespace cabinet::ctl {
namespace {

constexpr const char* kUsage = "usage: cabinetctl config set KEY VALUE | get [KEY]";

// The effective value of every key (defaults filled in), as `get` prints them.
std::vector<std::pair<std::string, std::string>> current_values(pqxx::transaction_base& txn, const Settings& s,
                                                                int64_t& published_at) {
    const auto r = txn.exec1("SELECT template, title, greeting, accent_color, ui::text AS ui, "
                             "floor(extract(epoch FROM published_at))::bigint AS published_at FROM app_config WHERE id = 1");
    published_at = r["published_at"].as<int64_t>();
    const Landing l = landing_from_ui(r["ui"].c_str(), s.web_cabinet_enabled);
    const auto json = [](auto write, const auto& items) {
        rapidjson::StringBuffer buf;
        JsonWriter w(buf);
        write(w, items);
        return std::string(buf.GetString());
    };
    return {{"template", r["template"].c_str()},
            {"title", r["title"].c_str()},
            {"greeting", r["greeting"].c_str()},
            {"accent_color", r["accent_color"].c_str()},
            {"landing.enabled", l.enabled ? "true" : "false"},
            {"landing.headline", l.headline},
            {"landing.subheadline", l.subheadline},
            {"landing.cta_target", l.cta_target},
            {"landing.features", json(write_landing_features, l.features)},
            {"landing.faq", json(write_landing_faq, l.faq)}};
}

int config_get(const Settings& s, pqxx::work& txn, const Args& args) {
    int64_t published_at = 0;
    const auto values = current_values(txn, s, published_at);
    if (args.size() == 2) {
        for (const auto& [k, v] : values)
            if (k == args[1]) {
                std::cout << v << "\n";
                return 0;
            }
        std::cerr << "unknown key " << args[1] << "\n";
        return 2;
    }
    for (const auto& [k, v] : values) std::cout << k << " = " << v << "\n";
    std::cout << "published_at = " << iso8601_utc(published_at) << "\n";
    return 0;
}

int config_set(pqxx::work& txn, const std::string& key, const std::string& value) {
    ConfigChange c;
    try {
        c = parse_config_change(key, value);
    } catch (const std::invalid_argument& e) {
        std::cerr << "cabinetctl config: " << e.what() << "; nothing changed\n";
        return 2;
    }
    txn.exec0("INSERT INTO app_config (id) VALUES (1) ON CONFLICT (id) DO NOTHING");
    if (!c.column.empty()) {
        // c.column is one of parse_config_change's four fixed names, never the caller's text.
        txn.exec_params0("UPDATE app_config SET " + txn.quote_name(c.column) + " = $1, published_at = now() WHERE id = 1",
                         c.value);
    } else {
        // ui.landing is created when missing (or when a hand edit left something else there).
        txn.exec_params0(
            "UPDATE app_config SET ui = jsonb_set(CASE WHEN jsonb_typeof(ui) <> 'object' THEN '{\"landing\": {}}'::jsonb "
            "  WHEN jsonb_typeof(ui->'landing') = 'object' THEN ui ELSE ui || '{\"landing\": {}}'::jsonb END, "
            "  ARRAY['landing', $1], $2::jsonb), published_at = now() WHERE id = 1",
            c.landing_key, c.value);
    }
    audit_command(txn, "config", {"set", key, value});
    txn.commit();
    std::cout << key << " set\n";
    return 0;
}

}  // namespace

int config(const Args& args) {
    const std::string action = args.empty() ? "" : args[0];
    const bool ok = (action == "set" && args.size() == 3) || (action == "get" && args.size() <= 2);
    if (!ok) {
        std::cerr << kUsage << "\nkeys:";
        for (const auto& k : config_keys()) std::cerr << " " << k;
        std::cerr << "\n";
        return 2;
    }
    const Settings s = load_or_die();
    pqxx::connection conn(s.database_url);
    pqxx::work txn(conn);
    return action == "get" ? config_get(s, txn, args) : config_set(txn, args[1], args[2]);
}

}  // namespace cabinet::ctl
