// The owner's cabinet's shell: the grouped side navigation, the section and its view in
// the URL (Back works, a shared URL opens the same view), part 2's sections saying
// "coming", tables that sort (the sort in the URL), keyboard reach, and at 390 px the
// navigation behind a menu button and tables as lists; axe-clean in light and dark.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { adminApi, openAdmin, openSection } from './lib/admin.mjs';
import { axe, launch, ready } from './lib/browser.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

const SECTIONS = {
  Shop: ['Overview'],
  'Customers and money': ['Customers', 'Payments', 'Support', 'Broadcasts'],
  'Set-up': ['Plans and prices', 'Promo codes', 'Look', 'Settings'],
  System: ['Maintenance', 'Audit log'],
};
test('desktop: grouped navigation, the section in the URL, Back, "coming", sorting in the URL', async () => {
  const p = await openAdmin(browser, '#/plans');
  const nav = p.page.getByRole('navigation', { name: 'Admin sections' });
  for (const [group, names] of Object.entries(SECTIONS)) {
    const list = nav.getByRole('list', { name: group });
    assert.deepEqual((await list.getByRole('link').allInnerTexts()).map((t) => t.split('\n')[0].trim()), names, group);
  }
  assert.equal(await nav.getByRole('link', { name: 'Plans and prices' }).getAttribute('aria-current'), 'page');
  await p.page.getByText('Owner', { exact: true }).waitFor();
  await p.page.getByRole('table', { name: 'Plans' }).waitFor();
  assert.deepEqual(await axe(p.page), []);

  // Sorting: by order, then the other way; the sort is in the URL.
  const table = p.page.getByRole('table', { name: 'Plans' });
  const header = table.getByRole('columnheader', { name: /Order/ });
  await header.getByRole('button').click();
  assert.equal(await header.getAttribute('aria-sort'), 'ascending');
  assert.match(p.page.url(), /sort=sort_order/);
  const plans = (await adminApi('GET', '/plans')).json.items;
  const orders = plans.map((x) => x.sort_order);
  const orderOf = async (n) => {
    const key = await table.getByRole('row').nth(n).getAttribute('data-key');
    return plans.find((x) => x.code === key).sort_order;
  };
  assert.equal(await orderOf(1), Math.min(...orders));
  await header.getByRole('button').click();
  assert.equal(await header.getAttribute('aria-sort'), 'descending');
  assert.match(p.page.url(), /sort=-sort_order/);
  assert.equal(await orderOf(1), Math.max(...orders));

  // A sub-view and a section, then Back through them.
  await p.page.getByRole('link', { name: 'Sales' }).click();
  await p.page.getByRole('heading', { name: 'New sale' }).waitFor();
  assert.match(p.page.url(), /#\/plans\?tab=sales$/);
  await openSection(p.page, 'Settings');
  assert.match(p.page.url(), /#\/settings$/);
  await p.page.goBack();
  await p.page.getByRole('heading', { name: 'New sale' }).waitFor();
  await p.page.goBack();
  await p.page.getByRole('table', { name: 'Plans' }).waitFor();
  await ready(p.page);
  assert.equal(await table.getByRole('columnheader', { name: /Order/ }).getAttribute('aria-sort'), 'descending', 'the sort came back with the URL');

  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('"find" in the navigation opens a section by its name, or the settings that match', async () => {
  const p = await openAdmin(browser, '#/maintenance');
  const find = p.page.getByRole('searchbox', { name: 'Find a section or a setting' });
  await find.fill('promo');
  await find.press('Enter');
  await p.page.getByRole('heading', { level: 1, name: 'Promo codes' }).waitFor();
  await find.fill('referral_bonus');
  await find.press('Enter');
  await p.page.getByRole('textbox', { name: 'REFERRAL_BONUS_DAYS' }).waitFor();
  assert.match(p.page.url(), /#\/settings\?q=referral_bonus$/);
  assert.equal(await p.page.getByRole('textbox', { name: 'TRIAL_DURATION_DAYS' }).count(), 0);
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('keyboard: the navigation and the section\'s controls are reached with Tab, and Enter opens a section', async () => {
  const p = await openAdmin(browser, '#/plans');
  await p.page.getByRole('table', { name: 'Plans' }).waitFor();
  const seen = [];
  for (let i = 0; i < 40; i++) {
    await p.page.keyboard.press('Tab');
    seen.push(await p.page.evaluate(() => `${document.activeElement.tagName}:${document.activeElement.textContent.trim().split('\n')[0]}`));
  }
  for (const want of ['A:Overview', 'A:Promo codes', 'A:Audit log', 'A:Sales', 'BUTTON:New plan']) {
    assert.ok(seen.some((s) => s.startsWith(want)), `${want} in ${JSON.stringify(seen)}`);
  }
  await p.page.getByRole('link', { name: 'Promo codes' }).focus();
  await p.page.keyboard.press('Enter');
  await p.page.getByRole('heading', { level: 1, name: 'Promo codes' }).waitFor();
  // Focus moves to the new section's heading.
  assert.equal(await p.page.evaluate(() => document.activeElement.id), 'view-title');
  await p.close();
});

test('390 px: the navigation folds into a menu button, and tables become lists; dark mode too', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const p = await openAdmin(browser, '#/plans', { width: 390, colorScheme });
    const menu = p.page.getByRole('button', { name: 'Menu' });
    await menu.waitFor();
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');
    assert.equal(await p.page.getByRole('navigation', { name: 'Admin sections' }).count(), 0, 'folded away');
    // A table is a list: its header row is out of sight, each cell says its column.
    const table = p.page.getByRole('table', { name: 'Plans' });
    await table.waitFor();
    const look = await table.evaluate((t) => ({
      head: getComputedStyle(t.tHead).position,
      row: getComputedStyle(t.tBodies[0].rows[0]).display,
      label: getComputedStyle(t.tBodies[0].rows[0].cells[3], '::before').content,
    }));
    assert.deepEqual(look, { head: 'absolute', row: 'block', label: '"Devices"' });
    assert.deepEqual(await axe(p.page), [], colorScheme);

    await menu.click();
    assert.equal(await menu.getAttribute('aria-expanded'), 'true');
    await p.page.getByRole('navigation', { name: 'Admin sections' }).waitFor();
    assert.deepEqual(await axe(p.page), [], colorScheme + ' menu open');
    await p.page.keyboard.press('Escape');
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');
    await openSection(p.page, 'Settings');
    assert.equal(await menu.getAttribute('aria-expanded'), 'false', 'closed after choosing');
    assert.deepEqual(await axe(p.page), [], colorScheme + ' settings');
    assert.deepEqual(await p.problems(), []);
    await p.close();
  }
});
