#pragma once
// cabinetctl sub-commands: each takes its arguments (after the command name) and returns
// the process exit code. The table in main.cpp lists them with their help.
#include <pqxx/pqxx>

#include <string>
#include <vector>

#include "config/settings.hpp"

namespace cabinet::ctl {

using Args = std::vector<std::string>;

int migrate(const Args& args);
int seed_demo(const Args& args);
int worker(const Args& args);
int user(const Args& args);
// Catalogue admin (admin_catalog.cpp)
int plan(const Args& args);
int promo_group(const Args& args);
int user_group(const Args& args);
int sale(const Args& args);
int promo(const Args& args);
int constructor(const Args& args);
int dev_init_data(const Args& args);
int settings(const Args& args);
int sync_panel(const Args& args);
int autopay(const Args& args);
int expire_payments(const Args& args);
// Job queue admin (jobs_admin.cpp)
int jobs(const Args& args);
// Backups (backup.cpp)
int backup(const Args& args);
int restore(const Args& args);
// Maintenance mode and the panel watchdog (maintenance.cpp)
int maintenance(const Args& args);
int watchdog(const Args& args);
// Money invariants and the repair of lost paid days (ledger.cpp)
int check_ledger(const Args& args);
int repair_days(const Args& args);
// Housekeeping (cleanup.cpp)
int cleanup(const Args& args);
// Support chat (support.cpp) and the owner's app config (app_config.cpp)
int support(const Args& args);
int config(const Args& args);
// The public landing page (landing.cpp)
int landing(const Args& args);

// First configuration of an installed host (setup.cpp)
int setup(const Args& args);

// Shared helpers
Settings load_or_die();
// The env file's settings with the owner's values stored in PostgreSQL on top, for the
// commands that use owner-level ones (maintenance, watchdog, landing, autopay); the env
// file's alone, with a warning, when the database cannot be read.
Settings load_effective_or_die();
// Value of "--name value" in args, or `fallback`.
std::string option(const Args& args, const std::string& name, const std::string& fallback = {});
bool flag(const Args& args, const std::string& name);
// Who runs the command, as the audit log names them: cabinetctl:<OS user> (sudo's caller).
std::string os_actor();
// Folder of migrations/ and demo.sql: $CABINET_SQL_DIR, else the installed one beside the
// binary (../share/cabinet/sql), else the source tree's sql/.
std::string sql_dir();

}  // namespace cabinet::ctl
