// Promo codes in the owner's cabinet: a code created in the browser (an amount typed in
// currency units) is redeemable by a customer, and its uses go up in the list; the search
// and status filter are in the URL; disabled, it is refused to customers, enabled again it
// works; a batch of one-use gift codes is downloaded as CSV and each of them exists.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { adminApi, customer, openAdmin, unique } from './lib/admin.mjs';
import { axe, launch, ready } from './lib/browser.mjs';
import { api, waitFor } from './lib/stack.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

const find = async (code) => (await adminApi('GET', '/promo-codes?status=all&q=' + encodeURIComponent(code))).json.items
  .find((c) => c.code.toLowerCase() === code.toLowerCase());

test('a code created in the browser is redeemable, its uses go up in the list, and disabling it refuses it', async () => {
  const code = unique('E2EGIFT');
  const p = await openAdmin(browser, '#/promo');
  await p.page.getByRole('heading', { name: 'New promo code' }).waitFor();
  assert.deepEqual(await axe(p.page), []);
  const form = p.page.getByRole('region', { name: 'New promo code' });
  await form.getByLabel('Code').fill(code);
  await form.getByLabel('Reward').selectOption('balance');
  await form.getByLabel('Amount, RUB').fill('12.50');
  await form.getByLabel('Uses at most').fill('5');
  await form.getByRole('button', { name: 'Create the code' }).click();
  await p.page.getByText(`Code ${code} created`).first().waitFor();
  const made = await find(code);
  assert.deepEqual({ type: made.reward_type, value: made.value, max: made.max_uses, uses: made.uses, active: made.is_active },
    { type: 'balance', value: 1250, max: 5, uses: 0, active: true });

  // The same code again (any case) is refused, nothing made.
  p.allowHttp((r) => r.status() === 409);
  await form.getByLabel('Code').fill(code.toLowerCase());
  await form.getByLabel('Amount, RUB').fill('1');
  await form.getByRole('button', { name: 'Create the code' }).click();
  await waitFor(async () => (await form.getByText(/exist/i).count()) > 0, { what: 'the conflict shown in the form' });

  // A customer redeems it.
  const user = await customer();
  const r = await api('POST', '/promocode', { init: user.init, body: { code } });
  assert.equal(r.status, 200, JSON.stringify(r.json));
  assert.equal(r.json.ok, true, JSON.stringify(r.json));
  assert.equal((await user.me()).balance_minor, 1250);

  // The list, searched, shows the use; the search is in the URL.
  await p.page.getByLabel('Search codes').fill(code);
  await p.page.getByRole('button', { name: 'Search' }).click();
  const table = p.page.getByRole('table', { name: 'Promo codes, newest first' });
  const row = table.getByRole('row').filter({ hasText: code });
  await row.getByText('1 of 5').waitFor();
  assert.equal(await table.getByRole('row').count(), 2, 'the header and the one code');
  assert.match(p.page.url(), new RegExp('#/promo\\?q=' + code));

  // Disabled: refused to the next customer; the status filter finds it (and is in the URL).
  await row.getByRole('button', { name: 'Disable ' + code }).click();
  await row.getByText('disabled', { exact: true }).waitFor();
  assert.equal((await find(code)).is_active, false);
  const other = await customer();
  const refused = await api('POST', '/promocode', { init: other.init, body: { code } });
  assert.ok(refused.status !== 200 || refused.json.ok !== true, JSON.stringify(refused.json));
  assert.equal((await other.me()).balance_minor, 0);
  await p.page.getByLabel('Show').selectOption('disabled');
  await row.waitFor();
  await ready(p.page);
  assert.match(p.page.url(), /status=disabled/);
  await row.getByRole('button', { name: 'Enable ' + code }).click();
  await row.getByText('active', { exact: true }).waitFor();
  assert.equal((await find(code)).is_active, true);
  const again = await api('POST', '/promocode', { init: other.init, body: { code } });
  assert.equal(again.status, 200, JSON.stringify(again.json));
  assert.equal(again.json.ok, true, JSON.stringify(again.json));
  assert.equal((await find(code)).uses, 2);
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('a batch of one-use gift codes is downloaded as CSV, each code exists, and the list pages by "More"', async () => {
  const prefix = unique('B').slice(0, 12).toUpperCase();
  const p = await openAdmin(browser, '#/promo');
  const batch = p.page.getByRole('region', { name: 'Gift codes' });
  await batch.waitFor();
  await batch.getByLabel('How many').fill('60');
  await batch.getByLabel('Reward').selectOption('days');
  await batch.getByLabel('Days', { exact: true }).fill('7');
  await batch.getByLabel('Prefix (optional)').fill(prefix);
  const [download] = await Promise.all([
    p.page.waitForEvent('download'),
    batch.getByRole('button', { name: 'Make and download CSV' }).click(),
  ]);
  assert.match(download.suggestedFilename(), /\.csv$/);
  const text = await new Promise((resolve, reject) => {
    download.createReadStream().then((s) => { let t = ''; s.on('data', (c) => { t += c; }); s.on('end', () => resolve(t)); s.on('error', reject); }, reject);
  });
  const lines = text.trim().split(/\r?\n/);
  assert.equal(lines[0], 'code,reward_type,value,plan_code,valid_until');
  assert.equal(lines.length, 61);
  for (const line of lines.slice(1, 4)) {
    const [code, type, value] = line.split(',');
    assert.ok(code.startsWith(prefix), code);
    const c = await find(code);
    assert.deepEqual({ type: c.reward_type, value: c.value, max: c.max_uses }, { type: 'days', value: 7, max: 1 });
  }
  for (const line of lines.slice(1)) assert.ok(line.startsWith(prefix), line);
  await batch.getByText(/^60 codes made and saved as /).waitFor();

  // The 60 found by their prefix: a page of 50, then "More" brings the other 10.
  await p.page.getByLabel('Search codes').fill(prefix);
  await p.page.getByRole('button', { name: 'Search' }).click();
  const table = p.page.getByRole('table', { name: 'Promo codes, newest first' });
  await p.page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 50);
  await p.page.getByRole('button', { name: 'More' }).click();
  await p.page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 60);
  assert.equal(await p.page.getByRole('button', { name: 'More' }).isVisible(), false, 'no further page');
  const shown = new Set((await table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.key))));
  assert.equal(shown.size, 60, 'no code twice');
  assert.deepEqual(await p.problems(), []);
  await p.close();
});
