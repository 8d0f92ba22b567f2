// A returning customer's home is drawn at once from the copy of the last /me kept on the
// device (app/home-copy.js, docs/decisions.md "The mini-app's first screen"), then brought
// up to date in place when /me answers. /me is held back here with page.route, so what
// the page draws before it answers is seen. The copy is this Telegram user's only, holds
// nothing of the subscription link or the init data, is forgotten on a 401 or 403, and
// demo mode neither keeps nor reads one.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { axe, launch, openPage, ready, screenshotPath } from './lib/browser.mjs';
import { BASE, api, ctl, freshId, initData } from './lib/stack.mjs';

const KEY = 'cabinet.home';
let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

const appUrl = (init) => `${BASE}/app/#${new URLSearchParams({ tgWebAppData: init, tgWebAppVersion: '8.0', tgWebAppPlatform: 'android' })}`;
const kept = (page) => page.evaluate((k) => localStorage.getItem(k), KEY);
// The next opening: a new document with the same storage (Telegram opens a new web view;
// a goto that changes only the fragment would stay in the same document).
async function reopen(page, url) {
  await page.goto('about:blank');
  await page.goto(url);
}

// Holds the page's GET /me until release() (the inline script's and any later one).
async function holdMe(page) {
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  let asked = 0;
  await page.route('**/api/cabinet/me', async (route) => { asked++; await held; await route.continue(); });
  return { release: () => release(), asked: () => asked };
}

// A user with a trial (days, traffic, devices) and a balance, seen once by the mini-app.
async function customer(balanceMinor) {
  const id = freshId();
  const init = initData(id, { firstName: 'Kept' });
  assert.equal((await api('GET', '/me', { init })).status, 200);
  assert.equal((await api('POST', '/trial', { init })).status, 200);
  ctl('user', 'set-balance', '--telegram-id', String(id), '--value', String(balanceMinor));
  return { id, init };
}

// Such a customer's first opening, home shown (and so kept).
async function opened(balanceMinor) {
  const c = await customer(balanceMinor);
  const p = await openPage(browser, '/app/', { init: c.init });
  await ready(p.page);
  return { ...c, p };
}

test('a second opening draws home from the kept copy before /me answers, then brings it up to date in place', async () => {
  const { id, init, p } = await opened(12300);
  await p.page.locator('.balance-value', { hasText: '123' }).waitFor();

  // What is kept is what home shows: no link, no init data, no hash, nothing of the panel's.
  const me = (await api('GET', '/me', { init })).json;
  const copy = await kept(p.page);
  assert.ok(copy, 'a copy is kept');
  assert.ok(me.subscription.subscription_url, 'the user has a subscription link to leave out');
  for (const secret of [me.subscription.subscription_url, me.subscription.subscription_url.split('/').pop(), init, new URLSearchParams(init).get('hash'), me.user.referral_code]) {
    assert.ok(!copy.includes(secret), `the kept copy holds ${secret}: ${copy}`);
  }
  assert.doesNotMatch(copy, /subscription_url|crypto_link|sub\/|tma |hash|auth_date|referral/);
  const parsed = JSON.parse(copy);
  assert.equal(parsed.user, String(id));
  assert.ok(copy.length < 2000, `small: ${copy.length} characters`);

  // The next opening (Telegram opens a new web view: a new page with the same storage).
  ctl('user', 'set-balance', '--telegram-id', String(id), '--value', '45600');
  const me2 = await holdMe(p.page);
  await reopen(p.page, appUrl(init));
  await p.page.waitForSelector('#screen[aria-busy="false"] .status-card[aria-busy="true"]');
  const card = p.page.locator('.status-card');
  assert.match(await card.innerText(), /Updating/);
  assert.match(await card.innerText(), /day/);
  assert.match(await p.page.locator('.balance-value').innerText(), /123/);
  assert.equal(me2.asked(), 1, 'asked for /me once, at page start');
  assert.deepEqual(await axe(p.page), []);
  await p.page.screenshot({ path: screenshotPath('app-home-kept-390.png') });

  // Another screen, and the primary action, wait for /me.
  await p.page.getByRole('navigation').getByRole('link', { name: 'Plans' }).click();
  await p.page.waitForTimeout(400);
  assert.equal(await p.page.locator('html[data-screen="plans"]').count(), 0, 'plans waits for /me');

  me2.release();
  await p.page.waitForSelector('html[data-screen="plans"] #screen[aria-busy="false"]');
  await p.page.getByRole('navigation').getByRole('link', { name: 'Home' }).click();
  await ready(p.page);
  assert.match(await p.page.locator('.balance-value').innerText(), /456/);
  assert.equal(await p.page.locator('.status-updating').count(), 0);
  // The copy is kept again, with the fresh figure.
  assert.equal(JSON.parse(await kept(p.page)).me.user.balance_minor, 45600);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('brought up to date in place: the screen stays usable and its heading and tabs stay the same nodes', async () => {
  const { id, init, p } = await opened(1000);
  ctl('user', 'set-balance', '--telegram-id', String(id), '--value', '2000');
  const me = await holdMe(p.page);
  await reopen(p.page, appUrl(init));
  await p.page.waitForSelector('#screen[aria-busy="false"] .status-card[aria-busy="true"]');
  // Marks on the nodes that must survive, and a record of the screen's aria-busy.
  await p.page.evaluate(() => {
    document.getElementById('view-title').dataset.mark = '1';
    document.querySelector('#tabbar .tabs').dataset.mark = '1';
    window.__busy = [];
    new MutationObserver(() => window.__busy.push(document.getElementById('screen').getAttribute('aria-busy')))
      .observe(document.getElementById('screen'), { attributes: true, attributeFilter: ['aria-busy'] });
  });
  me.release();
  await p.page.waitForSelector('.status-card:not([aria-busy])');
  await p.page.locator('.balance-value', { hasText: '20' }).waitFor();
  assert.equal(await p.page.locator('#view-title[data-mark="1"]').count(), 1, 'the same heading');
  assert.equal(await p.page.locator('#tabbar .tabs[data-mark="1"]').count(), 1, 'the same tabs');
  assert.deepEqual(await p.page.evaluate(() => window.__busy), [], 'the screen never turned busy');
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('another Telegram user in the same browser never sees the first one\'s kept home', async () => {
  const { p } = await opened(77700);
  assert.ok(await kept(p.page));

  // A new user (no subscription) opens the app in the same web view storage.
  const other = freshId();
  const init = initData(other, { firstName: 'Other' });
  const me = await holdMe(p.page);
  await reopen(p.page, appUrl(init));
  await p.page.waitForTimeout(600);
  assert.equal(await p.page.locator('.status-card').count(), 0, 'nothing drawn before /me');
  assert.equal(await p.page.locator('#screen').getAttribute('aria-busy'), 'true');
  assert.equal(await kept(p.page), null, 'the first user\'s copy is dropped');
  me.release();
  await ready(p.page);
  await p.page.getByText('You have no subscription yet').waitFor();
  assert.doesNotMatch(await p.page.locator('#screen').innerText(), /777/);
  assert.equal(JSON.parse(await kept(p.page)).user, String(other));
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('demo mode neither keeps a copy nor shows the kept one', async () => {
  const p = await openPage(browser, '/app/?mock=1', { telegram: true });
  await ready(p.page);
  await p.page.getByRole('heading', { name: 'Standard' }).waitFor();
  assert.equal(await kept(p.page), null);

  const { init } = await customer(88800);
  await reopen(p.page, appUrl(init));
  await ready(p.page);
  const copy = await kept(p.page);
  assert.ok(copy);
  await p.page.goto(`${BASE}/app/?mock=1`);
  await ready(p.page);
  await p.page.getByText('Demo mode').waitFor();
  assert.doesNotMatch(await p.page.locator('#screen').innerText(), /888/);
  assert.equal(await kept(p.page), copy, 'the live user\'s copy is left as it was');
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('a 403 (blocked) or a 401 shows what /me says and forgets the kept copy', async () => {
  const { id, init, p } = await opened(5000);
  assert.ok(await kept(p.page));
  ctl('user', 'block', '--telegram-id', String(id));
  p.allowHttp((r) => r.url().endsWith('/api/cabinet/me') && r.status() === 403);
  await reopen(p.page, appUrl(init));
  await p.page.getByRole('heading', { name: 'Access blocked' }).waitFor();
  assert.equal(await p.page.locator('.status-card').count(), 0);
  assert.equal(await kept(p.page), null);

  // 401: a copy for this user, then init data the server refuses.
  const { p: q } = await opened(5000);
  const copy = await kept(q.page);
  const user = JSON.parse(copy).user;
  const bad = initData(Number(user)).replace(/hash=[0-9a-f]+/, 'hash=' + '0'.repeat(64));
  q.allowHttp((r) => r.url().endsWith('/api/cabinet/me') && r.status() === 401);
  await reopen(q.page, appUrl(bad));
  await q.page.getByRole('heading', { name: 'Please reopen the app' }).waitFor();
  assert.equal(await q.page.locator('.status-card').count(), 0);
  assert.equal(await kept(q.page), null);
  assert.deepEqual(await p.problems(), []);
  assert.deepEqual(await q.problems(), []);
  await p.close();
  await q.close();
});
