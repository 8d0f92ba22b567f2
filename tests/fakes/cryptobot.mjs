// Crypto Pay API (@CryptoBot), as much as the cabinet uses: createInvoice, getInvoices and
// getMe (`cabinetctl setup` checks the token with it), authenticated by the
// Crypto-Pay-API-Token header: the one good token is CRYPTOBOT_TOKEN of the environment (any
// non-empty one when unset), anything else gets 401 UNAUTHORIZED. Answers are {ok, result} or
// {ok: false, error: {code, name}} as the real API's. With SANDBOX_URL set, an invoice's
// bot_invoice_url (and mini_app/web_app urls) is the sandbox's page for it,
// <SANDBOX_URL>/cryptobot/invoice/<id> (sandbox.mjs), whose Pay does what the hook below does
// and POSTs the update to the cabinet.
//
//   POST /__fake/cryptobot/invoices/{id}/paid {"amount":"199.00","token":"..."}
//        marks the invoice paid and returns {"body": <raw webhook JSON>, "signature": <hex>}
//        signed as CryptoBot signs: HMAC-SHA256 keyed with SHA-256 of the token (the env's
//        CRYPTOBOT_TOKEN unless "token" is given). "amount" overrides the invoice amount in
//        the update (an invoice made for less than the order).
//   GET  /__fake/cryptobot/invoices/{id}
import { createHash, createHmac, randomBytes } from 'node:crypto';

import { fields, reply } from './http_util.mjs';

const invoices = new Map();  // invoice_id -> invoice
let nextId = Date.now() % 1e9;  // unique across restarts of the fake within one database
let nextUpdate = 1;

function error(res, status, name) {
  return reply(res, status, { ok: false, error: { code: status, name } });
}

function tokenOk(token) {
  if (!token) return false;
  return process.env.CRYPTOBOT_TOKEN ? token === process.env.CRYPTOBOT_TOKEN : true;
}

function createInvoice(res, f) {
  const type = f.currency_type ?? 'crypto';
  if (!/^\d{1,12}(\.\d{1,8})?$/.test(String(f.amount ?? ''))) return error(res, 400, 'AMOUNT_INVALID');
  if (type === 'fiat' && !/^[A-Z]{3}$/.test(f.fiat ?? '')) return error(res, 400, 'FIAT_INVALID');
  if (type === 'crypto' && !f.asset) return error(res, 400, 'ASSET_INVALID');
  if ((f.description ?? '').length > 1024) return error(res, 400, 'DESCRIPTION_TOO_LONG');
  if ((f.payload ?? '').length > 4096) return error(res, 400, 'PAYLOAD_TOO_LONG');
  const id = nextId++;
  const hash = 'IV' + randomBytes(6).toString('hex');
  // In the local stack every payment link is the sandbox's invoice page (sandbox.mjs).
  const sandbox = process.env.SANDBOX_URL ? `${process.env.SANDBOX_URL}/cryptobot/invoice/${id}` : null;
  const inv = {
    invoice_id: id,
    hash,
    currency_type: type,
    ...(type === 'fiat' ? { fiat: f.fiat, accepted_assets: ['USDT', 'TON', 'BTC'] } : { asset: f.asset }),
    amount: String(f.amount),
    bot_invoice_url: sandbox ?? `https://t.me/CryptoBot?start=${hash}`,
    mini_app_invoice_url: sandbox ?? `https://t.me/CryptoBot/app?startapp=invoice-${hash}`,
    web_app_invoice_url: sandbox ?? `https://app.send.tg/invoices/${hash}`,
    description: f.description ?? '',
    status: 'active',
    created_at: new Date().toISOString(),
    allow_comments: true,
    allow_anonymous: true,
    ...(f.payload !== undefined ? { payload: String(f.payload) } : {}),
    ...(f.paid_btn_name !== undefined ? { paid_btn_name: String(f.paid_btn_name) } : {}),
    ...(f.paid_btn_url !== undefined ? { paid_btn_url: String(f.paid_btn_url) } : {}),
  };
  invoices.set(id, inv);
  return reply(res, 200, { ok: true, result: inv });
}

export function handle(req, res, path, parsed, url) {
  if (!tokenOk(req.headers['crypto-pay-api-token'])) return error(res, 401, 'UNAUTHORIZED');
  const method = path.replace(/^\/api\//, '');
  const f = fields(parsed, url);
  switch (method) {
    case 'getMe':
      return reply(res, 200, { ok: true, result: { app_id: 1, name: 'cabinet fake', payment_processing_bot_username: 'CryptoBot' } });
    case 'createInvoice':
      return createInvoice(res, f);
    case 'getInvoices': {
      const ids = String(f.invoice_ids ?? '').split(',').filter(Boolean).map(Number);
      const items = ids.length ? ids.map((i) => invoices.get(i)).filter(Boolean) : [...invoices.values()];
      return reply(res, 200, { ok: true, result: { items } });
    }
    default:
      return error(res, 405, 'METHOD_NOT_FOUND');
  }
}

export function signature(token, body) {
  const key = createHash('sha256').update(token).digest();
  return createHmac('sha256', key).update(body).digest('hex');
}

export function invoice(id) { return invoices.get(Number(id)) ?? null; }
export function list() { return [...invoices.values()]; }

// Marks the invoice paid: the invoice_paid update as CryptoBot POSTs it, and its signature.
export function markPaid(inv, { amount, token } = {}) {
  const now = new Date().toISOString();
  Object.assign(inv, {
    status: 'paid', paid_at: now, paid_asset: 'USDT', paid_amount: (Number(inv.amount) / 90).toFixed(2),
    paid_fiat_rate: '90.00', paid_usd_rate: '1.00', fee_asset: 'USDT', fee_amount: '0.03', paid_anonymously: false,
  });
  const update = {
    update_id: nextUpdate++,
    update_type: 'invoice_paid',
    request_date: now,
    payload: { ...inv, ...(amount !== undefined ? { amount: String(amount) } : {}) },
  };
  const body = JSON.stringify(update);
  return { body, signature: signature(token ?? process.env.CRYPTOBOT_TOKEN ?? '', body) };
}

export function hook(req, res, path, parsed) {
  const m = path.match(/^\/invoices\/(\d+)(\/paid)?$/);
  const inv = m && invoices.get(Number(m[1]));
  if (!inv) return reply(res, 404, { error: 'no such invoice' });
  if (!m[2]) return reply(res, 200, inv);
  const b = parsed.json ?? {};
  return reply(res, 200, { invoice: inv, ...markPaid(inv, { amount: b.amount, token: b.token }) });
}
