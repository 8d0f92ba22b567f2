#include "config/settings.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <stdexcept>

#include "errors.hpp"
#include "util/strings.hpp"

namespace cabinet {
namespace {

void parse_into(std::string& out, std::string_view v) { out = std::string(v); }

void parse_into(bool& out, std::string_view v) {
    const std::string s = to_lower(trim(v));
    if (s == "1" || s == "true" || s == "yes" || s == "on") out = true;
    else if (s == "0" || s == "false" || s == "no" || s == "off" || s.empty()) out = false;
    else throw std::invalid_argument("expected true or false");
}

void parse_into(std::vector<std::string>& out, std::string_view v) {
    out.clear();
    for (auto part : split(v, ',')) {
        auto t = trim(part);
        if (!t.empty()) out.emplace_back(t);
    }
}

void parse_into(std::vector<int64_t>& out, std::string_view v) {
    out.clear();
    for (auto part : split(v, ',')) {
        auto t = trim(part);
        if (t.empty()) continue;
        int64_t n = 0;
        if (!parse_int64(t, n)) throw std::invalid_argument("expected a comma-separated list of integers");
        out.push_back(n);
    }
}

// scheme://host[:port][/path]: nothing that could make a prefix match point elsewhere.
bool plain_base_url(std::string_view url) {
    const size_t start = starts_with(url, "https://") ? 8 : starts_with(url, "http://") ? 7 : 0;
    return start != 0 && url.size() > start && url[start] != '/' &&
           url.find_first_of("@?#\\ \t\r\n") == std::string_view::npos;
}

bool http_url(std::string_view url) { return starts_with(url, "https://") || starts_with(url, "http://"); }

// A URL setting, trimmed and without trailing slashes; empty, or one `valid` accepts.
template <auto Member>
auto url(bool (*valid)(std::string_view), const char* expected) {
    return [valid, expected](Settings& s, std::string_view v) {
        std::string t(trim(v));
        while (!t.empty() && t.back() == '/') t.pop_back();
        if (!t.empty() && !valid(t)) throw std::invalid_argument(expected);
        s.*Member = t;
    };
}

template <auto Member>
auto networks() {
    return [](Settings& s, std::string_view v) {
        auto& out = s.*Member;
        out.clear();
        for (const auto item : split(v, ',')) {
            if (trim(item).empty()) continue;
            const auto net = parse_ip_network(item);
            if (!net) throw std::invalid_argument("expected addresses or networks like 185.71.76.0/27 or 2a02:5180::/32, comma-separated");
            out.push_back(*net);
        }
    };
}

template <auto Member>
auto field() {
    return [](Settings& s, std::string_view v) { parse_into(s.*Member, v); };
}

template <auto Member>
auto ranged(int64_t lo, int64_t hi) {
    return [lo, hi](Settings& s, std::string_view v) {
        int64_t n = 0;
        if (!parse_int64(trim(v), n) || n < lo || n > hi)
            throw std::invalid_argument("must be an integer between " + std::to_string(lo) + " and " + std::to_string(hi));
        s.*Member = n;
    };
}

template <auto Member>
auto one_of(std::vector<std::string> allowed) {
    return [allowed](Settings& s, std::string_view v) {
        for (const auto& a : allowed)
            if (a == v) { s.*Member = a; return; }
        std::string list;
        for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        throw std::invalid_argument("must be one of: " + list);
    };
}

// A reporting group topic: a message_thread_id (digits), or empty for "not enabled".
template <auto Member>
auto topic_id() {
    return [](Settings& s, std::string_view v) {
        static const std::regex re(R"(^(\d{1,18})?$)");
        const std::string t(trim(v));
        if (!std::regex_match(t, re)) throw std::invalid_argument("expected a message_thread_id (digits) or empty");
        s.*Member = t;
    };
}

// "1.8" -> 180: a decimal amount of the currency in minor units, two fraction digits at most.
// STARS_RATE_RUB as the original reads it: an integer count of minor units per star (130 =
// 1.30 ₽). Our earlier releases wrote a decimal amount ("1.8" = 1.80 ₽); such a value is
// still read, as that many hundredths, with a notice saying what to write instead.
void parse_stars_rate(Settings& s, std::string_view v) {
    static const std::regex integer(R"(^\d{1,9}$)"), decimal(R"(^(\d{1,9})\.(\d{1,2})$)");
    const std::string t(trim(v));
    std::smatch m;
    if (std::regex_match(t, integer)) {
        s.stars_rate_minor = std::stoll(t);
    } else if (std::regex_match(t, m, decimal)) {
        std::string frac = m[2].str();
        while (frac.size() < 2) frac += '0';
        s.stars_rate_minor = std::stoll(m[1].str()) * 100 + std::stoll(frac);
        s.notices.push_back("STARS_RATE_RUB=" + t + " is a decimal amount of the old format: read as " +
                            std::to_string(s.stars_rate_minor) + " minor units per star; write STARS_RATE_RUB=" +
                            std::to_string(s.stars_rate_minor));
    } else {
        throw std::invalid_argument("expected an integer count of minor units per star, like 130 (1.30 a star)");
    }
    if (s.stars_rate_minor < 1) throw std::invalid_argument("must be at least 1");
}

// An IANA zone name (Europe/Moscow, America/Argentina/Buenos_Aires, UTC), checked against the
// host's zone files where it has them: PostgreSQL refuses an unknown one per query.
void parse_time_zone(Settings& s, std::string_view v) {
    static const std::regex re(R"(^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+){0,2}$)");
    const std::string t(trim(v));
    const bool known = !std::filesystem::is_directory("/usr/share/zoneinfo") ||
                       std::filesystem::is_regular_file("/usr/share/zoneinfo/" + t);
    if (!std::regex_match(t, re) || !known) throw std::invalid_argument("expected a time zone name such as Europe/Moscow or UTC");
    s.shop_timezone = t;
}

const std::vector<SettingSpec> kSpecs = {
    {"DATABASE_URL", "postgresql:///cabinet", "PostgreSQL connection URI (libpq syntax)", field<&Settings::database_url>()},
    {"DB_CONNECT_TIMEOUT_S", "2", "seconds to wait for a PostgreSQL connection", ranged<&Settings::db_connect_timeout_s>(1, 60)},
    {"DB_STATEMENT_TIMEOUT_MS", "5000", "statement_timeout of every pool connection; keep below nginx's fastcgi_read_timeout", ranged<&Settings::db_statement_timeout_ms>(100, 600000)},
    {"REDIS_URL", "redis://127.0.0.1:6379/0", "Redis: redis://host:port/db or unix:///path/to/redis.sock", field<&Settings::redis_url>()},
    {"REDIS_TIMEOUT_MS", "100", "connect and command timeout for Redis; Redis is optional, so keep it short", ranged<&Settings::redis_timeout_ms>(5, 5000)},
    {"BOT_TOKEN", "", "Telegram bot token (required): signs mini-app init data", field<&Settings::bot_token>()},
    {"BOT_USERNAME", "", "the bot's @username (required): referral, login and linking links are t.me/<it>", [](Settings& s, std::string_view v) {
         std::string t(trim(v));
         if (!t.empty() && t.front() == '@') t.erase(0, 1);
         static const std::regex re(R"(^([A-Za-z][A-Za-z0-9_]{3,31})?$)");
         if (!std::regex_match(t, re)) throw std::invalid_argument("expected a Telegram username like shop_vpn_bot");
         s.bot_username = t;
     }},
    {"MINIAPP_URL", "", "public URL of the mini-app (https://<domain>/app/), for the bot's open button", field<&Settings::miniapp_url>()},
    {"INIT_DATA_MAX_AGE_S", "86400", "oldest accepted mini-app init data (auth_date), seconds", ranged<&Settings::init_data_max_age_s>(60, 30 * 86400)},
    {"JWT_SECRET", "", "HS256 key of web-cabinet access tokens (required, at least 32 bytes)", field<&Settings::jwt_secret>()},
    {"ADMIN_IDS", "", "comma-separated Telegram ids of the shop's admins", field<&Settings::admin_ids>()},
    {"SUPPORT_IDS", "", "comma-separated Telegram ids of the shop's support staff: in the owner's cabinet they read customers and answer support, and see no money and no settings", field<&Settings::support_ids>(), kOwner},
    {"VIEWER_IDS", "", "comma-separated Telegram ids of read-only staff: they see every section of the owner's cabinet and change nothing (demos, an accountant)", field<&Settings::viewer_ids>(), kOwner},
    {"WEB__CORS_ORIGINS", "", "comma-separated origins allowed to call the API from a browser; * admits any site, but without credentials (name your own front end's origin)", field<&Settings::cors_origins>()},
    {"STAFF_CODE_SIGNIN", "false", "let staff accounts (ADMIN_IDS, SUPPORT_IDS, VIEWER_IDS) confirm a web sign-in or an account link with the bot's code prompt; off, a page that talks the owner into pressing Confirm gets nothing", field<&Settings::staff_code_signin>()},
    {"DEFAULT_CURRENCY", "RUB", "currency code of prices and balances", field<&Settings::default_currency>()},
    {"SHOP_TIMEZONE", "Europe/Moscow", "the shop's time zone (an IANA name such as Europe/Moscow or UTC): the owner's Overview counts revenue by its days", parse_time_zone, kOwner},
    {"TRIAL_ENABLED", "true", "whether users may activate a trial", field<&Settings::trial_enabled>(), kOwner},
    {"DEFAULT_TRAFFIC_RESET_STRATEGY", "NO_RESET", "when the panel starts a user's traffic counter over by itself: NO_RESET (never: a plan's traffic is for its whole term), DAY, WEEK, MONTH (each calendar month) or MONTH_ROLLING (each month from the user's start); written to each panel user at its next grant", one_of<&Settings::traffic_reset_strategy>({"NO_RESET", "DAY", "WEEK", "MONTH", "MONTH_ROLLING"}), kOwner},
    {"RESET_TRAFFIC_ON_PAYMENT", "false", "every paid purchase or renewal resets the used traffic, so the plan's allowance starts over (false: only one that finds the subscription out of traffic does)", field<&Settings::reset_traffic_on_payment>(), kOwner},
    {"TRIAL_DURATION_DAYS", "3", "length of the trial in days", ranged<&Settings::trial_duration_days>(1, 365), kOwner},
    {"TRIAL_TRAFFIC_GB", "10", "trial traffic limit in GB (0 = unlimited)", ranged<&Settings::trial_traffic_gb>(0, 100000), kOwner},
    {"TRIAL_DEVICE_LIMIT", "1", "devices allowed on a trial", ranged<&Settings::trial_device_limit>(1, 100), kOwner},
    {"TRIAL_PRICE", "0", "price of the trial in minor units, charged from the balance (0 = free)", ranged<&Settings::trial_price_minor>(0, 100000000), kOwner},
    {"STARS_RATE_RUB", "130", "price of one Telegram Star in minor units of the shop currency (130 = 1.30); a Stars price is max(1, ceil(price / rate))", parse_stars_rate, kOwner},
    {"REFERRAL_BONUS_DAYS", "7", "days granted for a referral", ranged<&Settings::referral_bonus_days>(0, 3650), kOwner},
    {"REFERRAL_PERCENT", "10", "referrer's commission on the referral's payments, percent", ranged<&Settings::referral_percent>(0, 100), kOwner},
    {"BALANCE_ENABLED", "true", "whether the balance and top-ups are shown", field<&Settings::balance_enabled>(), kOwner},
    {"HIDE_SUBSCRIPTION_LINK", "false", "hide the raw subscription URL from users", field<&Settings::hide_subscription_link>(), kOwner},
    {"TRAFFIC_FRESH_S", "60", "GET /traffic shows the stored figure while it is younger than this, and asks the panel otherwise", ranged<&Settings::traffic_fresh_s>(0, 86400)},
    {"SHOW_TRAFFIC_USAGE", "true", "show traffic usage in the cabinet", field<&Settings::show_traffic_usage>(), kOwner},
    {"SALES_MODE", "plans", "plans (fixed plans) or constructor (period + traffic pack)", one_of<&Settings::sales_mode>({"plans", "constructor"}), kOwner},
    {"YOOKASSA_ENABLED", "false", "offer the YooKassa gateway", field<&Settings::yookassa_enabled>(), kOwner},
    {"CRYPTOBOT_ENABLED", "false", "offer the CryptoBot gateway", field<&Settings::cryptobot_enabled>(), kOwner},
    {"TELEGRAM_API_BASE", "https://api.telegram.org", "Bot API base URL (a fake in tests)", field<&Settings::telegram_api_base>()},
    {"BOT_WEBHOOK_SECRET", "", "secret_token the Bot API sends with every update to /bot/webhook", field<&Settings::bot_webhook_secret>()},
    {"YOOKASSA_SHOP_ID", "", "YooKassa shop id", field<&Settings::yookassa_shop_id>(), kOwner},
    {"YOOKASSA_SECRET_KEY", "", "YooKassa secret key", field<&Settings::yookassa_secret_key>(), kOwner},
    {"YOOKASSA_API_BASE", "https://api.yookassa.ru/v3", "YooKassa API base URL (a fake in tests)", field<&Settings::yookassa_api_base>()},
    {"YOOKASSA_RETURN_URL", "", "where YooKassa sends the buyer back after paying", field<&Settings::yookassa_return_url>(), kOwner},
    {"CRYPTOBOT_TOKEN", "", "Crypto Pay API token of the CryptoBot app", field<&Settings::cryptobot_token>(), kOwner},
    {"CRYPTOBOT_API_BASE", "https://pay.crypt.bot/api", "Crypto Pay API base URL (a fake in tests)", field<&Settings::cryptobot_api_base>()},
    {"GATEWAY_TIMEOUT_MS", "10000", "total timeout of one request to a payment gateway or the Bot API", ranged<&Settings::gateway_timeout_ms>(100, 120000)},
    {"GATEWAY_CONCURRENCY", "2", "payment gateway requests one pool process has in flight at once (a webhook's verification, a checkout); a webhook storm then holds that many threads and the rest of the storm is answered 503 busy, which providers retry (docs/decisions.md)", ranged<&Settings::gateway_concurrency>(1, 256)},
    {"GATEWAY_QUEUE_WAIT_MS", "0", "how long a request waits for one of those before it is refused with 503 busy; a waiting request holds a pool thread", ranged<&Settings::gateway_queue_wait_ms>(0, 10000)},
    {"PAYMENT_PENDING_TTL_S", "3600", "seconds an unpaid Stars or gateway invoice stays payable; then it is canceled and its promo discount released", ranged<&Settings::payment_pending_ttl_s>(300, 7 * 86400)},
    {"PAYMENT_RECHECK_AFTER_S", "300", "the worker asks the gateway about an online payment still pending after this many seconds (then as often, and once after it expired), so a paid order is fulfilled even if every notification was lost", ranged<&Settings::payment_recheck_after_s>(30, 86400)},
    {"YOOKASSA_WEBHOOK_FROM", "", "networks (CIDR, comma-separated) YooKassa's notifications may come from, e.g. its published list 185.71.76.0/27,185.71.77.0/27,77.75.153.0/25,77.75.156.11,77.75.156.35,77.75.154.128/25,2a02:5180::/32; empty = any (each one is verified with YooKassa anyway)", networks<&Settings::yookassa_webhook_from>()},
    {"CRYPTOBOT_WEBHOOK_FROM", "", "networks (CIDR, comma-separated) CryptoBot's notifications may come from; empty = any (each one must carry the signature anyway)", networks<&Settings::cryptobot_webhook_from>()},
    {"WEB_CABINET_ENABLED", "false", "enable the browser cabinet (e-mail/OAuth login, public plans)", field<&Settings::web_cabinet_enabled>()},
    {"WEB_CABINET_URL", "", "public URL of the browser cabinet, e.g. https://example.com/cabinet (links in verification mails)", url<&Settings::web_cabinet_url>(http_url, "expected an http(s) URL")},
    {"LANDING_DIR", "", "folder the worker writes the public landing page into (index.html, served by nginx at /); empty = no landing is rendered", field<&Settings::landing_dir>()},
    {"PASSWORD_OPSLIMIT", "2", "Argon2id passes of password hashes (libsodium opslimit; 2 = INTERACTIVE)", ranged<&Settings::password_opslimit>(1, 20)},
    {"PASSWORD_MEMLIMIT", "67108864", "Argon2id memory of one password hash in bytes (64 MiB = INTERACTIVE)", ranged<&Settings::password_memlimit>(8192, int64_t{4} << 30)},
    {"PASSWORD_HASH_CONCURRENCY", "2", "password hashes one pool process runs at once (each takes PASSWORD_MEMLIMIT); the rest wait up to 2 s, then 503", ranged<&Settings::password_hash_concurrency>(1, 64)},
    {"AUTH_FAIL_LIMIT_EMAIL", "10", "failed web logins/registrations/verifications per e-mail from one client IP within AUTH_FAIL_WINDOW_S before 429; from all IPs together, before each try waits a delay after the latest failure (1 s, doubling, at most 60 s)", ranged<&Settings::auth_fail_limit_email>(1, 100000)},
    {"AUTH_FAIL_LIMIT_IP", "30", "failed web logins/registrations/verifications per client IP within AUTH_FAIL_WINDOW_S before 429", ranged<&Settings::auth_fail_limit_ip>(1, 1000000)},
    {"AUTH_FAIL_WINDOW_S", "900", "window of the brute-force counters, seconds", ranged<&Settings::auth_fail_window_s>(10, 86400)},
    {"REFRESH_TOKEN_TTL_S", "604800", "lifetime of a web-cabinet refresh token, seconds", ranged<&Settings::refresh_token_ttl_s>(60, 90 * 86400)},
    {"WEB_SESSION_MAX_AGE_S", "2592000", "longest a web-cabinet sign-in lasts, seconds: refreshing renews its token but not past this age from the sign-in", ranged<&Settings::web_session_max_age_s>(3600, 365 * 86400)},
    {"VERIFY_TOKEN_TTL_S", "86400", "lifetime of an e-mail verification link, seconds", ranged<&Settings::verify_token_ttl_s>(60, 30 * 86400)},
    {"SMTP_URL", "", "mail server for the worker: smtp://host:587 (STARTTLS when offered) or smtps://host:465; empty = mails are not sent", [](Settings& s, std::string_view v) {
         const std::string t(trim(v));
         if (!t.empty() && !starts_with(t, "smtp://") && !starts_with(t, "smtps://")) throw std::invalid_argument("expected smtp:// or smtps://");
         s.smtp_url = t;
     }},
    {"SMTP_USER", "", "SMTP login (empty = no authentication)", field<&Settings::smtp_user>()},
    {"SMTP_PASSWORD", "", "SMTP password", field<&Settings::smtp_password>()},
    {"SMTP_FROM", "", "sender address of outgoing mail, e.g. Cabinet <noreply@example.com>", field<&Settings::smtp_from>()},
    {"SMTP_TIMEOUT_MS", "15000", "total timeout of one SMTP delivery", ranged<&Settings::smtp_timeout_ms>(100, 300000)},
    {"GOOGLE_CLIENT_ID", "", "OAuth client id of Google login (empty = provider off)", field<&Settings::google_client_id>()},
    {"GOOGLE_CLIENT_SECRET", "", "OAuth client secret of Google login (empty = provider off)", field<&Settings::google_client_secret>()},
    {"YANDEX_CLIENT_ID", "", "OAuth client id of Yandex login (empty = provider off)", field<&Settings::yandex_client_id>()},
    {"YANDEX_CLIENT_SECRET", "", "OAuth client secret of Yandex login (empty = provider off)", field<&Settings::yandex_client_secret>()},
    {"VK_CLIENT_ID", "", "OAuth client id of VK ID login (empty = provider off)", field<&Settings::vk_client_id>()},
    {"VK_CLIENT_SECRET", "", "OAuth client secret of VK ID login (empty = provider off)", field<&Settings::vk_client_secret>()},
    {"GOOGLE_AUTHORIZE_URL", "https://accounts.google.com/o/oauth2/v2/auth", "Google OAuth authorization page the browser is sent to (a fake in tests)", field<&Settings::google_authorize_url>()},
    {"GOOGLE_TOKEN_URL", "https://oauth2.googleapis.com/token", "Google OAuth token endpoint, where codes are exchanged (a fake in tests)", field<&Settings::google_token_url>()},
    {"GOOGLE_USERINFO_URL", "https://openidconnect.googleapis.com/v1/userinfo", "Google OAuth user-info endpoint (a fake in tests)", field<&Settings::google_userinfo_url>()},
    {"YANDEX_AUTHORIZE_URL", "https://oauth.yandex.ru/authorize", "Yandex OAuth authorization page the browser is sent to (a fake in tests)", field<&Settings::yandex_authorize_url>()},
    {"YANDEX_TOKEN_URL", "https://oauth.yandex.ru/token", "Yandex OAuth token endpoint, where codes are exchanged (a fake in tests)", field<&Settings::yandex_token_url>()},
    {"YANDEX_USERINFO_URL", "https://login.yandex.ru/info?format=json", "Yandex OAuth user-info endpoint (a fake in tests)", field<&Settings::yandex_userinfo_url>()},
    {"VK_AUTHORIZE_URL", "https://id.vk.com/authorize", "VK ID OAuth authorization page the browser is sent to (a fake in tests)", field<&Settings::vk_authorize_url>()},
    {"VK_TOKEN_URL", "https://id.vk.com/oauth2/auth", "VK ID OAuth token endpoint, where codes are exchanged (a fake in tests)", field<&Settings::vk_token_url>()},
    {"VK_USERINFO_URL", "https://id.vk.com/oauth2/user_info", "VK ID OAuth user-info endpoint (a fake in tests)", field<&Settings::vk_userinfo_url>()},
    {"CONNECTION_APPS", "happ,v2raytun,hiddify,streisand", "client apps offered on the connection screen, in order (of happ, v2raytun, hiddify, streisand)", [](Settings& s, std::string_view v) {
         parse_into(s.connection_apps, v);
         for (const auto& app : s.connection_apps)
             if (app != "happ" && app != "v2raytun" && app != "hiddify" && app != "streisand")
                 throw std::invalid_argument("must be a comma-separated list of: happ, v2raytun, hiddify, streisand");
     }, kOwner},
    {"CONSTRUCTOR_DEVICE_LIMIT", "3", "devices allowed on a subscription bought in constructor mode", ranged<&Settings::constructor_device_limit>(1, 100), kOwner},
    {"MAINTENANCE_MODE", "false", "initial maintenance state when none is stored yet", field<&Settings::maintenance_mode>()},
    {"MAINTENANCE_MESSAGE", kDefaultMaintenanceMessage, "stub text the bot answers with in maintenance", field<&Settings::maintenance_message>(), kOwner},
    {"AUTO_MAINTENANCE_ENABLED", "true", "let the panel watchdog switch maintenance on and off", field<&Settings::auto_maintenance_enabled>(), kOwner},
    {"MAINTENANCE_CACHE_TTL_MS", "2000", "how long a pool thread keeps the maintenance state in memory (a switch reaches every thread within it)", ranged<&Settings::maintenance_cache_ttl_ms>(0, 60000)},
    {"BACKUP_ENABLED", "false", "make a backup once a day after BACKUP_TIME (cabinetctl backup --if-due from cron)", field<&Settings::backup_enabled>()},
    {"BACKUP_TIME", "03:00", "time of the daily backup, HH:MM Moscow time (UTC+3)", [](Settings& s, std::string_view v) {
         static const std::regex re(R"(^([01]\d|2[0-3]):[0-5]\d$)");
         const std::string t(trim(v));
         if (!std::regex_match(t, re)) throw std::invalid_argument("expected HH:MM (00:00 to 23:59)");
         s.backup_time = t;
     }},
    {"BACKUP_KEEP_LAST", "7", "how many backup archives to keep (older ones are deleted)", ranged<&Settings::backup_keep_last>(1, 1000)},
    {"BACKUP_DIR", "./backups", "folder of the backup archives", field<&Settings::backup_dir>()},
    {"BACKUP_ENCRYPTION_PASSWORD", "", "password of the AES-256 zip archives (required when BACKUP_ENABLED)", field<&Settings::backup_encryption_password>()},
    {"REPORT_CHAT_ID", "", "Telegram id of the reporting group (empty = no reports)", [](Settings& s, std::string_view v) {
         static const std::regex re(R"(^(-?\d+|@[A-Za-z0-9_]{5,})?$)");
         const std::string t(trim(v));
         if (!std::regex_match(t, re)) throw std::invalid_argument("expected a chat id like -1001234567890 or @channel");
         s.report_chat_id = t;
     }},
    {"REPORT_TOPIC_BACKUPS", "", "message_thread_id of the group's backups topic (empty = backups are not delivered)", topic_id<&Settings::report_topic_backups>()},
    {"REPORT_TOPIC_ALERTS", "", "message_thread_id of the group's alerts topic (empty = not enabled)", topic_id<&Settings::report_topic_alerts>()},
    {"SUPPORT_MESSAGES_PER_10_MIN", "20", "support messages one user may send within 10 minutes (each is posted to the tickets topic); more get 429", ranged<&Settings::support_messages_per_10_min>(1, 10000)},
    {"BROADCAST_RATE_PER_S", "30", "messages a second the worker sends the owner's broadcasts at (Telegram lets a bot send about 30; lower it when the bot's other answers slow down during a broadcast)", ranged<&Settings::broadcast_rate_per_s>(1, 1000), kOwner},
    {"REPORT_TOPIC_TICKETS", "", "message_thread_id of the group's support tickets topic (empty = not enabled)", topic_id<&Settings::report_topic_tickets>()},
    {"PANEL__BASE_URL", "http://127.0.0.1:3010", "base URL of the Remnawave panel (or the mock panel)", field<&Settings::panel_base_url>()},
    {"PANEL__TOKEN", "", "API token of the panel", field<&Settings::panel_token>()},
    {"SUBSCRIPTION_PUBLIC_URL", "", "public base URL of the panel's subscription links (Remnawave's SUB_PUBLIC_DOMAIN with its scheme, e.g. https://sub.example.com); /dl opens import links of URLs under it only; empty = PANEL__BASE_URL", url<&Settings::subscription_public_url>(plain_base_url, "expected an http(s) URL without user, query or fragment")},
    {"PANEL_CONNECT_TIMEOUT_MS", "1000", "connect timeout towards the panel", ranged<&Settings::panel_connect_timeout_ms>(10, 60000)},
    {"PANEL_TIMEOUT_MS", "3000", "total timeout of one panel request", ranged<&Settings::panel_timeout_ms>(50, 120000)},
    {"PANEL_CONCURRENCY", "4", "panel requests one pool process has in flight at once; keep it below the pool's threads so that a slow panel never holds them all (docs/operations.md)", ranged<&Settings::panel_concurrency>(1, 256)},
    {"PANEL_QUEUE_WAIT_MS", "200", "how long a request waits for one of those before it is refused with 503 busy", ranged<&Settings::panel_queue_wait_ms>(0, 10000)},
    {"LOG_LEVEL", "info", "trace, debug, info, warn, error", one_of<&Settings::log_level>({"trace", "debug", "info", "warn", "error"})},
    {"LOG_FORMAT", "text", "text: one readable line per event; json: one JSON object a line (time, level, msg; request lines add request_id, route, method, status, duration_ms, user_id) for journald and log shippers", one_of<&Settings::log_format>({"text", "json"})},
    {"WORKER_HEARTBEAT_MAX_AGE_S", "180", "deep health: oldest acceptable worker heartbeat", ranged<&Settings::worker_heartbeat_max_age_s>(10, 86400)},
    {"APP_CONFIG_TTL_MS", "2000", "how long a pool process answers public pages from its catalogue copy while it is not listening for changes (docs/decisions.md)", ranged<&Settings::app_config_ttl_ms>(0, 600000)},
    {"ACCOUNT_CACHE_MB", "8", "megabytes of accounts one pool process keeps in memory for GET requests (packed, about 0.5 KB a user; the least recently used go first; 0 = off, every request reads the database) (docs/decisions.md \"Accounts in memory\")", ranged<&Settings::account_cache_mb>(0, 4096)},
    {"ACCOUNT_CACHE_MAX_AGE_S", "300", "the oldest an account copy may be, whatever the change notifications said", ranged<&Settings::account_cache_max_age_s>(1, 86400)},
    {"ACCOUNT_GENERATIONS_FILE", "/run/cabinet/account-generations", "a file every pool process of the host maps to tell the others which accounts changed (the same path for all of them, on a tmpfs; the systemd units' RuntimeDirectory)", field<&Settings::account_generations_file>()},
    {"METRICS_FILE", "/run/cabinet/metrics", "a file every pool process of the host maps to count requests, round trips and panel calls, so that /metrics shows the whole host whichever process answers (the same path for all of them, on a tmpfs; the systemd units' RuntimeDirectory)", field<&Settings::metrics_file>()},
    {"METRICS_ALLOW", "", "networks (CIDR, comma-separated) besides loopback that may scrape /metrics; nginx refuses the rest with 403 (tools/render-nginx reads it from here)", [](Settings& s, std::string_view v) {
         parse_into(s.metrics_allow, v);
         for (const auto& cidr : s.metrics_allow)
             if (!parse_ip_network(cidr)) throw std::invalid_argument("expected addresses or networks like 10.0.0.0/8 or fd00::/8, comma-separated");
     }},
    {"METRICS_TEXTFILE_DIR", "", "where the worker and the watchdog write their metrics (cabinet_worker.prom, cabinet_watchdog.prom) for node_exporter's textfile collector, e.g. /var/lib/prometheus/node-exporter; empty = not written", field<&Settings::metrics_textfile_dir>()},
    {"MAX_BODY_BYTES", "65536", "largest accepted request body (nginx enforces the same with client_max_body_size)", ranged<&Settings::max_body_bytes>(1024, 16 * 1024 * 1024)},
};

void validate(const Settings& s) {
    static const std::regex token_re(R"(^\d+:[A-Za-z0-9_-]{20,}$)");
    if (!std::regex_match(s.bot_token, token_re))
        throw ConfigError("BOT_TOKEN: required, looks like 123456:ABC-def... (digits, colon, secret)");
    if (s.jwt_secret.size() < 32) throw ConfigError("JWT_SECRET: required, at least 32 bytes");
    // Without it every deep link the shop hands out would be https://t.me/?start=...
    if (s.bot_username.empty()) throw ConfigError("BOT_USERNAME: required, the bot's @username");
    if (s.database_url.empty()) throw ConfigError("DATABASE_URL: required");
    if (!(starts_with(s.redis_url, "redis://") || starts_with(s.redis_url, "unix://")))
        throw ConfigError("REDIS_URL: must start with redis:// or unix://");
    if (s.backup_enabled && s.backup_encryption_password.empty())
        throw ConfigError("BACKUP_ENCRYPTION_PASSWORD: required when BACKUP_ENABLED is on");
    // Short secrets are guessable offline (an archive) or online (a forged webhook update).
    if (!s.backup_encryption_password.empty() && utf8_length(s.backup_encryption_password) < 16)
        throw ConfigError("BACKUP_ENCRYPTION_PASSWORD: at least 16 characters");
    if (!s.bot_webhook_secret.empty() && s.bot_webhook_secret.size() < 32)
        throw ConfigError("BOT_WEBHOOK_SECRET: at least 32 characters (Telegram allows A-Z, a-z, 0-9, _ and -, up to 256)");
    // Verification mails carry links to the cabinet: without its URL they would be relative.
    if (s.web_cabinet_enabled && s.web_cabinet_url.empty())
        throw ConfigError("WEB_CABINET_URL: required when WEB_CABINET_ENABLED is on");
}

}  // namespace

const std::vector<SettingSpec>& setting_specs() { return kSpecs; }

Settings load_settings(const EnvLookup& lookup) {
    Settings s;
    for (const auto& spec : kSpecs) {
        const std::string name(spec.name);
        const char* raw = lookup(name.c_str());
        const std::string_view value = raw ? std::string_view(raw) : spec.default_value;
        try {
            spec.apply(s, value);
        } catch (const std::exception& e) {
            throw ConfigError(name + ": " + e.what() + " (got \"" + std::string(value.substr(0, 64)) + "\")");
        }
    }
    // Subscription links are usually served where the panel is (the local stack's mock too).
    if (s.subscription_public_url.empty()) {
        s.subscription_public_url = s.panel_base_url;
        while (!s.subscription_public_url.empty() && s.subscription_public_url.back() == '/')
            s.subscription_public_url.pop_back();
    }
    validate(s);
    return s;
}

Settings load_settings_from_environment() {
    return load_settings([](const char* name) { return std::getenv(name); });
}

std::vector<std::string> enabled_oauth_providers(const Settings& s) {
    std::vector<std::string> out;
    if (!s.web_cabinet_enabled) return out;
    const auto add = [&out](const char* name, const std::string& id, const std::string& secret) {
        if (!trim(id).empty() && !trim(secret).empty()) out.emplace_back(name);
    };
    add("google", s.google_client_id, s.google_client_secret);
    add("yandex", s.yandex_client_id, s.yandex_client_secret);
    add("vk", s.vk_client_id, s.vk_client_secret);
    return out;
}

std::string settings_env_example() {
    std::string out = "# cabinet settings: every variable, its default and its meaning.\n"
                      "# Copy to /etc/cabinet/cabinet.env and fill in the required ones.\n";
    for (const auto& spec : kSpecs) {
        out += "\n# ";
        out += spec.help;
        out += "\n";
        if (spec.level == SettingLevel::owner)
            out += "# owner-level: `cabinetctl settings set` stores a value that overrides this one, live\n";
        out += spec.name;
        out += "=";
        // Quoted when needed, so the file reads the same in systemd and in a shell.
        const bool quote = spec.default_value.find_first_of(" #'\"$") != std::string_view::npos;
        if (quote) out += '"';
        out += spec.default_value;
        if (quote) out += '"';
        out += "\n";
    }
    return out;
}

}  // namespace cabinet
