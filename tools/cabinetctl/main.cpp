// cabinetctl: the operator's one tool (DESIGN.md "Processes and commands").
#include <pwd.h>
#include <sodium.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <iostream>

#include "cache/live_settings.hpp"
#include "commands.hpp"
#include "db/db.hpp"
#include "errors.hpp"
#include "log/logging.hpp"

namespace cabinet::ctl {
namespace {

struct Command {
    const char* name;
    int (*run)(const Args&);
    const char* help;
};

const Command kCommands[] = {
    {"migrate", migrate, "apply pending sql/migrations (each once, recorded in schema_migrations) [--dir DIR]"},
    {"seed-demo", seed_demo, "load demo plans, app config and a demo user, idempotently [--bench-users N [--panel-state MOCK_STATE_FILE]]"},
    {"worker", worker, "run the background worker: heartbeat and job threads [--concurrency N] [--lease-s S] [--poll-ms MS] [--heartbeat-every S] [--landing-every S]; stops cleanly on SIGTERM"},
    {"jobs", jobs, "job queue: jobs list [--status pending|running|done|dead] [--limit N] | requeue ID | requeue-paid (every paid order and referral bonus whose job died) | recheck-payments [--after-s S] (ask the gateways about unpaid online payments now) | enqueue KIND JSON [--dedupe-key K] [--delay-s S]"},
    {"user", user, "user admin: user show|transactions|block|unblock|set-balance|set-discount --telegram-id N [--value V]"},
    {"plan", plan, "plans: plan create --code C --name N [--description D] [--traffic-gb G] [--devices K] [--sort S] | price --code C --days D --months M --price MINOR | unprice --code C --days D | enable|disable --code C | list"},
    {"promo-group", promo_group, "promo groups: promo-group create --name N --discount PCT | list"},
    {"user-group", user_group, "put a user in a promo group: --telegram-id N --group NAME | --clear"},
    {"sale", sale, "shop-wide sales (the largest running one applies): sale create --name N --discount PCT --from ISO --until ISO (re-run: edits it) | end --name N (ends it now) | list"},
    {"promo", promo, "promo codes: promo create --code C --type balance|days|subscription|discount --value V [--plan CODE] [--max-uses K] [--from ISO] [--until ISO]"},
    {"constructor", constructor, "constructor price list: constructor period --days D --months M --price MINOR | pack --gb G --price MINOR | period-off --days D | pack-off --gb G | list"},
    {"dev-init-data", dev_init_data, "print mini-app init data signed with BOT_TOKEN: --telegram-id N [--first-name S] [--username U] [--language-code L] [--start-param P] [--auth-date T]"},
    {"autopay", autopay, "queue renewals from the balance for autopay subscriptions expiring within a day [--within-hours H] (cron)"},
    {"expire-payments", expire_payments, "cancel unpaid Stars and gateway invoices older than PAYMENT_PENDING_TTL_S and release their promo discount (the worker does it every heartbeat)"},
    {"sync-panel", sync_panel, "mirror usage, expiry and status of every subscription (or one: --user-id N) from the panel [--batch N] (cron)"},
    {"backup", backup, "dump the database into an AES-256 zip in BACKUP_DIR, keep the last BACKUP_KEEP_LAST, deliver to the backups topic [--if-due] (cron: once a day after BACKUP_TIME, Moscow)"},
    {"restore", restore, "restore FILE (a backup archive) into an empty database [--database-url URL]; needs BACKUP_ENCRYPTION_PASSWORD"},
    {"maintenance", maintenance, "maintenance on|off|status [--message TEXT]: the admins' switch (audited as cabinetctl); automatic maintenance is the watchdog's"},
    {"watchdog", watchdog, "one panel check (cron every 2 minutes): 3 failures in a row switch maintenance on (automatic) and alert the alerts topic; a good answer ends automatic maintenance"},
    {"support", support, "support chat: support list [--status open|waiting|closed] [--limit N] | show ID | reply ID TEXT (status becomes waiting) | close ID"},
    {"config", config, "the owner's app config: config get [KEY] | set KEY VALUE; keys template, title, greeting, accent_color, landing.enabled|headline|subheadline|cta_target, landing.features|faq (JSON arrays); a change bumps published_at"},
    {"landing", landing, "the public landing page: landing render (write LANDING_DIR/index.html now; the worker keeps it current) | show (print it)"},
    {"check-ledger", check_ledger, "money invariants: every balance equals its ledger, every balance payment, promo credit and commission has its ledger row; exit 1 on a problem [--alert: also to the alerts topic] (cabinet-backup.service runs it)"},
    {"repair-days", repair_days, "find subscriptions whose expiry is below what their paid purchases add up to (the pre-fix renewal race) [--telegram-id N]; --apply adds the missing days, panel first"},
    {"cleanup", cleanup, "delete finished jobs older than --keep-days N (14) and expired one-time tokens and counters (cron: daily)"},
    {"setup", setup, "first configuration of an installed host: setup --domain D --bot-token T --database-url URL --redis-url URL (--panel-url URL --panel-token T | --mock-panel) [--yookassa-shop-id ID --yookassa-secret-key K] [--cryptobot-token T] [--telegram-api-base URL] [--yookassa-api-base URL] [--cryptobot-api-base URL] [--pool N] [--env-file F] [--secrets-from-env: BOT_TOKEN, DATABASE_URL, REDIS_URL, PANEL__TOKEN, YOOKASSA_SECRET_KEY, CRYPTOBOT_TOKEN from the environment, off the command line] [--no-systemd] [--no-nginx] (asks for what is missing on a terminal); checks each service and payment key live, writes the env file, migrates, enables the units"},
    {"settings", settings, "settings [example]: every setting with its default and meaning (the env example) | list | get NAME | set NAME VALUE | unset NAME: the owner-level ones stored in PostgreSQL, live in every process within a second (audited)"},
};

int usage(std::ostream& out) {
    out << "usage: cabinetctl COMMAND [ARGS]\n\ncommands:\n";
    for (const auto& c : kCommands) out << "  " << c.name << "\n      " << c.help << "\n";
    out << "\nSettings come from the environment (systemd/cabinet.env.example).\n";
    return 2;
}

}  // namespace

Settings load_or_die() {
    try {
        return load_settings_from_environment();
    } catch (const ConfigError& e) {
        std::cerr << "cabinetctl: configuration error: " << e.what() << "\n";
        std::exit(2);
    }
}

Settings load_effective_or_die() {
    const LiveSettings live(load_or_die());
    live.reload_once(with_connection_defaults(live.env().database_url, live.env().db_connect_timeout_s));
    return *live.current();
}

std::string os_actor() {
    if (const char* sudo = std::getenv("SUDO_USER"); sudo && *sudo) return std::string("cabinetctl:") + sudo;
    const passwd* pw = getpwuid(geteuid());
    return "cabinetctl:" + (pw ? std::string(pw->pw_name) : "uid" + std::to_string(geteuid()));
}

std::string option(const Args& args, const std::string& name, const std::string& fallback) {
    for (size_t i = 0; i + 1 < args.size(); ++i)
        if (args[i] == name) return args[i + 1];
    return fallback;
}

std::string sql_dir() {
    const char* env = std::getenv("CABINET_SQL_DIR");
    if (env && *env) return env;
    // Installed (the package: /usr/bin/cabinetctl, /usr/share/cabinet/sql), else the source
    // tree this binary was built from.
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const auto installed = exe.parent_path().parent_path() / "share/cabinet/sql";
        if (std::filesystem::is_directory(installed / "migrations", ec)) return installed.string();
    }
    return CABINET_SQL_DIR;
}

bool flag(const Args& args, const std::string& name) {
    for (const auto& a : args)
        if (a == name) return true;
    return false;
}

}  // namespace cabinet::ctl

int main(int argc, char** argv) {
    using namespace cabinet::ctl;
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        usage(std::cout);
        return argc < 2 ? 2 : 0;
    }
    if (sodium_init() < 0) return 1;
    const Args args(argv + 2, argv + argc);
    for (const auto& c : kCommands) {
        if (std::strcmp(c.name, argv[1]) != 0) continue;
        if (flag(args, "--help")) {
            std::cout << "cabinetctl " << c.name << ": " << c.help << "\n";
            return 0;
        }
        try {
            return c.run(args);
        } catch (const std::exception& e) {
            std::cerr << "cabinetctl " << c.name << ": " << e.what() << "\n";
            return 1;
        }
    }
    std::cerr << "cabinetctl: unknown command " << argv[1] << "\n";
    return usage(std::cerr);
}
