#include "api/handlers.hpp"

namespace cabinet::api {

// The whole HTTP surface of the pool at one glance.
std::vector<Route> routes() {
    return {
        {"GET", "/health", AuthKind::none, get_health},
        {"GET", "/health/deep", AuthKind::none, get_health_deep},
        {"GET", "/metrics", AuthKind::none, get_metrics},
        {"GET", "/api/cabinet/config", AuthKind::none, get_config},
        {"GET", "/dl", AuthKind::none, get_download_link},
        {"POST", "/api/cabinet/auth/register", AuthKind::none, post_auth_register, true},
        {"POST", "/api/cabinet/auth/verify", AuthKind::none, post_auth_verify},
        {"POST", "/api/cabinet/auth/login", AuthKind::none, post_auth_login, true},
        {"POST", "/api/cabinet/auth/refresh", AuthKind::none, post_auth_refresh, true},
        {"POST", "/api/cabinet/auth/logout", AuthKind::none, post_auth_logout, true},
        {"POST", "/api/cabinet/auth/telegram/start", AuthKind::none, post_auth_telegram_start, true},
        {"POST", "/api/cabinet/auth/telegram/poll", AuthKind::none, post_auth_telegram_poll},
        {"GET", "/api/cabinet/auth/oauth/{provider}/authorize", AuthKind::none, get_auth_oauth_authorize},
        {"POST", "/api/cabinet/auth/oauth/callback", AuthKind::none, post_auth_oauth_callback},
        {"DELETE", "/api/cabinet/link/oauth/{provider}", AuthKind::tma_or_jwt, delete_link_oauth, false, true},
        {"GET", "/api/cabinet/public/plans", AuthKind::none, get_public_plans},
        {"GET", "/api/cabinet/public/landing", AuthKind::none, get_public_landing},
        {"GET", "/api/cabinet/me", AuthKind::tma_or_jwt, get_me},
        {"GET", "/api/cabinet/plans", AuthKind::tma_or_jwt, get_plans},
        {"GET", "/api/cabinet/constructor", AuthKind::tma_or_jwt, get_constructor},
        {"GET", "/api/cabinet/referral", AuthKind::tma_or_jwt, get_referral},
        {"GET", "/api/cabinet/payments", AuthKind::tma_or_jwt, get_payments},
        {"GET", "/api/cabinet/connection", AuthKind::tma_or_jwt, get_connection},
        {"GET", "/api/cabinet/traffic", AuthKind::tma_or_jwt, get_traffic},
        {"GET", "/api/cabinet/devices", AuthKind::tma_or_jwt, get_devices},
        {"DELETE", "/api/cabinet/devices/{hwid}", AuthKind::tma_or_jwt, delete_device},
        {"POST", "/api/cabinet/trial", AuthKind::tma_or_jwt, post_trial},
        {"POST", "/api/cabinet/purchase", AuthKind::tma_or_jwt, post_purchase},
        {"POST", "/api/v1/payments/{gateway}", AuthKind::none, post_payment_webhook, true},
        {"POST", "/bot/webhook", AuthKind::none, post_bot_webhook},
        {"POST", "/api/cabinet/promocode", AuthKind::tma_or_jwt, post_promocode},
        {"GET", "/api/cabinet/support", AuthKind::tma_or_jwt, get_support},
        {"POST", "/api/cabinet/support", AuthKind::tma_or_jwt, post_support},
        {"POST", "/api/cabinet/subscription/reset-devices", AuthKind::tma_or_jwt, post_reset_link},
        {"POST", "/api/cabinet/subscription/reset-link", AuthKind::tma_or_jwt, post_reset_link},
        {"GET", "/api/cabinet/linked", AuthKind::tma_or_jwt, get_linked},
        {"POST", "/api/cabinet/link/email", AuthKind::tma_or_jwt, post_link_email},
        {"POST", "/api/cabinet/link/email/confirm", AuthKind::tma_or_jwt, post_link_email_confirm, false, true},
        {"POST", "/api/cabinet/link/telegram", AuthKind::jwt, post_link_telegram, false, true},
        {"GET", "/api/admin/maintenance", AuthKind::admin, get_admin_maintenance},
        {"POST", "/api/admin/maintenance/mode", AuthKind::admin, post_admin_maintenance_mode},
        {"POST", "/api/admin/maintenance/backup", AuthKind::admin, post_admin_maintenance_backup},
        {"POST", "/api/admin/maintenance/{action}", AuthKind::admin, post_admin_host_action},
        {"GET", "/api/admin/audit", AuthKind::admin, get_admin_audit},
        {"GET", "/api/admin/settings", AuthKind::admin, get_admin_settings},
        {"PUT", "/api/admin/settings/{name}", AuthKind::admin, put_admin_setting, true},
        {"DELETE", "/api/admin/settings/{name}", AuthKind::admin, delete_admin_setting, true},
    };
}

}  // namespace cabinet::api
