// What the owner's cabinet tests share: the staff of the local stack (ADMIN_IDS,
// SUPPORT_IDS, VIEWER_IDS), direct admin API calls to check what a click changed, opening a
// section (through the menu button at 390 px) and a customer to see the live effect.
import assert from 'node:assert/strict';

import { openPage, ready } from './browser.mjs';
import { BASE, api, ctl, freshId, initData } from './stack.mjs';

export const OWNER = 100000001;
export const SUPPORT = 100000002;
export const VIEWER = 100000003;

export async function adminApi(method, path, body, who = OWNER) {
  const res = await fetch(BASE + '/api/admin' + path, {
    method,
    headers: { Authorization: 'tma ' + initData(who), ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = null; }
  return { status: res.status, json, text, headers: res.headers };
}

// Today in the shop's time zone (SHOP_TIMEZONE, as the owner's settings have it now):
// "2026-01-31", the day the owner's date filters take it to be.
export async function shopToday() {
  const { json } = await adminApi('GET', '/settings');
  const zone = json.items.find((i) => i.name === 'SHOP_TIMEZONE')?.value || 'UTC';
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

// /admin/#/SECTION?… for `who`, at `width` px, painted and no longer busy.
export async function openAdmin(browser, hash = '', { who = OWNER, width = 1280, colorScheme = 'light', lang = 'en' } = {}) {
  const p = await openPage(browser, '/admin/' + hash, {
    init: initData(who, { languageCode: lang }), viewport: { width, height: 900 }, colorScheme,
  });
  await ready(p.page);
  return p;
}

// A section from the side navigation; at 390 px it is behind the menu button.
export async function openSection(page, name) {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name }).click();   // part 2's say "… coming"
  await page.getByRole('heading', { level: 1, name }).waitFor();
  await ready(page);
}

// A customer who exists (first /me registers them), with `balance` minor units.
export async function customer(balance) {
  const id = freshId();
  const init = initData(id);
  assert.equal((await api('GET', '/me', { init })).status, 200);
  if (balance !== undefined) ctl('user', 'set-balance', '--telegram-id', String(id), '--value', String(balance));
  return { id, init, me: async () => (await api('GET', '/me', { init })).json.user };
}

export const unique = (prefix) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

// Owner text with markup: must come back as text everywhere.
export const HOSTILE = '<img src=x onerror=alert(1)>';

// Clicks `button` and returns the file it downloads: { name, text }.
export async function downloadText(page, button) {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const stream = await download.createReadStream();
  let text = '';
  for await (const chunk of stream) text += chunk;
  return { name: download.suggestedFilename(), text };
}
