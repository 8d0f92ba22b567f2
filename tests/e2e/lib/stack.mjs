// The stack the browser tests run against (tools/stack test exports its settings): the
// base URL, signed Telegram init data for any user, and direct API calls to check what a
// click changed (the subscription, the balance), never only what the page shows.
import { createHmac } from 'node:crypto';
import { execFileSync } from 'node:child_process';

export const BASE = process.env.CABINET_BASE_URL || '';
export const FAKES = process.env.FAKES_PORT ? `http://127.0.0.1:${process.env.FAKES_PORT}` : '';
const BOT_TOKEN = process.env.BOT_TOKEN || '';

// Init data as Telegram signs it (HMAC-SHA256 keyed by HMAC("WebAppData", bot token)).
export function initData(telegramId, { firstName = 'Test', username = '', languageCode = 'en', startParam = '', authDate } = {}) {
  const fields = {
    auth_date: String(authDate ?? Math.floor(Date.now() / 1000)),
    user: JSON.stringify({ id: telegramId, first_name: firstName, ...(username ? { username } : {}), language_code: languageCode }),
    ...(startParam ? { start_param: startParam } : {}),
  };
  const check = Object.keys(fields).sort().map((k) => `${k}=${fields[k]}`).join('\n');
  const secret = createHmac('sha256', 'WebAppData').update(BOT_TOKEN).digest();
  const hash = createHmac('sha256', secret).update(check).digest('hex');
  return new URLSearchParams({ ...fields, hash }).toString();
}

// A Telegram id no other test uses in this run.
let nextId = 710000000 + Math.floor(Math.random() * 1000000) * 50;
export function freshId() { return nextId++; }

export async function api(method, path, { init, body, headers = {} } = {}) {
  const res = await fetch(BASE + '/api/cabinet' + path, {
    method,
    headers: {
      ...(init ? { Authorization: 'tma ' + init } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...headers,
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = null; }
  return { status: res.status, json, headers: res.headers };
}

// cabinetctl with the stack's settings (tools/stack ctl …): balances, plans, blocks.
export function ctl(...args) {
  return execFileSync(process.env.CABINET_STACK, ['ctl', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export async function waitFor(fn, { timeout = 15000, interval = 200, what = 'condition' } = {}) {
  const end = Date.now() + timeout;
  let last;
  while (Date.now() < end) {
    last = await fn();
    if (last) return last;
    await new Promise((r) => setTimeout(r, interval));
  }
  throw new Error(`timed out waiting for ${what}`);
}

// The link style of the fake Bot API's createInvoiceLink (tests/fakes/telegram.mjs):
// 'telegram' (https://t.me/$…, what the mini-app's Telegram path expects) or 'sandbox' (the
// Stars sandbox page). Returns the style it had, to put back after the test.
export async function starsInvoiceLinks(style) {
  const r = await fetch(`${FAKES}/__fake/telegram/invoice-links`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ style }),
  });
  if (!r.ok) throw new Error(`invoice-links ${style}: HTTP ${r.status} ${await r.text()}`);
  return (await r.json()).previous;
}
