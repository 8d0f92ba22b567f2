// Plans and prices in the owner's cabinet: the owner makes a plan (its name hostile
// markup, shown as text), gives it a price typed in currency units, changes it, and a
// customer's GET /plans shows the new price and a balance purchase charges exactly it; a
// wrong price is refused next to its field (in the page, and the server's 422 too); a
// duration removed, the plan taken off sale; a sale created and ended; a constructor pack's
// price changed and put back; the sales mode switched and back.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { HOSTILE, adminApi, customer, openAdmin, unique } from './lib/admin.mjs';
import { axe, launch, ready } from './lib/browser.mjs';
import { api, waitFor } from './lib/stack.mjs';

// No sale of an earlier run left running (it would take its percent off the price
// charged), and the sales mode as the stack has it, before and after.
async function tidy() {
  for (const s of (await adminApi('GET', '/sales')).json.items) {
    if (s.running && s.name.startsWith('e2e-sale-')) await adminApi('POST', `/sales/${s.name}/end`, {});
  }
  await adminApi('DELETE', '/settings/SALES_MODE');
}

let browser;
before(async () => { browser = await launch(); await tidy(); });
after(async () => { await browser.close(); await tidy(); });

const adminPlan = async (code) => (await adminApi('GET', '/plans')).json.items.find((p) => p.code === code);

test('the owner makes a plan, prices it in currency units, and the customer is charged exactly that', async () => {
  const code = unique('e2e-');
  const name = HOSTILE + ' Pro ' + code;
  const p = await openAdmin(browser, '#/plans');
  const dialogs = [];
  p.page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  await p.page.getByRole('table', { name: 'Plans' }).waitFor();
  assert.deepEqual(await axe(p.page), []);

  await p.page.getByRole('button', { name: 'New plan' }).click();
  await p.page.getByLabel('Code').fill(code);
  await p.page.getByLabel('Name').fill(name);
  await p.page.getByLabel('Description').fill('Two devices, 50 GB ' + HOSTILE);
  await p.page.getByLabel('Traffic a month, GB').fill('50');
  await p.page.getByLabel('Devices').fill('2');
  await p.page.getByLabel('Order').fill('900');
  await p.page.getByRole('button', { name: 'Create the plan' }).click();
  await p.page.getByRole('heading', { name: `Plan “${name}”` }).waitFor();
  let plan = await adminPlan(code);
  assert.equal(plan.name, name);
  assert.equal(plan.traffic_limit_gb, 50);
  assert.equal(plan.device_limit, 2);
  assert.equal(plan.sort_order, 900);
  assert.equal(plan.is_active, true);
  // The name is text in the table: no image element was made of it.
  await p.page.getByRole('table', { name: 'Plans' }).getByText(name).waitFor();
  assert.equal(await p.page.locator('img').count(), 0);

  // A price with three decimals is refused in the page, next to the field.
  await p.page.getByLabel('Days', { exact: true }).fill('30');
  await p.page.getByLabel('Months', { exact: true }).fill('1');
  await p.page.getByLabel('Price, RUB').fill('123.456');
  await p.page.getByRole('button', { name: 'Add the duration' }).click();
  await p.page.getByText('An amount such as 199.90 (at most 2 decimals)').waitFor();
  assert.equal(await p.page.getByLabel('Price, RUB').getAttribute('aria-invalid'), 'true');
  assert.deepEqual((await adminPlan(code)).durations, []);
  assert.deepEqual(await axe(p.page), []);

  await p.page.getByLabel('Price, RUB').fill('123.45');
  await p.page.getByRole('button', { name: 'Add the duration' }).click();
  await p.page.getByLabel('Price for 30 days').waitFor();
  assert.deepEqual((await adminPlan(code)).durations, [{ days: 30, months: 1, price_minor: 12345 }]);

  // The price changed: 99.90 is 9990 minor units, exactly.
  await p.page.getByLabel('Price for 30 days').fill('99.90');
  await p.page.getByRole('group', { name: '30 days' }).getByRole('button', { name: 'Save' }).click();
  await waitFor(async () => (await adminPlan(code)).durations[0].price_minor === 9990, { what: 'the new price' });
  // The card is drawn again once the plan is read back: type into the new one, not the old.
  await p.page.waitForLoadState('networkidle');
  // A price the server refuses (over its limit) comes back next to the field.
  p.allowHttp((r) => r.status() === 422 && r.request().method() === 'PUT');   // the refusal the test asks for
  await p.page.getByLabel('Price for 30 days').fill('99999999999.99');
  await p.page.getByRole('group', { name: '30 days' }).getByRole('button', { name: 'Save' }).click();
  await p.page.getByText(/^price_minor must be/).waitFor();
  assert.equal((await adminPlan(code)).durations[0].price_minor, 9990);

  // The customer sees it and pays exactly it.
  const buyer = await customer(100000);
  const offered = (await api('GET', '/plans', { init: buyer.init })).json.items.find((x) => x.public_code === code);
  assert.ok(offered, 'the new plan is on sale');
  assert.equal(offered.name, name);
  assert.equal(offered.durations.find((d) => d.days === 30).price_minor, 9990);
  const bought = await api('POST', '/purchase', { init: buyer.init, body: { plan_id: offered.id, days: 30, method: 'balance' },
    headers: { 'Idempotency-Key': unique('k') } });
  assert.equal(bought.status, 200, JSON.stringify(bought.json));
  assert.equal((await buyer.me()).balance_minor, 100000 - 9990);

  // A second duration, then removed (asked first).
  await p.page.getByLabel('Days', { exact: true }).fill('90');
  await p.page.getByLabel('Months', { exact: true }).fill('3');
  await p.page.getByLabel('Price, RUB').fill('250');
  await p.page.getByRole('button', { name: 'Add the duration' }).click();
  await p.page.getByRole('button', { name: 'Remove 90 days' }).click();
  await p.page.getByRole('button', { name: 'Yes, remove' }).click();
  await waitFor(async () => (await adminPlan(code)).durations.length === 1, { what: 'the 90 days removed' });
  await p.page.waitForLoadState('networkidle');   // both cards drawn again
  assert.equal((await adminPlan(code)).durations[0].days, 30);

  // Taken off sale: the customers no longer see it.
  await p.page.getByLabel('On sale (customers can buy it)').uncheck();
  await p.page.getByRole('button', { name: 'Save', exact: true }).first().click();
  await waitFor(async () => (await adminPlan(code)).is_active === false, { what: 'the plan off sale' });
  await waitFor(async () => !(await api('GET', '/plans', { init: buyer.init })).json.items.some((x) => x.public_code === code),
    { what: 'the plan gone from /plans' });
  assert.deepEqual(dialogs, []);
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('sales: one created with a percent is running for customers, and "end now" ends it', async () => {
  const name = unique('e2e-sale-');
  const p = await openAdmin(browser, '#/plans?tab=sales');
  await p.page.getByRole('heading', { name: 'New sale' }).waitFor();
  await p.page.getByLabel('Name').fill(name);
  await p.page.getByLabel('Discount, %').fill('150');
  await p.page.getByRole('button', { name: 'Create the sale' }).click();
  await p.page.getByText('A whole number from 1 to 99').waitFor();
  await p.page.getByLabel('Discount, %').fill('10');
  await p.page.getByRole('button', { name: 'Create the sale' }).click();
  const row = p.page.getByRole('row').filter({ hasText: name });
  await row.getByText('running').waitFor();
  const sale = (await adminApi('GET', '/sales')).json.items.find((s) => s.name === name);
  assert.equal(sale.discount_pct, 10);
  assert.equal(sale.running, true);
  const buyer = await customer();
  const start = (await api('GET', '/plans', { init: buyer.init })).json.items.find((x) => x.public_code === 'start');
  const d = start.durations.find((x) => x.days === 30);
  assert.ok(d.price_minor < d.base_price_minor, JSON.stringify(d));
  assert.deepEqual(await axe(p.page), []);

  await row.getByRole('button', { name: 'End now' }).click();
  await p.page.getByRole('button', { name: 'Yes, end it' }).click();
  await row.getByText('ended').waitFor();
  assert.equal((await adminApi('GET', '/sales')).json.items.find((s) => s.name === name).running, false);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('the constructor: a pack\'s price changed in currency units (and put back); the sales mode switched and back', async () => {
  const before = (await adminApi('GET', '/constructor')).json;
  const pack = before.packs.find((x) => x.gb === 50);
  const p = await openAdmin(browser, '#/plans?tab=constructor');
  await p.page.getByRole('table', { name: 'Traffic packs' }).waitFor();
  assert.deepEqual(await axe(p.page), []);
  const field = p.page.getByLabel('Price of 50 GB');
  await field.fill('88.5');
  await p.page.getByRole('table', { name: 'Traffic packs' }).getByRole('row').filter({ has: field }).getByRole('button', { name: 'Save' }).click();
  await waitFor(async () => (await adminApi('GET', '/constructor')).json.packs.find((x) => x.gb === 50).price_minor === 8850, { what: '8850' });
  const r = await adminApi('PUT', '/constructor/packs/50', { price_minor: pack.price_minor });
  assert.equal(r.status, 200);

  const mode = (await adminApi('GET', '/settings')).json.items.find((s) => s.name === 'SALES_MODE').value;
  assert.equal(mode, 'plans');
  await p.page.getByRole('radio', { name: 'Constructor' }).check();
  await waitFor(async () => (await adminApi('GET', '/settings')).json.items.find((s) => s.name === 'SALES_MODE').value === 'constructor',
    { what: 'SALES_MODE=constructor' });
  await p.page.getByText('Sales mode: Constructor').first().waitFor();
  await p.page.getByRole('group', { name: 'Customers buy' }).getByRole('radio', { name: 'Plans' }).check();
  await waitFor(async () => (await adminApi('GET', '/settings')).json.items.find((s) => s.name === 'SALES_MODE').value === 'plans',
    { what: 'SALES_MODE=plans' });
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('promo groups: a new group\'s discount (its name markup, shown as text), then changed in place', async () => {
  const name = HOSTILE + unique(' e2e-group-');
  const p = await openAdmin(browser, '#/plans?tab=groups');
  await p.page.getByRole('heading', { name: 'New promo group' }).waitFor();
  await ready(p.page);
  await p.page.getByLabel('Group', { exact: true }).fill(name);
  await p.page.getByLabel('Discount, %', { exact: true }).fill('15');
  await p.page.getByRole('button', { name: 'Create the group' }).click();
  await p.page.getByLabel(`Discount of “${name}”, %`).waitFor();
  assert.equal((await adminApi('GET', '/promo-groups')).json.items.find((g) => g.name === name).discount_pct, 15);
  await p.page.getByLabel(`Discount of “${name}”, %`).fill('20');
  await p.page.getByRole('row').filter({ hasText: name }).getByRole('button', { name: 'Save' }).click();
  await waitFor(async () => (await adminApi('GET', '/promo-groups')).json.items.find((g) => g.name === name).discount_pct === 20,
    { what: '20 %' });
  await p.page.getByRole('cell', { name, exact: true }).waitFor();
  assert.equal(await p.page.locator('img').count(), 0);
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});
