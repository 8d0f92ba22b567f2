#pragma once
// Every setting of the service, read from the environment once at start and immutable
// afterwards. The table in settings.cpp is the single place that names a variable, its
// default and its meaning; it drives parsing, `cabinetctl settings` and the env example.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/staff.hpp"
#include "util/client_net.hpp"

namespace cabinet {

namespace detail {
inline bool listed(const std::vector<int64_t>& ids, int64_t id) {
    for (int64_t x : ids)
        if (x == id) return true;
    return false;
}
}  // namespace detail

// MAINTENANCE_MESSAGE's default, and the text used when it is set blank: Telegram refuses
// a message without text, so a blank one would leave every customer without an answer.
inline constexpr const char* kDefaultMaintenanceMessage = "Technical work is under way. Please try again later.";

struct Settings {
    // Storage
    std::string database_url;
    int64_t db_connect_timeout_s = 2;
    int64_t db_statement_timeout_ms = 5000;
    std::string redis_url;
    int64_t redis_timeout_ms = 100;

    // Telegram and auth
    std::string bot_token;
    std::string bot_username;
    std::string miniapp_url;
    int64_t init_data_max_age_s = 86400;
    std::string jwt_secret;
    std::vector<int64_t> admin_ids;    // owners
    std::vector<int64_t> support_ids;  // support staff of the owner's cabinet
    std::vector<int64_t> viewer_ids;   // read-only staff
    bool is_admin(int64_t telegram_id) const { return detail::listed(admin_ids, telegram_id); }
    // The widest role `telegram_id` has (domain/staff.hpp).
    StaffRole staff_role(int64_t telegram_id) const {
        if (detail::listed(admin_ids, telegram_id)) return StaffRole::owner;
        if (detail::listed(support_ids, telegram_id)) return StaffRole::support;
        if (detail::listed(viewer_ids, telegram_id)) return StaffRole::viewer;
        return StaffRole::none;
    }
    std::vector<std::string> cors_origins;
    // Whether a staff account (any role) may confirm a web sign-in or a link with the bot's
    // code prompt. Off: a stranger's page that talks the owner into Confirm gets nothing.
    bool staff_code_signin = false;

    // Shop
    std::string default_currency = "RUB";
    // The shop's days (the owner's Overview: revenue today, yesterday, the 30-day chart)
    // begin at this zone's midnight: an IANA name as PostgreSQL takes it.
    std::string shop_timezone = "Europe/Moscow";
    bool trial_enabled = true;
    int64_t trial_duration_days = 3;
    int64_t trial_traffic_gb = 10;
    int64_t trial_device_limit = 1;
    int64_t trial_price_minor = 0;
    int64_t stars_rate_minor = 130;  // price of one star in minor units of the currency
    int64_t referral_bonus_days = 7;
    int64_t referral_percent = 10;
    bool balance_enabled = true;
    // Every paid purchase, renewal or fulfilled payment resets the panel's traffic counter
    // (the plan's allowance starts over). Off: only one that finds the subscription out of
    // traffic does, so a renewal never leaves a paying customer without traffic.
    bool reset_traffic_on_payment = false;
    // The panel's trafficLimitStrategy for the users we write: when it starts the counter
    // over by itself (NO_RESET: never; MONTH: each calendar month, ...). A plan's traffic
    // is per period of this strategy, so a year of a "100 GB" plan is 100 GB a month with
    // MONTH and 100 GB in all with NO_RESET.
    std::string traffic_reset_strategy = "NO_RESET";
    bool hide_subscription_link = false;
    bool show_traffic_usage = true;
    std::string sales_mode = "plans";
    bool yookassa_enabled = false;
    bool cryptobot_enabled = false;
    std::string telegram_api_base = "https://api.telegram.org";
    std::string bot_webhook_secret;
    std::string yookassa_shop_id;
    std::string yookassa_secret_key;
    std::string yookassa_api_base = "https://api.yookassa.ru/v3";
    std::string yookassa_return_url;
    std::string cryptobot_token;
    std::string cryptobot_api_base = "https://pay.crypt.bot/api";
    int64_t gateway_timeout_ms = 10000;
    int64_t gateway_concurrency = 2;    // payment gateway requests in flight per pool process (net/call_slots.hpp)
    int64_t gateway_queue_wait_ms = 0;  // wait for one of them before 503 busy
    int64_t payment_pending_ttl_s = 3600;  // an unpaid Stars/gateway invoice ends after this
    // The worker asks the gateway about an online payment still pending this long after it
    // began (and once more after it expired): a payment whose notifications were all lost
    // is fulfilled all the same (services/payment_recheck.hpp).
    int64_t payment_recheck_after_s = 300;
    // Where each provider's notifications may come from (empty: anywhere; the signature or
    // the provider's own answer is checked either way).
    std::vector<IpNetwork> yookassa_webhook_from;
    std::vector<IpNetwork> cryptobot_webhook_from;
    bool web_cabinet_enabled = false;
    std::string web_cabinet_url;  // public base URL of the browser cabinet, for mail links
    std::string landing_dir;      // where the worker writes the landing page; empty = not rendered

    // Web sessions (issue 7): passwords, brute-force limits, tokens
    int64_t password_opslimit = 2;          // crypto_pwhash_OPSLIMIT_INTERACTIVE
    int64_t password_memlimit = 67108864;   // crypto_pwhash_MEMLIMIT_INTERACTIVE, bytes
    int64_t password_hash_concurrency = 2;  // concurrent Argon2id runs per process
    int64_t auth_fail_limit_email = 10;
    int64_t auth_fail_limit_ip = 30;
    int64_t auth_fail_window_s = 900;
    int64_t refresh_token_ttl_s = 7 * 86400;
    int64_t web_session_max_age_s = 30 * 86400;
    int64_t verify_token_ttl_s = 86400;

    // Outgoing mail (the worker's send_mail job)
    std::string smtp_url;
    std::string smtp_user;
    std::string smtp_password;
    std::string smtp_from;
    int64_t smtp_timeout_ms = 15000;

    // OAuth login of the web cabinet: a provider is on when both its id and secret are set.
    std::string google_client_id;
    std::string google_client_secret;
    std::string yandex_client_id;
    std::string yandex_client_secret;
    std::string vk_client_id;
    std::string vk_client_secret;
    // The providers' endpoints (real ones by default; the test stack points them at fakes).
    std::string google_authorize_url;
    std::string google_token_url;
    std::string google_userinfo_url;
    std::string yandex_authorize_url;
    std::string yandex_token_url;
    std::string yandex_userinfo_url;
    std::string vk_authorize_url;
    std::string vk_token_url;
    std::string vk_userinfo_url;
    std::vector<std::string> connection_apps;
    int64_t constructor_device_limit = 3;  // client apps offered in GET /connection, in order

    // Maintenance
    bool maintenance_mode = false;
    std::string maintenance_message;
    bool auto_maintenance_enabled = true;
    int64_t maintenance_cache_ttl_ms = 2000;

    // Backups and the reporting group
    bool backup_enabled = false;
    std::string backup_time = "03:00";  // Moscow time (UTC+3), HH:MM
    int64_t backup_keep_last = 7;
    std::string backup_dir = "./backups";
    std::string backup_encryption_password;
    std::string report_chat_id;
    std::string report_topic_backups;  // message_thread_id; empty = topic not enabled
    std::string report_topic_alerts;
    std::string report_topic_tickets;
    int64_t support_messages_per_10_min = 20;  // per user; each one is posted to the tickets topic
    int64_t broadcast_rate_per_s = 30;  // the worker's broadcast messages a second, all broadcasts together

    // Panel
    std::string panel_base_url;
    std::string panel_token;
    std::string subscription_public_url;  // base of the panel's subscription links; never empty after load
    int64_t panel_connect_timeout_ms = 1000;
    int64_t panel_timeout_ms = 3000;
    int64_t traffic_fresh_s = 60;  // GET /traffic asks the panel when the stored figure is older
    int64_t panel_concurrency = 4;      // panel requests in flight per pool process (net/call_slots.hpp)
    int64_t panel_queue_wait_ms = 200;  // wait for one of them before 503 busy

    // Runtime
    std::string log_level = "info";
    std::string log_format = "text";  // text | json: one JSON object a line (log/logging.hpp)
    int64_t worker_heartbeat_max_age_s = 180;
    int64_t app_config_ttl_ms = 2000;
    int64_t account_cache_mb = 8;  // what a pool process may keep of accounts in memory; 0 = off
    int64_t account_cache_max_age_s = 300;  // no copy is older, whatever the notifications
    std::string account_generations_file = "/run/cabinet/account-generations";
    std::string metrics_file = "/run/cabinet/metrics";  // the host's pool counters (metrics/host_metrics.hpp)
    std::vector<std::string> metrics_allow;             // CIDRs nginx lets scrape /metrics besides loopback
    std::string metrics_textfile_dir;                   // the worker's and watchdog's .prom files; empty = none
    int64_t max_body_bytes = 65536;

    // What loading noticed but accepted (an old format read the old way): the pool and the
    // worker log each line as a warning at start, so the owner can write it the new way.
    std::vector<std::string> notices;
};


// Who may change a setting. Infrastructure (the default: storage, secrets, URLs, limits)
// comes from the env file only. Owner-level settings (the shop's offer and texts) start
// from the env file too, and a value stored in PostgreSQL overrides it in every process
// within a second, no restart (config/owner_settings.hpp, docs/operations.md "Settings").
enum class SettingLevel { infrastructure, owner };
inline constexpr SettingLevel kOwner = SettingLevel::owner;

struct SettingSpec {
    std::string_view name;
    std::string_view default_value;
    std::string_view help;
    std::function<void(Settings&, std::string_view)> apply;  // throws std::invalid_argument
    SettingLevel level = SettingLevel::infrastructure;
};

const std::vector<SettingSpec>& setting_specs();

// Reads every setting through `lookup` (nullptr = unset, default applies) and validates the
// whole. Throws ConfigError naming the variable on the first invalid value.
using EnvLookup = std::function<const char*(const char*)>;
Settings load_settings(const EnvLookup& lookup);
Settings load_settings_from_environment();

// The OAuth providers of the web cabinet that can be used: those whose client id and secret
// are both set, in a fixed order (google, yandex, vk); none while WEB_CABINET_ENABLED is off.
std::vector<std::string> enabled_oauth_providers(const Settings& s);

// The documented env file: every variable, its default and one line of meaning.
std::string settings_env_example();

}  // namespace cabinet
