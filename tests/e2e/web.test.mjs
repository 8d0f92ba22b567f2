// The web cabinet's functions beyond sign-in: buying with an online gateway by redirect and
// back (paid, and back without paying), Telegram Stars through the invoice link, linking
// an OAuth account and Telegram from a web session, the admin screens for a web-signed-in
// admin (and "not allowed" for anyone else), the demo (?mock=1) and every screen axe-clean.
// Each click is checked on the server too.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { axe, launch, openPage, ready, screenshotPath } from './lib/browser.mjs';
import { api, BASE, ctl, FAKES, initData, waitFor } from './lib/stack.mjs';

const DAY = 86400000;
const PASSWORD = 'correct horse 42';
const ADMIN = 100000001;

let browser;
before(async () => { browser = await launch(); });
after(async () => {
  await browser.close();
  ctl('maintenance', 'off');   // never leave the stack in maintenance for the next file
});

let n = 0;
const freshEmail = () => `webs2${Date.now().toString(36)}${n++}${Math.floor(Math.random() * 1e6)}@example.test`;
const axeClean = async (page) => assert.deepEqual(await axe(page), []);
const dateText = (iso) => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(iso));
const bearerOf = (stored) => ({ Authorization: 'Bearer ' + stored });

async function mails(email) {
  return (await fetch(`${FAKES}/__fake/mail?to=${encodeURIComponent(email)}`)).json();
}

async function mailedLink(email) {
  const list = await waitFor(async () => { const r = await mails(email); return r.length ? r : null; }, { what: 'the verification mail' });
  const text = JSON.stringify(list[list.length - 1]).replace(/=\\r\\n/g, '').replace(/=3D/g, '=');
  const m = text.match(/https?:\/\/[^\s"\\<>]*\/cabinet\/verify\?token=[A-Za-z0-9_.~-]+/);
  assert.ok(m, 'a verify link in the mail');
  return new URL(m[0]);
}

// Records the Bearer credential the page sends (the server-side checks use it).
function watchBearer(page) {
  const seen = { value: null };
  page.on('request', (r) => { const a = r.headers().authorization; if (a && a.startsWith('Bearer ')) seen.value = a; });
  return seen;
}

// A web account made through the page: register → the mail → the verify link → signed in.
async function registerInPage(p, email = freshEmail()) {
  await p.page.getByRole('button', { name: 'Create an account' }).click();
  await p.page.getByLabel('E-mail').fill(email);
  await p.page.getByLabel('Password').fill(PASSWORD);
  await p.page.getByRole('button', { name: 'Create account' }).click();
  await p.page.getByRole('heading', { name: 'Check your mail' }).waitFor();
  const link = await mailedLink(email);
  await p.page.goto(BASE + link.pathname + link.search);
  await p.page.getByRole('button', { name: 'Sign out' }).waitFor();
  await ready(p.page);
  return email;
}

// A verified web account made through the API, then signed in on the page.
async function signedInPage(path = '/cabinet/') {
  const email = freshEmail();
  assert.equal((await api('POST', '/auth/register', { body: { email, password: PASSWORD, language: 'en' } })).status, 200);
  const link = await mailedLink(email);
  assert.equal((await api('POST', '/auth/verify', { body: { token: link.searchParams.get('token') } })).status, 200);
  const p = await openPage(browser, path);
  const bearer = watchBearer(p.page);
  await p.page.getByLabel('E-mail').fill(email);
  await p.page.getByLabel('Password').fill(PASSWORD);
  await p.page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await p.page.getByRole('button', { name: 'Sign out' }).waitFor();
  await ready(p.page);
  return { p, email, bearer };
}

test('demo: /cabinet/?mock=1 is signed in as the demo user with no request to /api', async () => {
  const p = await openPage(browser, '/cabinet/?mock=1');
  const calls = [];
  p.page.on('request', (r) => { if (new URL(r.url()).pathname.startsWith('/api/')) calls.push(r.url()); });
  await ready(p.page);
  await p.page.getByRole('navigation').getByRole('link', { name: 'Home' }).waitFor();
  await p.page.getByText('Standard', { exact: false }).first().waitFor();
  await axeClean(p.page);
  // The demo's gateway: the payment page is played by the demo, and the outcome shows.
  await p.page.getByRole('navigation').getByRole('link', { name: 'Plans' }).click();
  await ready(p.page);
  await p.page.getByRole('radio', { name: /YooKassa/ }).check();
  await p.page.getByRole('button', { name: /^Pay / }).click();
  await p.page.getByRole('heading', { name: 'Paid' }).waitFor({ timeout: 15000 });
  await axeClean(p.page);
  await p.page.getByRole('navigation').getByRole('link', { name: 'Account' }).click();
  await p.page.getByRole('link', { name: 'Sign-in methods' }).click();
  await p.page.getByRole('button', { name: 'Get the bot link' }).waitFor();
  await axeClean(p.page);
  assert.deepEqual(calls, []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

// ---- buying with an online gateway: the payment page in this tab, and back ----------------

const purchaseCall = (r) => r.url().endsWith('/api/cabinet/purchase') && r.request().method() === 'POST';

// Picks Start for 1 month with YooKassa and pays: the tab goes to the gateway's page.
// Returns {tx, paymentUrl}: the transaction (the user's one pending payment) and the page.
async function buyWithYooKassa(p, auth) {
  await p.page.getByRole('navigation').getByRole('link', { name: 'Plans' }).click();
  await ready(p.page);
  await p.page.getByRole('article', { name: 'Start' }).getByRole('radio', { name: /^1 month/ }).check();
  await p.page.getByRole('radio', { name: /YooKassa/ }).check();
  await axeClean(p.page);
  const left = p.page.waitForURL(/\/sandbox\/yookassa\/checkout\//);
  await p.page.getByRole('button', { name: /^Pay / }).click();
  await left;
  const paymentUrl = new URL(p.page.url());
  const pending = (await api('GET', '/payments', auth())).json.items.filter((x) => x.status === 'pending');
  assert.equal(pending.length, 1);
  assert.equal(pending[0].method, 'yookassa');
  return { tx: pending[0].id, paymentUrl };
}

// The buyer on the gateway's page: the stack's YooKassa sandbox (tests/fakes/sandbox.mjs),
// whose buttons settle the payment through the cabinet's real webhook and send the tab back
// to the return URL the server gave (/cabinet/?payment=<id>).
async function finishGatewayPayment(p, { paymentUrl }, status) {
  assert.equal(paymentUrl.origin, new URL(BASE).origin);
  assert.match(paymentUrl.pathname, /^\/sandbox\/yookassa\/checkout\//);
  await p.page.getByRole('button', { name: status === 'succeeded' ? 'Pay' : /Cancel/ }).click();
}

test('register → mail → verify → buy with YooKassa: the tab goes to the payment page, comes back, and shows the new expiry', async () => {
  const p = await openPage(browser, '/cabinet/');
  const bearer = watchBearer(p.page);
  await registerInPage(p);
  const auth = () => ({ headers: { Authorization: bearer.value } });
  const before = (await api('GET', '/me', auth())).json;
  assert.equal(before.subscription, null);
  const started = Date.now();

  const paying = await buyWithYooKassa(p, auth);
  assert.equal((await api('GET', '/me', auth())).json.subscription, null, 'nothing before the money');

  await finishGatewayPayment(p, paying, 'succeeded');
  await p.page.getByRole('heading', { name: 'Paid' }).waitFor({ timeout: 20000 });
  const me = (await api('GET', '/me', { headers: { Authorization: bearer.value } })).json;
  await p.page.getByText(`Your subscription is active until ${dateText(me.subscription.expire_at)}.`, { exact: false }).waitFor();
  assert.equal(new URL(p.page.url()).search, '', 'the ?payment= left the address bar');
  assert.equal(new URL(p.page.url()).hash, '#/payment');
  await axeClean(p.page);

  // On the server: the plan's 30 days, the payment completed, the balance untouched.
  assert.equal(me.subscription.plan_name, 'Start');
  const expiry = new Date(me.subscription.expire_at).getTime();
  assert.ok(Math.abs(expiry - (started + 30 * DAY)) < 5 * 60000, me.subscription.expire_at);
  assert.equal(me.user.balance_minor, before.user.balance_minor);
  const pay = (await api('GET', '/payments', { headers: { Authorization: bearer.value } })).json.items.find((x) => x.id === paying.tx);
  assert.equal(pay.status, 'completed');
  assert.equal(await p.page.evaluate(() => sessionStorage.getItem('cabinet.payment')), null, 'nothing left waiting');
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('back from a payment that was not made: nothing charged, and the page says it was not paid', async () => {
  const { p, bearer } = await signedInPage();
  const auth = () => ({ headers: { Authorization: bearer.value } });
  const before = (await api('GET', '/me', auth())).json;
  const paying = await buyWithYooKassa(p, auth);
  // Back from the gateway's page with the browser's Back button, without paying: waiting,
  // with the payment page offered again.
  await p.page.goBack();
  await p.page.getByRole('heading', { name: 'Waiting for the payment confirmation' }).waitFor();
  assert.equal(await p.page.getByRole('link', { name: 'Open the payment page again' }).getAttribute('href'), paying.paymentUrl.toString());
  await axeClean(p.page);
  assert.equal((await api('GET', '/payments', auth())).json.items.find((x) => x.id === paying.tx).status, 'pending');
  // The buyer opens the payment page again and cancels there: back on the cabinet's page.
  await p.page.getByRole('link', { name: 'Open the payment page again' }).click();
  await p.page.waitForURL(/\/sandbox\/yookassa\/checkout\//);
  await finishGatewayPayment(p, paying, 'canceled');
  await p.page.getByRole('heading', { name: 'Not paid' }).waitFor({ timeout: 20000 });
  await p.page.getByText('nothing was charged', { exact: false }).waitFor();
  await axeClean(p.page);
  const me = (await api('GET', '/me', auth())).json;
  assert.equal(me.subscription, null);
  assert.equal(me.user.balance_minor, before.user.balance_minor);
  const pay = (await api('GET', '/payments', auth())).json.items.find((x) => x.id === paying.tx);
  assert.equal(pay.status, 'canceled');
  // "Choose a plan" goes back to the plans.
  await p.page.getByRole('link', { name: 'Choose a plan' }).click();
  await p.page.getByRole('heading', { name: 'Plans', exact: true }).waitFor();
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('Telegram Stars on the web: the invoice link opens Telegram in a new tab, and once paid the page shows the new expiry', async () => {
  const { p, bearer } = await signedInPage();
  const auth = () => ({ headers: { Authorization: bearer.value } });
  await p.page.getByRole('navigation').getByRole('link', { name: 'Plans' }).click();
  await ready(p.page);
  await p.page.getByRole('article', { name: 'Start' }).getByRole('radio', { name: /^1 month/ }).check();
  await p.page.getByRole('radio', { name: 'Pay with Telegram Stars (opens Telegram)' }).check();
  const answer = p.page.waitForResponse(purchaseCall);
  await p.page.getByRole('button', { name: /^Pay / }).click();
  const r = await (await answer).json();
  const open = p.page.getByRole('link', { name: 'Open the invoice in Telegram' });
  await open.waitFor();
  assert.equal(await open.getAttribute('href'), r.invoice_link);
  assert.equal(await open.getAttribute('target'), '_blank');
  await p.page.getByRole('img', { name: 'QR code of the Telegram Stars invoice' }).waitFor();
  await p.page.getByRole('heading', { name: 'Waiting for the payment confirmation' }).waitFor();
  await axeClean(p.page);
  assert.equal((await api('GET', '/me', auth())).json.subscription, null);

  // Anyone with Telegram pays the invoice: the payment names the transaction, not the payer.
  const stars = (await api('GET', '/plans', auth())).json.items.find((x) => x.name === 'Start').durations.find((d) => d.days === 30).price_stars;
  const payer = 750000000 + Math.floor(Math.random() * 1e6);
  const hook = (update) => fetch(BASE + '/bot/webhook', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Telegram-Bot-Api-Secret-Token': process.env.BOT_WEBHOOK_SECRET },
    body: JSON.stringify(update),
  });
  const payload = String(r.transaction_id);
  assert.equal((await hook({ update_id: 1, pre_checkout_query: { id: 'q' + payload, from: { id: payer }, currency: 'XTR', total_amount: stars, invoice_payload: payload } })).status, 200);
  assert.equal((await hook({
    update_id: 2,
    message: { message_id: 5, chat: { id: payer }, successful_payment: { currency: 'XTR', total_amount: stars, invoice_payload: payload, telegram_payment_charge_id: 'ch_' + payload } },
  })).status, 200);
  await p.page.getByRole('heading', { name: 'Paid' }).waitFor({ timeout: 20000 });
  const me = (await api('GET', '/me', auth())).json;
  await p.page.getByText(`active until ${dateText(me.subscription.expire_at)}`, { exact: false }).waitFor();
  assert.equal(me.subscription.plan_name, 'Start');
  const pay = (await api('GET', '/payments', auth())).json.items.find((x) => x.id === r.transaction_id);
  assert.equal(pay.method, 'stars');
  assert.equal(pay.status, 'completed');
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

// ---- linking from a web session ------------------------------------------------------------

const botUpdate = (body) => fetch(BASE + '/bot/webhook', {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', 'X-Telegram-Bot-Api-Secret-Token': process.env.BOT_WEBHOOK_SECRET },
  body: JSON.stringify(body),
});

// The person opens the bot's link and presses Confirm: the two updates Telegram sends.
async function confirmInBot(tg, start, confirmData, who = {}) {
  const from = { id: tg, is_bot: false, first_name: 'Web', language_code: 'en', ...who };
  assert.equal((await botUpdate({ update_id: 1, message: { message_id: 9, date: 1700000000, from, chat: { id: tg, type: 'private' }, text: '/start ' + start } })).status, 200);
  assert.equal((await botUpdate({ update_id: 2, callback_query: { id: 'cb' + tg + Date.now(), from, chat_instance: '1', data: confirmData, message: { message_id: 55, date: 1700000000, chat: { id: tg, type: 'private' } } } })).status, 200);
}

async function openLinked(page) {
  await page.getByRole('navigation').getByRole('link', { name: 'Account' }).click();
  await page.getByRole('link', { name: 'Sign-in methods' }).click();
  await ready(page);
  await page.getByRole('heading', { name: 'Sign-in methods' }).waitFor();
}

test('OAuth link from a signed-in e-mail account: back signed in as the same account, Google linked', async () => {
  const { p, bearer } = await signedInPage();
  const before = (await api('GET', '/linked', { headers: { Authorization: bearer.value } })).json;
  const meBefore = (await api('GET', '/me', { headers: { Authorization: bearer.value } })).json;
  assert.deepEqual(before.oauth, []);
  assert.ok(before.available_providers.includes('google'));
  await openLinked(p.page);
  await axeClean(p.page);
  const sub = 'l' + Date.now() + Math.floor(Math.random() * 1e6);
  await p.page.route(/\/oauth\/google\/authorize\?/, (route) => {
    const u = new URL(route.request().url());
    u.searchParams.set('fake_user', JSON.stringify({ sub, email: `other${sub}@example.test`, email_verified: true, name: 'Linked Person' }));
    return route.fulfill({ status: 302, headers: { Location: u.toString() } });
  });
  await p.page.getByRole('button', { name: 'Link Google' }).click();
  await p.page.waitForURL(/\/cabinet\/#\/linked$/);
  await p.page.getByText('Google is linked').waitFor();
  await ready(p.page);
  await p.page.getByRole('list', { name: 'Sign-in methods' }).getByText('Linked Person').waitFor();
  assert.equal(await p.page.getByRole('button', { name: 'Link Google', exact: true }).count(), 0);
  await p.page.getByRole('button', { name: 'Unlink Google' }).waitFor();
  await axeClean(p.page);
  const linked = (await api('GET', '/linked', { headers: { Authorization: bearer.value } })).json;
  assert.deepEqual(linked.oauth.map((o) => o.provider), ['google']);
  assert.equal(linked.email, before.email, 'the same account');
  const me = (await api('GET', '/me', { headers: { Authorization: bearer.value } })).json;
  assert.equal(me.user.id, meBefore.user.id, 'the same user id');
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('end all other sessions: another browser\'s session ends, this one stays signed in across a reload', async () => {
  const { p, email } = await signedInPage();   // its verify (through the API) is a session too
  const other = await api('POST', '/auth/login', { body: { email, password: PASSWORD } });
  assert.equal(other.status, 200);
  await openLinked(p.page);
  const end = p.page.getByRole('button', { name: 'End all other sessions' });
  await end.click();
  await p.page.getByRole('button', { name: 'Cancel' }).click();
  await end.click();
  await axeClean(p.page);
  await p.page.getByRole('button', { name: 'Yes, end them' }).click();
  await p.page.getByText('2 other sessions ended').waitFor();
  if (process.env.E2E_SCREENSHOTS === '1') await p.page.screenshot({ path: screenshotPath('web-sessions-ended.png') });
  assert.equal((await api('POST', '/auth/refresh', { body: { refresh_token: other.json.refresh_token } })).status, 401);
  // Its access token too, at once: not up to 15 minutes later, when it would expire.
  assert.equal((await api('GET', '/me', { headers: { Authorization: `Bearer ${other.json.access_token}` } })).status, 401);
  // The page signs in again from its stored refresh token after a reload: still its session.
  await p.page.reload();
  await ready(p.page);
  await p.page.getByRole('heading', { name: 'Sign-in methods' }).waitFor();
  await p.page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
  await end.click();
  await p.page.getByRole('button', { name: 'Yes, end them' }).click();
  await p.page.getByText('There were no other sessions').waitFor();
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('Telegram link from the web: the bot link and QR; confirmed in the bot and approved here, the accounts are one and /linked shows Telegram', async () => {
  const { p, email, bearer } = await signedInPage();
  await openLinked(p.page);
  await p.page.getByRole('button', { name: 'Get the bot link' }).click();
  const link = p.page.getByRole('link', { name: 'Open the bot in Telegram' });
  await link.waitFor();
  await p.page.getByRole('img', { name: "QR code of the bot's link" }).waitFor();
  await axeClean(p.page);
  const url = new URL(await link.getAttribute('href'));
  assert.equal(url.hostname, 't.me');
  const start = url.searchParams.get('start');
  assert.match(start, /^link_/);
  const tg = 760000000 + Math.floor(Math.random() * 1e6);
  assert.equal((await api('GET', '/me', { init: initData(tg) })).status, 200);   // a Telegram customer already

  // Confirmed in the bot: the page names the Telegram account and asks; approved, the web
  // account joins the Telegram one and its session ends (decisions: "The merge"); the page
  // says so and asks to sign in again.
  p.allowHttp((r) => r.status() === 401 && /\/api\/cabinet\/(linked|me|auth\/refresh)$/.test(new URL(r.url()).pathname));
  await confirmInBot(tg, start, 'ln+' + start.replace(/^link_/, ''));
  await p.page.getByText(`ID ${tg} “Web” confirmed the link in Telegram. Is this your Telegram account?`).waitFor({ timeout: 15000 });
  assert.equal((await api('GET', '/linked', { headers: { Authorization: bearer.value } })).json.telegram, null, 'nothing merged before the approval');
  await axeClean(p.page);
  await p.page.getByRole('button', { name: 'Yes, link it' }).click();
  await p.page.getByRole('status').getByText('Telegram is linked', { exact: false }).waitFor({ timeout: 15000 });
  await axeClean(p.page);
  const merged = (await api('GET', '/linked', { init: initData(tg) })).json;
  assert.equal(merged.email, email, 'the Telegram account carries the e-mail now');
  assert.equal(merged.telegram.id, tg);

  // The e-mail and password sign in to the joined account, which has Telegram (so the
  // account screen asks whether it is an admin: 403, no link).
  p.allowHttp((r) => new URL(r.url()).pathname === '/api/admin/maintenance' && r.status() === 403);
  await p.page.getByLabel('E-mail').fill(email);
  await p.page.getByLabel('Password').fill(PASSWORD);
  await p.page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await p.page.getByRole('button', { name: 'Sign out' }).waitFor();
  await openLinked(p.page);
  await p.page.getByText('You can sign in with Telegram.').waitFor();
  assert.equal(await p.page.getByRole('button', { name: 'Get the bot link' }).count(), 0);
  const now = (await api('GET', '/linked', { headers: { Authorization: bearer.value } })).json;
  assert.equal(Number(now.telegram.id), tg);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('Telegram link from the web: a stranger who confirms the code first is named, and "not mine" links nobody', async () => {
  const { p, email, bearer } = await signedInPage();
  await openLinked(p.page);
  await p.page.getByRole('button', { name: 'Get the bot link' }).click();
  const link = p.page.getByRole('link', { name: 'Open the bot in Telegram' });
  await link.waitFor();
  const start = new URL(await link.getAttribute('href')).searchParams.get('start');
  const stranger = 770000000 + Math.floor(Math.random() * 1e6);
  await confirmInBot(stranger, start, 'ln+' + start.replace(/^link_/, ''), { first_name: 'Mallory', username: 'mallory_' + stranger });
  await p.page.getByText(`@mallory_${stranger} “Mallory” confirmed the link in Telegram. Is this your Telegram account?`).waitFor({ timeout: 15000 });
  if (process.env.E2E_SCREENSHOTS === '1') await p.page.screenshot({ path: screenshotPath('web-link-approve.png') });
  await p.page.getByRole('button', { name: 'No, it is not mine' }).click();
  await p.page.getByText('Not linked. Nothing was changed; get a new link to try again.').waitFor();
  await p.page.getByRole('button', { name: 'Get a new link' }).waitFor();
  await axeClean(p.page);
  const linked = (await api('GET', '/linked', { headers: { Authorization: bearer.value } })).json;
  assert.equal(linked.telegram, null);
  assert.equal(linked.email, email);
  assert.equal((await api('GET', '/linked', { init: initData(stranger) })).json.email, null, 'the stranger got nothing');
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

// ---- the admin screens on a web session --------------------------------------------------

// Signs the page in with Telegram: the bot's link, confirmed by `tg` in the bot.
async function telegramSignIn(p, tg) {
  await p.page.getByRole('button', { name: 'Sign in with Telegram' }).click();
  const link = p.page.getByRole('link', { name: 'Open the bot in Telegram' });
  await link.waitFor();
  const start = new URL(await link.getAttribute('href')).searchParams.get('start');
  await confirmInBot(tg, start, 'wl+' + start.replace(/^weblogin_/, ''));
  await p.page.getByRole('button', { name: 'Yes, sign in' }).click({ timeout: 15000 });   // "Web confirmed ... is this you?"
  await p.page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 15000 });
  await ready(p.page);
}

async function adminApi(method, path, body) {
  const res = await fetch(BASE + '/api/admin' + path, {
    method,
    headers: { Authorization: 'tma ' + initData(ADMIN), ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: await res.json().catch(() => null) };
}

test('an admin signed in on the web finds the admin link and switches maintenance on and off in /admin/', async () => {
  ctl('maintenance', 'off');
  const p = await openPage(browser, '/cabinet/');
  await telegramSignIn(p, ADMIN);
  await p.page.getByRole('navigation').getByRole('link', { name: 'Account' }).click();
  await ready(p.page);
  const adminLink = p.page.getByRole('link', { name: 'Admin screens' });
  await adminLink.waitFor();
  await axeClean(p.page);
  await adminLink.click();
  await p.page.waitForURL(/\/admin\/$/);
  await ready(p.page);
  // The owner's cabinet opens at its overview; maintenance is a section of its navigation
  // (behind the menu button at this width).
  await p.page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  await p.page.getByRole('button', { name: 'Menu' }).click();
  await p.page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Maintenance' }).click();
  await ready(p.page);
  await p.page.getByRole('heading', { name: 'Maintenance mode' }).waitFor();
  await axeClean(p.page);
  await p.page.getByRole('button', { name: 'Switch maintenance on' }).click();
  await p.page.getByRole('button', { name: 'Yes, switch on' }).click();
  await p.page.getByRole('button', { name: 'Switch maintenance off' }).waitFor();
  const on = (await adminApi('GET', '/maintenance')).json;
  assert.equal(on.enabled, true);
  assert.equal(on.changed_by, 'telegram:' + ADMIN, 'the web session acts as the admin');
  await p.page.getByRole('button', { name: 'Switch maintenance off' }).click();
  await p.page.getByRole('button', { name: 'Switch maintenance on' }).waitFor();
  assert.equal((await adminApi('GET', '/maintenance')).json.enabled, false);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('a non-admin signed in on the web: no admin link, no error, and /admin/ says "not allowed" with no admin data', async () => {
  const p = await openPage(browser, '/cabinet/');
  const adminAnswers = [];
  p.context.on('response', (r) => { if (new URL(r.url()).pathname.startsWith('/api/admin/')) adminAnswers.push(r.status()); });
  p.allowHttp((r) => new URL(r.url()).pathname.startsWith('/api/admin/') && r.status() === 403);
  const tg = 770000000 + Math.floor(Math.random() * 1e6);
  await telegramSignIn(p, tg);
  await p.page.getByRole('navigation').getByRole('link', { name: 'Account' }).click();
  await ready(p.page);
  await waitFor(() => adminAnswers.length === 1, { what: 'the admin check' });
  await p.page.getByRole('link', { name: 'Sign-in methods' }).waitFor();
  assert.equal(await p.page.getByRole('link', { name: 'Admin screens' }).count(), 0);
  assert.equal(await p.page.getByRole('status').filter({ hasText: /\S/ }).count(), 0, 'the refused check is not shown as an error');
  await p.page.goto(BASE + '/admin/');
  await p.page.getByRole('heading', { name: 'Not allowed' }).waitFor();
  await axeClean(p.page);
  assert.equal(await p.page.getByRole('heading', { name: 'Maintenance mode' }).count(), 0);
  assert.ok(adminAnswers.length >= 2 && adminAnswers.every((s) => s === 403), JSON.stringify(adminAnswers));
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

// ---- every screen, and the cabinet switched off --------------------------------------------

test('every screen of the cabinet for a web-signed-in user is axe-clean, in light and dark', async () => {
  // A customer with a subscription (so connect, devices and traffic show data), on the web.
  const tg = 780000000 + Math.floor(Math.random() * 1e6);
  const init = initData(tg);
  assert.equal((await api('GET', '/me', { init })).status, 200);
  ctl('user', 'set-balance', '--telegram-id', String(tg), '--value', '100000');
  const plan = (await api('GET', '/plans', { init })).json.items.find((x) => x.name === 'Start');
  assert.equal((await api('POST', '/purchase', { init, body: { plan_id: plan.id, days: 30, method: 'balance' } })).status, 200);
  const p = await openPage(browser, '/cabinet/');
  p.allowHttp((r) => new URL(r.url()).pathname === '/api/admin/maintenance' && r.status() === 403);   // "is this an admin?"
  await telegramSignIn(p, tg);
  const routes = ['home', 'plans', 'connect', 'account', 'devices', 'traffic', 'payments', 'referral', 'promo', 'support', 'linked', 'payment'];
  for (const scheme of ['light', 'dark']) {
    await p.page.emulateMedia({ colorScheme: scheme });
    for (const route of routes) {
      await p.page.evaluate((r) => { location.hash = '#/' + r; }, route);
      await waitFor(() => p.page.evaluate((r) => document.documentElement.dataset.screen === r, route), { what: route });
      await ready(p.page);
      const found = await axe(p.page);
      assert.deepEqual(found, [], `${route} (${scheme})`);
    }
  }
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('with the web cabinet off, the verify and OAuth return pages say so and link to the bot', async () => {
  const landing = (await api('GET', '/public/landing')).json;
  for (const path of ['/cabinet/verify?token=abc', '/cabinet/oauth/callback?code=x&state=y']) {
    const p = await openPage(browser, '/cabinet/?lang=en');
    await p.page.getByLabel('E-mail').waitFor();
    // The API's answers when WEB_CABINET_ENABLED=false, played (the stack runs with it on).
    await p.page.route(/\/api\/cabinet\/(public\/plans|auth\/)/, (route) => route.fulfill({
      status: 403, contentType: 'application/json', body: JSON.stringify({ detail: 'web cabinet is disabled' }),
    }));
    p.allowHttp((r) => r.status() === 403);
    let asked = false;
    p.page.on('request', (r) => { if (/\/auth\/(verify|oauth\/callback)$/.test(r.url())) asked = true; });
    await p.page.goto(BASE + path);
    await p.page.getByRole('heading', { name: 'The web cabinet is off' }).waitFor();
    assert.equal(await p.page.getByRole('link', { name: 'Open the bot' }).getAttribute('href'), 'https://t.me/' + landing.bot_username);
    assert.equal(asked, false, 'nothing is posted while the cabinet is off');
    await axeClean(p.page);
    assert.deepEqual(await p.problems(), []);
    await p.close();
  }
});
