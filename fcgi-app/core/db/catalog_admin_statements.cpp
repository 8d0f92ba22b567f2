#include "db/statements.hpp"

namespace cabinet {

// The owner's catalogue writes and admin listings (db/catalog_admin_repo.cpp): plans and
// their prices, sales, constructor periods and packs, promo groups, the app config's texts. Every write
// here fires the tables' catalog_changed trigger (sql 0020): each pool process reloads.
std::vector<Statement> catalog_admin_statements() {
    return {
        {"admin_plan_lock", "SELECT id FROM plans WHERE public_code = $1 FOR UPDATE"},
        // NULL options keep an existing plan's value; $4 is GiB (0 = unlimited = NULL column).
        // NOT NULL is checked on the proposed row before the conflict: hence the name's
        // coalesce (the service never creates a plan without one).
        {"admin_plan_upsert",
         "INSERT INTO plans (public_code, name, description, traffic_limit_bytes, device_limit, sort_order, is_active)"
         " VALUES ($1, coalesce($2, ''), coalesce($3, ''), NULLIF($4::bigint * 1073741824, 0), coalesce($5::int, 1),"
         "         coalesce($6::int, 0), coalesce($7::boolean, true))"
         " ON CONFLICT (public_code) DO UPDATE SET name = coalesce($2, plans.name),"
         "   description = coalesce($3, plans.description),"
         "   traffic_limit_bytes = CASE WHEN $4::bigint IS NULL THEN plans.traffic_limit_bytes"
         "     ELSE NULLIF($4::bigint * 1073741824, 0) END,"
         "   device_limit = coalesce($5::int, plans.device_limit), sort_order = coalesce($6::int, plans.sort_order),"
         "   is_active = coalesce($7::boolean, plans.is_active)"
         " RETURNING id, (xmax = 0) AS inserted"},
        {"admin_plan_price_upsert",
         "INSERT INTO plan_durations (plan_id, days, months, price_minor) VALUES ($1, $2, $3, $4)"
         " ON CONFLICT (plan_id, days) DO UPDATE SET months = EXCLUDED.months, price_minor = EXCLUDED.price_minor"},
        // One row per plan and duration (a plan without durations: one row, days NULL).
        {"admin_plan_price_delete", "DELETE FROM plan_durations WHERE plan_id = $1 AND days = $2 RETURNING id"},
        {"admin_plans",
         "SELECT p.id, p.public_code, p.name, p.description, p.traffic_limit_bytes,"
         "       coalesce(p.traffic_limit_bytes, 0) / 1073741824 AS traffic_limit_gb, p.device_limit, p.sort_order,"
         "       p.is_active, d.days, d.months, d.price_minor"
         " FROM plans p LEFT JOIN plan_durations d ON d.plan_id = p.id"
         " WHERE $1::text IS NULL OR p.public_code = $1 ORDER BY p.sort_order, p.id, d.days"},

        {"admin_sales",
         "SELECT name, discount_pct, floor(extract(epoch FROM starts_at))::bigint AS starts_at,"
         "       floor(extract(epoch FROM ends_at))::bigint AS ends_at, starts_at <= now() AND ends_at > now() AS running"
         " FROM sales WHERE $1::text IS NULL OR name = $1 ORDER BY starts_at, id"},
        // sales.name has no unique key: callers hold sales_lock (below) around these two.
        {"admin_sale_update",
         "UPDATE sales SET discount_pct = $2, starts_at = to_timestamp($3), ends_at = to_timestamp($4) WHERE name = $1"
         " RETURNING id"},
        {"admin_sale_insert",
         "INSERT INTO sales (name, discount_pct, starts_at, ends_at) VALUES ($1, $2, to_timestamp($3), to_timestamp($4))"},
        // Ends now; one that has not begun yet never runs (ends_at > starts_at holds).
        {"admin_sale_end",
         "UPDATE sales SET starts_at = least(starts_at, now() - interval '1 second'), ends_at = now()"
         " WHERE name = $1 AND ends_at > now() RETURNING id"},

        {"admin_constructor",
         "SELECT 'period' AS kind, days AS amount, months, price_minor, is_active FROM constructor_periods"
         " UNION ALL SELECT 'pack', gb, NULL, price_minor, is_active FROM constructor_packs ORDER BY 1 DESC, 2"},
        {"admin_constructor_period_upsert",
         "INSERT INTO constructor_periods (days, months, price_minor) VALUES ($1, $2, $3)"
         " ON CONFLICT (days) DO UPDATE SET months = EXCLUDED.months, price_minor = EXCLUDED.price_minor, is_active = true"},
        {"admin_constructor_pack_upsert",
         "INSERT INTO constructor_packs (gb, price_minor) VALUES ($1, $2)"
         " ON CONFLICT (gb) DO UPDATE SET price_minor = EXCLUDED.price_minor, is_active = true"},

        {"admin_constructor_period_off",
         "UPDATE constructor_periods SET is_active = false WHERE days = $1 AND is_active RETURNING id"},
        {"admin_constructor_pack_off", "UPDATE constructor_packs SET is_active = false WHERE gb = $1 AND is_active RETURNING id"},

        {"admin_promo_group_upsert",
         "INSERT INTO promo_groups (name, discount_pct) VALUES ($1, $2)"
         " ON CONFLICT (name) DO UPDATE SET discount_pct = EXCLUDED.discount_pct"},
        {"admin_promo_groups",
         "SELECT g.name, g.discount_pct, (SELECT count(*) FROM users u WHERE u.promo_group_id = g.id) AS members"
         " FROM promo_groups g ORDER BY g.name"},

        // The row exists from migration 0001; a hand-deleted one comes back with defaults.
        {"admin_app_config_ensure", "INSERT INTO app_config (id) VALUES (1) ON CONFLICT (id) DO NOTHING"},
        // $1 is one of the four theme columns (domain/landing.hpp parse_config_change).
        {"admin_app_config_set_column",
         "UPDATE app_config SET title = CASE WHEN $1 = 'title' THEN $2 ELSE title END,"
         "   greeting = CASE WHEN $1 = 'greeting' THEN $2 ELSE greeting END,"
         "   accent_color = CASE WHEN $1 = 'accent_color' THEN $2 ELSE accent_color END,"
         "   template = CASE WHEN $1 = 'template' THEN $2 ELSE template END, published_at = now() WHERE id = 1"},
        // Everything of ui but its landing, which stays as it is.
        {"admin_app_config_set_ui",
         "UPDATE app_config SET ui = $1::jsonb || CASE WHEN jsonb_typeof(ui) = 'object' AND ui ? 'landing'"
         "   THEN jsonb_build_object('landing', ui->'landing') ELSE '{}'::jsonb END, published_at = now() WHERE id = 1"},
        // ui.landing is created when missing (or when a hand edit left something else there).
        {"admin_app_config_set_landing",
         "UPDATE app_config SET ui = jsonb_set(CASE WHEN jsonb_typeof(ui) <> 'object' THEN '{\"landing\": {}}'::jsonb"
         "   WHEN jsonb_typeof(ui->'landing') = 'object' THEN ui ELSE ui || '{\"landing\": {}}'::jsonb END,"
         "   ARRAY['landing', $1], $2::jsonb), published_at = now() WHERE id = 1"},
    };
}

}  // namespace cabinet
