// Roles in the owner's cabinet: a viewer (VIEWER_IDS) sees every section with every write
// control disabled and the note "read-only"; a support session (SUPPORT_IDS) sees only
// the customers' and support sections; for both a write forced through the API is 403
// and changes nothing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { OWNER, SUPPORT, VIEWER, adminApi, openAdmin, openSection } from './lib/admin.mjs';
import { axe, launch } from './lib/browser.mjs';

// The staff of the local stack: when its env file does not name them, the owner does.
const staff = { SUPPORT_IDS: String(SUPPORT), VIEWER_IDS: String(VIEWER) };
const stored = [];
let browser;
before(async () => {
  browser = await launch();
  for (const [name, id] of Object.entries(staff)) {
    if ((await adminApi('GET', '/whoami', undefined, Number(id))).status === 200) continue;
    assert.equal((await adminApi('PUT', '/settings/' + name, { value: id }, OWNER)).status, 200);
    stored.push(name);
  }
});
after(async () => {
  await browser.close();
  for (const name of stored) await adminApi('DELETE', '/settings/' + name, undefined, OWNER);
});

// Buttons a viewer may press: they only read (navigation, sorting, paging, opening a row).
const READING = /^(Menu|More|Refresh|Search|Open|Load more|Name|Order|Devices|Traffic|Status|Code|Reward|Uses|Valid|Created|Discount, %|Group|Members|From|Until|State|Period|Pack|Price|Months)(\s|$)/;

async function enabledWriteControls(page) {
  const main = page.getByRole('main');
  const out = [];
  for (const b of await main.getByRole('button').all()) {
    const name = (await b.getAttribute('aria-label')) || (await b.innerText()).trim();
    if (await b.isEnabled() && !READING.test(name)) out.push('button ' + name);
  }
  for (const kind of ['textbox', 'spinbutton', 'checkbox', 'radio', 'combobox']) {
    for (const c of await main.getByRole(kind).all()) {
      const search = (await c.getAttribute('type')) === 'search' || (await c.evaluate((e) => Boolean(e.closest('[role="search"]'))));
      if (await c.isEnabled() && !search) out.push(kind + ' ' + (await c.getAttribute('id')));
    }
  }
  return out;
}

test('a viewer sees every section, read-only: no write control is enabled, and a forced write is 403', async () => {
  assert.equal((await adminApi('GET', '/whoami', undefined, VIEWER)).json.role, 'viewer');
  const p = await openAdmin(browser, '#/plans', { who: VIEWER });
  await p.page.getByText('Viewer', { exact: true }).waitFor();
  await p.page.getByText('Read-only: you see every section, but you cannot change anything.').waitFor();
  const nav = p.page.getByRole('navigation', { name: 'Admin sections' });
  assert.equal(await nav.getByRole('link').count(), 11);

  const views = [
    ['Plans and prices', () => p.page.getByRole('table', { name: 'Plans' }).waitFor()],
    ['Settings', () => p.page.getByRole('textbox', { name: 'REFERRAL_BONUS_DAYS' }).waitFor()],
    ['Maintenance', () => p.page.getByRole('heading', { name: 'Maintenance mode' }).waitFor()],
    ['Audit log', () => p.page.getByRole('list', { name: 'Audit entries, newest first' }).waitFor()],
  ];
  for (const [name, loaded] of views) {
    await openSection(p.page, name);
    await loaded();
    assert.deepEqual(await enabledWriteControls(p.page), [], name);
    assert.deepEqual(await axe(p.page), [], name);
  }
  // A plan opened: its form is there, every field disabled.
  await openSection(p.page, 'Plans and prices');
  await p.page.getByRole('button', { name: 'Open the plan “Start”' }).click();
  await p.page.getByRole('heading', { name: 'Plan “Start”' }).waitFor();
  assert.equal(await p.page.getByLabel('Name').isDisabled(), true);
  assert.deepEqual(await enabledWriteControls(p.page), [], 'a plan');
  for (const tab of ['Sales', 'Promo groups', 'Constructor']) {
    await p.page.getByRole('link', { name: tab }).click();
    await p.page.getByRole('heading', { level: 2 }).first().waitFor();
    await p.page.waitForFunction(() => document.getElementById('screen').getAttribute('aria-busy') === 'false');
    assert.deepEqual(await enabledWriteControls(p.page), [], tab);
  }

  // Forced writes: refused, nothing changed.
  const before = (await adminApi('GET', '/plans')).json.items.find((x) => x.code === 'start');
  for (const [method, path, body] of [
    ['PUT', '/plans/start', { name: 'Hacked' }],
    ['PUT', '/plans/start/durations/30', { months: 1, price_minor: 1 }],
    ['PUT', '/settings/REFERRAL_BONUS_DAYS', { value: '99' }],
    ['POST', '/maintenance/mode', { enabled: true }],
    ['POST', '/promo-codes', { code: 'VIEWERHACK', reward_type: 'balance', value: 100 }],
    ['PUT', '/constructor/packs/50', { price_minor: 1 }],
  ]) {
    assert.equal((await adminApi(method, path, body, VIEWER)).status, 403, `${method} ${path}`);
  }
  assert.deepEqual((await adminApi('GET', '/plans')).json.items.find((x) => x.code === 'start'), before);
  assert.equal((await adminApi('GET', '/maintenance')).json.enabled, false);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('support sees the customers\' and support sections only; money and settings are 403', async () => {
  assert.equal((await adminApi('GET', '/whoami', undefined, SUPPORT)).json.role, 'support');
  const p = await openAdmin(browser, '#/plans', { who: SUPPORT, width: 390 });
  await p.page.getByText('Support', { exact: true }).first().waitFor();
  // #/plans is not theirs: the first section of theirs instead.
  await p.page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
  assert.match(p.page.url(), /#\/customers$/);
  await p.page.getByRole('button', { name: 'Menu' }).click();
  const nav = p.page.getByRole('navigation', { name: 'Admin sections' });
  assert.deepEqual((await nav.getByRole('link').allInnerTexts()).map((t) => t.split('\n')[0].trim()), ['Customers', 'Support']);
  assert.equal(await p.page.getByText('Read-only', { exact: false }).count(), 0);
  assert.deepEqual(await axe(p.page), []);
  for (const [method, path, body] of [
    ['GET', '/settings'], ['GET', '/overview'], ['GET', '/promo-codes'], ['GET', '/audit'], ['GET', '/maintenance'],
    ['PUT', '/plans/start', { name: 'Hacked' }],
    ['PUT', '/settings/REFERRAL_BONUS_DAYS', { value: '99' }], ['POST', '/maintenance/backup', {}],
  ]) {
    assert.equal((await adminApi(method, path, body, SUPPORT)).status, 403, `${method} ${path}`);
  }
  assert.deepEqual(await p.problems(), []);
  await p.close();
});
