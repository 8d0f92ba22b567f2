#pragma once
// Every endpoint handler of the pool, one file each; routes.cpp binds them to paths.
#include "app/context.hpp"
#include "util/json_object.hpp"

namespace cabinet::api {

void get_me(Exchange& ex);
void get_config(Exchange& ex);
void get_health(Exchange& ex);
void get_health_deep(Exchange& ex);
void get_metrics(Exchange& ex);  // GET /metrics (Prometheus; nginx: loopback and METRICS_ALLOW only)

// Catalogue and history (read-only)
void get_plans(Exchange& ex);
void get_constructor(Exchange& ex);
void get_referral(Exchange& ex);
void get_payments(Exchange& ex);
void post_auth_guest_purchase(Exchange& ex);  // POST /api/cabinet/auth/guest/purchase (guest_purchase.cpp)
void post_auth_login_auto(Exchange& ex);      // POST /api/cabinet/auth/login/auto
void post_payment_cancel(Exchange& ex);  // POST /api/cabinet/payments/{id}/cancel
void get_autopay(Exchange& ex);          // GET /api/cabinet/subscription/autopay (autopay.cpp)
void put_autopay(Exchange& ex);          // PUT /api/cabinet/subscription/autopay

// Subscription (panel-first writes)
void get_connection(Exchange& ex);
void get_traffic(Exchange& ex);
void get_devices(Exchange& ex);
void delete_device(Exchange& ex);
void post_trial(Exchange& ex);
void post_promocode(Exchange& ex);
void post_reset_link(Exchange& ex);

// Support chat (support.cpp)
void get_support(Exchange& ex);
void post_support(Exchange& ex);

// Guests: the catalogue and the landing page's data (public.cpp)
void get_public_plans(Exchange& ex);
void get_public_landing(Exchange& ex);

// GET /dl?to=<client import link>: a page that opens a VPN client (outside /api, public)
void get_download_link(Exchange& ex);

// Purchase
void post_purchase(Exchange& ex);
void post_payment_webhook(Exchange& ex);  // POST /api/v1/payments/{gateway}
void post_bot_webhook(Exchange& ex);      // POST /bot/webhook

// Web cabinet sessions (web_auth.cpp): POST /api/cabinet/auth/...
void post_auth_register(Exchange& ex);
void post_auth_verify(Exchange& ex);
void post_auth_login(Exchange& ex);
void post_auth_password_forgot(Exchange& ex);  // POST /api/cabinet/auth/password/forgot
void post_auth_password_reset(Exchange& ex);   // POST /api/cabinet/auth/password/reset
void post_auth_password_change(Exchange& ex);  // POST /api/cabinet/auth/password/change
void post_auth_verify_resend(Exchange& ex);    // POST /api/cabinet/auth/verify/resend
void delete_link_email(Exchange& ex);          // DELETE /api/cabinet/link/email
void post_auth_refresh(Exchange& ex);
void post_auth_logout(Exchange& ex);
void post_auth_logout_others(Exchange& ex);
void post_auth_telegram_start(Exchange& ex);
void post_auth_telegram_poll(Exchange& ex);
void post_auth_telegram_approve(Exchange& ex);
// Ways into an account and linking them (linking.cpp)
void get_linked(Exchange& ex);
void post_link_email(Exchange& ex);
void post_link_email_confirm(Exchange& ex);
void post_link_telegram(Exchange& ex);
void post_link_telegram_status(Exchange& ex);
void post_link_telegram_approve(Exchange& ex);

// OAuth login and linking (oauth.cpp)
void get_auth_oauth_authorize(Exchange& ex);  // GET /api/cabinet/auth/oauth/{provider}/authorize
void post_auth_oauth_callback(Exchange& ex);
void delete_link_oauth(Exchange& ex);         // DELETE /api/cabinet/link/oauth/{provider}

// The owner's cabinet: the caller's staff role (admin_whoami.cpp)
void get_admin_whoami(Exchange& ex);
// The Overview's figures (admin_overview.cpp)
void get_admin_overview(Exchange& ex);
// Promo codes (admin_promo.cpp)
void get_admin_promo_codes(Exchange& ex);
void post_admin_promo_code(Exchange& ex);
void post_admin_promo_code_disable(Exchange& ex);  // POST /api/admin/promo-codes/{id}/disable
void post_admin_promo_code_enable(Exchange& ex);   // POST /api/admin/promo-codes/{id}/enable
void post_admin_promo_code_batch(Exchange& ex);    // POST /api/admin/promo-codes/batch (text/csv)
// Broadcasts (admin_broadcasts.cpp)
void post_admin_broadcast_preview(Exchange& ex);  // POST /api/admin/broadcasts/preview
void post_admin_broadcast_test(Exchange& ex);     // POST /api/admin/broadcasts/test
void post_admin_broadcast(Exchange& ex);          // POST /api/admin/broadcasts (Idempotency-Key)
void get_admin_broadcasts(Exchange& ex);
void get_admin_broadcast(Exchange& ex);           // GET /api/admin/broadcasts/{id}
void get_admin_broadcast_recipients(Exchange& ex);  // GET /api/admin/broadcasts/{id}/recipients
void post_admin_broadcast_cancel(Exchange& ex);   // POST /api/admin/broadcasts/{id}/cancel
// Customers (admin_customers.cpp)
void get_admin_customers(Exchange& ex);
void get_admin_customers_export(Exchange& ex);   // GET /api/admin/customers/export (text/csv, streamed)
void get_admin_customer(Exchange& ex);           // GET /api/admin/customers/{id}: the card
void get_admin_customer_devices(Exchange& ex);   // GET /api/admin/customers/{id}/devices
void post_admin_customer_action(Exchange& ex);   // POST /api/admin/customers/{id}/<action>
// Payments (admin_payments.cpp)
void get_admin_payments(Exchange& ex);
void get_admin_payments_export(Exchange& ex);  // GET /api/admin/payments/export (text/csv, streamed)
void get_admin_payment(Exchange& ex);          // GET /api/admin/payments/{id}
void post_admin_payment_refund(Exchange& ex);  // POST /api/admin/payments/{id}/refund
// The support inbox (admin_support.cpp)
void get_admin_support_tickets(Exchange& ex);
void get_admin_support_counts(Exchange& ex);
void get_admin_support_ticket(Exchange& ex);   // GET /api/admin/support/tickets/{id}
void post_admin_support_reply(Exchange& ex);   // POST /api/admin/support/tickets/{id}/reply
void post_admin_support_close(Exchange& ex);   // POST /api/admin/support/tickets/{id}/close
void post_admin_support_reopen(Exchange& ex);  // POST /api/admin/support/tickets/{id}/reopen
// Admin maintenance screen (admin.cpp)
std::string admin_actor(Exchange& ex);  // the caller as the audit log names them (admin routes)
void get_admin_maintenance(Exchange& ex);
void post_admin_maintenance_mode(Exchange& ex);
void post_admin_maintenance_backup(Exchange& ex);
void post_admin_host_action(Exchange& ex);  // POST /api/admin/maintenance/{action}
void get_admin_audit(Exchange& ex);
// Owner-level settings (admin_settings.cpp)
void get_admin_settings(Exchange& ex);
void put_admin_setting(Exchange& ex);     // PUT /api/admin/settings/{name}
void delete_admin_setting(Exchange& ex);  // DELETE /api/admin/settings/{name}
// The catalogue (admin_catalog.cpp) and the texts (admin_app_config.cpp)
void get_admin_plans(Exchange& ex);
void put_admin_plan(Exchange& ex);           // PUT /api/admin/plans/{code}
void delete_admin_plan_duration(Exchange& ex);       // DELETE /api/admin/plans/{code}/durations/{days}
void delete_admin_constructor_period(Exchange& ex);  // DELETE /api/admin/constructor/periods/{days}
void delete_admin_constructor_pack(Exchange& ex);    // DELETE /api/admin/constructor/packs/{gb}
void get_admin_promo_groups(Exchange& ex);
void put_admin_promo_group(Exchange& ex);            // PUT /api/admin/promo-groups/{name}
void put_admin_plan_duration(Exchange& ex);  // PUT /api/admin/plans/{code}/durations/{days}
void get_admin_sales(Exchange& ex);
void put_admin_sale(Exchange& ex);       // PUT /api/admin/sales/{name}
void post_admin_sale_end(Exchange& ex);  // POST /api/admin/sales/{name}/end
void get_admin_constructor(Exchange& ex);
void put_admin_constructor_period(Exchange& ex);  // PUT /api/admin/constructor/periods/{days}
void put_admin_constructor_pack(Exchange& ex);    // PUT /api/admin/constructor/packs/{gb}
void get_admin_app_config(Exchange& ex);
void put_admin_app_config(Exchange& ex);  // PUT /api/admin/app-config/{name}

std::vector<Route> routes();

}  // namespace cabinet::api
