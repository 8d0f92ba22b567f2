// The web cabinet at /cabinet/: e-mail registration through the mailed link, login and
// logout, wrong password explained, token rotation shared by two tabs, Telegram sign-in
// confirmed in the bot. Every step is checked on the server too.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';

import { axe, launch, openPage, ready, screenshotPath } from './lib/browser.mjs';
import { api, BASE, ctl, FAKES, initData, waitFor } from './lib/stack.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

let n = 0;
const freshEmail = () => `web${Date.now().toString(36)}${n++}${Math.floor(Math.random() * 1e6)}@example.test`;
const PASSWORD = 'correct horse 42';

// The verify (or reset: `page`) link in the `nth` mail to `email` (from 1; the newest when
// 0), waited for.
async function mailedLink(email, nth = 0, page = 'verify') {
  const mails = await waitFor(async () => {
    const r = await (await fetch(`${FAKES}/__fake/mail?to=${encodeURIComponent(email)}`)).json();
    return r.length >= Math.max(nth, 1) ? r : null;
  }, { what: 'the verification mail' });
  const text = JSON.stringify(mails[nth ? nth - 1 : mails.length - 1]).replace(/=\\r\\n/g, '').replace(/=3D/g, '=');
  const m = text.match(new RegExp(`https?://[^\\s"\\\\<>]*/cabinet/${page}\\?token=[A-Za-z0-9_.~-]+`));
  assert.ok(m, `a ${page} link in the mail`);
  return new URL(m[0]);
}

async function registerVerified(email) {
  const r = await api('POST', '/auth/register', { body: { email, password: PASSWORD, language: 'en' } });
  assert.equal(r.status, 200);
  const link = await mailedLink(email);
  const v = await api('POST', '/auth/verify', { body: { token: link.searchParams.get('token') } });
  assert.equal(v.status, 200);
}

async function axeClean(page) { assert.deepEqual(await axe(page), []); }

const sql = (text) => execFileSync('psql', [process.env.DATABASE_URL, '-v', 'ON_ERROR_STOP=1', '-qc', text]);

async function signIn(page, email, password = PASSWORD) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('register → the mailed link → signed in, home shows the account and /me with that Bearer agrees', async () => {
  const email = freshEmail();
  const p = await openPage(browser, '/cabinet/');
  await p.page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
  await axeClean(p.page);
  await p.page.getByRole('button', { name: 'Create an account' }).click();
  await p.page.getByLabel('E-mail').fill(email);
  await p.page.getByLabel('Password').fill(PASSWORD);
  await p.page.getByRole('button', { name: 'Create account' }).click();
  await p.page.getByRole('heading', { name: 'Check your mail' }).waitFor();
  await p.page.getByText(email).waitFor();
  await axeClean(p.page);

  const link = await mailedLink(email);
  assert.equal(link.pathname, '/cabinet/verify');
  // The access token the page uses, seen on the wire.
  let bearer = null;
  p.page.on('request', (r) => { const a = r.headers().authorization; if (a && a.startsWith('Bearer ')) bearer = a; });
  await p.page.goto(BASE + link.pathname + link.search);
  await ready(p.page);
  await p.page.getByRole('navigation').getByRole('link', { name: 'Home' }).waitFor();
  assert.equal(new URL(p.page.url()).pathname, '/cabinet/');
  await p.page.getByRole('button', { name: 'Sign out' }).waitFor();
  await axeClean(p.page);

  assert.ok(bearer, 'the page called the API with a Bearer token');
  const me = await api('GET', '/me', { headers: { Authorization: bearer } });
  assert.equal(me.status, 200);
  const linked = await api('GET', '/linked', { headers: { Authorization: bearer } });
  assert.equal(linked.json.email, email);
  assert.equal(linked.json.email_verified, true);
  // The link is single-use: opening it again (signed in, so the page asks first) explains,
  // and the session stays.
  await p.page.goto(BASE + link.pathname + link.search);
  p.allowHttp((r) => r.url().endsWith('/auth/verify') && r.status() === 400);
  await p.page.getByRole('button', { name: 'Sign in with this link' }).click();
  await p.page.getByText('This link is invalid, already used or expired', { exact: false }).waitFor();
  await axeClean(p.page);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('an address registered twice: its link asks for the password of its own registration, refuses the other one, then signs in', async () => {
  const email = freshEmail();
  assert.equal((await api('POST', '/auth/register', { body: { email, password: PASSWORD, language: 'en' } })).status, 200);
  const first = await mailedLink(email, 1);
  // Someone else registers the same address before the owner clicks: a second, alike mail.
  assert.equal((await api('POST', '/auth/register', { body: { email, password: 'not the owners 42', language: 'en' } })).status, 200);
  const second = await mailedLink(email, 2);
  assert.notEqual(first.search, second.search);

  const p = await openPage(browser, second.pathname + second.search);
  p.allowHttp((r) => r.url().endsWith('/auth/verify') && [401, 409].includes(r.status()));
  await p.page.getByText('This address was registered more than once', { exact: false }).waitFor();
  await axeClean(p.page);
  // The owner's password does not confirm the other registration's link.
  await p.page.getByLabel('Password').fill(PASSWORD);
  await p.page.getByRole('button', { name: 'Confirm' }).click();
  await p.page.getByText("That is not the password of this link's registration", { exact: false }).waitFor();
  assert.equal((await api('POST', '/auth/login', { body: { email, password: 'not the owners 42' } })).status, 401);

  // The owner's own link with the owner's password: signed in.
  await p.page.goto(BASE + first.pathname + first.search);
  await p.page.getByLabel('Password').fill(PASSWORD);
  await p.page.getByRole('button', { name: 'Confirm' }).click();
  await p.page.getByRole('button', { name: 'Sign out' }).waitFor();
  assert.equal(new URL(p.page.url()).pathname, '/cabinet/');
  assert.equal((await api('POST', '/auth/login', { body: { email, password: PASSWORD } })).status, 200);
  assert.equal((await api('POST', '/auth/login', { body: { email, password: 'not the owners 42' } })).status, 401);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

// Login CSRF: someone's own verify link, sent to a signed-in customer, used to sign every
// tab in to the sender's account without a word. Now the page asks; staying keeps the
// account, going on switches every tab (each then shows the new account) and ends the old
// session on the server.
test('a verify link opened while signed in asks first; going on switches every tab and ends the old session', async () => {
  const mine = freshEmail();
  await registerVerified(mine);
  const p = await openPage(browser, '/cabinet/');
  await signIn(p.page, mine);
  await p.page.getByRole('button', { name: 'Sign out' }).waitFor();
  const page2 = await p.context.newPage();
  const bearer2 = { value: null };
  page2.on('request', (r) => { const a = r.headers().authorization; if (a && a.startsWith('Bearer ')) bearer2.value = a; });
  await page2.goto(BASE + '/cabinet/');
  await page2.getByRole('button', { name: 'Sign out' }).waitFor();
  const oldRefresh = await p.page.evaluate(() => JSON.parse(localStorage.getItem('cabinet.session')).refresh);

  const other = freshEmail();
  assert.equal((await api('POST', '/auth/register', { body: { email: other, password: PASSWORD, language: 'en' } })).status, 200);
  const link = await mailedLink(other);
  let verifies = 0;
  p.context.on('request', (r) => { if (r.url().endsWith('/auth/verify')) verifies += 1; });
  await p.page.goto(BASE + link.pathname + link.search);
  await p.page.getByText(`This browser is signed in as ${mine}`, { exact: false }).waitFor();
  await axeClean(p.page);
  await p.page.getByRole('link', { name: 'Stay in this account' }).click();
  await p.page.getByRole('button', { name: 'Sign out' }).waitFor();
  assert.equal(verifies, 0, 'staying does not use the link');
  assert.equal(await p.page.evaluate(() => JSON.parse(localStorage.getItem('cabinet.session')).user.email), mine);

  await p.page.goto(BASE + link.pathname + link.search);
  await p.page.getByRole('button', { name: 'Sign in with this link' }).click();
  await p.page.getByRole('button', { name: 'Sign out' }).waitFor();
  assert.equal(await p.page.evaluate(() => JSON.parse(localStorage.getItem('cabinet.session')).user.email), other);
  // The other tab says so and acts as the new account.
  await page2.getByText(`Another tab signed in as ${other}`, { exact: false }).waitFor();
  await page2.getByRole('link', { name: 'Account' }).click();
  await ready(page2);
  assert.equal((await api('GET', '/linked', { headers: { Authorization: bearer2.value } })).json.email, other);
  // The replaced session is over on the server.
  await waitFor(async () => (await api('POST', '/auth/refresh', { body: { refresh_token: oldRefresh } })).status === 401,
    { what: 'the old session ended' });
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('wrong password is explained; login, reload stays signed in; logout ends the session on the server', async () => {
  const email = freshEmail();
  await registerVerified(email);
  const p = await openPage(browser, '/cabinet/');
  p.allowHttp((r) => r.url().endsWith('/auth/login') && r.status() === 401);
  await signIn(p.page, email, 'wrong password 1');
  await p.page.getByRole('alert').getByText('Wrong e-mail or password.').waitFor();
  await axeClean(p.page);

  const refreshes = [];
  p.page.on('request', (r) => { if (r.url().endsWith('/auth/refresh')) refreshes.push(r.postDataJSON().refresh_token); });
  await signIn(p.page, email);
  await p.page.getByRole('button', { name: 'Sign out' }).waitFor();
  await ready(p.page);
  const stored = await p.page.evaluate(() => JSON.parse(localStorage.getItem('cabinet.session')));
  assert.ok(stored.refresh && !stored.access, 'only the refresh token is stored');

  // The mini-app's screens, as they are, with the Bearer credential.
  for (const tab of ['Plans', 'Account']) {
    await p.page.getByRole('navigation').getByRole('link', { name: tab }).click();
    await ready(p.page);
    await p.page.getByRole('heading', { name: tab, exact: true }).waitFor();
    await axeClean(p.page);
  }
  await p.page.getByRole('link', { name: 'Sign-in methods' }).click();
  await ready(p.page);
  await p.page.getByText(email).first().waitFor();

  await p.page.reload();
  await p.page.getByRole('button', { name: 'Sign out' }).waitFor();
  assert.equal(refreshes.length, 1, 'a reload rotates once');
  const after = await p.page.evaluate(() => JSON.parse(localStorage.getItem('cabinet.session')).refresh);
  assert.notEqual(after, stored.refresh);

  await p.page.getByRole('button', { name: 'Sign out' }).click();
  await p.page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
  assert.equal(await p.page.evaluate(() => localStorage.getItem('cabinet.session')), null);
  const r = await api('POST', '/auth/refresh', { body: { refresh_token: after } });
  assert.equal(r.status, 401, 'the logged-out refresh token is refused');
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('two tabs share one rotation: both stay signed in and one /auth/refresh reaches the server', async () => {
  const email = freshEmail();
  await registerVerified(email);
  const p = await openPage(browser, '/cabinet/');
  await p.page.getByLabel('E-mail').waitFor();
  await p.context.clock.install();
  await p.page.reload();
  await p.page.getByLabel('E-mail').waitFor();
  await signIn(p.page, email);
  await p.page.getByRole('button', { name: 'Sign out' }).waitFor();
  const refreshes = [];
  p.context.on('request', (r) => { if (r.url().endsWith('/auth/refresh')) refreshes.push(r); });
  const page2 = await p.context.newPage();
  await page2.goto(BASE + '/cabinet/');
  await page2.getByRole('button', { name: 'Sign out' }).waitFor();
  assert.equal(refreshes.length, 1, 'the second tab rotated once on opening');

  // 14.5 minutes later both tabs' timers are due at once.
  await p.context.clock.fastForward('14:30');
  await waitFor(() => refreshes.length >= 2, { what: 'the rotation' });
  // Longer than a tab waits for the other's token (session.js PEER_TOKEN_WAIT_MS): a second
  // rotation would come by then.
  await new Promise((r) => setTimeout(r, 2500));
  assert.equal(refreshes.length, 2, 'one refresh for both tabs');
  const token = await p.page.evaluate(() => JSON.parse(localStorage.getItem('cabinet.session')).refresh);
  for (const page of [p.page, page2]) {
    await page.getByRole('link', { name: 'Account' }).click();
    await ready(page);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  }
  // The session ends elsewhere (logged out with that token): the next refresh is refused,
  // and both tabs go to the sign-in page together.
  assert.equal((await api('POST', '/auth/logout', { body: { refresh_token: token } })).status, 200);
  await p.context.clock.fastForward('15:00');
  for (const page of [p.page, page2]) await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
  assert.equal(await p.page.evaluate(() => localStorage.getItem('cabinet.session')), null);
  p.allowHttp((x) => x.url().endsWith('/auth/refresh') && x.status() === 401);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('Telegram sign-in: the bot link and QR; whoever confirms is named here, a stranger declined, the owner approved and signed in', async () => {
  const p = await openPage(browser, '/cabinet/');
  const update = (body) => fetch(BASE + '/bot/webhook', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Telegram-Bot-Api-Secret-Token': process.env.BOT_WEBHOOK_SECRET },
    body: JSON.stringify(body),
  });
  // `tg` opens the page's bot link and presses Confirm.
  const confirmAs = async (tg, who) => {
    const link = p.page.getByRole('link', { name: 'Open the bot in Telegram' });
    await link.waitFor();
    const code = new URL(await link.getAttribute('href')).searchParams.get('start').replace(/^weblogin_/, '');
    const from = { id: tg, is_bot: false, language_code: 'en', ...who };
    assert.equal((await update({ update_id: 1, message: { message_id: 9, date: 1700000000, from, chat: { id: tg, type: 'private' }, text: '/start weblogin_' + code } })).status, 200);
    assert.equal((await update({ update_id: 2, callback_query: { id: 'cb' + tg, from, chat_instance: '1', data: 'wl+' + code, message: { message_id: 55, date: 1700000000, chat: { id: tg, type: 'private' } } } })).status, 200);
  };
  await p.page.getByRole('button', { name: 'Sign in with Telegram' }).click();
  await p.page.getByRole('img', { name: "QR code of the bot's sign-in link" }).waitFor();
  await axeClean(p.page);

  // Someone who read the QR code off the screen confirms first: named, declined, nobody signed in.
  // Named by the id, first: the first name they chose to look like the owner's account
  // ("Web @web" with no username, a right-to-left override in it) loses its "@" and the
  // invisible character, and comes after the id.
  const stranger = 735000000 + Math.floor(Math.random() * 1e6);
  await confirmAs(stranger, { first_name: 'Web @web\u202e' });
  await p.page.getByText(`ID ${stranger} “Web web” confirmed the sign-in in Telegram. Is this your Telegram account?`, { exact: true }).waitFor({ timeout: 15000 });
  await axeClean(p.page);
  if (process.env.E2E_SCREENSHOTS === '1') await p.page.screenshot({ path: screenshotPath('cabinet-telegram-approve.png') });
  await p.page.getByRole('button', { name: 'No, it is not mine' }).click();
  await p.page.getByText('Not signed in. Nobody was signed in with that code').waitFor();
  assert.equal(await p.page.evaluate(() => localStorage.getItem('cabinet.session')), null);

  // The owner starts again, confirms, and approves here.
  const tg = 730000000 + Math.floor(Math.random() * 1e6);
  // An existing Telegram customer with money on the balance.
  assert.equal((await api('GET', '/me', { init: initData(tg) })).status, 200);
  ctl('user', 'set-balance', '--telegram-id', String(tg), '--value', '100000');
  await p.page.getByRole('button', { name: 'Start again' }).click();
  await confirmAs(tg, { first_name: 'Web' });
  let bearer = null;
  p.page.on('request', (r) => { const a = r.headers().authorization; if (a && a.startsWith('Bearer ')) bearer = a; });
  await p.page.getByRole('button', { name: 'Yes, sign in' }).click({ timeout: 15000 });
  await p.page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 15000 });
  await ready(p.page);
  await axeClean(p.page);
  const linked = await api('GET', '/linked', { headers: { Authorization: bearer } });
  assert.equal(linked.status, 200);
  assert.equal(Number(linked.json.telegram.id), tg, 'the page is signed in as the Telegram user who confirmed');

  // The mini-app's checkout in the browser: Stars offered as a trip to Telegram; paid from the balance.
  await p.page.getByRole('navigation').getByRole('link', { name: 'Plans' }).click();
  await ready(p.page);
  await p.page.getByRole('article', { name: 'Start' }).getByRole('radio', { name: /^1 month/ }).check();
  await p.page.getByRole('radio', { name: /From the balance/ }).check();
  await p.page.getByRole('radio', { name: 'Pay with Telegram Stars (opens Telegram)' }).waitFor();
  await axeClean(p.page);
  await p.page.getByRole('button', { name: /^Pay / }).click();
  const me = await waitFor(async () => { const m = (await api('GET', '/me', { headers: { Authorization: bearer } })).json; return m.subscription && m; }, { what: 'the subscription' });
  assert.equal(me.subscription.plan_name, 'Start');
  assert.ok(me.user.balance_minor < 100000);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('OAuth sign-in through the fake provider lands signed in on /cabinet/', async () => {
  const p = await openPage(browser, '/cabinet/');
  const sub = 'g' + Date.now() + Math.floor(Math.random() * 1e6);
  const email = `oauth${sub}@example.test`;
  // The fake provider's page signs in whoever the test names (fake_user).
  await p.page.route(/\/oauth\/google\/authorize\?/, (route) => {
    const u = new URL(route.request().url());
    u.searchParams.set('fake_user', JSON.stringify({ sub, email, email_verified: true, name: 'Web Person' }));
    return route.fulfill({ status: 302, headers: { Location: u.toString() } });
  });
  let bearer = null;
  p.page.on('request', (r) => { const a = r.headers().authorization; if (a && a.startsWith('Bearer ')) bearer = a; });
  await p.page.getByRole('button', { name: 'Sign in with Google' }).click();
  await p.page.getByRole('button', { name: 'Sign out' }).waitFor();
  await ready(p.page);
  assert.equal(new URL(p.page.url()).pathname, '/cabinet/');
  await axeClean(p.page);
  const linked = await api('GET', '/linked', { headers: { Authorization: bearer } });
  assert.equal(linked.status, 200);
  assert.deepEqual(linked.json.oauth.map((o) => o.provider), ['google']);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('with the web cabinet off (the API answers 403) the page says so and links to the bot', async () => {
  // The stack runs with WEB_CABINET_ENABLED=true; the API's answer when it is off
  // (403 "web cabinet is disabled" on /public/plans and the auth routes) is played here.
  const p = await openPage(browser, '/cabinet/?lang=ru');
  await p.page.getByLabel('Электронная почта').waitFor();   // loaded: the reload aborts nothing
  await p.page.route(/\/api\/cabinet\/(public\/plans|auth\/)/, (route) => route.fulfill({
    status: 403, contentType: 'application/json', body: JSON.stringify({ detail: 'web cabinet is disabled' }),
  }));
  p.allowHttp((r) => r.status() === 403);
  await p.page.reload();
  await p.page.getByRole('heading', { name: 'Веб-кабинет отключён' }).waitFor();
  const landing = await api('GET', '/public/landing');
  const href = await p.page.getByRole('link', { name: 'Открыть бота' }).getAttribute('href');
  assert.equal(href, 'https://t.me/' + landing.json.bot_username);
  await axeClean(p.page);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('Telegram sign-in cancelled in the bot is final and explained', async () => {
  const p = await openPage(browser, '/cabinet/');
  p.allowHttp((r) => r.url().endsWith('/auth/telegram/poll') && r.status() === 400);
  await p.page.getByRole('button', { name: 'Sign in with Telegram' }).click();
  const link = p.page.getByRole('link', { name: 'Open the bot in Telegram' });
  await link.waitFor();
  const code = new URL(await link.getAttribute('href')).searchParams.get('start').replace(/^weblogin_/, '');
  const tg = 740000000 + Math.floor(Math.random() * 1e6);
  const from = { id: tg, is_bot: false, first_name: 'Web', language_code: 'en' };
  const r = await fetch(BASE + '/bot/webhook', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Telegram-Bot-Api-Secret-Token': process.env.BOT_WEBHOOK_SECRET },
    body: JSON.stringify({ update_id: 3, callback_query: { id: 'cx' + tg, from, chat_instance: '1', data: 'wl-' + code, message: { message_id: 56, date: 1700000000, chat: { id: tg, type: 'private' } } } }),
  });
  assert.equal(r.status, 200);
  await p.page.getByRole('alert').getByText('The sign-in was cancelled in Telegram.').waitFor();
  const poll = await api('POST', '/auth/telegram/poll', { body: { code } });
  assert.equal(poll.status, 400, 'the server refuses the cancelled code');
  assert.equal(await p.page.evaluate(() => localStorage.getItem('cabinet.session')), null);
  await axeClean(p.page);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('unverified login is explained and sends the link again; a 429 says how long to wait; a bad OAuth return explains', async () => {
  const email = freshEmail();
  assert.equal((await api('POST', '/auth/register', { body: { email, password: PASSWORD, language: 'en' } })).status, 200);
  await mailedLink(email);
  const p = await openPage(browser, '/cabinet/');
  p.allowHttp((r) => r.url().endsWith('/auth/login') && (r.status() === 403 || r.status() === 429));
  p.allowHttp((r) => r.url().endsWith('/auth/oauth/callback') && r.status() >= 400 && r.status() < 500);
  await signIn(p.page, email);
  await p.page.getByRole('alert').getByText('This e-mail is not confirmed yet', { exact: false }).waitFor();
  await axeClean(p.page);
  // A minute after the first link (played: its time moved back), a new one is mailed.
  sql(`UPDATE email_verification_tokens SET created_at = now() - interval '2 minutes' WHERE email = '${email}'`);
  await p.page.getByRole('button', { name: 'Send the link again' }).click();
  await p.page.getByRole('alert').getByText(`If ${email} is waiting for its confirmation, a new link is on its way.`).waitFor();
  await waitFor(async () => (await (await fetch(`${FAKES}/__fake/mail?to=${encodeURIComponent(email)}`)).json()).length === 2,
    { what: 'a second verification mail' });

  // The server's throttle answer, played: 429 with Retry-After.
  await p.page.route(/\/auth\/login$/, (route) => route.fulfill({
    status: 429, headers: { 'Retry-After': '30' }, contentType: 'application/json', body: '{"detail":"too many attempts"}',
  }));
  await signIn(p.page, email);
  await p.page.getByRole('alert').getByText('Too many attempts. Try again in 30 s.').waitFor();

  await p.page.goto(BASE + '/cabinet/oauth/callback?code=nope&state=nope');
  await p.page.getByRole('heading', { name: 'Signing you in' }).waitFor();
  await p.page.getByRole('alert').waitFor();
  assert.equal(await p.page.evaluate(() => localStorage.getItem('cabinet.session')), null);
  await axeClean(p.page);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('forgot password: the mailed link sets a new one, signs in here and out everywhere else; the old one is refused', async () => {
  const email = freshEmail();
  await registerVerified(email);
  const elsewhere = await api('POST', '/auth/login', { body: { email, password: PASSWORD } });
  assert.equal(elsewhere.status, 200);
  const p = await openPage(browser, '/cabinet/');
  await p.page.getByRole('button', { name: 'Forgot password?' }).waitFor();
  await p.page.screenshot({ path: screenshotPath('cabinet-signin-390.png'), fullPage: true });
  await p.page.getByRole('button', { name: 'Forgot password?' }).click();
  await p.page.getByRole('heading', { name: 'Reset your password' }).waitFor();
  await p.page.getByLabel('E-mail').fill(email);
  await axeClean(p.page);
  await p.page.getByRole('button', { name: 'Send the link' }).click();
  await p.page.getByRole('status').getByText(`If ${email} has an account here, a link is on its way.`, { exact: false }).waitFor();

  const link = await mailedLink(email, 2, 'reset');
  await p.page.goto(link.href);
  await p.page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
  await axeClean(p.page);
  await p.page.screenshot({ path: screenshotPath('cabinet-reset-390.png') });
  const NEW = 'a new passphrase 7';
  await p.page.getByLabel('New password', { exact: true }).fill(NEW);
  await p.page.getByRole('button', { name: 'Set the password' }).click();
  await p.page.getByRole('button', { name: 'Sign out' }).waitFor();
  assert.equal(new URL(p.page.url()).search, '', 'the token left the address bar');
  // Everywhere else signed out; the old password refused, the new one taken.
  assert.equal((await api('POST', '/auth/refresh', { body: { refresh_token: elsewhere.json.refresh_token } })).status, 401);
  assert.equal((await api('POST', '/auth/login', { body: { email, password: PASSWORD } })).status, 401);
  assert.equal((await api('POST', '/auth/login', { body: { email, password: NEW } })).status, 200);
  // The link works once.
  await p.page.getByRole('button', { name: 'Sign out' }).click();
  await p.page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
  p.allowHttp((r) => r.url().endsWith('/auth/password/reset') && r.status() === 400);
  await p.page.goto(link.href);
  await p.page.getByLabel('New password', { exact: true }).fill('another one 123');
  await p.page.getByRole('button', { name: 'Set the password' }).click();
  await p.page.getByRole('alert').getByText('This link is invalid, used or expired.', { exact: false }).waitFor();
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('signed in: the password changed (the current one asked); the e-mail, the only way in, cannot be removed', async () => {
  const email = freshEmail();
  await registerVerified(email);
  const p = await openPage(browser, '/cabinet/');
  await signIn(p.page, email);
  await p.page.getByRole('button', { name: 'Sign out' }).waitFor();
  await p.page.getByRole('navigation').getByRole('link', { name: 'Account' }).click();
  await p.page.getByRole('link', { name: 'Sign-in methods' }).click();
  await ready(p.page);
  const card = p.page.getByRole('article', { name: 'Change password' });
  p.allowHttp((r) => r.url().endsWith('/auth/password/change') && r.status() === 422);
  await card.getByLabel('Current password').fill('not my password');
  await card.getByLabel('New password', { exact: true }).fill('my next passphrase');
  await card.getByRole('button', { name: 'Change password' }).click();
  await card.getByRole('alert').getByText('That is not your current password.').waitFor();
  assert.equal((await api('POST', '/auth/login', { body: { email, password: PASSWORD } })).status, 200, 'nothing changed');
  await card.getByLabel('Current password').fill(PASSWORD);
  await card.getByRole('button', { name: 'Change password' }).click();
  // Ended: the verification's session and the check's login above; this one stays.
  await p.page.getByText('Password changed. Other sessions ended: 2.').waitFor();
  assert.equal((await api('POST', '/auth/login', { body: { email, password: PASSWORD } })).status, 401);
  assert.equal((await api('POST', '/auth/login', { body: { email, password: 'my next passphrase' } })).status, 200);
  await p.page.getByRole('button', { name: 'Sign out' }).waitFor();  // this session goes on
  await axeClean(p.page);
  await p.page.screenshot({ path: screenshotPath('cabinet-password-390.png'), fullPage: true });

  // The e-mail is this account's only way in: removing it is refused, and said.
  p.allowHttp((r) => r.url().endsWith('/link/email') && r.status() === 409);
  await p.page.getByRole('button', { name: 'Unlink E-mail' }).click();
  await p.page.getByRole('button', { name: 'Yes, unlink' }).click();
  await p.page.getByRole('alert').getByText('The e-mail is the only way to sign in', { exact: false }).waitFor();
  assert.equal((await api('POST', '/auth/login', { body: { email, password: 'my next passphrase' } })).status, 200);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

