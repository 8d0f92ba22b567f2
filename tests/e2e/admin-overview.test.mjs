// The overview in the owner's cabinet shows GET /api/admin/overview as it is: today's and
// yesterday's revenue, active and trial subscriptions, new customers in 24 h, the trial
// conversion, a 30-day revenue chart whose hidden table holds every day, and the health of
// the panel, the worker, the last backup and maintenance. (That the figures equal the
// database's is the API's own test, with seeded data.)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { money } from '../../nginx/html/shared/format.js';
import { adminApi, openAdmin } from './lib/admin.mjs';
import { axe, launch } from './lib/browser.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

const n = (x) => new Intl.NumberFormat('en-GB').format(x);

test('the figures, the chart and the health are the API\'s', async () => {
  const o = (await adminApi('GET', '/overview')).json;
  const p = await openAdmin(browser, '');
  assert.match(p.page.url(), /#\/overview$/, 'the owner starts at the overview');
  const figures = p.page.getByRole('definition');
  await figures.first().waitFor();
  const stat = (label) => p.page.getByRole('term').filter({ hasText: label }).locator('xpath=following-sibling::dd');
  assert.match(await stat('Revenue today').innerText(), new RegExp(money(o.revenue.today_minor, o.currency, 'en-GB').replace(/[.$()]/g, '\\$&')));
  await stat('Revenue today').getByText('yesterday ' + money(o.revenue.yesterday_minor, o.currency, 'en-GB')).waitFor();
  assert.equal(await stat('Active subscriptions').innerText(), n(o.subscriptions.active));
  assert.equal(await stat('Trial subscriptions').innerText(), n(o.subscriptions.trial));
  assert.equal(await stat('New customers, 24 h').innerText(), n(o.new_customers_24h));
  await stat('Trial to paid').getByText(`${n(o.trial_conversion.converted)} of ${n(o.trial_conversion.trials)} trials`).waitFor();

  // The chart: 30 bars, and the same 30 days in its table.
  assert.equal(o.revenue_30d.length, 30);
  assert.equal(await p.page.locator('svg rect').count(), 30);
  const table = p.page.getByRole('table', { name: 'Revenue, last 30 days' });
  assert.equal(await table.getByRole('row').count(), 31);
  const last = o.revenue_30d[29];
  assert.equal(await table.getByRole('row').last().innerText(), `${last.day}\t${money(last.amount_minor, o.currency, 'en-GB')}`);

  const health = p.page.getByRole('region', { name: 'Health' });
  for (const name of ['Panel', 'Worker', 'Last backup', 'Maintenance']) await health.getByText(name, { exact: true }).waitFor();
  await health.getByText(o.worker.ok ? 'running' : 'not running', { exact: true }).waitFor();
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});
