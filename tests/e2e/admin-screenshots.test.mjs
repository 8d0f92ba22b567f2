// Screenshots of the owner's cabinet for docs/screenshots (admin-<section>-<width>.png):
// each section at 1280 and 390 px in light, the overview also dark, and the 390-px menu.
// Each is checked by axe and for console errors as it is taken.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { openAdmin } from './lib/admin.mjs';
import { axe, launch, ready, screenshotPath } from './lib/browser.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

const SHOTS = [
  ['overview', '#/overview', (page) => page.getByRole('table', { name: 'Revenue, last 30 days' }).waitFor({ state: 'attached' })],
  ['plans', '#/plans?edit=standard', (page) => page.getByRole('heading', { name: 'Plan “Standard”' }).waitFor()],
  ['constructor', '#/plans?tab=constructor', (page) => page.getByRole('table', { name: 'Traffic packs' }).waitFor()],
  ['promo', '#/promo', (page) => page.getByRole('heading', { name: 'Gift codes' }).waitFor()],
  ['settings', '#/settings', (page) => page.getByRole('heading', { name: 'Trial', exact: true }).waitFor()],
  ['maintenance', '#/maintenance', (page) => page.getByRole('heading', { name: 'Maintenance mode' }).waitFor()],
  ['audit', '#/audit', (page) => page.getByRole('button', { name: 'Refresh' }).waitFor()],
];

for (const [name, hash, loaded] of SHOTS) {
  test(`screenshots: ${name}`, async () => {
    for (const [width, colorScheme] of [[1280, 'light'], [390, 'light'], ...(name === 'overview' ? [[1280, 'dark']] : [])]) {
      const p = await openAdmin(browser, hash, { width, colorScheme });
      await p.page.setViewportSize({ width, height: width > 1000 ? 860 : 844 });
      await loaded(p.page);
      await ready(p.page);
      await p.page.waitForTimeout(200);
      const file = `admin-${name}-${width}${colorScheme === 'dark' ? '-dark' : ''}.png`;
      await p.page.screenshot({ path: screenshotPath(file) });
      if (name === 'overview' && width === 390) {
        await p.page.getByRole('button', { name: 'Menu' }).click();
        await p.page.screenshot({ path: screenshotPath('admin-menu-390.png') });
      }
      assert.deepEqual(await axe(p.page), [], file);
      assert.deepEqual(await p.problems(), [], file);
      await p.close();
    }
  });
}
