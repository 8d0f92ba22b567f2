// Settings in the owner's cabinet: a setting changed is live for customers at once
// (REFERRAL_BONUS_DAYS in GET /referral), a wrong value is refused with the reason next to
// the field and nothing is written, "reset to default" brings the env file's value back;
// secrets are write-only (an empty field that says whether one is stored).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { adminApi, customer, openAdmin } from './lib/admin.mjs';
import { axe, launch } from './lib/browser.mjs';
import { api, waitFor } from './lib/stack.mjs';

let browser;
before(async () => { browser = await launch(); await adminApi('DELETE', '/settings/REFERRAL_BONUS_DAYS'); });
after(async () => { await browser.close(); await adminApi('DELETE', '/settings/REFERRAL_BONUS_DAYS'); });

const setting = async (name) => (await adminApi('GET', '/settings')).json.items.find((s) => s.name === name);

test('a setting changed is live for customers, a wrong value is refused next to the field, and reset restores it', async () => {
  const env = await setting('REFERRAL_BONUS_DAYS');
  const user = await customer();
  assert.equal((await api('GET', '/referral', { init: user.init })).json.bonus_days, Number(env.value));
  const next = Number(env.value) + 4;

  const p = await openAdmin(browser, '#/settings?q=referral');
  const box = p.page.getByRole('textbox', { name: 'REFERRAL_BONUS_DAYS' });
  await box.waitFor();
  assert.equal(await box.inputValue(), env.value);
  assert.deepEqual(await axe(p.page), []);
  // The search is in the URL, and narrows the list.
  assert.match(p.page.url(), /#\/settings\?q=referral/);
  assert.equal(await p.page.getByRole('textbox', { name: 'TRIAL_DURATION_DAYS' }).count(), 0);

  p.allowHttp((r) => r.status() === 422 && r.request().method() === 'PUT');   // the refusal the test asks for
  await box.fill('abc');
  await p.page.getByRole('button', { name: 'Save REFERRAL_BONUS_DAYS' }).click();
  await p.page.getByText(/^REFERRAL_BONUS_DAYS: /).waitFor();
  assert.equal(await box.getAttribute('aria-invalid'), 'true');
  assert.equal((await setting('REFERRAL_BONUS_DAYS')).source, env.source, 'nothing written');
  assert.deepEqual(await axe(p.page), []);

  await box.fill(String(next));
  await p.page.getByRole('button', { name: 'Save REFERRAL_BONUS_DAYS' }).click();
  await waitFor(async () => (await setting('REFERRAL_BONUS_DAYS')).value === String(next), { what: 'the stored value' });
  assert.equal((await setting('REFERRAL_BONUS_DAYS')).source, 'database');
  await waitFor(async () => (await api('GET', '/referral', { init: user.init })).json.bonus_days === next, { what: 'bonus_days live' });
  await p.page.getByText('REFERRAL_BONUS_DAYS saved').first().waitFor();

  await p.page.getByRole('button', { name: 'Reset to default: REFERRAL_BONUS_DAYS' }).click();
  await p.page.getByRole('button', { name: 'Yes, reset' }).click();
  await waitFor(async () => (await setting('REFERRAL_BONUS_DAYS')).source !== 'database', { what: 'the stored value removed' });
  await waitFor(async () => (await api('GET', '/referral', { init: user.init })).json.bonus_days === Number(env.value), { what: 'bonus_days back' });
  await waitFor(async () => (await box.inputValue()) === env.value, { what: 'the field shows the default again' });
  await p.page.getByText('REFERRAL_BONUS_DAYS reset').first().waitFor();
  const audit = (await adminApi('GET', '/audit?limit=5')).json.items.map((e) => e.action);
  assert.deepEqual(audit.slice(0, 2), ['settings.unset', 'settings.set']);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('every setting shows its group, meaning, default and accepted values; secrets are never shown back', async () => {
  const items = (await adminApi('GET', '/settings')).json.items;
  const p = await openAdmin(browser, '#/settings');
  await p.page.getByRole('textbox', { name: items.find((s) => !s.secret).name }).first().waitFor();
  for (const s of items.filter((x) => x.group).slice(0, 3)) {
    const form = p.page.locator(`form[data-setting="${s.name}"]`);
    if (s.help) await form.getByText(s.help, { exact: true }).waitFor();
    if (s.valid) await form.getByText(s.valid, { exact: true }).waitFor();
  }
  const secret = items.find((s) => s.secret);
  if (secret) {
    assert.equal(secret.value, '');
    const box = p.page.getByLabel(secret.name, { exact: true });
    assert.equal(await box.getAttribute('type'), 'password');
    assert.equal(await box.inputValue(), '');
    await p.page.locator(`form[data-setting="${secret.name}"]`).getByText(secret.is_set ? 'yes' : 'no', { exact: true }).waitFor();
  }
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});
