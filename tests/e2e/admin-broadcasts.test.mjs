// Broadcasts in the owner's cabinet: the owner composes a message to a promo group, sees the
// count and the preview (Telegram's formatting drawn, markup refused next to the field and
// never run), sends a test to their own Telegram, sends with a confirmation, and watches the
// row go to "done"; the fake Bot API got one message for each customer who has not blocked
// the bot and the API says so; the one who has is listed as not reached, linked to their card.
// A viewer sees the list with every control disabled. Screenshots at 1280 and 390 px.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { HOSTILE, OWNER, VIEWER, adminApi, customer, openAdmin, unique } from './lib/admin.mjs';
import { axe, launch, ready, screenshotPath } from './lib/browser.mjs';
import { BASE, FAKES, initData, waitFor } from './lib/stack.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => {
  await fetch(`${FAKES}/__fake/telegram/blocked`, { method: 'DELETE' });
  await browser.close();
});

// A promo group of `n` new customers; their Telegram ids.
async function groupOf(name, n) {
  assert.equal((await adminApi('PUT', '/promo-groups/' + encodeURIComponent(name), { discount_pct: 0 })).status, 200);
  const ids = [];
  for (let i = 0; i < n; i++) {
    const c = await customer();
    const found = await adminApi('GET', '/customers?q=' + c.id);
    const id = found.json.items[0].id;
    const r = await fetch(`${BASE}/api/admin/customers/${id}/promo-group`, {
      method: 'POST',
      headers: { Authorization: 'tma ' + initData(OWNER), 'Content-Type': 'application/json', 'Idempotency-Key': unique('bc-e2e-') },
      body: JSON.stringify({ promo_group: name, reason: 'broadcast test' }),
    });
    assert.equal(r.status, 200, await r.text());
    ids.push(c.id);
  }
  return ids;
}

// The fake Bot API's sendMessage calls after journal entry `since`.
async function sentSince(since) {
  const all = await (await fetch(`${FAKES}/__fake/journal?service=telegram&since=${since}`)).json();
  return all.filter((e) => e.path.endsWith('/sendMessage') && e.status === 200);
}
async function journalMark() {
  const all = await (await fetch(`${FAKES}/__fake/journal`)).json();
  return all.length ? all[all.length - 1].seq : 0;
}

test('the owner sends a broadcast to a promo group: count, preview, test, confirm, progress to done', async () => {
  const group = unique('e2e-bc-');
  const chats = await groupOf(group, 3);
  // The second of them has blocked the bot: Telegram answers 403 for them.
  const blockedChat = chats[1];
  assert.equal((await fetch(`${FAKES}/__fake/telegram/blocked`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ chat_ids: [blockedChat] }) })).status, 200);
  const p = await openAdmin(browser, '#/broadcasts');
  await p.page.getByRole('heading', { name: 'New broadcast' }).waitFor();
  assert.deepEqual(await axe(p.page), []);

  const form = p.page.getByRole('region', { name: 'New broadcast' });
  await form.getByLabel('Audience').selectOption('promo_group');
  await form.getByLabel('Promo group', { exact: true }).selectOption(group);
  await form.getByText('3 customers get it').waitFor();

  // Markup Telegram would refuse is refused next to the field, shown as text, never run.
  p.allowHttp((r) => r.status() === 422);
  await form.getByLabel('Message').fill(HOSTILE);
  await form.getByText(/<img> is not a tag Telegram formats/).waitFor();
  assert.equal(await p.page.locator('img[src="x"]').count(), 0);

  // Escaped, it is text in the preview; formatting is drawn.
  await form.getByLabel('Message').fill('<b>Hello</b> from the shop &lt;img src=x&gt;');
  await form.getByLabel('Button text (optional)').fill('Open the shop');
  await form.getByLabel('Button link (optional)').fill('https://example.com/shop');
  const preview = p.page.getByRole('region', { name: 'Preview' });
  await preview.locator('strong', { hasText: 'Hello' }).waitFor();
  await preview.getByText('from the shop <img src=x>').waitFor();
  await preview.getByRole('link', { name: 'Open the shop' }).waitFor();
  assert.equal(await p.page.locator('img[src="x"]').count(), 0);

  // A test to the owner's own Telegram.
  let mark = await journalMark();
  await form.getByRole('button', { name: 'Send a test to me' }).click();
  await p.page.getByText('The test is in your Telegram').first().waitFor();
  const test1 = await sentSince(mark);
  assert.deepEqual(test1.map((e) => e.json.chat_id), [OWNER]);
  assert.equal(test1[0].json.parse_mode, 'HTML');

  // Send, confirmed with the count.
  mark = await journalMark();
  const before = (await adminApi('GET', '/broadcasts?limit=1')).json.items[0]?.id ?? 0;
  await form.getByRole('button', { name: 'Send to 3 customers' }).click();
  await form.getByRole('button', { name: 'Yes, send to 3' }).click();
  await p.page.getByText('Sending to 3 customers').first().waitFor();
  const list = p.page.getByRole('table', { name: 'Broadcasts, newest first' });
  const row = list.getByRole('row').filter({ hasText: 'Hello from the shop' }).first();
  await row.getByText('done', { exact: true }).waitFor({ timeout: 20000 });
  await row.getByText('3 of 3').waitFor();
  await row.getByText('2 delivered').waitFor();
  await row.getByText('1 blocked the bot').waitFor();

  // Who it did not reach: asked for when opened, the customer linked to their card.
  const blockedId = (await adminApi('GET', '/customers?q=' + blockedChat)).json.items[0].id;
  await row.getByText('Not reached: 1. Who?').click();
  await row.locator(`a[href="#/customers?id=${blockedId}"]`).waitFor();
  await row.getByText('blocked the bot', { exact: true }).waitFor();

  // The API and the fake Bot API agree: one message to each of the three.
  const made = (await adminApi('GET', '/broadcasts?limit=1')).json.items[0];
  assert.ok(made.id > before);
  assert.deepEqual({ status: made.status, total: made.total, delivered: made.delivered, kind: made.audience.kind, group: made.audience.promo_group },
    { status: 'done', total: 3, delivered: 2, kind: 'promo_group', group });
  assert.equal(made.blocked, 1);
  assert.deepEqual(made.button, { text: 'Open the shop', url: 'https://example.com/shop' });
  await waitFor(async () => (await sentSince(mark)).length >= 2, { what: 'two messages at the fake Bot API' });
  const got = (await sentSince(mark)).filter((e) => chats.includes(e.json.chat_id));
  assert.deepEqual(got.map((e) => e.json.chat_id).sort(), chats.filter((c) => c !== blockedChat).sort());
  for (const e of got) assert.equal(e.json.text, '<b>Hello</b> from the shop &lt;img src=x&gt;');

  // Keyboard: the compose form's controls are reached by Tab.
  await form.getByLabel('Audience').focus();
  await p.page.keyboard.press('Tab');
  assert.ok(await p.page.evaluate(() => document.activeElement && document.activeElement.tagName !== 'BODY'));

  await form.getByLabel('Message').fill('<b>New servers</b> in Helsinki: <i>faster</i> for everyone.');
  await preview.locator('em', { hasText: 'faster' }).waitFor();
  assert.deepEqual(await axe(p.page), []);
  await p.page.screenshot({ path: screenshotPath('admin-broadcasts-1280.png'), fullPage: true });
  assert.deepEqual(await p.problems(), []);
  await p.close();

  const m = await openAdmin(browser, '#/broadcasts', { width: 390 });
  await m.page.getByRole('heading', { name: 'New broadcast' }).waitFor();
  await m.page.getByRole('region', { name: 'New broadcast' }).getByLabel('Message').fill('<b>New servers</b> in Helsinki');
  await m.page.getByRole('region', { name: 'Preview' }).locator('strong', { hasText: 'New servers' }).waitFor();
  assert.deepEqual(await axe(m.page), []);
  await m.page.screenshot({ path: screenshotPath('admin-broadcasts-390.png') });   // the form and the preview; the list goes on below
  assert.deepEqual(await m.problems(), []);
  await m.close();
});

test('a viewer sees the broadcasts and can change nothing', async () => {
  const p = await openAdmin(browser, '#/broadcasts', { who: VIEWER });
  await p.page.getByRole('table', { name: 'Broadcasts, newest first' }).waitFor();
  await ready(p.page);
  const form = p.page.getByRole('region', { name: 'New broadcast' });
  assert.equal(await form.getByLabel('Message').isDisabled(), true);
  assert.equal(await form.getByRole('button', { name: /^Send/ }).first().isDisabled(), true);
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});
