// The admin screens (/admin/): the local stack's admin (Telegram id 100000001, ADMIN_IDS)
// switches maintenance on with a message and off again, backs up now and sees the worker's
// outcome, schedules a host action and finds it in the audit log; anyone else, or a page
// without init data, gets "not allowed" and no admin data.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { axe, launch, openPage, ready } from './lib/browser.mjs';
import { BASE, api, ctl, freshId, initData, waitFor } from './lib/stack.mjs';

const ADMIN = 100000001;

async function adminApi(method, path, body) {
  const res = await fetch(BASE + '/api/admin' + path, {
    method,
    headers: { Authorization: 'tma ' + initData(ADMIN), ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: await res.json().catch(() => null) };
}

let browser;
before(async () => { browser = await launch(); });
after(async () => {
  await browser.close();
  ctl('maintenance', 'off');   // never leave the stack in maintenance for the next file
});

// The maintenance section (the owner's first section is the overview).
const openAdmin = (opts = {}) => openPage(browser, '/admin/#/maintenance', { init: initData(ADMIN), ...opts });

// A section from the side navigation; at 390 px it is behind the menu button.
async function openSection(page, name) {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name }).click();
}

test('the admin switches maintenance on with a message, and off again', async () => {
  ctl('maintenance', 'off');
  const p = await openAdmin();
  await ready(p.page);
  await p.page.getByRole('heading', { name: 'Maintenance mode' }).waitFor();
  assert.deepEqual(await axe(p.page), []);

  const message = 'Back at 18:00 — e2e ' + Date.now();
  await p.page.getByLabel('Message for customers (optional)').fill(message);
  await p.page.getByRole('button', { name: 'Switch maintenance on' }).click();
  // Asked first: nothing changed yet.
  await p.page.getByRole('group', { name: /Switch maintenance on\?/ }).waitFor();
  assert.equal((await adminApi('GET', '/maintenance')).json.enabled, false);
  assert.deepEqual(await axe(p.page), []);
  await p.page.getByRole('button', { name: 'Yes, switch on' }).click();
  await p.page.getByRole('button', { name: 'Switch maintenance off' }).waitFor();

  const on = (await adminApi('GET', '/maintenance')).json;
  assert.equal(on.enabled, true);
  assert.equal(on.source, 'manual');
  assert.equal(on.message, message);
  assert.equal(on.changed_by, 'telegram:' + ADMIN);
  await p.page.getByText(message).waitFor();
  await p.page.getByText('switched on manually').waitFor();
  await waitFor(async () => {
    const c = (await api('GET', '/config', { init: initData(freshId()) })).json;
    return c.maintenance.active && c.maintenance.message === message;
  }, { what: 'maintenance in /config' });
  assert.deepEqual(await axe(p.page), []);

  await p.page.getByRole('button', { name: 'Switch maintenance off' }).click();
  await p.page.getByRole('button', { name: 'Switch maintenance on' }).waitFor();
  assert.equal((await adminApi('GET', '/maintenance')).json.enabled, false);
  await waitFor(async () => !(await api('GET', '/config', { init: initData(freshId()) })).json.maintenance.active,
    { what: 'maintenance off in /config' });
  const audit = (await adminApi('GET', '/audit?limit=5')).json.items.map((e) => e.action);
  assert.deepEqual(audit.slice(0, 2), ['maintenance.off', 'maintenance.on']);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('"back up now" shows the job queued, then the worker\'s outcome from the audit log', async () => {
  const p = await openAdmin();
  await ready(p.page);
  await p.page.getByRole('button', { name: 'Back up now' }).click();
  const queued = await p.page.getByText(/Backup queued \(job #\d+\)/).textContent();
  const id = Number(queued.match(/#(\d+)/)[1]);
  const done = await waitFor(async () => (await adminApi('GET', '/audit?limit=50')).json.items
    .find((e) => e.action === 'backup.done' && e.entity === 'job:' + id), { timeout: 60000, what: 'backup.done' });
  assert.ok(done.payload.file, JSON.stringify(done.payload));
  assert.ok(done.payload.size > 0);
  await p.page.getByText('Backup made').waitFor({ timeout: 15000 });
  await p.page.getByText('Job #' + id).waitFor();
  await p.page.getByText(done.payload.file, { exact: true }).waitFor();
  await p.page.getByText('Delivered to the backups topic').waitFor();
  const requested = (await adminApi('GET', '/audit?limit=50')).json.items.find((e) => e.action === 'backup' && e.entity === 'job:' + id);
  assert.ok(requested, 'the request is in the audit log');
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('a host action is confirmed, shows "scheduled" with its audit id, and the audit log lists it', async () => {
  const p = await openAdmin();
  await ready(p.page);
  await p.page.getByRole('button', { name: 'Restart the bot' }).click();
  await p.page.getByRole('button', { name: 'Cancel' }).click();   // changing one's mind sends nothing
  await p.page.getByRole('button', { name: 'Restart the bot' }).click();
  await p.page.getByRole('button', { name: 'Yes, schedule it' }).click();
  const text = await p.page.getByText(/Scheduled \(audit entry #\d+\)/).textContent();
  const auditId = Number(text.match(/#(\d+)/)[1]);
  const items = (await adminApi('GET', '/audit?limit=50')).json.items;
  const entry = items.find((e) => e.id === auditId);
  assert.equal(entry.action, 'restart-bot');
  assert.equal(entry.actor, 'telegram:' + ADMIN);
  assert.equal(items.filter((e) => e.action === 'restart-bot' && e.id > auditId).length, 0);

  await openSection(p.page, 'Audit log');
  await ready(p.page);
  const list = p.page.getByRole('list', { name: 'Audit entries, newest first' });
  const first = list.getByRole('listitem').first();
  await first.getByText('Restart the bot').waitFor();
  await first.getByText('#' + auditId).waitFor();
  await first.getByText('status: scheduled').waitFor();
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('a user who is not an admin gets "not allowed" and no admin data', async () => {
  const p = await openPage(browser, '/admin/', { init: initData(freshId(), { languageCode: 'ru' }) });
  const admin = [];
  p.page.on('response', (r) => { if (new URL(r.url()).pathname.startsWith('/api/admin/')) admin.push(r.status()); });
  p.allowHttp((r) => new URL(r.url()).pathname.startsWith('/api/admin/') && r.status() === 403);
  await p.page.getByRole('heading', { name: 'Нет доступа' }).waitFor();
  await ready(p.page);
  assert.ok(admin.length >= 1);
  assert.deepEqual(admin.filter((s) => s !== 403), []);
  assert.equal(await p.page.getByRole('navigation').count(), 0);
  assert.equal(await p.page.getByRole('button').count(), 0);
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('outside Telegram (no init data) the page is "not allowed" and asks the API nothing', async () => {
  const p = await openPage(browser, '/admin/');
  const calls = [];
  p.page.on('request', (r) => { if (new URL(r.url()).pathname.startsWith('/api/')) calls.push(r.url()); });
  await p.page.getByRole('heading', { name: 'Not allowed' }).waitFor();
  await ready(p.page);
  assert.deepEqual(calls, []);
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});
