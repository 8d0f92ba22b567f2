// The customer card's actions, each checked where it lands: balance added with a reason is
// the customer's balance (GET /api/cabinet/me) and a ledger row with that reason, and a
// form sent again after its answer was lost (same Idempotency-Key) adds nothing twice;
// days added move the expiry by those days; a device unbound is gone on the panel; a block
// shows the customer the blocked screen and an unblock takes it away; a message reaches the
// bot once. Support sees only the support work, a viewer no enabled action. Each test
// makes the customers it uses.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { SUPPORT, VIEWER, adminApi, openAdmin, unique } from './lib/admin.mjs';
import { axe, launch, openPage, ready } from './lib/browser.mjs';
import { FAKES, api, freshId, initData, waitFor } from './lib/stack.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

const DAY = 86400000;

async function person({ firstName = 'Test', trial = false } = {}) {
  const id = freshId();
  const init = initData(id, { firstName });
  assert.equal((await api('GET', '/me', { init })).status, 200);
  if (trial) assert.equal((await api('POST', '/trial', { init })).status, 200);
  const found = (await adminApi('GET', '/customers?q=' + id)).json.items;
  assert.equal(found.length, 1, JSON.stringify(found));
  return { telegramId: id, init, id: found[0].id, me: async () => (await api('GET', '/me', { init })).json };
}

const card = async (c, who) => (await adminApi('GET', '/customers/' + c.id, undefined, who)).json;

// The card of `c`, drawn; its action `title` opened → the action's form.
async function openCard(c, opts = {}) {
  const p = await openAdmin(browser, '#/customers?id=' + c.id, opts);
  await p.page.getByRole('heading', { name: 'Balance history' }).waitFor();
  await ready(p.page);
  return p;
}
// The toast that says an action was done (the audit list below may say the same words).
const toast = (page, text) => page.locator('#toasts .toast-success', { hasText: text }).first().waitFor();

async function openAction(page, title) {
  await page.locator('details.cust-action > summary', { hasText: title }).click();
  return page.getByRole('form', { name: title });
}

test('balance added with a reason reaches the customer and the ledger, once even when the form is sent again after a lost answer', async () => {
  const c = await person({ firstName: 'Money' });
  const p = await openCard(c);
  assert.deepEqual(await axe(p.page), []);
  const form = await openAction(p.page, 'Add or take balance');

  // No reason: said next to the field, nothing sent.
  await form.getByLabel('Amount, RUB').fill('150.50');
  await form.getByRole('button', { name: 'Change the balance' }).click();
  await form.getByText('Write the reason: it is kept in the audit log.').waitFor();
  assert.equal((await c.me()).user.balance_minor, 0);

  // The first answer is lost on the way back (the server did the work), the form is sent
  // again: the same key, one change.
  const reason = 'Refund for the outage ' + unique('r');
  const keys = [];
  let lose = true;
  await p.page.route('**/api/admin/customers/*/balance', async (route) => {
    keys.push(route.request().headers()['idempotency-key']);
    if (lose) {
      lose = false;
      await route.fetch();
      await route.abort('connectionreset');
      return;
    }
    await route.continue();
  });
  await form.getByLabel('Reason').fill(reason);
  await form.getByRole('button', { name: 'Change the balance' }).click();
  await waitFor(() => keys.length === 1, { what: 'the first try' });
  await waitFor(async () => (await form.getByRole('button', { name: 'Change the balance' }).isEnabled()), { what: 'the button back' });
  assert.equal((await c.me()).user.balance_minor, 15050, 'the lost answer\'s change was made');
  await form.getByRole('button', { name: 'Change the balance' }).click();
  await toast(p.page, /^Balance changed by \+₽150\.50: now ₽150\.50$/);
  assert.equal(keys.length, 2);
  assert.ok(keys[0] && keys[0] === keys[1], JSON.stringify(keys));
  assert.equal((await c.me()).user.balance_minor, 15050);
  const after1 = await card(c);
  const rows = after1.ledger.filter((r) => r.reason === reason || r.note === reason);
  assert.equal(rows.length, 1, JSON.stringify(after1.ledger));
  assert.equal(rows[0].delta_minor, 15050);
  assert.ok(after1.audit.some((e) => JSON.stringify(e.payload).includes(reason)), JSON.stringify(after1.audit));
  // The card drawn again shows the row.
  await p.page.getByRole('table', { name: 'Balance history' }).getByRole('row').filter({ hasText: reason }).waitFor();
  await p.page.unroute('**/api/admin/customers/*/balance');

  // Take more than there is: refused next to the amount before sending.
  const again = await openAction(p.page, 'Add or take balance');
  await again.getByLabel('What').selectOption('take');
  await again.getByLabel('Amount, RUB').fill('200');
  await again.getByLabel('Reason').fill('too much');
  await again.getByRole('button', { name: 'Change the balance' }).click();
  await again.getByText('At most the balance: 150.50').waitFor();
  // Take some: a new key (a new form submission), the balance goes down.
  await again.getByLabel('Amount, RUB').fill('50.50');
  await again.getByRole('button', { name: 'Change the balance' }).click();
  await toast(p.page, /^Balance changed by −₽50\.50: now ₽100$/);
  assert.equal((await c.me()).user.balance_minor, 10000);
  const problems = (await p.problems()).filter((x) => !/request failed: POST .*\/balance .*ERR_CONNECTION_RESET/.test(x));
  assert.deepEqual(problems, []);
  await p.close();
});

test('extend by days moves the expiry by those days; a device unbound is gone on the panel', async () => {
  const c = await person({ firstName: 'Days', trial: true });
  const before0 = (await c.me()).subscription.expire_at;
  const p = await openCard(c);
  const form = await openAction(p.page, 'Extend by days');
  await form.getByLabel('Days').fill('30');
  await form.getByLabel('Reason').fill('Goodwill after a support call');
  await form.getByRole('button', { name: 'Extend' }).click();
  await toast(p.page, 'Extended by 30 days');
  const after0 = (await c.me()).subscription.expire_at;
  assert.equal(new Date(after0).getTime() - new Date(before0).getTime(), 30 * DAY, `${before0} → ${after0}`);
  assert.equal((await card(c)).subscription.expire_at, after0);

  // The devices (the mock panel gives every new user two): unbind the first.
  const devices = (await adminApi('GET', `/customers/${c.id}/devices`)).json.items;
  assert.equal(devices.length, 2, JSON.stringify(devices));
  const list = p.page.getByRole('list', { name: 'Devices' });
  await waitFor(async () => (await list.getByRole('listitem').count()) === 2, { what: 'two devices' });
  await list.getByRole('button', { name: /^Unbind / }).first().click();
  const unbind = list.getByRole('form').first();
  await unbind.getByLabel('Reason').fill('Lost phone');
  await unbind.getByRole('button', { name: 'Unbind', exact: true }).click();
  await toast(p.page, /unbound$/);
  await waitFor(async () => (await list.getByRole('listitem').count()) === 1, { what: 'one device left' });
  const left = (await adminApi('GET', `/customers/${c.id}/devices`)).json.items;
  assert.deepEqual(left.map((d) => d.hwid), [devices[1].hwid]);
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('a block shows the customer the blocked screen after a confirmation; an unblock takes it away', async () => {
  const c = await person({ firstName: 'Blocky', trial: true });
  const p = await openCard(c);
  const form = await openAction(p.page, 'Block');
  await form.getByLabel('Reason').fill('Chargeback fraud');
  await form.getByRole('button', { name: 'Block' }).click();
  // Asked first; "Cancel" sends nothing.
  await p.page.getByRole('group', { name: 'Block Blocky?' }).getByRole('button', { name: 'Cancel' }).click();
  assert.equal((await card(c)).customer.is_blocked, false);
  await form.getByRole('button', { name: 'Block' }).click();
  await p.page.getByRole('group', { name: 'Block Blocky?' }).getByRole('button', { name: 'Block' }).click();
  await toast(p.page, 'Blocky is blocked');
  await p.page.locator('.cust-profile').getByText('blocked', { exact: true }).waitFor();
  assert.equal((await card(c)).customer.is_blocked, true);

  const app = await openPage(browser, '/app/', { init: c.init });
  app.allowHttp((r) => r.url().endsWith('/api/cabinet/me') && r.status() === 403);
  await app.page.getByRole('heading', { name: 'Access blocked' }).waitFor();
  await app.close();

  const un = await openAction(p.page, 'Unblock');
  await un.getByLabel('Reason').fill('Resolved with the bank');
  await un.getByRole('button', { name: 'Unblock' }).click();
  await p.page.getByRole('group', { name: 'Unblock Blocky?' }).getByRole('button', { name: 'Unblock' }).click();
  await toast(p.page, 'Blocky is unblocked');
  assert.equal((await card(c)).customer.is_blocked, false);
  const back = await openPage(browser, '/app/', { init: c.init });
  await ready(back.page);
  assert.equal(await back.page.getByRole('heading', { name: 'Access blocked' }).count(), 0);
  assert.deepEqual(await back.problems(), []);
  await back.close();
  const audit = (await card(c)).audit.map((e) => JSON.stringify(e));
  assert.ok(audit.some((e) => e.includes('Chargeback fraud')), audit.join('\n'));
  assert.ok(audit.some((e) => e.includes('Resolved with the bank')), audit.join('\n'));
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

const TITLES = ['Add or take balance', 'Extend by days', 'Grant a plan', 'Personal discount', 'Promo group',
  'Reset devices', 'Reset the subscription link', 'Block', 'Sync with the panel', 'Send a message'];
const titles = (page) => page.locator('details.cust-action > summary').allInnerTexts();

test('support sees the support work only (no balance, no extend), and a message it sends reaches the customer through the bot once', async () => {
  const c = await person({ firstName: 'Helped', trial: true });
  const p = await openCard(c, { who: SUPPORT, width: 390 });
  assert.deepEqual(await titles(p.page), ['Reset devices', 'Reset the subscription link', 'Block', 'Sync with the panel', 'Send a message']);
  assert.equal(await p.page.getByText('Read-only', { exact: false }).count(), 0);
  assert.deepEqual(await axe(p.page), []);
  const form = await openAction(p.page, 'Send a message');
  await form.getByLabel('Message', { exact: true }).fill('Your subscription is fixed. ' + '<b>bold</b>');
  await form.getByLabel('Reason').fill('Ticket follow-up');
  await form.getByRole('button', { name: 'Send' }).click();
  await toast(p.page, 'Message to Helped queued; the bot sends it shortly');
  const sent = (await card(c)).audit.find((e) => e.action === 'customer.message');
  assert.ok(sent && JSON.stringify(sent.payload).includes('Ticket follow-up'), JSON.stringify(sent));
  // The worker's bot sends it, once, to the customer's chat (the fake Bot API's journal).
  const toThem = async () => (await (await fetch(`${FAKES}/__fake/journal?service=telegram`)).json())
    .filter((r) => String(r.path || r.url || '').endsWith('/sendMessage') && JSON.stringify(r).includes(String(c.telegramId)));
  await waitFor(async () => (await toThem()).length > 0, { what: 'the bot\'s sendMessage', timeout: 20000 });
  const calls = await toThem();
  assert.equal(calls.length, 1, JSON.stringify(calls));
  assert.ok(JSON.stringify(calls[0]).includes('Your subscription is fixed.'), JSON.stringify(calls[0]));
  // Money is refused to support over the API too, nothing changed.
  const refused = await adminApi('POST', `/customers/${c.id}/balance`, { delta_minor: 100, reason: 'x' }, SUPPORT);
  assert.equal(refused.status, 403);
  assert.equal((await c.me()).user.balance_minor, 0);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('a viewer sees every action, none enabled, with the read-only note', async () => {
  const c = await person({ firstName: 'Watched' });
  const p = await openCard(c, { who: VIEWER });
  assert.deepEqual(await titles(p.page), TITLES);
  await p.page.getByText('Read-only: your role can see a customer but not change anything.').waitFor();
  for (const t of TITLES) await p.page.locator('details.cust-action > summary', { hasText: t }).click();
  const actions = p.page.getByRole('region', { name: 'Actions' });
  const enabled = [];
  for (const kind of ['button', 'textbox', 'combobox', 'spinbutton']) {
    for (const el of await actions.getByRole(kind).all()) if (await el.isEnabled()) enabled.push(kind + ' ' + (await el.textContent()));
  }
  assert.deepEqual(enabled, []);
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('the owner\'s other actions: grant a plan, discount, promo group, reset link, sync, reset devices; a refusal is said in the form', async () => {
  const group = unique('vip').toLowerCase();
  assert.equal((await adminApi('PUT', '/promo-groups/' + group, { discount_pct: 10 })).status < 300, true);
  const c = await person({ firstName: 'Granted' });
  const p = await openCard(c);

  // No subscription to extend: the server's refusal under the form, nothing changed.
  p.allowHttp((r) => r.status() === 409 && r.url().endsWith(`/customers/${c.id}/extend`));
  const extend = await openAction(p.page, 'Extend by days');
  await extend.getByLabel('Days').fill('0');
  await extend.getByLabel('Reason').fill('try');
  await extend.getByRole('button', { name: 'Extend' }).click();
  await extend.getByText('A whole number from 1 to 3650').waitFor();
  await extend.getByLabel('Days').fill('5');
  await extend.getByRole('button', { name: 'Extend' }).click();
  await extend.getByText(/no subscription to extend/).waitFor();
  assert.equal((await card(c)).subscription, null);

  const grant = await openAction(p.page, 'Grant a plan');
  await grant.getByLabel('Plan').selectOption('standard');
  await grant.getByLabel('Days').fill('14');
  await grant.getByLabel('Reason').fill('Partner account');
  const started = Date.now();
  await grant.getByRole('button', { name: 'Grant' }).click();
  await toast(p.page, 'Standard granted for 14 days');
  const sub = (await c.me()).subscription;
  assert.equal(sub.plan_code ?? (await card(c)).subscription.plan_code, 'standard');
  assert.ok(Math.abs(new Date(sub.expire_at).getTime() - (started + 14 * DAY)) < 5 * 60000, sub.expire_at);

  const discount = await openAction(p.page, 'Personal discount');
  await discount.getByLabel('Discount, %').fill('15');
  await discount.getByLabel('Reason').fill('Loyal');
  await discount.getByRole('button', { name: 'Save' }).click();
  await toast(p.page, 'Personal discount is now 15%');
  assert.equal((await card(c)).customer.personal_discount_pct, 15);

  const groupForm = await openAction(p.page, 'Promo group');
  await groupForm.getByLabel('Promo group').selectOption(group);
  await groupForm.getByLabel('Reason').fill('Partner');
  await groupForm.getByRole('button', { name: 'Save' }).click();
  await toast(p.page, 'Promo group is now ' + group);
  assert.equal((await card(c)).customer.promo_group, group);

  const linkBefore = (await card(c)).subscription.subscription_url;
  const link = await openAction(p.page, 'Reset the subscription link');
  await link.getByLabel('Reason').fill('Link leaked');
  await link.getByRole('button', { name: 'Reset the link' }).click();
  await p.page.getByRole('group', { name: /new subscription link/ }).getByRole('button', { name: 'Reset the link' }).click();
  await toast(p.page, 'Subscription link reset');
  const linkAfter = (await card(c)).subscription.subscription_url;
  assert.ok(linkAfter && linkAfter !== linkBefore, `${linkBefore} → ${linkAfter}`);

  const sync = await openAction(p.page, 'Sync with the panel');
  await sync.getByLabel('Reason').fill('Panel shows the old expiry');
  await sync.getByRole('button', { name: 'Sync' }).click();
  await toast(p.page, 'Synced with the panel');

  assert.equal((await adminApi('GET', `/customers/${c.id}/devices`)).json.items.length, 2);
  const reset = await openAction(p.page, 'Reset devices');
  await reset.getByLabel('Reason').fill('New phone');
  await reset.getByRole('button', { name: 'Reset devices' }).click();
  await p.page.getByRole('group', { name: /Unbind every device/ }).getByRole('button', { name: 'Reset devices' }).click();
  await toast(p.page, 'Devices reset');
  assert.equal((await adminApi('GET', `/customers/${c.id}/devices`)).json.items.length, 0);

  const actions = (await card(c)).audit.map((e) => e.action);
  for (const a of ['grant', 'discount', 'promo-group', 'reset-link', 'sync', 'reset-devices']) assert.ok(actions.includes('customer.' + a), actions.join());
  assert.ok(!actions.includes('customer.extend'), 'the refused extend changed nothing');
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});
