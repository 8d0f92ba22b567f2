// Demo mode (SPEC rule 3): built-in data for every screen, answered in the page with no
// request to the API, for the owner's theme preview and for anyone who opens /app/ outside
// Telegram. Loaded with import() only in demo mode, so customers never download it.
// ?state=none|trial|active|limited|expired|disabled|pending previews a subscription state;
// ?sales=constructor the constructor; ?link=hidden a hidden subscription link; actions
// (trial, purchase, promo, reset, unbind, support) change the demo's state as the real API
// would, and nothing leaves the page. `web: true` is the web cabinet's demo (/cabinet/?mock=1):
// the same user signed in with an e-mail, not linked to Telegram yet.

import { ApiError } from '../shared/api.js';

const DAY = 86400000;
const GB = 1024 ** 3;
const iso = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function createDemo({ lang = 'en', search = location.search, web = false } = {}) {
  const q = new URLSearchParams(search);
  const now = Date.now();
  const state = q.get('state') || 'active';
  const ru = lang === 'ru';
  let subUrl = 'https://demo.invalid/sub/DEMO7x2kQ9';   // a reset rotates it, as the panel does

  const subscription = (status) => (status === 'none' ? null : {
    status,
    is_trial: status === 'trial',
    plan_name: status === 'trial' ? (ru ? 'Пробный' : 'Trial') : (ru ? 'Стандарт' : 'Standard'),
    start_at: iso(now - 20 * DAY),
    expire_at: iso(status === 'expired' ? now - 3 * DAY : now + (status === 'trial' ? 3 : 41) * DAY),
    device_limit: 3,
    traffic: { used_bytes: status === 'limited' ? 100 * GB : 37.4 * GB, limit_bytes: 100 * GB, unlimited: false },
    subscription_url: subUrl,
    crypto_link: 'happ://crypt3/DEMO',
    autopay_enabled: false,
  });

  const db = {
    user: {
      id: 100000001, telegram_id: 100000001, email: null, first_name: ru ? 'Алекс' : 'Alex', username: 'demo', language: lang, currency: 'RUB',
      balance_minor: 45000, referral_code: 'DEMO42', personal_discount_pct: 0,
      is_trial_available: state === 'none',
    },
    subscription: subscription(state),
    devices: [
      { hwid: 'demo-iphone', platform: 'iOS', model: 'iPhone 15', created_at: iso(now - 12 * DAY) },
      { hwid: 'demo-laptop', platform: 'Windows', model: 'ThinkPad X1', created_at: iso(now - 5 * DAY) },
    ],
    payments: [
      { id: 3, type: 'subscription_payment', status: 'completed', amount_minor: 29900, currency: 'RUB', method: 'balance', created_at: iso(now - 20 * DAY) },
      { id: 2, type: 'deposit', status: 'completed', amount_minor: 50000, currency: 'RUB', method: 'yookassa', created_at: iso(now - 21 * DAY) },
      { id: 1, type: 'referral_reward', status: 'completed', amount_minor: 2990, currency: 'RUB', method: 'referral', created_at: iso(now - 30 * DAY) },
    ],
    support: { ticket_id: null, status: null, messages: [] },
    linked: { email: null, email_verified: false, has_password: false, telegram: { id: 100000001, username: 'demo' }, oauth: [{ provider: 'google', email: 'alex.demo@gmail.com', display_name: ru ? 'Алекс' : 'Alex' }], available_providers: ['yandex'], bot_username: 'cabinet_demo_bot' },
    pendingEmail: null,
    ...(web ? { linked: { email: 'alex.demo@example.com', email_verified: true, has_password: true, telegram: null, oauth: [{ provider: 'google', email: 'alex.demo@gmail.com', display_name: ru ? 'Алекс' : 'Alex' }], available_providers: ['yandex'], bot_username: 'cabinet_demo_bot' } } : {}),
    resetAt: 0,
    nextId: 4,
  };

  const app = {
    template: q.get('template') || 'a',
    title: ru ? 'Демо VPN' : 'Demo VPN',
    greeting: ru ? 'Быстрый и надёжный VPN' : 'Fast and private VPN',
    // null: the template's own colours show; ?accent=RRGGBB previews an owner's accent.
    accent_color: /^[0-9a-f]{6}$/i.test(q.get('accent') || '') ? '#' + q.get('accent') : null,
    bot_username: 'cabinet_demo_bot',
    mtproto_proxy: 'https://t.me/proxy?server=demo.invalid&port=443&secret=ee00',
    ui: {},
    payment_methods: [{ id: 'yookassa', label: 'Bank card (YooKassa)' }, { id: 'cryptobot', label: 'Crypto (CryptoBot)' }],
    balance_enabled: true,
    hide_subscription_link: q.get('link') === 'hidden',   // ?link=hidden previews HIDE_SUBSCRIPTION_LINK
    show_traffic_usage: true,
    sales_mode: q.get('sales') === 'constructor' ? 'constructor' : 'plans',
  };

  const plans = [
    { id: 1, public_code: 'start', name: ru ? 'Старт' : 'Start', description: ru ? 'Для одного устройства' : 'For one device', traffic_limit_bytes: 50 * GB, device_limit: 1,
      durations: [[30, 1, 19900], [90, 3, 49900]] },
    { id: 2, public_code: 'standard', name: ru ? 'Стандарт' : 'Standard', description: ru ? 'Телефон, ноутбук и планшет' : 'Phone, laptop and tablet', traffic_limit_bytes: 100 * GB, device_limit: 3,
      durations: [[30, 1, 29900], [90, 3, 79900], [365, 12, 249900]] },
    { id: 3, public_code: 'family', name: ru ? 'Семья' : 'Family', description: ru ? 'Без лимита трафика' : 'Unlimited traffic', traffic_limit_bytes: null, device_limit: 6,
      durations: [[30, 1, 49900], [365, 12, 399900]] },
  ];
  const discount = 10;   // a demo sale, so the strike-through shows
  const stars = (minor) => Math.max(1, Math.ceil(minor / 130));
  const quote = (list) => Math.round(list * (100 - discount) / 100);

  const connection = () => {
    const url = app.hide_subscription_link ? null : subUrl;
    const deep = {
      happ: db.subscription.crypto_link || 'happ://add/' + subUrl,
      v2raytun: 'v2raytun://import/' + subUrl,
      hiddify: 'hiddify://import/' + subUrl,
      streisand: 'streisand://import/' + subUrl,
    };
    return {
      subscription_url: url, expires_at: db.subscription.expire_at, deep_links: deep, hide_link: app.hide_subscription_link,
      apps: [
        { key: 'happ', label: 'Happ', deep_link: deep.happ, stores: { ios: 'https://apps.apple.com/app/happ-proxy-utility/id6504287215', android: 'https://play.google.com/store/apps/details?id=com.happproxy', default: 'https://www.happ.su/' } },
        { key: 'v2raytun', label: 'v2RayTun', deep_link: deep.v2raytun, stores: { ios: 'https://apps.apple.com/app/v2raytun/id6476628951', android: 'https://play.google.com/store/apps/details?id=com.v2raytun.android', default: 'https://v2raytun.com/' } },
      ],
    };
  };

  const grant = (days, status = 'active', planName = null) => {
    const base = db.subscription && new Date(db.subscription.expire_at).getTime() > Date.now() ? new Date(db.subscription.expire_at).getTime() : Date.now();
    const name = planName || (db.subscription && !db.subscription.is_trial && status !== 'trial' ? db.subscription.plan_name : null);
    db.subscription = { ...subscription(status), ...(name ? { plan_name: name } : {}), expire_at: iso(base + days * DAY), start_at: iso(Date.now()) };
  };

  const routes = {
    'GET /config': () => ({ template: app.template, title: app.title, greeting: app.greeting, accent_color: app.accent_color, published_at: iso(now), oauth_providers: ['google', 'yandex'], maintenance: { active: false, message: null } }),
    'GET /me': () => ({ user: db.user, app, subscription: db.subscription }),
    'GET /plans': () => ({
      currency: 'RUB',
      items: plans.map((p) => ({
        id: p.id, public_code: p.public_code, name: p.name, description: p.description, traffic_limit_bytes: p.traffic_limit_bytes, device_limit: p.device_limit,
        is_current: Boolean(db.subscription && db.subscription.plan_name === p.name),
        durations: p.durations.map(([days, months, list]) => ({ days, months, price_minor: quote(list), base_price_minor: list, price_stars: stars(quote(list)) })),
      })),
    }),
    'GET /constructor': () => ({
      currency: 'RUB', stars_rate: 130,   // minor units a star, as the server sends it
      periods: [[1, 30, 1, 14900], [2, 90, 3, 39900], [3, 180, 6, 69900], [4, 365, 12, 119900]].map(([id, days, months, p]) => ({ id, days, months, price_minor: quote(p) })),
      traffic_packs: [[1, 50, 5000], [2, 200, 15000], [3, 0, 25000]].map(([id, gb, p]) => ({ id, gb, price_minor: quote(p) })),
    }),
    'GET /referral': () => ({ code: db.user.referral_code, link: 'https://t.me/cabinet_demo_bot?start=ref_DEMO42', bonus_days: 7, commission_percent: 10, invited_count: 3, earnings_minor: 8970 }),
    'GET /payments': () => ({ items: db.payments }),
    'GET /connection': () => {
      if (!db.subscription || db.subscription.status === 'expired') throw new ApiError(404, 'no active subscription');
      return connection();
    },
    'GET /traffic': () => {
      if (!db.subscription) return { used_bytes: 0, limit_bytes: 0, unlimited: true, series: [] };
      const series = [];
      let used = 0;
      for (let i = 29; i >= 0; i--) {
        used += Math.round((0.4 + ((i * 7919) % 13) / 10) * GB);
        series.push({ day: iso(now - i * DAY).slice(0, 10), used_bytes: used });
      }
      return { ...db.subscription.traffic, used_bytes: used, series };
    },
    'GET /devices': () => (db.subscription ? { items: db.devices, device_limit: db.subscription.device_limit } : { items: [], device_limit: null }),
    'GET /support': () => db.support,
    'GET /linked': () => db.linked,
    'POST /trial': () => {
      if (!db.user.is_trial_available) throw new ApiError(400, 'trial already used');
      db.user = { ...db.user, is_trial_available: false };
      grant(3, 'trial');
      return { ok: true, days: 3, subscription: db.subscription };
    },
    'POST /purchase': (b) => {
      let price = 0; let days = 30; let name = null;
      if (b.period_id !== undefined) {
        const c = routes['GET /constructor']();
        const period = c.periods.find((p) => p.id === b.period_id);
        const pack = c.traffic_packs.find((p) => p.id === b.pack_id);
        if (!period || !pack) throw new ApiError(400, 'unknown period or pack');
        price = period.price_minor + pack.price_minor; days = period.days;
      } else {
        const plan = routes['GET /plans']().items.find((p) => p.id === b.plan_id || p.public_code === b.plan_id);
        const d = plan && plan.durations.find((x) => x.days === b.days);
        if (!d) throw new ApiError(400, 'unknown plan or period');
        price = d.price_minor; days = d.days; name = plan.name;
      }
      if (b.method === 'balance') {
        if (db.user.balance_minor < price) throw new ApiError(402, 'insufficient balance');
        db.user = { ...db.user, balance_minor: db.user.balance_minor - price };
        grant(days, 'active', name);
        const id = db.nextId++;
        db.payments.unshift({ id, type: 'subscription_payment', status: 'completed', amount_minor: price, currency: 'RUB', method: 'balance', created_at: iso(Date.now()) });
        return { ok: true, transaction_id: id, paid_with: 'balance' };
      }
      // Stars and gateways: a pending payment; "the money arrives" a moment later, as the
      // webhook and the worker would.
      const tx = { id: db.nextId++, type: 'subscription_payment', status: 'pending', amount_minor: price, currency: 'RUB', method: b.method, created_at: iso(Date.now()), expires_at: iso(Date.now() + 3600 * 1000) };
      db.payments.unshift(tx);
      setTimeout(() => {
        if (tx.status !== 'pending') return;   // canceled meanwhile
        grant(days, 'active', name);
        tx.status = 'completed';
        delete tx.expires_at;
      }, 2000);
      if (b.method === 'stars') return { ok: true, transaction_id: tx.id, invoice_link: 'https://t.me/$demoInvoice' };
      return { ok: true, transaction_id: tx.id, redirect_url: 'https://demo.invalid/checkout' };
    },
    'POST /promocode': (b) => {
      const code = String(b.code || '').trim().toUpperCase();
      if (code === 'DEMO7') { grant(7); return { ok: true, reward_type: 'days', message: ru ? '+7 дней к подписке' : '+7 days added' }; }
      return { ok: false, reward_type: null, message: ru ? 'Промокод не найден' : 'promo code not found' };
    },
    'POST /subscription/reset-devices': () => {
      const wait = 600 - Math.floor((Date.now() - db.resetAt) / 1000);
      if (wait > 0) throw new ApiError(429, 'link was reset recently', { retryAfter: wait });
      db.resetAt = Date.now();
      subUrl = 'https://demo.invalid/sub/DEMO' + Math.random().toString(36).slice(2, 8);
      db.subscription = { ...db.subscription, subscription_url: subUrl, crypto_link: null };
      const c = connection();
      return { ok: true, subscription_url: c.subscription_url, deep_links: c.deep_links };
    },
    'POST /support': (b) => {
      const at = iso(Date.now());
      db.support = { ticket_id: db.support.ticket_id || 1, status: 'open', messages: [...db.support.messages, { from: 'you', text: String(b.text || ''), at }] };
      setTimeout(() => {
        db.support.messages.push({ from: 'support', text: ru ? 'Здравствуйте! Это демо: ответ пришёл сам.' : 'Hello! This is the demo: the answer came by itself.', at: iso(Date.now()) });
      }, 1500);
      return { ok: true, ticket_id: db.support.ticket_id };
    },
    'POST /link/telegram': () => {
      if (db.linked.telegram) throw new ApiError(409, 'this account is linked to Telegram already');
      return { ok: true, url: 'https://t.me/cabinet_demo_bot?start=link_DEMO', expires_in: 900 };
    },
    'POST /link/email': (b) => {
      db.pendingEmail = String(b.email || '').trim().toLowerCase();
      return { ok: true, email: db.pendingEmail };
    },
    'POST /auth/logout-others': () => ({ ok: true, ended: 0 }),
    'GET /subscription/autopay': () => {
      const sub = db.subscription;
      if (!sub || sub.is_trial) return { enabled: false, next_charge: null };
      const expire = new Date(sub.expire_at).getTime();
      return {
        enabled: Boolean(sub.autopay_enabled),
        next_charge: {
          charge_from: iso(expire - DAY), expire_at: sub.expire_at, amount_minor: 29900, currency: 'RUB',
          plan_name: sub.plan_name || 'Standard', days: 30, balance_enough: db.user.balance_minor >= 29900,
        },
      };
    },
    'PUT /subscription/autopay': (b) => {
      if (typeof b.enabled !== 'boolean') throw new ApiError(400, 'enabled: expected a boolean');
      if (!db.subscription) throw new ApiError(404, 'no subscription');
      if (b.enabled && db.subscription.is_trial) throw new ApiError(409, 'a trial is not renewed automatically: buy a plan first');
      db.subscription = { ...db.subscription, autopay_enabled: b.enabled };
      return routes['GET /subscription/autopay']();
    },
    'POST /link/email/confirm': (b) => {
      if (!db.pendingEmail) throw new ApiError(400, 'no pending e-mail link, or its code was already used');
      if (!/^\d{6}$/.test(String(b.code || ''))) throw new ApiError(400, 'wrong code');
      db.linked = { ...db.linked, email: db.pendingEmail, email_verified: true, has_password: true };
      db.pendingEmail = null;
      return { ok: true, email: db.linked.email };
    },
  };

  async function transport(method, path, body) {
    await new Promise((r) => setTimeout(r, 120));   // so skeletons show as they would
    const route = routes[method + ' ' + path];
    if (route) return structuredClone(route(body || {}));
    let m = path.match(/^\/devices\/(.+)$/);
    if (method === 'DELETE' && m) {
      db.devices = db.devices.filter((d) => d.hwid !== decodeURIComponent(m[1]));
      return { ok: true };
    }
    m = path.match(/^\/payments\/(\d+)\/cancel$/);
    if (method === 'POST' && m) {
      const tx = db.payments.find((p) => p.id === Number(m[1]));
      if (!tx) throw new ApiError(404, 'no payment with that id');
      if (tx.status !== 'pending') throw new ApiError(409, 'this payment is no longer open');
      tx.status = 'canceled';
      delete tx.expires_at;
      return { id: tx.id, status: 'canceled' };
    }
    m = path.match(/^\/link\/oauth\/(.+)$/);
    if (method === 'DELETE' && m) {
      if (!db.linked.oauth.some((o) => o.provider === m[1])) throw new ApiError(404, m[1] + ' is not linked');
      db.linked = { ...db.linked, oauth: db.linked.oauth.filter((o) => o.provider !== m[1]), available_providers: [...db.linked.available_providers, m[1]] };
      return { ok: true, unlinked: m[1] };
    }
    throw new ApiError(404, 'not in the demo');
  }

  return { transport };
}
