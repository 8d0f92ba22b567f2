#pragma once
// Live checks of the services a host's settings point at (payment gateways included), each answering with what is wrong
// in one sentence a sysadmin can act on (or nothing when all is well). `cabinetctl setup`
// runs them before it writes anything; any other command may reuse them.
#include <filesystem>
#include <optional>
#include <string>

namespace cabinet::ctl {

struct CheckResult {
    std::optional<std::string> problem;  // set: what is wrong, e.g. "database: ..."
    std::string found;                   // on success: what was learned (the bot's username, the panel's version)
};

// Connects (5 s at most), and checks that the role may create tables and that the database
// holds no migration `migrations_dir` does not know (a newer cabinet's schema).
CheckResult check_database(const std::string& database_url, const std::filesystem::path& migrations_dir);
// PING within 2 s.
CheckResult check_redis(const std::string& redis_url);
// getMe at `api_base` (TELEGRAM_API_BASE); `found` is the bot's username.
CheckResult check_bot_token(const std::string& api_base, const std::string& token);
// The panel's version (GET /api/system/metadata with the token); `found` is the version.
CheckResult check_panel(const std::string& base_url, const std::string& token);
// The YooKassa shop the keys belong to (GET {api_base}/me, HTTP Basic shop_id:secret_key, as
// the gateway sends them); `found` is the shop id, " (test shop)" added for a test shop's keys.
CheckResult check_yookassa(const std::string& api_base, const std::string& shop_id, const std::string& secret_key);
// The Crypto Pay app the token belongs to (getMe with the Crypto-Pay-API-Token header, as the
// gateway sends it); `found` is the app's name.
CheckResult check_cryptobot(const std::string& api_base, const std::string& token);

// A libpq URL or key=value string shown without its password.
std::string without_password(const std::string& database_url);

}  // namespace cabinet::ctl
