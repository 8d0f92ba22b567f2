// Connect, devices and traffic on the real stack: the first trial inside Telegram lands on
// Connect with the server's link, its QR and the /dl import; resetting the link rotates it
// once and then shows the wait; unbinding a device removes it on the panel; the traffic
// chart is drawn from the daily snapshots; a hidden link is not on the page at all.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';

import { bytes } from '../../nginx/html/shared/format.js';
import { axe, launch, openPage, ready } from './lib/browser.mjs';
import { BASE, api, freshId, initData, waitFor } from './lib/stack.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

async function trialUser() {
  const id = freshId();
  const init = initData(id);
  const r = await api('POST', '/trial', { init });
  assert.equal(r.status, 200, JSON.stringify(r.json));
  return { id, init };
}

test('first contact: a new user takes the trial with the Main button and lands on Connect with the link, the QR and the /dl import', async () => {
  const id = freshId();
  const init = initData(id);
  const p = await openPage(browser, '/app/', { init, platform: 'android' });
  await ready(p.page);
  await p.page.getByRole('button', { name: 'Try for free' }).waitFor();
  assert.deepEqual(await axe(p.page), []);
  const setup = (await p.tgEvents('web_app_setup_main_button')).filter((e) => e.data.is_visible);
  assert.ok(setup.some((e) => e.data.text === 'Try for free'), JSON.stringify(setup));

  await p.tgEvent('main_button_pressed', {});
  await p.page.waitForURL(/#\/connect/);
  const link = p.page.getByLabel('Subscription link');
  await link.waitFor();
  await ready(p.page);

  const me = await api('GET', '/me', { init });
  assert.equal(me.json.subscription.status, 'trial');
  assert.equal(me.json.subscription.is_trial, true);
  const conn = (await api('GET', '/connection', { init })).json;
  assert.ok(conn.subscription_url.startsWith('http'), conn.subscription_url);
  assert.equal(await link.inputValue(), conn.subscription_url);
  assert.deepEqual(await axe(p.page), []);

  // "This device" (Android from Telegram's platform): the first app's store link and import.
  assert.equal(await p.page.getByLabel('Your system').inputValue(), 'android');
  const first = conn.apps[0];
  const install = p.page.getByRole('link', { name: `Install ${first.label}` });
  assert.equal(await install.getAttribute('href'), first.stores.android || first.stores.default);
  await p.page.getByRole('button', { name: `Add subscription to ${first.label}` }).click();
  const opened = await waitFor(async () => (await p.tgEvents('web_app_open_link')).at(-1), { what: 'web_app_open_link' });
  const dl = new URL(opened.data.url);
  assert.equal(dl.origin, BASE);
  assert.equal(dl.pathname, '/dl');
  assert.equal(dl.searchParams.get('to'), first.deep_link);
  assert.equal(dl.searchParams.get('to'), conn.deep_links[first.key]);
  const res = await fetch(dl);
  assert.equal(res.status, 200);
  // Telegram's Main button does the same for the recommended app.
  const main = (await p.tgEvents('web_app_setup_main_button')).at(-1);
  assert.equal(main.data.text, `Add subscription to ${first.label}`);
  const count = (await p.tgEvents('web_app_open_link')).length;
  await p.tgEvent('main_button_pressed', {});
  const again = await waitFor(async () => (await p.tgEvents('web_app_open_link'))[count], { what: 'open_link from the Main button' });
  assert.equal(again.data.url, opened.data.url);

  // "Another device": the QR code of the same link, drawn in the page.
  await p.page.getByLabel('Another device').check();
  assert.equal((await p.tgEvents('web_app_setup_main_button')).at(-1).data.is_visible, false);
  const qr = p.page.getByRole('img', { name: 'QR code of your subscription link' });
  await qr.waitFor();
  assert.equal(await qr.evaluate((el) => el.tagName.toLowerCase()), 'svg');
  assert.equal(await qr.locator('path').count(), 1);
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('reset link: asked first, the new link is shown and is the server\'s; a second reset shows the wait and changes nothing', async () => {
  const { init } = await trialUser();
  const before = (await api('GET', '/connection', { init })).json.subscription_url;
  const p = await openPage(browser, '/app/#/connect', { init });
  p.allowHttp((r) => r.url().endsWith('/api/cabinet/subscription/reset-devices') && r.status() === 429);
  await ready(p.page);
  const link = p.page.getByLabel('Subscription link');
  assert.equal(await link.inputValue(), before);

  await p.page.getByRole('button', { name: 'Reset link' }).click();
  // Nothing happens until the customer confirms.
  assert.equal((await api('GET', '/connection', { init })).json.subscription_url, before);
  assert.deepEqual(await axe(p.page), []);
  await p.page.getByRole('button', { name: 'Yes, reset' }).click();
  await waitFor(async () => (await link.inputValue()) !== before, { what: 'the new link' });
  const rotated = (await api('GET', '/connection', { init })).json.subscription_url;
  assert.notEqual(rotated, before);
  assert.equal(await link.inputValue(), rotated);

  await p.page.getByRole('button', { name: 'Reset link' }).click();
  await p.page.getByRole('button', { name: 'Yes, reset' }).click();
  const wait = p.page.getByRole('status').filter({ hasText: 'once every 10 minutes' });
  await wait.waitFor();
  assert.match(await wait.textContent(), /Try again in (9|10) min/);
  assert.equal(await p.page.getByRole('button', { name: 'Reset link' }).isDisabled(), true);
  assert.equal((await api('GET', '/connection', { init })).json.subscription_url, rotated);
  assert.equal(await link.inputValue(), rotated);
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('devices: unbinding one of the two, after confirming, removes it on the panel', async () => {
  const { init } = await trialUser();
  const listed = (await api('GET', '/devices', { init })).json;
  assert.equal(listed.items.length, 2, JSON.stringify(listed));
  const p = await openPage(browser, '/app/#/devices', { init });
  await ready(p.page);
  const list = p.page.getByRole('list', { name: 'Devices' });
  await list.waitFor();
  assert.equal(await list.getByRole('listitem').count(), 2);
  await p.page.getByText(`2 of ${listed.device_limit} devices connected`).waitFor();
  assert.deepEqual(await axe(p.page), []);

  const gone = listed.items[0];
  const name = gone.model || gone.platform;
  await p.page.getByRole('button', { name: `Unbind ${name}` }).click();
  await p.page.getByRole('button', { name: 'Yes, unbind' }).click();
  await waitFor(async () => (await list.getByRole('listitem').count()) === 1, { what: 'one device left' });
  await p.page.getByText(`1 of ${listed.device_limit} devices connected`).waitFor();
  const now = (await api('GET', '/devices', { init })).json;
  assert.deepEqual(now.items.map((d) => d.hwid), [listed.items[1].hwid]);
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

// Daily snapshots written straight into the stack's database (there is no API for the past),
// so the chart has days to draw; without DATABASE_URL the screen shows the empty state.
function seedSnapshots(telegramId, rows) {
  const values = rows.map(([daysAgo, bytes]) => `((now() AT TIME ZONE 'UTC')::date - ${Number(daysAgo)}, ${Number(bytes)})`).join(',');
  execFileSync('psql', [process.env.DATABASE_URL, '-v', 'ON_ERROR_STOP=1', '-qc',
    `INSERT INTO traffic_snapshots (user_id, day, used_bytes)
     SELECT u.id, v.day, v.bytes FROM users u, (VALUES ${values}) AS v(day, bytes) WHERE u.telegram_id = ${Number(telegramId)}`]);
}

test('traffic: the totals and the 30-day chart of daily use from the snapshots', async () => {
  const { id, init } = await trialUser();
  const GB = 1024 ** 3;
  const seeded = Boolean(process.env.DATABASE_URL);
  // Days 4..2 ago: 1 GB, 3 GB (2 GB that day), 3.5 GB (0.5 GB); today's comes from the panel.
  if (seeded) seedSnapshots(id, [[4, GB], [3, 3 * GB], [2, 3.5 * GB]]);
  const p = await openPage(browser, '/app/#/traffic', { init });
  await ready(p.page);
  const tr = (await api('GET', '/traffic', { init })).json;
  await p.page.getByText(tr.unlimited ? 'Unlimited traffic' : `of ${bytes(tr.limit_bytes, 'en-GB')}`).waitFor();
  if (!seeded) {
    await p.page.getByText('The daily chart appears after your second day of use.').waitFor();
  } else {
    assert.ok(tr.series.length >= 3, JSON.stringify(tr.series));
    const chart = p.page.getByRole('img', { name: /in 30 days/ });
    await chart.waitFor();
    assert.equal(await chart.evaluate((el) => el.tagName.toLowerCase()), 'svg');
    assert.match(await chart.getAttribute('aria-label'), /most on .*: 2\u00a0GB/);
    const table = p.page.getByRole('table', { name: 'Daily use, last 30 days' });
    assert.equal(await table.locator('tbody tr').count(), 30);
    const day = (n) => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' })
      .format(new Date(Date.now() - n * 86400000));
    assert.equal(await table.getByRole('row', { name: day(3) }).getByRole('cell').textContent(), '2\u00a0GB');
    assert.equal(await table.getByRole('row', { name: day(2) }).getByRole('cell').textContent(), '512\u00a0MB');
  }
  if (!tr.unlimited) await p.page.getByRole('progressbar', { name: 'Used' }).waitFor();
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

// HIDE_SUBSCRIPTION_LINK: the pool restarted with it for this test, as the C++ tests do.
function pool(action, extra = '') {
  execFileSync(process.env.CABINET_STACK, ['svc', action, 'pool'], {
    stdio: 'ignore', env: { ...process.env, STACK_EXTRA_ENV: extra },
  });
}

test('a hidden link: no link, no QR of it, only the apps\' buttons', { skip: !process.env.CABINET_STACK && 'no stack control' }, async () => {
  const { init } = await trialUser();
  pool('stop');
  pool('start', 'HIDE_SUBSCRIPTION_LINK=true');
  try {
    const conn = (await waitFor(async () => {
      const r = await api('GET', '/connection', { init });
      return r.status === 200 && r.json;
    }, { what: 'the pool back' }));
    assert.equal(conn.subscription_url, null);
    assert.equal(conn.hide_link, true);
    const p = await openPage(browser, '/app/#/connect', { init });
    await ready(p.page);
    await p.page.getByRole('button', { name: `Add subscription to ${conn.apps[0].label}` }).waitFor();
    assert.equal(await p.page.getByLabel('Subscription link').count(), 0);
    assert.equal(await p.page.getByRole('button', { name: 'Copy' }).count(), 0);
    await p.page.getByLabel('Another device').check();
    await p.page.getByText('open this app in Telegram on that device').waitFor();
    assert.equal(await p.page.getByRole('img', { name: /QR code/ }).count(), 0);
    assert.ok(!(await p.page.evaluate(() => document.body.innerText)).includes('://'), 'no link shown');
    assert.deepEqual(await axe(p.page), []);
    assert.deepEqual(await p.problems(), []);
    await p.close();
  } finally {
    pool('stop');
    pool('start');
  }
});

test('demo mode: connect (both ways, reset), devices and traffic answer in the page, in Russian and dark, with no request to /api', async () => {
  const p = await openPage(browser, '/app/?mock=1&lang=ru#/connect', { colorScheme: 'dark' });
  const apiCalls = [];
  p.page.on('request', (r) => { if (new URL(r.url()).pathname.startsWith('/api/')) apiCalls.push(r.url()); });
  await ready(p.page);
  const link = p.page.getByLabel('Ссылка на подписку');
  const before = await link.inputValue();
  await p.page.getByRole('button', { name: 'Сбросить ссылку' }).click();
  await p.page.getByRole('button', { name: 'Да, сбросить' }).click();
  await waitFor(async () => (await link.inputValue()) !== before, { what: 'the demo link rotated' });
  await p.page.getByLabel('Другое устройство').check();
  await p.page.getByRole('img', { name: 'QR-код ссылки на подписку' }).waitFor();
  assert.deepEqual(await axe(p.page), []);
  await p.page.goto(p.page.url().replace('#/connect', '#/devices'));
  await ready(p.page);
  await p.page.getByRole('button', { name: 'Отвязать iPhone 15' }).click();
  await p.page.getByRole('button', { name: 'Да, отвязать' }).click();
  await p.page.getByText('Подключено 1 из 3 устройств').waitFor();
  assert.deepEqual(await axe(p.page), []);
  await p.page.goto(p.page.url().replace('#/devices', '#/traffic'));
  await ready(p.page);
  await p.page.getByRole('img', { name: /за 30 дней/ }).waitFor();
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(apiCalls, []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('devices: the panel failing is an error with a retry, and the retry shows the list', { skip: !process.env.PANEL__BASE_URL && 'no panel control' }, async () => {
  const { init } = await trialUser();
  const p = await openPage(browser, '/app/#/account', { init });
  p.allowHttp((r) => r.url().endsWith('/api/cabinet/devices') && r.status() === 502);
  await ready(p.page);
  const fault = await fetch(process.env.PANEL__BASE_URL + '/__mock/fault', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ mode: 'status500', times: 1 }),
  });
  assert.equal(fault.status, 200);
  await p.page.goto(p.page.url().replace('#/account', '#/devices'));
  const retry = p.page.getByRole('button', { name: 'Try again' });
  await retry.waitFor();
  assert.equal(await p.page.getByRole('list', { name: 'Devices' }).count(), 0);
  assert.ok((await p.page.getByRole('main').locator('.empty-error').textContent()).trim().length > 'Try again'.length);
  assert.deepEqual(await axe(p.page), []);
  await retry.click();
  await p.page.getByRole('list', { name: 'Devices' }).waitFor();
  assert.equal((await api('GET', '/devices', { init })).json.items.length, 2);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('connect without a subscription: an empty state (not an error) whose trial button connects', async () => {
  const id = freshId();
  const init = initData(id);
  const p = await openPage(browser, '/app/#/connect', { init });
  p.allowHttp((r) => r.url().endsWith('/api/cabinet/connection') && r.status() === 404);
  await ready(p.page);
  await p.page.getByText('You have no active subscription.').waitFor();
  assert.equal(await p.page.getByRole('link', { name: 'Choose a plan' }).getAttribute('href'), '#/plans');
  assert.deepEqual(await axe(p.page), []);
  await p.page.getByRole('main').getByRole('button', { name: 'Try for free' }).click();
  const link = p.page.getByLabel('Subscription link');
  await link.waitFor();
  const me = (await api('GET', '/me', { init })).json;
  assert.equal(me.subscription.status, 'trial');
  assert.equal(await link.inputValue(), (await api('GET', '/connection', { init })).json.subscription_url);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});
