// Customers in the owner's cabinet: the search finds a customer by Telegram id, @username,
// a name fragment and with the status filter (all in the URL); the keyboard goes from the
// search to the first row and into the card; a card shows a name with markup as text;
// money and days changed from the card reach the customer (GET /api/cabinet/me) and the
// ledger with the owner's reason, once even when the form is sent again after a lost
// answer (the same Idempotency-Key); a block shows the customer the blocked screen and an
// unblock takes it away. Each test makes the customers it uses.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { HOSTILE, OWNER, SUPPORT, VIEWER, adminApi, openAdmin, unique } from './lib/admin.mjs';
import { axe, launch, ready, screenshotPath } from './lib/browser.mjs';
import { api, freshId, initData } from './lib/stack.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

// A customer who exists (their first /me registers them) with the name and username given;
// `trial` starts the trial so they have a subscription.
async function person({ firstName = 'Test', username = '', trial = false } = {}) {
  const id = freshId();
  const init = initData(id, { firstName, username });
  const me = await api('GET', '/me', { init });
  assert.equal(me.status, 200, JSON.stringify(me.json));
  if (trial) assert.equal((await api('POST', '/trial', { init })).status, 200);
  const found = (await adminApi('GET', '/customers?q=' + id)).json.items;
  assert.equal(found.length, 1, JSON.stringify(found));
  return { telegramId: id, init, id: found[0].id, me: async () => (await api('GET', '/me', { init })).json };
}

const table = (page) => page.getByRole('table', { name: 'Customers, newest first' });
const rowKeys = (page) => table(page).locator('tbody tr').evaluateAll((rows) => rows.map((r) => Number(r.dataset.key)));
// The list has its answer (the table is not busy asking).
const listed = (page) => page.waitForSelector('.atable-wrap[aria-busy="false"]');

// The search box and its form; Enter searches (the page marks the table busy at once).
async function search(page, text) {
  const box = page.getByRole('searchbox', { name: 'Search' });
  await box.fill(text);
  await box.press('Enter');
  await listed(page);
}

test('search by Telegram id, @username, name fragment and status; the filters are in the URL; the keyboard opens a card', async () => {
  const tag = unique('Zq').toLowerCase();
  const anna = await person({ firstName: 'Anna' + tag, username: 'anna_' + tag, trial: true });
  const boris = await person({ firstName: 'Boris' + tag, username: 'boris_' + tag });
  const p = await openAdmin(browser, '#/customers');
  await table(p.page).waitFor();
  assert.deepEqual(await axe(p.page), []);

  await search(p.page, String(anna.telegramId));
  assert.deepEqual(await rowKeys(p.page), [anna.id]);
  assert.match(p.page.url(), new RegExp(`#/customers\\?q=${anna.telegramId}`));

  await search(p.page, '@boris_' + tag);
  assert.deepEqual(await rowKeys(p.page), [boris.id]);

  // A fragment of both names (newest first), then only those with a trial.
  await search(p.page, tag);
  assert.deepEqual(await rowKeys(p.page), [boris.id, anna.id]);
  await p.page.getByLabel('Status').selectOption('trial');
  await listed(p.page);
  assert.deepEqual(await rowKeys(p.page), [anna.id]);
  assert.match(p.page.url(), /status=trial/);
  await p.page.getByLabel('Status').selectOption('none');
  await listed(p.page);
  assert.deepEqual(await rowKeys(p.page), [boris.id]);

  // A name fragment of two letters is refused next to the box, nothing listed.
  p.allowHttp((r) => r.status() === 422 && r.url().includes('/api/admin/customers?'));
  await search(p.page, 'Zq');
  await p.page.getByText(/^q /).waitFor();
  assert.equal(await p.page.getByRole('searchbox', { name: 'Search' }).getAttribute('aria-invalid'), 'true');

  // Reloaded with the URL: the same list.
  await p.page.goto(p.page.url().replace(/#.*/, '') + '#/customers?q=' + tag + '&status=trial');
  await p.page.reload();
  await ready(p.page);
  await table(p.page).waitFor();
  await listed(p.page);
  assert.deepEqual(await rowKeys(p.page), [anna.id]);
  assert.equal(await p.page.getByLabel('Status').inputValue(), 'trial');

  // Keyboard: search, Enter, Tab to the first row's link, Enter opens the card.
  const box = p.page.getByRole('searchbox', { name: 'Search' });
  await box.fill('@anna_' + tag);
  await box.press('Enter');
  await listed(p.page);
  assert.deepEqual(await rowKeys(p.page), [anna.id]);
  let reached = false;
  for (let i = 0; i < 40 && !reached; i++) {
    await p.page.keyboard.press('Tab');
    reached = await p.page.evaluate(() => Boolean(document.activeElement && document.activeElement.closest('tbody tr')));
  }
  assert.ok(reached, 'the first row is reached by Tab');
  await p.page.keyboard.press('Enter');
  await p.page.getByRole('heading', { level: 2, name: 'Anna' + tag }).waitFor();
  assert.match(p.page.url(), new RegExp(`id=${anna.id}`));
  assert.match(p.page.url(), /q=%40anna_/);
  await ready(p.page);
  assert.deepEqual(await axe(p.page), []);
  // Back to the same list.
  await p.page.getByRole('link', { name: 'Back to the list' }).click();
  await table(p.page).waitFor();
  await listed(p.page);
  await ready(p.page);
  assert.deepEqual(await rowKeys(p.page), [anna.id]);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('a name and a username with markup are shown as text in the list and the card', async () => {
  const evil = await person({ firstName: HOSTILE, username: 'x' + freshId() });
  const p = await openAdmin(browser, '#/customers?q=' + evil.telegramId);
  await table(p.page).getByRole('link', { name: HOSTILE }).waitFor();
  await table(p.page).getByRole('link', { name: HOSTILE }).click();
  await p.page.getByRole('heading', { level: 2, name: HOSTILE }).waitFor();
  await ready(p.page);
  assert.equal(await p.page.locator('main img').count(), 0, 'no element made from the name');
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('"Export CSV" downloads what the filters find (owner and viewer); support has no export', async () => {
  const tag = unique('Xp').toLowerCase();
  const one = await person({ firstName: 'Olga' + tag, username: 'olga_' + tag });
  const two = await person({ firstName: 'Pavel' + tag, trial: true });
  for (const who of [OWNER, VIEWER]) {
    const p = await openAdmin(browser, '#/customers?q=' + tag, { who });
    await table(p.page).waitFor();
    assert.deepEqual(await rowKeys(p.page), [two.id, one.id]);
    const [download] = await Promise.all([
      p.page.waitForEvent('download'),
      p.page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /\.csv$/);
    const text = await new Promise((resolve, reject) => {
      download.createReadStream().then((st) => { let t = ''; st.on('data', (c) => { t += c; }); st.on('end', () => resolve(t)); st.on('error', reject); }, reject);
    });
    const lines = text.trim().split(/\r?\n/);
    assert.equal(lines[0], 'id,telegram_id,username,first_name,last_name,email,balance_minor,currency,status,expire_at,is_blocked,promo_group,created_at');
    assert.deepEqual(lines.slice(1).map((l) => Number(l.split(',')[0])), [two.id, one.id]);
    assert.ok(lines[2].includes('olga_' + tag), lines[2]);
    await p.page.getByText(/^Saved as /).waitFor();
    assert.deepEqual(await p.problems(), []);
    await p.close();
  }
  const s = await openAdmin(browser, '#/customers?q=' + tag, { who: SUPPORT });
  await table(s.page).waitFor();
  assert.equal(await s.page.getByRole('button', { name: 'Export CSV' }).count(), 0);
  assert.equal((await adminApi('GET', '/customers/export?q=' + tag, undefined, SUPPORT)).status, 403);
  assert.deepEqual(await s.problems(), []);
  await s.close();
});

test('a long list pages by "More" (50 a page, newest first, no one twice)', async () => {
  const tag = unique('Pg').toLowerCase();
  for (let i = 0; i < 53; i++) {
    assert.equal((await api('GET', '/me', { init: initData(freshId(), { firstName: `Page${tag}n${i}` }) })).status, 200);
  }
  const p = await openAdmin(browser, '#/customers?q=' + tag);
  await table(p.page).waitFor();
  await p.page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 50);
  await p.page.getByText('50 customers shown, more below').waitFor();
  await p.page.getByRole('button', { name: 'More' }).click();
  await p.page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 53);
  await p.page.getByText('53 customers', { exact: true }).waitFor();
  const keys = await rowKeys(p.page);
  assert.equal(new Set(keys).size, 53, 'no one twice');
  assert.deepEqual(keys, [...keys].sort((a, b) => b - a), 'newest first');
  assert.equal(await p.page.getByRole('button', { name: 'More' }).isVisible(), false);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

// An action over the API, as the page sends it (one key per submission).
async function act(c, action, body) {
  const res = await fetch(process.env.CABINET_BASE_URL + `/api/admin/customers/${c.id}/${action}`, {
    method: 'POST',
    headers: { Authorization: 'tma ' + initData(OWNER), 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200, await res.text());
}

test('screenshots: the list and a card at 1280 and 390 px, the card also dark', async () => {
  const shown = await person({ firstName: 'Maria', username: 'maria_' + freshId(), trial: true });
  await act(shown, 'balance', { delta_minor: 25000, reason: 'Compensation for the outage on Monday' });
  await act(shown, 'extend', { days: 30, reason: 'Goodwill' });
  for (const [what, hash, loaded] of [
    ['customers', '#/customers', (page) => table(page).waitFor()],
    ['customers-card', '#/customers?id=' + shown.id, (page) => page.getByRole('heading', { name: 'Balance history' }).waitFor()],
  ]) {
    for (const [width, colorScheme] of [[1280, 'light'], [390, 'light'], ...(what === 'customers-card' ? [[1280, 'dark']] : [])]) {
      const p = await openAdmin(browser, hash, { width, colorScheme });
      await p.page.setViewportSize({ width, height: width > 1000 ? 860 : 844 });
      await loaded(p.page);
      await ready(p.page);
      if (what === 'customers-card') await p.page.locator('details.cust-action > summary', { hasText: 'Add or take balance' }).click();
      await p.page.waitForTimeout(200);
      const file = `admin-${what}-${width}${colorScheme === 'dark' ? '-dark' : ''}.png`;
      await p.page.screenshot({ path: screenshotPath(file), fullPage: what === 'customers-card' && width > 1000 });
      assert.deepEqual(await axe(p.page), [], file);
      assert.deepEqual(await p.problems(), [], file);
      await p.close();
    }
  }
});
