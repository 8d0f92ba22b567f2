// YooKassa API v3, as much as the cabinet uses: POST /payments (HTTP Basic shop_id:secret,
// Idempotence-Key required; the same key returns the same payment), GET /payments/{id}, and
// GET /me (the shop the credentials belong to; `cabinetctl setup` checks the keys with it).
// The one good pair is YOOKASSA_SHOP_ID:YOOKASSA_SECRET_KEY of the environment (any
// non-empty pair when unset); anything else gets YooKassa's 401 invalid_credentials.
// confirmation_url is the sandbox's checkout page (<SANDBOX_URL>/yookassa/checkout/<id>,
// sandbox.mjs) when SANDBOX_URL is set. Payments start `pending` and change only through the
// hooks or that page:
//
//   POST /__fake/yookassa/payments/{id} {"status":"succeeded","amount":"199.00","currency":"RUB",
//        "metadata":{...}}  -> {"payment": ..., "notification": <the body YooKassa would POST>}
//   POST /__fake/yookassa/payments {"amount":"299.00","currency":"RUB","metadata":{...},"status":"pending"}
//        a payment made without the API (id optional)
//   GET  /__fake/yookassa/payments/{id}
//   POST /__fake/yookassa/payments/{id} {"refund":"199.00"} -> the payment refunded by that much
//        more (refunded_amount), and the refund.succeeded notification YooKassa would POST
// and POST /refunds (Idempotence-Key required; the same key returns the same refund): a
// refund of a succeeded payment up to what is left of it, else YooKassa's 400.
import { randomUUID } from 'node:crypto';

import { reply } from './http_util.mjs';

const payments = new Map();      // id -> payment
const byKey = new Map();         // Idempotence-Key -> id
const refundsByKey = new Map();  // Idempotence-Key -> refund
const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;

function error(res, status, code, description) {
  return reply(res, status, { type: 'error', id: randomUUID(), code, description });
}

// The shop id the request authenticates as, or null when the credentials are refused.
function authorizedShop(header) {
  const m = /^Basic (.+)$/.exec(header ?? '');
  if (!m) return null;
  const [shop, ...rest] = Buffer.from(m[1], 'base64').toString('utf8').split(':');
  const secret = rest.join(':');
  const want = [process.env.YOOKASSA_SHOP_ID, process.env.YOOKASSA_SECRET_KEY];
  if (want[0] || want[1]) return shop === want[0] && secret === want[1] ? shop : null;
  return shop !== '' && secret !== '' ? shop : null;
}

function newPayment({ id, amount, currency, description, metadata, returnUrl, status }) {
  const p = {
    id: id ?? `${randomUUID().slice(0, 8)}-000f-5000-9000-${randomUUID().slice(-12)}`,
    status: status ?? 'pending',
    paid: false,
    amount: { value: amount, currency },
    confirmation: {
      type: 'redirect',
      return_url: returnUrl ?? 'https://example.invalid/return',
      confirmation_url: '',  // set below, once the id is known
    },
    created_at: new Date().toISOString(),
    description: description ?? '',
    metadata: metadata ?? {},
    recipient: { account_id: process.env.YOOKASSA_SHOP_ID || '100500', gateway_id: '100700' },
    refundable: false,
    test: true,
  };
  // The sandbox's checkout page (sandbox.mjs) in the local stack, else YooKassa's own shape.
  p.confirmation.confirmation_url = process.env.SANDBOX_URL
    ? `${process.env.SANDBOX_URL}/yookassa/checkout/${encodeURIComponent(p.id)}`
    : `https://yoomoney.ru/checkout/payments/v2/contract?orderId=${p.id}`;
  setStatus(p, p.status);
  payments.set(p.id, p);
  return p;
}

function setStatus(p, status) {
  p.status = status;
  p.paid = status === 'succeeded' || status === 'waiting_for_capture';
  if (status === 'succeeded') {
    p.captured_at = new Date().toISOString();
    p.income_amount = { value: (Number(p.amount.value) * 0.965).toFixed(2), currency: p.amount.currency };
    p.payment_method = { type: 'bank_card', id: p.id, saved: false, title: 'Bank card *4444' };
    p.refundable = true;
  }
  if (status === 'canceled') p.cancellation_details = { party: 'yoo_money', reason: 'expired_on_confirmation' };
  if (status !== 'pending') delete p.confirmation;
}

export function handle(req, res, path, parsed) {
  const shop = authorizedShop(req.headers.authorization);
  if (shop === null) return error(res, 401, 'invalid_credentials', 'Authentication by given credentials failed');
  if (req.method === 'GET' && path === '/v3/me') {
    return reply(res, 200, {
      account_id: shop, test: true, fiscalization_enabled: false, payment_methods: ['bank_card', 'sbp'], status: 'enabled',
    });
  }
  if (req.method === 'POST' && path === '/v3/payments') {
    const key = req.headers['idempotence-key'];
    if (!key || key.length > 64) return error(res, 400, 'invalid_request', 'Idempotence-Key header is missing or too long');
    if (byKey.has(key)) return reply(res, 200, payments.get(byKey.get(key)));
    const b = parsed.json;
    if (!b) return error(res, 400, 'invalid_request', 'body must be JSON');
    if (!AMOUNT.test(b.amount?.value ?? '') || !/^[A-Z]{3}$/.test(b.amount?.currency ?? '')) {
      return error(res, 400, 'invalid_request', 'amount.value must be a decimal string, amount.currency an ISO code');
    }
    if (b.confirmation?.type !== 'redirect' || !b.confirmation.return_url) {
      return error(res, 400, 'invalid_request', 'confirmation.type redirect needs return_url');
    }
    if ((b.description ?? '').length > 128) return error(res, 400, 'invalid_request', 'description too long');
    const p = newPayment({
      amount: b.amount.value, currency: b.amount.currency, description: b.description,
      metadata: b.metadata, returnUrl: b.confirmation.return_url,
    });
    p.capture = b.capture === true;
    byKey.set(key, p.id);
    return reply(res, 200, p);
  }
  if (req.method === 'POST' && path === '/v3/refunds') {
    const key = req.headers['idempotence-key'];
    if (!key || key.length > 64) return error(res, 400, 'invalid_request', 'Idempotence-Key header is missing or too long');
    if (refundsByKey.has(key)) return reply(res, 200, refundsByKey.get(key));
    const b = parsed.json;
    const p = b && payments.get(b.payment_id);
    if (!p) return error(res, 400, 'invalid_request', 'Payment not found');
    if (!AMOUNT.test(b.amount?.value ?? '') || b.amount?.currency !== p.amount.currency) {
      return error(res, 400, 'invalid_request', 'amount.value must be a decimal string in the payment\'s currency');
    }
    const left = Number(p.amount.value) - Number(p.refunded_amount?.value ?? 0);
    if (p.status !== 'succeeded' || !p.refundable) return error(res, 400, 'invalid_request', 'Payment is not refundable');
    if (Number(b.amount.value) > left + 1e-9) return error(res, 400, 'invalid_request', 'Refund amount exceeds the payment amount left');
    p.refunded_amount = { value: (Number(p.refunded_amount?.value ?? 0) + Number(b.amount.value)).toFixed(2), currency: p.amount.currency };
    const refund = {
      id: randomUUID(), payment_id: p.id, status: 'succeeded', created_at: new Date().toISOString(),
      amount: { value: Number(b.amount.value).toFixed(2), currency: p.amount.currency },
    };
    refundsByKey.set(key, refund);
    return reply(res, 200, refund);
  }
  const m = path.match(/^\/v3\/payments\/([^/]+)$/);
  if (req.method === 'GET' && m) {
    const p = payments.get(decodeURIComponent(m[1]));
    return p ? reply(res, 200, p) : error(res, 404, 'not_found', 'Payment not found');
  }
  return error(res, 404, 'not_found', `no such endpoint ${req.method} ${path}`);
}

// For the sandbox's checkout page (sandbox.mjs): the payment, and its move to `status`
// with the notification YooKassa would POST (null when it is no longer pending).
export function payment(id) { return payments.get(id) ?? null; }
export function list() { return [...payments.values()]; }
export function settle(id, status) {
  const p = payments.get(id);
  if (!p || p.status !== 'pending') return null;
  setStatus(p, status);
  return { type: 'notification', event: `payment.${p.status}`, object: structuredClone(p) };
}

export function hook(req, res, path, parsed) {
  const b = parsed.json ?? {};
  if (req.method === 'POST' && path === '/payments') {
    const p = newPayment({ id: b.id, amount: b.amount ?? '299.00', currency: b.currency ?? 'RUB', metadata: b.metadata, status: b.status });
    return reply(res, 200, p);
  }
  const m = path.match(/^\/payments\/([^/]+)$/);
  const p = m && payments.get(decodeURIComponent(m[1]));
  if (!p) return reply(res, 404, { error: 'no such payment' });
  if (req.method === 'GET') return reply(res, 200, p);
  if (b.amount !== undefined) p.amount.value = String(b.amount);
  if (b.currency !== undefined) p.amount.currency = b.currency;
  if (b.metadata !== undefined) p.metadata = b.metadata;
  if (b.status !== undefined) setStatus(p, b.status);
  if (b.refund !== undefined) {
    const before = Number(p.refunded_amount?.value ?? 0);
    p.refunded_amount = { value: (before + Number(b.refund)).toFixed(2), currency: p.amount.currency };
    const refund = {
      id: randomUUID(), payment_id: p.id, status: 'succeeded', created_at: new Date().toISOString(),
      amount: { value: Number(b.refund).toFixed(2), currency: p.amount.currency },
    };
    return reply(res, 200, { payment: p, notification: { type: 'notification', event: 'refund.succeeded', object: refund } });
  }
  const notification = { type: 'notification', event: `payment.${p.status}`, object: structuredClone(p) };
  return reply(res, 200, { payment: p, notification });
}
