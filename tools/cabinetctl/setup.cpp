// cabinetctl setup: the first configuration of a host the package was installed on. Takes
// the answers as flags (asks for a missing one on a terminal), checks every service live
// (payment keys included), and only when all answer writes the env file, migrates, and
// switches the host on (setup_host.cpp). A wrong answer writes nothing.
#include <termios.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>
#include <thread>

#include "commands.hpp"
#include "errors.hpp"
#include "migrations.hpp"
#include "setup_checks.hpp"
#include "setup_env.hpp"
#include "setup_host.hpp"

namespace cabinet::ctl {
namespace {

constexpr const char* kDefaultEnvFile = "/etc/cabinet/cabinet.env";
constexpr const char* kMockPanelUrl = "http://127.0.0.1:3010";  // nginx/cabinet-mock-panel.site

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The answers that carry a secret, and the settings they become: with --secrets-from-env
// each is read from the environment variable of its setting when its flag is not given, so
// that automation keeps it off the command line (which every local user can read in ps).
// Opt-in: a DATABASE_URL exported for another purpose must not be taken unasked.
constexpr std::pair<const char*, const char*> kSecretAnswers[] = {
    {"--bot-token", "BOT_TOKEN"},         {"--database-url", "DATABASE_URL"},
    {"--redis-url", "REDIS_URL"},         {"--panel-token", "PANEL__TOKEN"},
    {"--yookassa-secret-key", "YOOKASSA_SECRET_KEY"}, {"--cryptobot-token", "CRYPTOBOT_TOKEN"},
};

std::string from_environment(const Args& args, const std::string& flag_name) {
    if (!flag(args, "--secrets-from-env")) return {};
    for (const auto& [name, variable] : kSecretAnswers)
        if (flag_name == name)
            if (const char* v = std::getenv(variable)) return v;
    return {};
}

// The flag's value (or, with --secrets-from-env, its setting's environment variable); asked
// for on a terminal when missing and `prompt` is given. A secret's answer is not echoed.
std::string answer(const Args& args, const std::string& flag_name, const char* prompt, bool tty, bool secret = false) {
    std::string v = option(args, flag_name);
    if (v.empty()) v = from_environment(args, flag_name);
    if (v.empty() && tty && prompt) {
        std::cout << prompt << ": " << std::flush;
        termios saved{};
        const bool hide = secret && ::tcgetattr(STDIN_FILENO, &saved) == 0;
        if (hide) {
            termios quiet = saved;
            quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
            ::tcsetattr(STDIN_FILENO, TCSANOW, &quiet);
        }
        std::getline(std::cin, v);
        if (hide) {
            ::tcsetattr(STDIN_FILENO, TCSANOW, &saved);
            std::cout << "\n";
        }
    }
    return v;
}

struct Answers {
    std::string domain, bot_token, database_url, redis_url, panel_url, panel_token, telegram_api;
    std::string yookassa_shop_id, yookassa_secret_key, cryptobot_token, admin_ids, yookassa_api, cryptobot_api;
    bool mock_panel = false;
};

// An API base URL: the flag, else the env file's current value, else the setting's default
// (the real service; tests point these at tests/fakes).
std::string api_base(const Args& args, const std::string& flag_name, const EnvValues& current, std::string_view setting) {
    std::string fallback;
    const auto it = current.find(std::string(setting));
    if (it != current.end() && !it->second.empty()) fallback = it->second;
    else
        for (const SettingSpec& spec : setting_specs())
            if (spec.name == setting) fallback = spec.default_value;
    return option(args, flag_name, fallback);
}

Answers collect(const Args& args, const EnvValues& current) {
    const bool tty = ::isatty(STDIN_FILENO);
    Answers a;
    a.domain = answer(args, "--domain", "Domain of the shop (e.g. cabinet.example.com)", tty);
    a.bot_token = answer(args, "--bot-token", "Bot token (from @BotFather)", tty, true);
    a.database_url = answer(args, "--database-url", "PostgreSQL URL (postgresql://cabinet:PASSWORD@127.0.0.1/cabinet)", tty);
    a.redis_url = answer(args, "--redis-url", "Redis URL (redis://127.0.0.1:6379/0)", tty);
    a.mock_panel = flag(args, "--mock-panel");
    if (!a.mock_panel) {
        a.panel_url = answer(args, "--panel-url", "Panel URL (https://panel.example.com; empty: the mock panel)", tty);
        a.mock_panel = a.panel_url.empty() && tty;
        if (!a.mock_panel) a.panel_token = answer(args, "--panel-token", "Panel API token", tty, true);
    }
    // Payments are optional: asked for only when no payment flag was given at all.
    const bool ask_payments = option(args, "--yookassa-shop-id").empty() && option(args, "--cryptobot-token").empty() &&
                              from_environment(args, "--cryptobot-token").empty();
    a.yookassa_shop_id = answer(args, "--yookassa-shop-id", ask_payments ? "YooKassa shop id (empty: none)" : nullptr, tty);
    if (!a.yookassa_shop_id.empty())
        a.yookassa_secret_key = answer(args, "--yookassa-secret-key", "YooKassa secret key", tty, true);
    a.cryptobot_token =
        answer(args, "--cryptobot-token", ask_payments ? "CryptoBot token (empty: none)" : nullptr, tty, true);
    a.admin_ids = option(args, "--admin-ids");
    a.telegram_api = api_base(args, "--telegram-api-base", current, "TELEGRAM_API_BASE");
    a.yookassa_api = api_base(args, "--yookassa-api-base", current, "YOOKASSA_API_BASE");
    a.cryptobot_api = api_base(args, "--cryptobot-api-base", current, "CRYPTOBOT_API_BASE");
    return a;
}

// What is missing or malformed before anything is asked of a service.
std::vector<std::string> form_problems(const Answers& a) {
    std::vector<std::string> out;
    const auto need = [&out](const std::string& v, const char* what) {
        if (v.empty()) out.push_back(std::string(what) + " is missing (no terminal to ask on)");
    };
    need(a.domain, "--domain");
    need(a.bot_token, "--bot-token");
    need(a.database_url, "--database-url");
    need(a.redis_url, "--redis-url");
    if (!a.mock_panel) {
        need(a.panel_url, "--panel-url (or --mock-panel)");
        need(a.panel_token, "--panel-token");
    }
    if (!a.yookassa_shop_id.empty()) need(a.yookassa_secret_key, "--yookassa-secret-key");
    static const std::regex host_re(R"(^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$)");
    if (!a.domain.empty() && !std::regex_match(a.domain, host_re))
        out.push_back("--domain " + a.domain + ": not a host name (lower-case, e.g. cabinet.example.com)");
    // One value a line in a file that systemd and sh both read: no line breaks or quotes.
    for (const std::string* v : {&a.bot_token, &a.database_url, &a.redis_url, &a.panel_url, &a.panel_token,
                                 &a.yookassa_shop_id, &a.yookassa_secret_key, &a.cryptobot_token, &a.admin_ids,
                                 &a.telegram_api, &a.yookassa_api, &a.cryptobot_api})
        if (v->find_first_of("\n\r\"'` \\$") != std::string::npos)
            out.push_back("a value holds a space, quote, backslash, $ or line break: " + without_password(*v));
    return out;
}

// The settings setup decides; secrets already in `current` are kept (a second run must not
// sign everyone out or make the old backups unreadable).
EnvValues settings_of(const Answers& a, const EnvValues& current, const std::string& bot_username) {
    const auto kept = [&current](const char* name, size_t bytes) {
        const auto it = current.find(name);
        return it != current.end() && !it->second.empty() ? it->second : random_hex(bytes);
    };
    const std::string origin = "https://" + a.domain;
    EnvValues v = {
        {"DATABASE_URL", a.database_url},
        {"REDIS_URL", a.redis_url},
        {"BOT_TOKEN", a.bot_token},
        {"BOT_USERNAME", bot_username},
        {"TELEGRAM_API_BASE", a.telegram_api},
        {"MINIAPP_URL", origin + "/app/"},
        {"WEB_CABINET_URL", origin + "/cabinet"},
        {"WEB__CORS_ORIGINS", origin},
        {"JWT_SECRET", kept("JWT_SECRET", 32)},
        {"BOT_WEBHOOK_SECRET", kept("BOT_WEBHOOK_SECRET", 24)},
        {"BACKUP_ENCRYPTION_PASSWORD", kept("BACKUP_ENCRYPTION_PASSWORD", 16)},
        {"BACKUP_DIR", "/var/backups/cabinet"},
        {"LANDING_DIR", "/var/www/cabinet-landing"},
        {"PANEL__BASE_URL", a.mock_panel ? kMockPanelUrl : a.panel_url},
        {"PANEL__TOKEN", a.mock_panel ? kept("PANEL__TOKEN", 16) : a.panel_token},
    };
    if (!a.admin_ids.empty()) v["ADMIN_IDS"] = a.admin_ids;
    if (!a.yookassa_shop_id.empty()) {
        v["YOOKASSA_ENABLED"] = "true";
        v["YOOKASSA_SHOP_ID"] = a.yookassa_shop_id;
        v["YOOKASSA_SECRET_KEY"] = a.yookassa_secret_key;
        v["YOOKASSA_RETURN_URL"] = origin + "/app/";
        v["YOOKASSA_API_BASE"] = a.yookassa_api;  // the one the keys were checked against
    }
    if (!a.cryptobot_token.empty()) {
        v["CRYPTOBOT_ENABLED"] = "true";
        v["CRYPTOBOT_TOKEN"] = a.cryptobot_token;
        v["CRYPTOBOT_API_BASE"] = a.cryptobot_api;
    }
    return v;
}

}  // namespace

int setup(const Args& args) {
    const std::string env_file = option(args, "--env-file", kDefaultEnvFile);
    const std::string current_text = read_text(env_file);
    const EnvValues current = parse_env(current_text);
    const Answers a = collect(args, current);
    const std::filesystem::path migrations = sql_dir() + "/migrations";

    std::vector<std::string> problems = form_problems(a);
    const std::string pool_text = option(args, "--pool", std::to_string(std::max(1u, std::thread::hardware_concurrency())));
    if (!std::regex_match(pool_text, std::regex("^[1-9][0-9]?$")))
        problems.push_back("--pool " + pool_text + ": a number of pool processes, 1 to 99");
    std::string bot_username;
    if (problems.empty()) {
        // Every service is asked, so one run names every wrong answer.
        const auto record = [&problems](const char* what, const CheckResult& r) {
            if (r.problem) problems.push_back(*r.problem);
            else std::cout << "ok  " << what << r.found << "\n";
        };
        record("database ", check_database(a.database_url, migrations));
        record("Redis", check_redis(a.redis_url));
        const CheckResult bot = check_bot_token(a.telegram_api, a.bot_token);
        record("bot @", bot);
        bot_username = bot.found;
        if (a.mock_panel) std::cout << "--  panel: the mock panel (" << kMockPanelUrl << "), started with the units\n";
        else record("panel, version ", check_panel(a.panel_url, a.panel_token));
        if (!a.yookassa_shop_id.empty())
            record("YooKassa shop ", check_yookassa(a.yookassa_api, a.yookassa_shop_id, a.yookassa_secret_key));
        if (!a.cryptobot_token.empty()) record("CryptoBot app ", check_cryptobot(a.cryptobot_api, a.cryptobot_token));
    }
    const EnvValues values = settings_of(a, current, bot_username);
    const std::string text = with_values(current_text.empty() ? settings_env_example() : current_text, values);
    if (problems.empty()) {
        try {
            const EnvValues all = parse_env(text);
            load_settings([&all](const char* name) -> const char* {
                const auto it = all.find(name);
                return it == all.end() ? nullptr : it->second.c_str();
            });
        } catch (const ConfigError& e) {
            problems.push_back(std::string("the settings would not load: ") + e.what());
        }
    }
    if (!problems.empty()) {
        for (const auto& p : problems) std::cerr << "setup: " << p << "\n";
        std::cerr << "setup: nothing was written; run it again with the answers corrected\n";
        return 1;
    }

    std::string note;
    write_env_file(env_file, text, "cabinet", note);
    std::cout << "wrote " << env_file << (note.empty() ? " (0640 root:cabinet)" : " (0640)") << "\n";
    if (!note.empty()) std::cout << "note: " << note << "\n";
    apply_migrations(a.database_url, migrations, std::cout);

    HostPlan plan;
    plan.domain = a.domain;
    plan.env_file = env_file;
    plan.share_dir = std::filesystem::path(sql_dir()).parent_path();
    plan.pool = std::stoi(pool_text);
    plan.mock_panel = a.mock_panel;
    plan.nginx = !flag(args, "--no-nginx");
    // Without systemd running (a chroot, a container) the units are listed, not enabled.
    plan.systemd = !flag(args, "--no-systemd") && std::filesystem::is_directory("/run/systemd/system");
    return switch_host_on(plan, std::cout);
}

}  // namespace cabinet::ctl
