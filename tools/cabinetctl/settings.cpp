// cabinetctl settings: the env example, and the owner-level settings stored in PostgreSQL
// (services/owner_settings.hpp; docs/operations.md "Settings").
//   settings [example]      every setting with its default and meaning (= the env example)
//   settings list           the owner-level ones: value in force and where it comes from
//   settings get NAME       one of them
//   settings set NAME VALUE checked by the setting's parser, stored, audited as
//                           cabinetctl:<OS user>; every process has it within a second
//   settings unset NAME     back to the env file's value
#include <iostream>

#include "commands.hpp"
#include "config/owner_settings.hpp"
#include "db/db.hpp"
#include "services/owner_settings.hpp"
#include "util/time.hpp"

namespace cabinet::ctl {
namespace {

void print(const OwnerSettingView& v) {
    std::cout << v.name << "=" << v.value << "\n  source: " << v.source;
    if (v.source == "database")
        std::cout << " (set by " << v.changed_by << " at " << iso8601_utc(v.changed_at) << "; env value: " << v.env_value
                  << ")";
    std::cout << "\n";
}

int usage() {
    std::cerr << "usage: cabinetctl settings [example] | list | get NAME | set NAME VALUE | unset NAME\n";
    return 2;
}

}  // namespace

int settings(const Args& args) {
    const std::string sub = args.empty() ? "example" : args[0];
    if (sub == "example" && args.size() <= 1) {
        std::cout << settings_env_example();
        return 0;
    }
    const bool known = (sub == "list" && args.size() == 1) || ((sub == "get" || sub == "unset") && args.size() == 2) ||
                       (sub == "set" && args.size() == 3);
    if (!known) return usage();
    const Settings s = load_or_die();
    Db db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);
    if (sub == "list") {
        for (const auto& v : db.read([](auto& txn) { return owner_settings_view(txn, process_environment()); })) print(v);
    } else if (sub == "get") {
        print(db.read([&](auto& txn) { return owner_setting_view(txn, args[1], process_environment()); }));
    } else if (sub == "set") {
        const std::string by = os_actor();
        print(db.write([&](pqxx::work& txn) { return set_owner_setting(txn, args[1], args[2], by, process_environment()); }));
    } else {
        const std::string by = os_actor();
        print(db.write([&](pqxx::work& txn) { return unset_owner_setting(txn, args[1], by, process_environment()); }));
    }
    return 0;
}

}  // namespace cabinet::ctl
