// The support inbox of the owner's cabinet (#/support): a customer writes from the app, the
// inbox shows the ticket unread with the count in the navigation, the support role opens
// it (read now, over the API too), answers with Ctrl+Enter, and the customer's app shows
// the answer while the fake Bot API gets it once from the worker; close, then reopen;
// markup in the customer's name and message stays text; a viewer reads without reading it
// for the team and cannot answer; keyboard reach; axe; screenshots at 1280 and 390 px.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { HOSTILE, SUPPORT, VIEWER, adminApi, openAdmin, openSection } from './lib/admin.mjs';
import { axe, launch, ready, screenshotPath } from './lib/browser.mjs';
import { FAKES, api, freshId, initData, waitFor } from './lib/stack.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

// A customer named `name` who wrote `text` from the mini-app; their ticket's id.
async function customerWrites(text, name = 'Test') {
  const id = freshId();
  const init = initData(id, { firstName: name });
  const r = await api('POST', '/support', { init, body: { text } });
  assert.equal(r.status, 200, JSON.stringify(r.json));
  return { id, init, ticket: r.json.ticket_id };
}

const ticketOf = async (id, who = SUPPORT) => (await adminApi('GET', '/support/tickets/' + id, undefined, who)).json;
const itemOf = async (tg, ticket) => (await adminApi('GET', `/support/tickets?status=all&q=${tg}`, undefined, VIEWER)).json.items
  .find((t) => t.id === ticket);

// What the fake Bot API was asked to send to a customer's private chat.
async function botMessagesTo(tg) {
  const calls = await (await fetch(`${FAKES}/__fake/journal?service=telegram`)).json();
  return calls.filter((c) => c.path.endsWith('/sendMessage') && c.json && String(c.json.chat_id) === String(tg)).map((c) => c.json.text);
}

test('a customer writes, support opens it unread, answers, the customer sees it; close and reopen', async () => {
  const message = `<b>bold</b> ${HOSTILE} my VPN stopped`;
  const c = await customerWrites(message, HOSTILE);
  assert.equal((await itemOf(c.id, c.ticket)).unread, true);
  const unread = (await adminApi('GET', '/support/counts', undefined, SUPPORT)).json.unread;
  assert.ok(unread >= 1);

  const p = await openAdmin(browser, '#/support', { who: SUPPORT });
  const dialogs = [];
  p.page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  const nav = p.page.getByRole('navigation', { name: 'Admin sections' });
  await nav.getByRole('link', { name: /^Support \d+ unread tickets?$/ }).waitFor();
  const tabs = p.page.getByRole('navigation', { name: 'Tickets by status' });
  await tabs.getByRole('link', { name: /^Open \d+$/ }).waitFor();
  assert.equal(await tabs.getByRole('link', { name: /^Open/ }).getAttribute('aria-current'), 'page');

  // The ticket is in the list, unread, with the name and the message as text.
  const list = p.page.getByRole('list', { name: 'Tickets, unread first' });
  const item = list.getByRole('link').filter({ hasText: `Ticket #${c.ticket}` });
  await item.waitFor();
  await item.getByRole('img', { name: 'unread' }).waitFor();
  assert.equal(await item.getByText(HOSTILE, { exact: true }).count(), 1);
  assert.deepEqual(await axe(p.page), []);

  // Opened by support: the thread, the customer beside it, and read for everyone.
  await item.click();
  const thread = p.page.getByRole('region', { name: `Ticket #${c.ticket}` });
  await thread.getByRole('heading', { name: `Ticket #${c.ticket}` }).waitFor();
  await thread.getByRole('list', { name: 'Messages, oldest first' }).getByText(message, { exact: true }).waitFor();
  const card = thread.getByRole('complementary', { name: HOSTILE });
  await card.getByText(String(c.id), { exact: true }).waitFor();
  assert.equal(await card.getByRole('link', { name: "Open the customer's card" }).getAttribute('href'), `#/customers?id=${(await ticketOf(c.ticket)).customer.id}`);
  assert.match(p.page.url(), new RegExp(`#/support\\?ticket=${c.ticket}$`));
  await waitFor(async () => (await itemOf(c.id, c.ticket)).unread === false, { what: 'the ticket read' });
  await item.getByRole('img', { name: 'unread' }).waitFor({ state: 'detached' });
  assert.equal(await p.page.locator('img[src="x"]').count(), 0, 'no markup from customer text');

  // The answer, sent with Ctrl+Enter: in the thread, in the customer's app, and from the bot once.
  const answer = 'Please update the app <i>today</i>';
  const box = thread.getByLabel('Your answer');
  await box.fill(answer);
  await box.press('Control+Enter');
  await p.page.getByText('Answer sent').first().waitFor();
  await thread.getByRole('list', { name: 'Messages, oldest first' }).getByText(answer, { exact: true }).waitFor();
  assert.equal(await box.inputValue(), '');
  await thread.getByText('waiting for the customer').waitFor();
  const mine = await api('GET', '/support', { init: c.init });
  assert.equal(mine.status, 200);
  assert.deepEqual(mine.json.messages.map((m) => [m.from, m.text]), [['you', message], ['support', answer]]);
  assert.equal(mine.json.status, 'waiting');
  await waitFor(async () => (await botMessagesTo(c.id)).length > 0, { what: "the bot's copy to the customer" });
  assert.deepEqual(await botMessagesTo(c.id), [`Support (ticket #${c.ticket}):\n${answer}`]);

  // Close: the answer box says so and is disabled; reopen: back to waiting.
  await thread.getByRole('button', { name: 'Close the ticket' }).click();
  await p.page.getByText(`Ticket #${c.ticket} closed`).first().waitFor();
  await thread.getByText('This ticket is closed. Reopen it to answer.').waitFor();
  assert.equal(await box.isDisabled(), true);
  assert.equal((await ticketOf(c.ticket)).status, 'closed');
  assert.equal((await api('GET', '/support', { init: c.init })).json.ticket_id, null);
  await thread.getByRole('button', { name: 'Reopen the ticket' }).click();
  await p.page.getByText(`Ticket #${c.ticket} reopened`).first().waitFor();
  assert.equal((await ticketOf(c.ticket)).status, 'waiting');
  assert.equal((await api('GET', '/support', { init: c.init })).json.ticket_id, c.ticket);
  assert.equal(await box.isDisabled(), false);

  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('keyboard: search, a ticket by Tab and Enter, the answer by Ctrl+Enter', async () => {
  const c = await customerWrites('Keyboard only, please', 'Kbd' + freshId());
  const p = await openAdmin(browser, '#/support?status=all', { who: SUPPORT });
  const search = p.page.getByRole('searchbox', { name: 'Search tickets' });
  await search.focus();
  await search.fill(String(c.id));
  await search.press('Enter');
  const list = p.page.getByRole('list', { name: 'Tickets, unread first' });
  await waitFor(async () => (await list.getByRole('link').count()) === 1, { what: 'one ticket found' });
  assert.match(p.page.url(), new RegExp(`q=${c.id}`));
  await p.page.keyboard.press('Tab');   // the search button
  await p.page.keyboard.press('Tab');   // the ticket
  assert.equal(await p.page.evaluate(() => document.activeElement.dataset.ticket), String(c.ticket));
  await p.page.keyboard.press('Enter');
  const box = p.page.getByLabel('Your answer');
  await box.waitFor();
  await box.focus();
  await p.page.keyboard.type('Done by keyboard');
  await p.page.keyboard.press('Control+Enter');
  await waitFor(async () => (await ticketOf(c.ticket)).messages.length === 2, { what: 'the answer stored' });
  assert.equal((await ticketOf(c.ticket)).messages[1].text, 'Done by keyboard');
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('a viewer reads a ticket without marking it read and cannot answer', async () => {
  const c = await customerWrites('Viewer test');
  const p = await openAdmin(browser, `#/support?ticket=${c.ticket}`, { who: VIEWER });
  const thread = p.page.getByRole('region', { name: `Ticket #${c.ticket}` });
  await thread.getByText('Viewer test', { exact: true }).waitFor();
  assert.equal(await thread.getByLabel('Your answer').isDisabled(), true);
  assert.equal(await thread.getByRole('button', { name: 'Close the ticket' }).isDisabled(), true);
  assert.equal((await itemOf(c.id, c.ticket)).unread, true);
  assert.equal((await adminApi('POST', `/support/tickets/${c.ticket}/reply`, { text: 'no' }, VIEWER)).status, 403);
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('screenshots at 1280 and 390 px (docs/screenshots/admin-support-*.png)', async () => {
  const c = await customerWrites('The app says "no connection" since this morning. I tried another server too.', 'Anna');
  await adminApi('POST', `/support/tickets/${c.ticket}/reply`, { text: 'Hello Anna! Please update the app and connect again.' }, SUPPORT);
  await api('POST', '/support', { init: c.init, body: { text: 'Updated, it works now. Thank you!' } });
  for (const width of [1280, 390]) {
    const p = await openAdmin(browser, `#/support?status=all&ticket=${c.ticket}`, { who: SUPPORT, width });
    await p.page.setViewportSize({ width, height: width > 1000 ? 860 : 844 });
    await p.page.getByRole('region', { name: `Ticket #${c.ticket}` }).getByText('Thank you!', { exact: false }).waitFor();
    await ready(p.page);
    await p.page.waitForTimeout(200);
    await p.page.screenshot({ path: screenshotPath(`admin-support-${width}.png`) });
    assert.deepEqual(await axe(p.page), [], String(width));
    if (width === 390) {
      // The way back to the list, which is the page at this width.
      await p.page.getByRole('link', { name: '← All tickets' }).click();
      await p.page.getByRole('list', { name: 'Tickets, unread first' }).waitFor();
      await p.page.screenshot({ path: screenshotPath('admin-support-list-390.png') });
      assert.deepEqual(await axe(p.page), [], 'list 390');
    }
    assert.deepEqual(await p.problems(), []);
    await p.close();
  }
});

test('the section opens from the navigation for every staff role', async () => {
  const p = await openAdmin(browser, '#/customers', { who: SUPPORT, width: 390 });
  await openSection(p.page, 'Support');
  await p.page.getByRole('list', { name: 'Tickets, unread first' }).or(p.page.getByText('No open tickets')).first().waitFor();
  assert.deepEqual(await p.problems(), []);
  await p.close();
});
