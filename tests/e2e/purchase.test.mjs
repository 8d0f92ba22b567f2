// Plans and purchase: a customer picks a plan and pays from the balance, with Telegram Stars
// or on a gateway's page, and the days and the money on the server add up to what the page
// said; a short balance is a "top up" message with nothing charged; the constructor builds
// its total as the customer picks (demo).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';

import { axe, launch, openPage, ready, screenshotPath } from './lib/browser.mjs';
import { BASE, FAKES, api, ctl, freshId, initData, starsInvoiceLinks, waitFor } from './lib/stack.mjs';

const DAY = 86400000;

let browser;
let linkStyle;   // Telegram's own invoice links here (the sandbox's are sandbox.test.mjs's)
before(async () => { browser = await launch(); linkStyle = await starsInvoiceLinks('telegram'); });
after(async () => { await browser.close(); await starsInvoiceLinks(linkStyle); });

// A Telegram user who exists (first /me registers them), with `balance` minor units.
async function shopper(balance) {
  const id = freshId();
  const init = initData(id);
  assert.equal((await api('GET', '/me', { init })).status, 200);
  if (balance !== undefined) ctl('user', 'set-balance', '--telegram-id', String(id), '--value', String(balance));
  return { id, init, me: async () => (await api('GET', '/me', { init })).json };
}

async function openPlans(init, path = '/app/') {
  const p = await openPage(browser, path, { init });
  await ready(p.page);
  await p.page.getByRole('navigation').getByRole('link', { name: 'Plans' }).click();
  await p.page.getByRole('heading', { name: 'Payment' }).waitFor();
  await ready(p.page);
  return p;
}

// "Pay ₽199" / "Pay ₽2,249.10" → minor units.
function minorOf(text) {
  const m = text.replace(/,/g, '').match(/(\d+(?:\.\d{1,2})?)/);
  assert.ok(m, `no amount in "${text}"`);
  return Math.round(Number(m[1]) * 100);
}

// The date as the page writes it (en-GB, the page's locale for an English user).
const dateText = (iso) => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(iso));

const purchaseCall = (r) => r.url().endsWith('/api/cabinet/purchase') && r.request().method() === 'POST';

async function fakeJournal(service) {
  return (await fetch(`${FAKES}/__fake/journal?service=${service}`)).json();
}

test('buy with the balance: the price shown is the price taken, the days are added, a double tap pays once', async () => {
  const u = await shopper(100000);
  const p = await openPlans(u.init);
  assert.deepEqual(await axe(p.page), []);
  const started = Date.now();
  await p.page.getByRole('article', { name: 'Start' }).getByRole('radio', { name: /^1 month/ }).check();
  await p.page.getByRole('radio', { name: /From the balance/ }).check();
  const payButton = p.page.getByRole('button', { name: /^Pay / });
  const shown = minorOf(await payButton.textContent());
  const plans = (await api('GET', '/plans', { init: u.init })).json;
  assert.equal(shown, plans.items.find((x) => x.name === 'Start').durations.find((d) => d.days === 30).price_minor);

  const purchases = [];
  p.page.on('request', (r) => { if (r.url().endsWith('/api/cabinet/purchase')) purchases.push(r.headers()['idempotency-key']); });
  await payButton.dblclick();
  const me = await waitFor(async () => { const m = await u.me(); return m.subscription && m; }, { what: 'the subscription' });
  assert.equal(me.user.balance_minor, 100000 - shown);
  assert.equal(me.subscription.plan_name, 'Start');
  const expiry = new Date(me.subscription.expire_at).getTime();
  assert.ok(Math.abs(expiry - (started + 30 * DAY)) < 5 * 60000, me.subscription.expire_at);
  await p.page.getByText('until ' + dateText(me.subscription.expire_at), { exact: true }).waitFor();
  assert.equal(purchases.length, 1, 'one POST /purchase for a double tap');
  assert.ok(purchases[0], 'the purchase carried an Idempotency-Key');
  const pay = (await api('GET', '/payments', { init: u.init })).json.items.filter((x) => x.type === 'subscription_payment');
  assert.equal(pay.length, 1);
  assert.equal(pay[0].amount_minor, shown);
  assert.equal(pay[0].method, 'balance');
  assert.equal(pay[0].status, 'completed');
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('a balance too short gets "not enough on the balance" with the shortfall and another way to pay; nothing is charged', async () => {
  const u = await shopper(5000);
  const p = await openPlans(u.init);
  p.allowHttp((r) => purchaseCall(r) && r.status() === 402);
  await p.page.getByRole('article', { name: 'Standard' }).getByRole('radio', { name: /^1 month/ }).check();
  // The method list already says it is not enough.
  await p.page.getByText(/₽50 on the balance, ₽249 short/).waitFor();
  await p.page.getByRole('radio', { name: /From the balance/ }).check();
  await p.page.getByRole('button', { name: 'Pay ₽299' }).click();
  const alert = p.page.getByRole('alert').filter({ hasText: 'Not enough money on the balance' });
  await alert.waitFor();
  await alert.getByText(/₽249 short/).waitFor();
  assert.deepEqual(await axe(p.page), []);
  const me = await u.me();
  assert.equal(me.user.balance_minor, 5000);
  assert.equal(me.subscription, null);
  assert.equal((await api('GET', '/payments', { init: u.init })).json.items.filter((x) => x.type === 'subscription_payment').length, 0);
  // "Pay another way" moves the choice to a gateway.
  await alert.getByRole('button', { name: 'Pay another way' }).click();
  assert.ok(await p.page.getByRole('radio', { name: /YooKassa/ }).isChecked());
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('Telegram Stars: the invoice opens in Telegram, and once paid the page shows the new expiry', async () => {
  const u = await shopper();
  const p = await openPlans(u.init);
  await p.page.getByRole('article', { name: 'Standard' }).getByRole('radio', { name: /^1 month/ }).check();
  await p.page.getByRole('radio', { name: /Telegram Stars/ }).check();
  const stars = (await api('GET', '/plans', { init: u.init })).json.items.find((x) => x.name === 'Standard').durations[0].price_stars;
  const payButton = p.page.getByRole('button', { name: /^Pay / });
  assert.equal(minorOf(await payButton.textContent()), stars * 100);   // "Pay ⭐ 167"
  const answer = p.page.waitForResponse(purchaseCall);
  await payButton.click();
  const r = await (await answer).json();
  const slug = r.invoice_link.replace('https://t.me/$', '');
  const opened = await waitFor(async () => (await p.tgEvents('web_app_open_invoice'))[0], { what: 'web_app_open_invoice' });
  assert.deepEqual(opened.data, { slug });
  // The Bot API was asked for the invoice with the transaction as its payload.
  const call = (await fakeJournal('telegram')).filter((e) => e.path.endsWith('/createInvoiceLink'))
    .find((e) => String((e.json || e.form || {}).payload) === String(r.transaction_id));
  assert.ok(call, 'createInvoiceLink with the transaction as payload');

  // Telegram takes the money: pre-checkout, then the successful payment, on the bot webhook.
  const hook = (update) => fetch(BASE + '/bot/webhook', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Telegram-Bot-Api-Secret-Token': process.env.BOT_WEBHOOK_SECRET },
    body: JSON.stringify(update),
  });
  const payload = String(r.transaction_id);
  assert.equal((await hook({ update_id: 1, pre_checkout_query: { id: 'q' + payload, from: { id: u.id }, currency: 'XTR', total_amount: stars, invoice_payload: payload } })).status, 200);
  assert.equal((await hook({
    update_id: 2,
    message: { message_id: 5, chat: { id: u.id }, successful_payment: { currency: 'XTR', total_amount: stars, invoice_payload: payload, telegram_payment_charge_id: 'ch_' + payload } },
  })).status, 200);
  await p.tgEvent('invoice_closed', { slug, status: 'paid' });
  const me = await waitFor(async () => { const m = await u.me(); return m.subscription && m; }, { what: 'the worker to fulfil the payment' });
  await p.page.getByText('until ' + dateText(me.subscription.expire_at), { exact: true }).waitFor();
  assert.equal(me.subscription.plan_name, 'Standard');
  const pay = (await api('GET', '/payments', { init: u.init })).json.items[0];
  assert.equal(pay.method, 'stars');
  assert.equal(pay.status, 'completed');
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('Telegram\'s Main button pays too; a cancelled invoice says so, grants nothing, and Pay works again', async () => {
  const u = await shopper();
  const p = await openPlans(u.init);
  await p.page.getByRole('article', { name: 'Start' }).getByRole('radio', { name: /^1 month/ }).check();
  await p.page.getByRole('radio', { name: /Telegram Stars/ }).check();
  const stars = (await api('GET', '/plans', { init: u.init })).json.items.find((x) => x.name === 'Start').durations[0].price_stars;
  const setup = await waitFor(async () => {
    const last = (await p.tgEvents('web_app_setup_main_button')).at(-1);
    return last && last.data.is_visible && /^Pay /.test(last.data.text) && last.data;
  }, { what: 'the Main button' });
  assert.equal(minorOf(setup.text), stars * 100);
  await p.tgEvent('main_button_pressed', {});
  const opened = await waitFor(async () => (await p.tgEvents('web_app_open_invoice'))[0], { what: 'web_app_open_invoice' });
  assert.equal(await p.page.getByRole('button', { name: /^Pay / }).count(), 0, 'the Pay button is busy while the invoice is open');
  await p.tgEvent('invoice_closed', { slug: opened.data.slug, status: 'cancelled' });
  await p.page.getByText('The payment was cancelled.').waitFor();
  await p.page.getByRole('button', { name: /^Pay / }).waitFor();
  assert.ok(await p.page.getByRole('button', { name: /^Pay / }).isEnabled());
  const me = await u.me();
  assert.equal(me.subscription, null);
  assert.equal((await api('GET', '/payments', { init: u.init })).json.items.filter((x) => x.status === 'completed').length, 0);
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('online gateway (YooKassa): the payment page opens, the screen waits, and shows the new expiry after the webhook', async () => {
  const u = await shopper();
  const p = await openPlans(u.init);
  await p.page.getByRole('article', { name: 'Start' }).getByRole('radio', { name: /^3 months/ }).check();
  await p.page.getByRole('radio', { name: /YooKassa/ }).check();
  await p.page.getByRole('button', { name: /^Pay / }).click();
  const opened = await waitFor(async () => (await p.tgEvents('web_app_open_link'))[0], { what: 'web_app_open_link' });
  // The stack's YooKassa is the sandbox: its checkout page (paid by hand in sandbox.test.mjs;
  // here the notification is sent by the test).
  const url = new URL(opened.data.url);
  assert.equal(url.origin, BASE);
  const checkout = url.pathname.match(/^\/sandbox\/yookassa\/checkout\/([^/]+)$/);
  assert.ok(checkout, opened.data.url);
  const paymentId = decodeURIComponent(checkout[1]);
  await p.page.getByRole('heading', { name: 'Waiting for the payment' }).waitFor();
  assert.deepEqual(await axe(p.page), []);
  assert.equal((await u.me()).subscription, null, 'nothing before the money');

  const paid = await (await fetch(`${FAKES}/__fake/yookassa/payments/${paymentId}`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ status: 'succeeded' }),
  })).json();
  const wh = await fetch(BASE + '/api/v1/payments/yookassa', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(paid.notification),
  });
  assert.equal(wh.status, 200);
  const me = await waitFor(async () => { const m = await u.me(); return m.subscription && m; }, { what: 'the worker to fulfil the payment' });
  await p.page.getByText('until ' + dateText(me.subscription.expire_at), { exact: true }).waitFor();
  assert.equal(me.subscription.plan_name, 'Start');
  const pay = (await api('GET', '/payments', { init: u.init })).json.items[0];
  assert.equal(pay.method, 'yookassa');
  assert.equal(pay.status, 'completed');
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('constructor (demo): the total and the Stars price follow the period and the pack', async () => {
  const p = await openPage(browser, '/app/?mock=1&sales=constructor');
  const apiCalls = [];
  p.page.on('request', (r) => { if (new URL(r.url()).pathname.startsWith('/api/')) apiCalls.push(r.url()); });
  await ready(p.page);
  await p.page.getByRole('navigation').getByRole('link', { name: 'Plans' }).click();
  await p.page.getByRole('heading', { name: 'Payment' }).waitFor();
  const total = p.page.getByText(/^Total .*\d/);
  const starsLine = p.page.getByText(/in Telegram Stars$/);
  // The demo's prices less its 10 % sale; a star is 1.30 ₽.
  const expect = async (price, stars) => {
    await waitFor(async () => minorOf(await total.textContent()) === price, { what: `total ${price}` });
    assert.equal(minorOf(await starsLine.textContent()), stars * 100);
    assert.equal(minorOf(await p.page.getByRole('button', { name: /^Pay / }).textContent()), price);
  };
  await expect(13410 + 4500, Math.ceil((13410 + 4500) / 130));
  await p.page.getByRole('group', { name: 'Period' }).getByRole('radio', { name: /^3 months/ }).check();
  await expect(35910 + 4500, Math.ceil((35910 + 4500) / 130));
  await p.page.getByRole('group', { name: 'Traffic' }).getByRole('radio', { name: /^200 GB/ }).check();
  await expect(35910 + 13500, Math.ceil((35910 + 13500) / 130));
  await p.page.getByRole('group', { name: 'Traffic' }).getByRole('radio', { name: /^Unlimited/ }).check();
  await p.page.getByRole('group', { name: 'Period' }).getByRole('radio', { name: /^12 months/ }).check();
  await expect(107910 + 22500, Math.ceil((107910 + 22500) / 130));
  assert.deepEqual(await axe(p.page), []);
  // Paying from the demo balance (₽450) works in the page and lands on home.
  await p.page.getByRole('group', { name: 'Period' }).getByRole('radio', { name: /^1 month/ }).check();
  await p.page.getByRole('group', { name: 'Traffic' }).getByRole('radio', { name: /^50 GB/ }).check();
  await p.page.getByRole('button', { name: /^Pay / }).click();
  await p.page.getByText(/Paid\. Your subscription is active until/).waitFor();
  assert.deepEqual(apiCalls, []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('a gateway outage says "unavailable, nothing charged", and the retry reuses the purchase\'s Idempotency-Key', async () => {
  const u = await shopper();
  const p = await openPlans(u.init);
  p.allowHttp((r) => purchaseCall(r) && r.status() === 502);
  await p.page.getByRole('article', { name: 'Start' }).getByRole('radio', { name: /^1 month/ }).check();
  await p.page.getByRole('radio', { name: /YooKassa/ }).check();
  const keys = [];
  p.page.on('request', (r) => { if (r.url().endsWith('/api/cabinet/purchase')) keys.push(r.headers()['idempotency-key']); });
  const fail = await fetch(`${FAKES}/__fake/fail`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ service: 'yookassa', count: 1, status: 500 }),
  });
  assert.equal(fail.status, 200);
  try {
    await p.page.getByRole('button', { name: /^Pay / }).click();
    await p.page.getByRole('status').getByText(/payment service is unavailable right now\. Nothing was charged/).waitFor();
  } finally {
    await fetch(`${FAKES}/__fake/fail`, { method: 'DELETE' });
  }
  assert.deepEqual(await axe(p.page), []);
  assert.equal((await api('GET', '/payments', { init: u.init })).json.items.length, 0);
  assert.equal((await u.me()).subscription, null);
  // The same purchase again: the same key, and this time the payment page opens.
  await p.page.getByRole('button', { name: /^Pay / }).click();
  await p.page.getByRole('heading', { name: 'Waiting for the payment' }).waitFor();
  assert.equal(keys.length, 2);
  assert.ok(keys[0] && keys[0] === keys[1], 'the retry carried the same Idempotency-Key');
  assert.equal((await p.tgEvents('web_app_open_link')).length, 1);
  const pending = (await api('GET', '/payments', { init: u.init })).json.items;
  assert.equal(pending.length, 1);
  assert.equal(pending[0].status, 'pending');
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

// The pool restarted with other settings (as the C++ integration tests do), then restored.
function poolWith(extraEnv) {
  const run = (action, env) => execFileSync(process.env.CABINET_STACK, ['svc', action, 'pool'], {
    stdio: 'ignore', env: { ...process.env, STACK_EXTRA_ENV: env },
  });
  run('stop', '');
  run('start', extraEnv);
  return () => { run('stop', ''); run('start', ''); };
}

test('constructor (live): period + pack priced by the server, paid from the balance, the days added', async () => {
  const restore = poolWith('SALES_MODE=constructor');
  try {
    const u = await shopper(200000);
    const list = (await api('GET', '/constructor', { init: u.init })).json;
    const period = list.periods.find((x) => x.months === 3);
    const pack = list.traffic_packs.find((x) => x.gb === 200);
    const price = period.price_minor + pack.price_minor;
    const p = await openPlans(u.init);
    assert.deepEqual(await axe(p.page), []);
    const started = Date.now();
    await p.page.getByRole('group', { name: 'Period' }).getByRole('radio', { name: /^3 months/ }).check();
    await p.page.getByRole('group', { name: 'Traffic' }).getByRole('radio', { name: /^200 GB/ }).check();
    await waitFor(async () => minorOf(await p.page.getByText(/^Total .*\d/).textContent()) === price, { what: 'the total' });
    // Stars at the server's rate (stars_rate: minor units a star).
    const stars = Math.max(1, Math.ceil(price / list.stars_rate));
    assert.equal(minorOf(await p.page.getByText(/in Telegram Stars$/).textContent()), stars * 100);
    await p.page.getByRole('radio', { name: /From the balance/ }).check();
    await p.page.getByRole('button', { name: /^Pay / }).click();
    const me = await waitFor(async () => { const m = await u.me(); return m.subscription && m; }, { what: 'the subscription' });
    await p.page.getByText('until ' + dateText(me.subscription.expire_at), { exact: true }).waitFor();
    assert.equal(me.user.balance_minor, 200000 - price);
    assert.ok(Math.abs(new Date(me.subscription.expire_at).getTime() - (started + period.days * DAY)) < 5 * 60000, me.subscription.expire_at);
    const pay = (await api('GET', '/payments', { init: u.init })).json.items[0];
    assert.equal(pay.amount_minor, price);
    assert.equal(pay.method, 'balance');
    assert.deepEqual(await axe(p.page), []);
    assert.deepEqual(await p.problems(), []);
    await p.close();
  } finally {
    restore();
  }
});

test('demo: a short balance, then another way to pay, waits for "the money" and lands on home; no request to /api', async () => {
  const p = await openPage(browser, '/app/?mock=1');
  const apiCalls = [];
  p.page.on('request', (r) => { if (new URL(r.url()).pathname.startsWith('/api/')) apiCalls.push(r.url()); });
  await ready(p.page);
  await p.page.getByRole('navigation').getByRole('link', { name: 'Plans' }).click();
  await p.page.getByRole('heading', { name: 'Payment' }).waitFor();
  // The demo's list prices carry a sale: the list price is struck through, named "was".
  const family = p.page.getByRole('article', { name: 'Family' });
  await family.getByRole('radio', { name: /^12 months ₽3,599\.10 was ₽3,999/ }).check();
  await p.page.getByRole('radio', { name: /From the balance/ }).check();
  await p.page.getByRole('button', { name: 'Pay ₽3,599.10' }).click();
  const alert = p.page.getByRole('alert').filter({ hasText: 'Not enough money on the balance' });
  await alert.getByText(/₽3,149\.10 short/).waitFor();
  await alert.getByRole('button', { name: 'Pay another way' }).click();
  await p.page.getByRole('button', { name: 'Pay ₽3,599.10' }).click();
  await p.page.getByRole('heading', { name: 'Waiting for the payment' }).waitFor();
  assert.deepEqual(await axe(p.page), []);
  await p.page.getByText(/Paid\. Your subscription is active until/).waitFor({ timeout: 10000 });
  await p.page.getByRole('heading', { name: 'Family' }).waitFor();
  assert.deepEqual(apiCalls, []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

// Issue 49: an open payment says until when it can be paid and is canceled from the list
// (confirmed in place); the server has it canceled, and nothing was charged.
test('an open payment shows when it ends and is canceled from the payments list', async () => {
  const s = await shopper(0);
  const bought = await api('POST', '/purchase', { init: s.init, body: { plan_id: 'standard', days: 30, method: 'yookassa' } });
  assert.equal(bought.status, 200, JSON.stringify(bought.json));
  const id = bought.json.transaction_id;
  const p = await openPage(browser, '/app/#/payments', { init: s.init });
  await ready(p.page);
  const open = p.page.getByText(/^Can be paid until /);
  await open.waitFor();
  await p.page.screenshot({ path: screenshotPath('app-payments-open-390.png'), fullPage: true });
  assert.deepEqual(await axe(p.page), []);
  await p.page.getByRole('button', { name: 'Cancel payment' }).click();
  await p.page.getByText(/^Cancel this payment\? Nothing has been charged/).waitFor();
  await p.page.getByRole('button', { name: 'Keep it' }).click();   // changing one's mind changes nothing
  await open.waitFor();
  assert.equal((await api('GET', '/payments', { init: s.init })).json.items.find((x) => x.id === id).status, 'pending');
  await p.page.getByRole('button', { name: 'Cancel payment' }).click();
  await p.page.getByRole('button', { name: 'Yes, cancel it' }).click();
  await p.page.getByText('Payment canceled').waitFor();
  await p.page.locator(`li.payment[data-status="canceled"]`).first().waitFor();
  assert.equal(await open.count(), 0);
  const row = (await api('GET', '/payments', { init: s.init })).json.items.find((x) => x.id === id);
  assert.equal(row.status, 'canceled');
  assert.equal(row.expires_at, undefined);
  assert.equal((await s.me()).user.balance_minor, 0);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

// Issue 49: the autopay switch on the home screen says what it will take and when, warns
// when the balance would not cover it, and the server follows the switch.
test('autopay is switched on and off on the home screen, saying what it will charge and when', async () => {
  const s = await shopper(29900);
  assert.equal((await api('POST', '/purchase', { init: s.init, body: { plan_id: 'standard', days: 30, method: 'balance' } })).status, 200);
  const p = await openPage(browser, '/app/', { init: s.init });
  await ready(p.page);
  const toggle = p.page.getByRole('switch', { name: 'Renew automatically from the balance' });
  await toggle.waitFor();
  assert.equal(await toggle.isChecked(), false);
  const expire = (await s.me()).subscription.expire_at;
  const chargeDay = dateText(new Date(new Date(expire).getTime() - DAY).toISOString());
  await p.page.getByText(`When on: on ${chargeDay}, the day before the subscription ends`).waitFor();
  await toggle.check();
  await p.page.getByText('Autopay is on').waitFor();
  await p.page.getByText(`On ${chargeDay}, the day before the subscription ends`).waitFor();
  await p.page.getByText(/^The balance does not hold /).waitFor();   // the purchase took it all
  assert.equal((await s.me()).subscription.autopay_enabled, true);
  await p.page.screenshot({ path: screenshotPath('app-autopay-390.png'), fullPage: true });
  assert.deepEqual(await axe(p.page), []);
  await p.page.getByRole('switch', { name: 'Renew automatically from the balance' }).uncheck();
  await p.page.getByText('Autopay is off').waitFor();
  assert.equal((await s.me()).subscription.autopay_enabled, false);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});
