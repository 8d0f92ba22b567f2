-- Demo data for the local stack: safe to run again (every insert is idempotent).
INSERT INTO plans (public_code, name, description, traffic_limit_bytes, device_limit, sort_order) VALUES
  ('start',    'Start',    'One device, 100 GB a month',   107374182400, 1, 10),
  ('standard', 'Standard', 'Three devices, unlimited',     NULL,         3, 20),
  ('family',   'Family',   'Six devices, unlimited',       NULL,         6, 30)
ON CONFLICT (public_code) DO NOTHING;

INSERT INTO plan_durations (plan_id, days, months, price_minor)
SELECT p.id, d.days, d.months, d.price_minor
FROM plans p
JOIN (VALUES
  ('start', 30, 1, 19900), ('start', 90, 3, 54900), ('start', 365, 12, 199000),
  ('standard', 30, 1, 29900), ('standard', 90, 3, 79900), ('standard', 365, 12, 299000),
  ('family', 30, 1, 49900), ('family', 90, 3, 134900), ('family', 365, 12, 499000)
) AS d(code, days, months, price_minor) ON d.code = p.public_code
ON CONFLICT (plan_id, days) DO NOTHING;

UPDATE app_config SET title = 'Demo VPN', greeting = 'Fast and private VPN', template = 'a',
                      accent_color = '#2481cc', ui = '{"show_support": true}'
WHERE id = 1 AND title = 'VPN';

-- The demo user (Telegram id 100000001) with a 30-day Standard subscription.
INSERT INTO users (telegram_id, username, first_name, language, referral_code)
VALUES (100000001, 'demo', 'Demo', 'en', 'DEMO2026')
ON CONFLICT (telegram_id) DO NOTHING;
-- 500.00 to spend, once: money only moves through the ledger (migration 0011).
SELECT ledger_set_balance(u.id, 50000, 'admin', 'demo data') FROM users u
WHERE u.telegram_id = 100000001 AND NOT EXISTS (SELECT 1 FROM balance_ledger l WHERE l.user_id = u.id);

INSERT INTO subscriptions (user_id, status, plan_id, plan_snapshot, start_at, expire_at, device_limit,
                           traffic_limit_bytes, traffic_used_bytes, short_uuid, subscription_url)
SELECT u.id, 'active', p.id, jsonb_build_object('name', p.name, 'public_code', p.public_code),
       now(), now() + interval '30 days', p.device_limit, 0, 1073741824,
       'demo2026short', 'http://127.0.0.1:3010/sub/demo2026short'
FROM users u, plans p
WHERE u.telegram_id = 100000001 AND p.public_code = 'standard'
ON CONFLICT (user_id) DO NOTHING;

-- Constructor price list (SALES_MODE=constructor): periods and traffic packs, gb 0 = unlimited.
INSERT INTO constructor_periods (days, months, price_minor) VALUES
  (30, 1, 14900), (90, 3, 39900), (180, 6, 74900)
ON CONFLICT (days) DO NOTHING;
INSERT INTO constructor_packs (gb, price_minor) VALUES
  (50, 9900), (200, 19900), (0, 29900)
ON CONFLICT (gb) DO NOTHING;

-- A sample promo code: 100.00 on the balance, any number of users (each once).
INSERT INTO promo_codes (code, reward_type, value) VALUES ('WELCOME', 'balance', 10000)
ON CONFLICT ((lower(code))) DO NOTHING;
