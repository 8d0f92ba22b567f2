// Payments in the owner's cabinet: the filters (status, method, type, dates, customer) are
// in the URL and the totals count everything they find, not only the page shown ("More"
// brings the rest); a payment's detail shows its fields and its history; the owner refunds
// a balance purchase in the browser (reason required, asked "are you sure", one
// Idempotency-Key) and the money is back on the customer's balance (GET /api/cabinet/me),
// the payment is refunded in the list and the audit, and no second refund is offered; a
// refund the server refuses (409) is shown in its words; the viewer sees no refund and
// support has no Payments section; names with markup stay text. Each test makes the
// customers and payments it uses (balance purchases through the cabinet API).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { HOSTILE, OWNER, SUPPORT, VIEWER, adminApi, downloadText, openAdmin, shopToday, unique } from './lib/admin.mjs';
import { axe, launch, ready, screenshotPath } from './lib/browser.mjs';
import { api, ctl, freshId, initData, waitFor } from './lib/stack.mjs';

// A refund as another owner's page sends it (its own key).
const refundOverApi = (id, reason) => fetch(process.env.CABINET_BASE_URL + `/api/admin/payments/${id}/refund`, {
  method: 'POST', body: JSON.stringify({ reason }),
  headers: { Authorization: 'tma ' + initData(OWNER), 'Content-Type': 'application/json', 'Idempotency-Key': unique('k') },
});

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

const PRICE = 19900;   // the demo plan "start" for 30 days, RUB minor units
// Roubles as the English page writes them ("₽199", "₽10,348").
const rub = (minor) => new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'RUB', currencyDisplay: 'narrowSymbol',
  maximumFractionDigits: 0 }).format(minor / 100);

// A customer with `balance` who bought the plan "start" for 30 days `purchases` times from
// the balance; their payments newest first.
async function buyer({ firstName = 'Buyer', username = '', purchases = 1, balance = 100000 } = {}) {
  const telegramId = freshId();
  const init = initData(telegramId, { firstName, username });
  assert.equal((await api('GET', '/me', { init })).status, 200);
  ctl('user', 'set-balance', '--telegram-id', String(telegramId), '--value', String(balance));
  for (let i = 0; i < purchases; i++) {
    const r = await api('POST', '/purchase', { init, body: { plan_id: 'start', days: 30, method: 'balance' },
      headers: { 'Idempotency-Key': unique('pay') } });
    assert.equal(r.status, 200, JSON.stringify(r.json));
  }
  const found = (await adminApi('GET', '/customers?q=' + telegramId)).json.items;
  assert.equal(found.length, 1);
  const id = found[0].id;
  const payments = (await adminApi('GET', `/payments?customer=${id}&limit=200`)).json.items;
  assert.equal(payments.length, purchases);
  return { telegramId, init, id, payments, me: async () => (await api('GET', '/me', { init })).json.user };
}

const table = (page) => page.getByRole('table', { name: 'Payments, newest first' });
const rowKeys = (page) => table(page).locator('tbody tr').evaluateAll((rows) => rows.map((r) => Number(r.dataset.key)));
const listed = (page) => page.waitForSelector('.atable-wrap[aria-busy="false"]');
const stat = (page, name) => page.getByRole('region', { name: 'Totals for the filters' }).locator('.admin-stat', { hasText: name }).locator('dd');

test('filters in the URL; the totals count everything the filters find; "More" brings the rest', async () => {
  const many = await buyer({ firstName: 'Many', purchases: 52, balance: 52 * PRICE + 500 });
  const one = await buyer({ firstName: 'One' });
  const p = await openAdmin(browser, '#/payments');
  await table(p.page).waitFor();
  await listed(p.page);
  assert.deepEqual(await axe(p.page), []);

  // One customer's payments: 50 shown, the totals are of all 52.
  await p.page.getByLabel('Customer number').fill(String(many.id));
  await p.page.getByRole('button', { name: 'Show' }).click();
  await listed(p.page);
  assert.match(p.page.url(), new RegExp(`#/payments\\?customer=${many.id}$`));
  assert.equal((await rowKeys(p.page)).length, 50);
  await p.page.getByText('50 payments shown, more below').waitFor();
  assert.equal(await stat(p.page, 'Payments').textContent(), '52');
  assert.equal(await stat(p.page, 'Sum, RUB').textContent(), rub(52 * PRICE));
  const api52 = (await adminApi('GET', `/payments?customer=${many.id}`)).json.totals;
  assert.deepEqual(api52, { count: 52, amounts: [{ currency: 'RUB', amount_minor: 52 * PRICE }] });
  await p.page.getByRole('button', { name: 'More' }).click();
  await p.page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 52);
  const keys = await rowKeys(p.page);
  assert.deepEqual(keys, many.payments.map((x) => x.id), 'newest first, no one twice');
  await p.page.getByText('52 payments', { exact: true }).waitFor();

  // Status, method, type and today's dates (the shop's today): one's purchase; "Refunded": nothing.
  const today = await shopToday();
  await p.page.getByLabel('Customer number').fill(String(one.id));
  await p.page.getByLabel('From').fill(today);
  await p.page.getByLabel('Until').fill(today);
  await p.page.getByRole('button', { name: 'Show' }).click();
  await listed(p.page);
  await p.page.getByLabel('Method').selectOption('balance');
  await listed(p.page);
  await p.page.getByLabel('Type').selectOption('subscription_payment');
  await listed(p.page);
  await p.page.getByLabel('Status').selectOption('completed');
  await listed(p.page);
  assert.deepEqual(await rowKeys(p.page), [one.payments[0].id]);
  for (const part of ['status=completed', 'method=balance', 'type=subscription_payment', `customer=${one.id}`, `from=${today}`, `to=${today}`]) {
    assert.ok(p.page.url().includes(part), `${part} in ${p.page.url()}`);
  }
  const row = table(p.page).locator('tbody tr').first();
  const text = await row.innerText();
  for (const want of ['#' + one.payments[0].id, 'Subscription payment', 'One', 'Balance', 'Completed', rub(PRICE), 'Start']) {
    assert.ok(text.includes(want), `${want} in ${text}`);
  }
  assert.equal(await stat(p.page, 'Payments').textContent(), '1');
  await p.page.getByLabel('Status').selectOption('refunded');
  await listed(p.page);
  assert.deepEqual(await rowKeys(p.page), []);
  await p.page.getByText('No payment matches.').waitFor();
  assert.equal(await stat(p.page, 'Payments').textContent(), '0');

  // The end before the start is said next to "Until", and nothing is asked.
  await p.page.getByLabel('From').fill('2026-12-31');
  await p.page.getByLabel('Until').fill('2026-01-01');
  await p.page.getByRole('button', { name: 'Show' }).click();
  await p.page.getByText('The end is before the start.').waitFor();
  assert.equal(await p.page.getByLabel('Until').getAttribute('aria-invalid'), 'true');

  // Reloaded with a URL: the same list and the same filters.
  await p.page.goto(p.page.url().replace(/#.*/, '') + `#/payments?customer=${one.id}&status=completed&method=balance`);
  await p.page.reload();
  await ready(p.page);
  await listed(p.page);
  assert.deepEqual(await rowKeys(p.page), [one.payments[0].id]);
  assert.equal(await p.page.getByLabel('Status').inputValue(), 'completed');
  assert.equal(await p.page.getByLabel('Method').inputValue(), 'balance');
  assert.equal(await p.page.getByLabel('Customer number').inputValue(), String(one.id));

  // A date the server refuses, typed into the URL by hand: said next to its field.
  p.allowHttp((r) => r.status() === 400 && r.url().includes('/api/admin/payments?'));
  await p.page.goto(p.page.url().replace(/#.*/, '') + '#/payments?from=2026-13-45');
  await listed(p.page);
  await p.page.getByText('from must be a date, e.g. 2026-01-31').waitFor();
  assert.equal(await p.page.getByLabel('From').getAttribute('aria-invalid'), 'true');
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('a payment\'s detail; the owner refunds a balance purchase: the balance is back, the payment refunded, no second refund', async () => {
  const b = await buyer({ firstName: 'Refundee', username: 'refundee_' + freshId() });
  const pay = b.payments[0];
  assert.equal((await b.me()).balance_minor, 100000 - PRICE);
  const p = await openAdmin(browser, `#/payments?customer=${b.id}&status=completed`);
  await listed(p.page);
  const keys = [];
  p.page.on('request', (r) => { if (r.url().endsWith(`/api/admin/payments/${pay.id}/refund`)) keys.push(r.headers()['idempotency-key']); });

  // The keyboard: from the status filter to the first row's link, Enter opens the detail.
  await p.page.getByLabel('Status').focus();
  let reached = false;
  for (let i = 0; i < 30 && !reached; i++) {
    await p.page.keyboard.press('Tab');
    reached = await p.page.evaluate(() => Boolean(document.activeElement && document.activeElement.closest('tbody tr')));
  }
  assert.ok(reached, 'the first row is reached by Tab');
  await p.page.keyboard.press('Enter');
  await p.page.getByRole('heading', { level: 2, name: `Payment #${pay.id}` }).waitFor();
  await ready(p.page);
  for (const part of [`customer=${b.id}`, 'status=completed', `id=${pay.id}`]) assert.ok(p.page.url().includes(part), p.page.url());
  const main = p.page.getByRole('region', { name: `Payment #${pay.id}` });
  const facts = await main.innerText();
  for (const want of [rub(PRICE), 'Completed', 'Refundee', '@' + 'refundee_', String(b.telegramId), 'Subscription payment', 'Balance', 'Start', 'RUB']) {
    assert.ok(facts.includes(want), `${want} in ${facts}`);
  }
  await p.page.getByText('No notification has come for this payment.').waitFor();
  await p.page.getByText("This payment can be refunded: the money goes back to the customer's balance.").waitFor();
  assert.deepEqual(await axe(p.page), []);

  // The reason is required: nothing is sent without it.
  const refund = p.page.getByRole('button', { name: 'Refund ' + rub(PRICE) });
  await refund.click();
  await p.page.getByText('Say why the payment is refunded.').waitFor();
  assert.equal(keys.length, 0);
  const reason = 'Charged twice by mistake ' + HOSTILE;
  await p.page.getByLabel('Reason').fill(reason);
  await refund.click();
  // Asked first; "Cancel" sends nothing.
  await p.page.getByRole('button', { name: 'Cancel' }).click();
  assert.equal(keys.length, 0);
  await refund.click();
  await p.page.getByText(`Refund ${rub(PRICE)} to Refundee?`, { exact: false }).waitFor();
  await p.page.getByRole('button', { name: 'Yes, refund' }).click();
  await p.page.getByText(`Payment #${pay.id} refunded: ${rub(PRICE)}`).waitFor();
  await p.page.getByText('This payment cannot be refunded: refunded already.').waitFor();
  await p.page.getByText(`Refunded by telegram:${OWNER} on`, { exact: false }).waitFor();
  await p.page.getByText(`Reason: ${reason}`, { exact: false }).waitFor();
  assert.equal(await p.page.getByRole('button', { name: /^Refund / }).count(), 0, 'no second refund offered');
  assert.equal(await p.page.getByLabel('Reason').count(), 0);
  await main.getByText('Refunded', { exact: true }).waitFor();
  await p.page.getByRole('cell', { name: 'refunded, what it bought taken back' }).waitFor();
  assert.equal(keys.length, 1);
  assert.ok(keys[0], 'the refund carried an Idempotency-Key');
  await ready(p.page);
  assert.deepEqual(await axe(p.page), []);

  // The money is back and what it bought is taken back; the payment is refunded; audited.
  assert.equal((await b.me()).balance_minor, 100000);
  const detail = (await adminApi('GET', '/payments/' + pay.id)).json;
  assert.equal(detail.payment.status, 'refunded');
  assert.equal(detail.refundable, false);
  const card = (await adminApi('GET', '/customers/' + b.id)).json;
  const audit = card.audit.find((a) => a.action === 'payment.refund');
  assert.ok(audit, JSON.stringify(card.audit));
  assert.equal(audit.payload.reason, reason);
  assert.equal(audit.payload.transaction_id, pay.id);
  assert.equal(card.ledger[0].delta_minor, PRICE);
  // A second refund over the API: refused, nothing moves.
  const again = await refundOverApi(pay.id, 'again');
  assert.equal(again.status, 409);
  assert.equal((await b.me()).balance_minor, 100000);

  // Back to the same list: the payment shows refunded there (under "Refunded").
  await p.page.getByRole('link', { name: 'Back to the list' }).click();
  await listed(p.page);
  assert.match(p.page.url(), new RegExp(`#/payments\\?status=completed&customer=${b.id}$`));
  assert.deepEqual(await rowKeys(p.page), []);
  await p.page.getByLabel('Status').selectOption('refunded');
  await listed(p.page);
  assert.deepEqual(await rowKeys(p.page), [pay.id]);
  await table(p.page).getByText('Refunded', { exact: true }).waitFor();
  // The customer's card and the audit log name the refund in words.
  await p.page.evaluate((id) => { location.hash = '#/customers?id=' + id; }, b.id);
  await p.page.getByRole('region', { name: 'Audit log' }).getByText('Payment refunded', { exact: true }).first().waitFor();
  await p.page.evaluate(() => { location.hash = '#/audit'; });
  await p.page.locator('.audit-action', { hasText: 'Payment refunded' }).first().waitFor();
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('a refund the server refuses is shown in its words (refunded meanwhile by another owner)', async () => {
  const b = await buyer({ firstName: 'Twice' });
  const pay = b.payments[0];
  const p = await openAdmin(browser, `#/payments?id=${pay.id}`);
  await p.page.getByRole('heading', { level: 2, name: `Payment #${pay.id}` }).waitFor();
  await ready(p.page);
  // Another owner refunds it behind this page's back.
  const first = await refundOverApi(pay.id, 'the other owner');
  assert.equal(first.status, 200, await first.text());
  p.allowHttp((r) => r.status() === 409 && r.url().endsWith(`/payments/${pay.id}/refund`));
  await p.page.getByLabel('Reason').fill('Duplicate');
  await p.page.getByRole('button', { name: 'Refund ' + rub(PRICE) }).click();
  await p.page.getByRole('button', { name: 'Yes, refund' }).click();
  await p.page.getByText('this payment cannot be refunded: refunded already').waitFor();
  assert.equal((await b.me()).balance_minor, 100000, 'refunded once');
  const card = (await adminApi('GET', '/customers/' + b.id)).json;
  assert.equal(card.audit.filter((a) => a.action === 'payment.refund').length, 1);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('a refund whose answer was lost, sent again, refunds once (the same Idempotency-Key)', async () => {
  const b = await buyer({ firstName: 'Lost' });
  const pay = b.payments[0];
  const p = await openAdmin(browser, `#/payments?id=${pay.id}`);
  await p.page.getByRole('heading', { level: 2, name: `Payment #${pay.id}` }).waitFor();
  await ready(p.page);
  const keys = [];
  let lose = true;
  // The first refund reaches the server, but its answer never reaches the page.
  await p.page.route(`**/api/admin/payments/${pay.id}/refund`, async (route) => {
    keys.push(route.request().headers()['idempotency-key']);
    if (!lose) return route.continue();
    lose = false;
    await route.fetch();
    await route.abort('connectionreset');
  });
  p.allowHttp(() => false);
  await p.page.getByLabel('Reason').fill('Lost answer');
  const refund = p.page.getByRole('button', { name: 'Refund ' + rub(PRICE) });
  await refund.click();
  await p.page.getByRole('button', { name: 'Yes, refund' }).click();
  await waitFor(async () => keys.length === 1 && (await adminApi('GET', '/payments/' + pay.id)).json.payment.status === 'refunded',
    { what: 'the first refund done on the server' });
  await refund.click();
  await p.page.getByRole('button', { name: 'Yes, refund' }).click();
  await p.page.getByText(`Payment #${pay.id} refunded: ${rub(PRICE)}`).waitFor();
  await p.page.getByText('This payment cannot be refunded: refunded already.').waitFor();
  assert.equal(keys.length, 2);
  assert.equal(keys[0], keys[1], 'the second try carried the first one\'s key');
  assert.equal((await b.me()).balance_minor, 100000, 'refunded once');
  const card = (await adminApi('GET', '/customers/' + b.id)).json;
  assert.equal(card.audit.filter((a) => a.action === 'payment.refund').length, 1);
  assert.equal(card.ledger.filter((l) => l.delta_minor === PRICE).length, 1);
  assert.deepEqual((await p.problems()).filter((x) => !x.includes('/refund')), []);
  await p.close();
});

test('roles: the viewer sees the detail and exports but no refund; support has no Payments section', async () => {
  const b = await buyer({ firstName: 'Seen' });
  const pay = b.payments[0];
  for (const who of [OWNER, VIEWER]) {
    const p = await openAdmin(browser, `#/payments?customer=${b.id}`, { who });
    await listed(p.page);
    assert.deepEqual(await rowKeys(p.page), [pay.id]);
    const { name, text } = await downloadText(p.page, p.page.getByRole('button', { name: 'Export CSV' }));
    assert.match(name, /\.csv$/);
    const lines = text.trim().split(/\r?\n/);
    assert.match(lines[0], /^id,created_at,/);
    assert.deepEqual(lines.slice(1).map((l) => Number(l.split(',')[0])), [pay.id]);
    await p.page.getByText(/^Saved as /).waitFor();
    if (who === VIEWER) {
      await table(p.page).getByRole('link', { name: `Payment #${pay.id}` }).click();
      await p.page.getByRole('heading', { level: 2, name: `Payment #${pay.id}` }).waitFor();
      await p.page.getByText('Only the owner refunds payments.').waitFor();
      assert.equal(await p.page.getByRole('button', { name: /^Refund / }).count(), 0);
      assert.equal(await p.page.getByLabel('Reason').count(), 0);
      await ready(p.page);
      assert.deepEqual(await axe(p.page), []);
    }
    assert.deepEqual(await p.problems(), []);
    await p.close();
  }
  const s = await openAdmin(browser, `#/payments?id=${pay.id}`, { who: SUPPORT });
  await s.page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Customers' }).waitFor();
  assert.equal(await s.page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Payments' }).count(), 0);
  await s.page.waitForFunction(() => !location.hash.startsWith('#/payments'));
  assert.equal(await s.page.getByRole('heading', { level: 2, name: `Payment #${pay.id}` }).count(), 0);
  for (const path of ['/payments', '/payments/' + pay.id, '/payments/export']) {
    assert.equal((await adminApi('GET', path, undefined, SUPPORT)).status, 403, path);
  }
  assert.equal((await adminApi('POST', `/payments/${pay.id}/refund`, { reason: 'x' }, VIEWER)).status, 403);
  assert.equal((await adminApi('GET', '/payments/' + pay.id)).json.payment.status, 'completed');
  assert.deepEqual(await s.problems(), []);
  await s.close();
});

test('a customer name with markup is shown as text in the list and the detail', async () => {
  const b = await buyer({ firstName: HOSTILE });
  const pay = b.payments[0];
  const p = await openAdmin(browser, `#/payments?customer=${b.id}`);
  await listed(p.page);
  await table(p.page).getByRole('link', { name: HOSTILE }).waitFor();
  await table(p.page).getByRole('link', { name: `Payment #${pay.id}` }).click();
  await p.page.getByRole('heading', { level: 2, name: `Payment #${pay.id}` }).waitFor();
  await p.page.getByRole('link', { name: HOSTILE }).waitFor();
  assert.equal(await p.page.locator('main img').count(), 0, 'no element made from the name');
  // The name links to the customer's card, and the card's payment row back to the detail.
  await p.page.getByRole('link', { name: HOSTILE }).click();
  await p.page.getByRole('heading', { level: 2, name: HOSTILE }).waitFor();
  assert.match(p.page.url(), new RegExp(`#/customers\\?id=${b.id}$`));
  await p.page.getByRole('table', { name: 'Payments' }).getByRole('link').first().click();
  await p.page.getByRole('heading', { level: 2, name: `Payment #${pay.id}` }).waitFor();
  assert.match(p.page.url(), new RegExp(`#/payments\\?id=${pay.id}$`));
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('in Russian: the list and the detail have every string, the server\'s note translated', async () => {
  const b = await buyer({ firstName: 'Ru' });
  const pay = b.payments[0];
  const p = await openAdmin(browser, `#/payments?customer=${b.id}`, { lang: 'ru' });
  await listed(p.page);
  await p.page.getByRole('table', { name: 'Платежи, сначала новые' }).waitFor();
  await p.page.getByRole('link', { name: `Платёж №${pay.id}` }).click();
  await p.page.getByRole('heading', { level: 2, name: `Платёж №${pay.id}` }).waitFor();
  await p.page.getByText('Этот платёж можно вернуть: деньги вернутся на баланс клиента.').waitFor();
  const text = await p.page.locator('main').innerText();
  assert.doesNotMatch(text, /\b(payments|admin|customers)\.[a-zA-Z]/, 'no key shown instead of its string');
  await ready(p.page);
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('screenshots: the list and a detail at 1280 and 390 px, the detail also dark', async () => {
  const shown = await buyer({ firstName: 'Maria', username: 'maria_' + freshId(), purchases: 3 });
  const refunded = shown.payments[2];
  const r = await refundOverApi(refunded.id, 'Bought by mistake');
  assert.equal(r.status, 200, await r.text());
  for (const [what, hash, loaded] of [
    ['payments', '#/payments?customer=' + shown.id, (page) => listed(page)],
    // Light: a payment the owner may refund; dark: the refunded one, with its history.
    ['payments-detail', (dark) => '#/payments?id=' + (dark ? refunded : shown.payments[0]).id, (page) => page.getByRole('heading', { name: 'Provider notifications' }).waitFor()],
  ]) {
    for (const [width, colorScheme] of [[1280, 'light'], [390, 'light'], ...(what === 'payments-detail' ? [[1280, 'dark']] : [])]) {
      const p = await openAdmin(browser, typeof hash === 'function' ? hash(colorScheme === 'dark') : hash, { width, colorScheme });
      await p.page.setViewportSize({ width, height: width > 1000 ? 860 : 844 });
      await loaded(p.page);
      await ready(p.page);
      await p.page.waitForTimeout(200);
      const file = `admin-${what}-${width}${colorScheme === 'dark' ? '-dark' : ''}.png`;
      await p.page.screenshot({ path: screenshotPath(file), fullPage: true });
      assert.deepEqual(await axe(p.page), [], file);
      assert.deepEqual(await p.problems(), [], file);
      await p.close();
    }
  }
});
