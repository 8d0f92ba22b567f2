// The local stack's sandboxes (tests/fakes/sandbox.mjs, at /sandbox/ through nginx): a
// person pays on the sandbox checkout pages of YooKassa, CryptoBot and Telegram Stars, reads
// the cabinet's mail in the mail catcher and signs in on the sandbox OAuth provider, and the
// cabinet's real webhooks, mail and OAuth paths do the rest. Every step is checked on the
// server; every sandbox page says it is one, is axe clean and raises no problem.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { axe, launch, openPage, ready, screenshotPath } from './lib/browser.mjs';
import { BASE, FAKES, api, freshId, initData, starsInvoiceLinks, waitFor } from './lib/stack.mjs';

const DAY = 86400000;
const BANNER = 'Sandbox — local test stack only: no real money, mail or accounts';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

async function shopper() {
  const id = freshId();
  const init = initData(id);
  assert.equal((await api('GET', '/me', { init })).status, 200);
  return { id, init, me: async () => (await api('GET', '/me', { init })).json };
}

// What every sandbox page must have: the banner, noindex, axe clean.
async function isSandboxPage(page) {
  await page.getByRole('banner').getByText(BANNER, { exact: true }).waitFor();
  assert.equal(await page.locator('meta[name="robots"]').getAttribute('content'), 'noindex, nofollow');
  assert.deepEqual(await axe(page), []);
}

// The mini-app (inside Telegram) buys `plan`'s 1 month with `method`; the page asks Telegram
// to open the checkout (web_app_open_link), which a second page then opens, as Telegram would.
async function buyInMiniApp(u, plan, method) {
  const app = await openPage(browser, '/app/', { init: u.init });
  await ready(app.page);
  await app.page.getByRole('navigation').getByRole('link', { name: 'Plans' }).click();
  await app.page.getByRole('heading', { name: 'Payment' }).waitFor();
  await ready(app.page);
  await app.page.getByRole('article', { name: plan }).getByRole('radio', { name: /^1 month/ }).check();
  await app.page.getByRole('radio', { name: method }).check();
  await app.page.getByRole('button', { name: /^Pay / }).click();
  const opened = await waitFor(async () => (await app.tgEvents('web_app_open_link'))[0], { what: 'web_app_open_link' });
  const url = new URL(opened.data.url);
  assert.equal(url.origin, BASE, 'the checkout is on the stack\'s own origin');
  await app.page.getByRole('heading', { name: 'Waiting for the payment' }).waitFor();
  const checkout = await openPage(browser, url.pathname + url.search);
  return { app, checkout, url };
}

const dateText = (iso) => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(iso));

async function paidAndShown(u, app, started, { plan, method }) {
  const me = await waitFor(async () => { const m = await u.me(); return m.subscription && m; }, { what: 'the subscription' });
  assert.equal(me.subscription.plan_name, plan);
  const expiry = new Date(me.subscription.expire_at).getTime();
  assert.ok(Math.abs(expiry - (started + 30 * DAY)) < 5 * 60000, me.subscription.expire_at);
  const pay = (await api('GET', '/payments', { init: u.init })).json.items;
  assert.equal(pay.length, 1);
  assert.equal(pay[0].method, method);
  assert.equal(pay[0].status, 'completed');
  // The mini-app, still waiting, sees the money and shows the new expiry.
  await app.page.getByText('until ' + dateText(me.subscription.expire_at), { exact: true }).waitFor();
}

test('YooKassa sandbox: the mini-app opens the checkout, Pay sends the notification and returns to the shop, the days are added', async () => {
  const u = await shopper();
  const started = Date.now();
  const { app, checkout, url } = await buyInMiniApp(u, 'Start', /YooKassa/);
  assert.match(url.pathname, /^\/sandbox\/yookassa\/checkout\/[^/]+$/);
  await checkout.page.getByRole('heading', { name: 'YooKassa checkout' }).waitFor();
  await checkout.page.getByText('199.00 RUB').waitFor();
  await isSandboxPage(checkout.page);
  assert.deepEqual(await checkout.problems(), []);
  assert.equal((await u.me()).subscription, null, 'nothing before Pay');
  await Promise.all([
    checkout.page.waitForURL(BASE + '/app/', { waitUntil: 'commit' }),
    checkout.page.getByRole('button', { name: 'Pay', exact: true }).click(),
  ]);
  await paidAndShown(u, app, started, { plan: 'Start', method: 'yookassa' });
  // Opened again, the checkout says it is paid; nothing is paid twice.
  await checkout.page.goto(BASE + url.pathname);
  await checkout.page.getByRole('heading', { name: 'Paid' }).waitFor();
  await isSandboxPage(checkout.page);
  assert.equal((await api('GET', '/payments', { init: u.init })).json.items.length, 1);
  assert.deepEqual(await checkout.problems(), []);
  assert.deepEqual(await app.problems(), []);
  await checkout.close();
  await app.close();
});

test('YooKassa sandbox: Cancel returns to the shop and changes nothing', async () => {
  const u = await shopper();
  const { app, checkout } = await buyInMiniApp(u, 'Start', /YooKassa/);
  await checkout.page.getByRole('heading', { name: 'YooKassa checkout' }).waitFor();
  await Promise.all([
    checkout.page.waitForURL(BASE + '/app/', { waitUntil: 'commit' }),
    checkout.page.getByRole('button', { name: 'Cancel', exact: true }).click(),
  ]);
  // The canceled notification went through the webhook: the payment is no longer pending.
  const pay = await waitFor(async () => {
    const items = (await api('GET', '/payments', { init: u.init })).json.items;
    return items.length === 1 && items[0].status !== 'pending' && items;
  }, { what: 'the payment to be closed' });
  assert.notEqual(pay[0].status, 'completed');
  const me = await u.me();
  assert.equal(me.subscription, null);
  assert.equal(me.user.balance_minor, 0);
  assert.deepEqual(await checkout.problems(), []);
  assert.deepEqual(await app.problems(), []);
  await checkout.close();
  await app.close();
});

test('CryptoBot sandbox: the invoice page\'s Pay sends the signed update, the days are added', async () => {
  const u = await shopper();
  const started = Date.now();
  const { app, checkout, url } = await buyInMiniApp(u, 'Start', /CryptoBot/);
  assert.match(url.pathname, /^\/sandbox\/cryptobot\/invoice\/\d+$/);
  await checkout.page.getByRole('heading', { name: 'CryptoBot invoice' }).waitFor();
  await checkout.page.getByText('199.00 RUB').waitFor();
  await isSandboxPage(checkout.page);
  assert.equal((await u.me()).subscription, null, 'nothing before Pay');
  await checkout.page.getByRole('button', { name: 'Pay', exact: true }).click();
  // No paid_btn_url on the cabinet's invoices: the page says it is done.
  await checkout.page.getByRole('heading', { name: 'Paid' }).waitFor();
  await isSandboxPage(checkout.page);
  await paidAndShown(u, app, started, { plan: 'Start', method: 'cryptobot' });
  assert.deepEqual(await checkout.problems(), []);
  assert.deepEqual(await app.problems(), []);
  await checkout.close();
  await app.close();
});

// A web account (registered and verified through the API): its Bearer token.
async function webBuyer() {
  const email = `sandbox-web${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}@example.test`;
  assert.equal((await api('POST', '/auth/register', { body: { email, password: 'correct horse 42', language: 'en' } })).status, 200);
  const mail = await waitFor(async () => {
    const r = await (await fetch(`${FAKES}/__fake/mail?to=${encodeURIComponent(email)}`)).json();
    return r.length ? r[r.length - 1] : null;
  }, { what: 'the verification mail' });
  const token = mail.raw.replace(/=\r\n/g, '').replace(/=3D/g, '=').match(/verify\?token=([A-Za-z0-9_.~-]+)/)[1];
  const v = await api('POST', '/auth/verify', { body: { token } });
  assert.equal(v.status, 200);
  return { Authorization: 'Bearer ' + v.json.access_token };
}

for (const gateway of ['yookassa', 'cryptobot']) {
  test(`${gateway} sandbox, web buyer: Pay returns to the web cabinet's ?payment=<id> and the days are added`, async () => {
    const headers = await webBuyer();
    const r = await api('POST', '/purchase', { headers: { ...headers, 'Idempotency-Key': 'sandbox-' + Date.now() }, body: { plan_id: 'start', days: 30, method: gateway } });
    assert.equal(r.status, 200, JSON.stringify(r.json));
    const url = new URL(r.json.redirect_url);
    assert.equal(url.origin, BASE);
    const p = await openPage(browser, url.pathname);
    await p.page.getByRole('heading', { name: gateway === 'yookassa' ? 'YooKassa checkout' : 'CryptoBot invoice' }).waitFor();
    await isSandboxPage(p.page);
    assert.deepEqual(await p.problems(), []);
    // The web cabinet is the landing place: the sandbox only has to bring the buyer there.
    const back = `${BASE}/cabinet/?payment=${r.json.transaction_id}`;
    await Promise.all([
      p.page.waitForURL(back, { waitUntil: 'commit' }),
      p.page.getByRole('button', { name: 'Pay', exact: true }).click(),
    ]);
    const me = await waitFor(async () => { const m = (await api('GET', '/me', { headers })).json; return m.subscription && m; }, { what: 'the subscription' });
    assert.equal(me.subscription.plan_name, 'Start');
    const pay = (await api('GET', '/payments', { headers })).json.items;
    assert.equal(pay[0].method, gateway);
    assert.equal(pay[0].status, 'completed');
    await p.close();
  });
}

test('Stars sandbox: the invoice page sends the pre-checkout query and the payment to the bot, the days are added', async () => {
  const previous = await starsInvoiceLinks('sandbox');
  try {
    const u = await shopper();
    const started = Date.now();
    const { app, checkout, url } = await buyInMiniApp(u, 'Standard', /Telegram Stars/);
    assert.match(url.pathname, /^\/sandbox\/stars\/invoice\/[A-Za-z0-9_-]+$/);
    const stars = (await api('GET', '/plans', { init: u.init })).json.items.find((x) => x.name === 'Standard').durations[0].price_stars;
    await checkout.page.getByRole('heading', { name: 'Telegram Stars' }).waitFor();
    await checkout.page.getByText(`${stars} Stars (XTR)`).waitFor();
    await isSandboxPage(checkout.page);
    await checkout.page.getByLabel('Payer\'s Telegram id').fill(String(u.id));
    await checkout.page.getByRole('button', { name: 'Pay', exact: true }).click();
    await checkout.page.getByRole('heading', { name: 'Paid' }).waitFor();
    await isSandboxPage(checkout.page);
    await paidAndShown(u, app, started, { plan: 'Standard', method: 'stars' });
    assert.deepEqual(await checkout.problems(), []);
    assert.deepEqual(await app.problems(), []);
    await checkout.close();
    await app.close();
  } finally {
    await starsInvoiceLinks(previous);
  }
});

test('Stars sandbox: an invoice the bot declines at pre-checkout shows the bot\'s reason and sends no payment', async () => {
  const u = await shopper();
  // An invoice of the sandbox's shape whose payload is no transaction of the cabinet's.
  const slug = Buffer.from(JSON.stringify({ title: 'Start, 30 days', description: 'Not a real order', payload: '999999999', amount: 5 })).toString('base64url');
  const p = await openPage(browser, `/sandbox/stars/invoice/${slug}?telegram_id=${u.id}`);
  p.allowHttp((r) => r.url().includes('/sandbox/stars/invoice/') && r.status() === 409);
  await p.page.getByRole('heading', { name: 'Telegram Stars' }).waitFor();
  assert.equal(await p.page.getByLabel('Payer\'s Telegram id').inputValue(), String(u.id));
  await p.page.getByRole('button', { name: 'Pay', exact: true }).click();
  await p.page.getByRole('alert').getByText('The bot declined the payment: This invoice is no longer valid.').waitFor();
  await isSandboxPage(p.page);
  assert.equal((await u.me()).subscription, null);
  assert.equal((await api('GET', '/payments', { init: u.init })).json.items.length, 0);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('mail catcher: the cabinet\'s verification mail is listed, and its link signs the web cabinet in', async () => {
  const email = `sandbox${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}@example.test`;
  assert.equal((await api('POST', '/auth/register', { body: { email, password: 'correct horse 42', language: 'en' } })).status, 200);
  const p = await openPage(browser, '/sandbox/mail');
  await p.page.getByRole('heading', { name: 'Mail catcher' }).waitFor();
  const mail = await waitFor(async () => {
    const item = p.page.getByRole('listitem').filter({ hasText: email });
    if (await item.count()) return item;
    await p.page.reload();
    return null;
  }, { what: 'the mail in the catcher' });
  await mail.getByRole('heading', { name: 'Confirm your e-mail' }).waitFor();
  await isSandboxPage(p.page);
  let bearer = null;
  p.page.on('request', (r) => { const a = r.headers().authorization; if (a && a.startsWith('Bearer ')) bearer = a; });
  await mail.getByRole('link', { name: /\/cabinet\/verify\?token=/ }).click();
  await p.page.getByRole('button', { name: 'Sign out' }).waitFor();
  await ready(p.page);
  assert.equal(new URL(p.page.url()).pathname, '/cabinet/');
  assert.ok(bearer, 'the page called the API with a Bearer token');
  const linked = await api('GET', '/linked', { headers: { Authorization: bearer } });
  assert.equal(linked.status, 200);
  assert.equal(linked.json.email, email);
  assert.equal(linked.json.email_verified, true);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('OAuth sandbox: the provider\'s sign-in page (no fake_user) signs the web cabinet in as the person it names', async () => {
  const p = await openPage(browser, '/cabinet/');
  const email = `oauth-sandbox${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}@example.test`;
  let bearer = null;
  p.page.on('request', (r) => { const a = r.headers().authorization; if (a && a.startsWith('Bearer ')) bearer = a; });
  await p.page.getByRole('button', { name: 'Sign in with Google' }).click();
  await p.page.getByRole('heading', { name: 'Sign in with Google' }).waitFor();
  assert.equal(new URL(p.page.url()).pathname, '/sandbox/oauth/google/authorize');
  await isSandboxPage(p.page);
  assert.equal(await p.page.getByLabel('Name').inputValue(), 'Demo Person');
  await p.page.getByLabel('E-mail').fill(email);
  await p.page.getByLabel('Name').fill('Sandbox Person');
  await p.page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await p.page.getByRole('button', { name: 'Sign out' }).waitFor();
  await ready(p.page);
  assert.equal(new URL(p.page.url()).pathname, '/cabinet/');
  assert.ok(bearer, 'the page called the API with a Bearer token');
  assert.equal((await api('GET', '/me', { headers: { Authorization: bearer } })).status, 200);
  const linked = await api('GET', '/linked', { headers: { Authorization: bearer } });
  assert.deepEqual(linked.json.oauth.map((o) => o.provider), ['google']);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('the sandbox index links every sandbox; its pages are sandbox pages in light and dark, unknown ones are 404', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const p = await openPage(browser, '/sandbox/', { colorScheme });
    await p.page.getByRole('heading', { name: 'Sandboxes of the local stack' }).waitFor();
    await isSandboxPage(p.page);
    for (const name of ['Mail catcher', 'YooKassa checkout', 'CryptoBot invoice', 'Telegram Stars', 'OAuth sign-in']) {
      await p.page.getByRole('heading', { name }).waitFor();
    }
    await p.page.getByRole('main').getByRole('link', { name: 'Mail catcher' }).click();
    await p.page.getByRole('heading', { name: 'Mail catcher', level: 1 }).waitFor();
    await isSandboxPage(p.page);
    p.allowHttp((r) => r.url().endsWith('/sandbox/nope') && r.status() === 404);
    await p.page.goto(BASE + '/sandbox/nope');
    await p.page.getByRole('heading', { name: 'Not found' }).waitFor();
    await isSandboxPage(p.page);
    assert.deepEqual(await p.problems(), []);
    await p.close();
  }
  // The fakes' own address is not the way in: the browser only ever reaches them via nginx.
  const csp = (await fetch(BASE + '/sandbox/')).headers.get('content-security-policy');
  assert.match(csp, /script-src 'self'/);
});

// Issue 49: buying without an account, as the original's web cabinet does. The guest picks
// a plan on /cabinet/buy, pays on the sandbox's YooKassa page and comes back signed in to the
// account made for their address, on the payment's page; the subscription link arrives by
// mail; the one-time sign-in does not work a second time.
test('a guest buys on /cabinet/buy, comes back from the sandbox signed in, and gets the link by mail; the token works once', async () => {
  const email = `guest${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}@example.test`;
  const p = await openPage(browser, '/cabinet/');
  await ready(p.page);
  await p.page.getByRole('link', { name: 'Buy without an account' }).click();
  await p.page.getByRole('heading', { name: 'Buy without an account' }).waitFor();
  await ready(p.page);
  await p.page.getByRole('radio', { name: /^Standard · 30 days/ }).check();
  await p.page.getByRole('radio', { name: 'Bank card (YooKassa)' }).check();
  await p.page.getByLabel('E-mail', { exact: true }).fill(email);
  assert.deepEqual(await axe(p.page), []);
  await p.page.screenshot({ path: screenshotPath('cabinet-buy-390.png'), fullPage: true });
  // The answer's one-time sign-in, as the page keeps it for its return: the page goes to the
  // gateway at once, so the answer's body is gone by the time a response listener reads it.
  // The page's own sessionStorage write reports it, before that navigation.
  let bought = null;
  await p.page.exposeFunction('__guestKept', (value) => { bought = JSON.parse(value); });
  await p.page.evaluate(() => {
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key, value) {
      if (key === 'cabinet.guest') window.__guestKept(value);
      return setItem.call(this, key, value);
    };
  });
  await p.page.getByRole('button', { name: /^Pay / }).click();
  await p.page.getByRole('heading', { name: 'YooKassa checkout' }).waitFor();
  assert.ok(bought && bought.token, 'the page kept a one-time sign-in');
  await isSandboxPage(p.page);
  await p.page.getByRole('button', { name: 'Pay', exact: true }).click();
  // Back on /cabinet/buy?payment=<id>: signed in, on the payment's page, which sees it paid.
  await p.page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 20000 });
  await p.page.getByRole('heading', { name: 'Paid' }).waitFor({ timeout: 30000 });
  const mail = await waitFor(async () => {
    const r = await (await fetch(`${FAKES}/__fake/mail?to=${encodeURIComponent(email)}`)).json();
    return r.find((m) => /subscription is ready/i.test(m.raw)) || null;
  }, { what: 'the subscription link by mail', timeout: 30000 });
  assert.match(mail.raw, /https?:\/\/\S+/);
  assert.ok(!mail.raw.includes(bought.token), 'no sign-in in the mail');
  // The same browser, the same token: used up.
  const again = await p.page.evaluate(async (token) => (await fetch('/api/cabinet/auth/login/auto', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token }),
  })).status, bought.token);
  assert.equal(again, 400);
  p.allowHttp((r) => r.url().endsWith('/api/cabinet/auth/login/auto') && r.status() === 400);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});
