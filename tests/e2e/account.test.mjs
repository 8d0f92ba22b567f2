// The account area of the mini-app: promo codes, the support chat, the payment history,
// linking an e-mail and the referral link, each driven as a customer does and checked
// against what the server then holds (balance, ticket, payments, linked e-mail, link).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';

import { axe, launch, openPage, ready } from './lib/browser.mjs';
import { FAKES, api, ctl, freshId, initData, waitFor } from './lib/stack.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

const unique = (prefix) => prefix + randomBytes(4).toString('hex').toUpperCase();

// A Telegram user who exists on the server (first contact creates them).
async function newUser() {
  const id = freshId();
  const init = initData(id, { firstName: 'Nina', username: 'nina_' + id });
  const me = await api('GET', '/me', { init });
  assert.equal(me.status, 200);
  return { id, init, me: me.json };
}

// Opens a screen of the mini-app as this user, straight by its route.
async function openScreen(user, route) {
  const p = await openPage(browser, '/app/#/' + route, { init: user.init });
  await ready(p.page);
  return p;
}

async function axeClean(p, where) {
  assert.deepEqual(await axe(p.page), [], 'axe on ' + where);
}

test('promo code: a wrong code shows the server\'s reason and changes nothing; the right one, typed in another case with spaces, tops up the balance', async () => {
  const user = await newUser();
  const code = unique('E2EBAL');
  ctl('promo', 'create', '--code', code, '--type', 'balance', '--value', '2500');

  const p = await openScreen(user, 'home');
  await p.page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Account' }).click();
  await ready(p.page);
  await p.page.getByRole('heading', { name: 'Nina' }).waitFor();
  await p.page.getByText('@nina_' + user.id).waitFor();
  await axeClean(p, 'account');
  await p.page.getByRole('navigation', { name: 'Account sections' }).getByRole('link', { name: 'Promo code' }).click();
  await ready(p.page);
  await axeClean(p, 'promo');

  const field = p.page.getByRole('textbox', { name: 'Promo code' });
  await field.fill('NOPE' + code);
  await p.page.getByRole('button', { name: 'Activate' }).click();
  await p.page.getByRole('alert').filter({ hasText: 'Promo code not found.' }).waitFor();
  assert.equal((await api('GET', '/me', { init: user.init })).json.user.balance_minor, 0);
  await axeClean(p, 'promo with an error');

  await field.fill('  ' + code.toLowerCase() + '  ');
  await p.page.getByRole('button', { name: 'Activate' }).click();
  await p.page.getByRole('region', { name: 'Promo code' }).getByRole('status').getByText(/Promo code activated: your balance is now .*25/).waitFor();
  assert.equal(await field.inputValue(), '');
  assert.equal(await p.page.getByRole('alert').filter({ hasText: 'not found' }).count(), 0);
  const me = (await api('GET', '/me', { init: user.init })).json;
  assert.equal(me.user.balance_minor, 2500);
  const pay = (await api('GET', '/payments', { init: user.init })).json.items;
  assert.equal(pay.length, 1);
  assert.equal(pay[0].amount_minor, 2500);
  await axeClean(p, 'promo activated');
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('support: a message sent appears in the chat and on the server; the support\'s reply arrives by polling, without a reload', async () => {
  const user = await newUser();
  const p = await openScreen(user, 'support');
  await p.page.getByText('No open request').waitFor();
  await axeClean(p, 'support (empty)');

  const text = 'My VPN stopped working ' + unique('#');
  await p.page.getByLabel('Your message').fill(text);
  await p.page.getByRole('button', { name: 'Send' }).click();
  const chat = p.page.getByRole('list', { name: 'Messages' });
  await chat.getByText(text).waitFor();
  assert.equal(await p.page.getByLabel('Your message').inputValue(), '');

  const ticket = (await api('GET', '/support', { init: user.init })).json;
  assert.equal(ticket.status, 'open');
  assert.equal(ticket.messages.length, 1);
  assert.deepEqual([ticket.messages[0].from, ticket.messages[0].text], ['you', text]);
  await p.page.getByText('Request #' + ticket.ticket_id).waitFor();

  const reply = 'Please reinstall the profile ' + unique('R');
  const navigations = [];
  p.page.on('framenavigated', (f) => { if (f === p.page.mainFrame()) navigations.push(f.url()); });
  ctl('support', 'reply', String(ticket.ticket_id), reply);
  await chat.getByText(reply).waitFor({ timeout: 12000 });
  assert.deepEqual(navigations, [], 'the page was not reloaded');
  await p.page.getByText('Answered').waitFor();
  // Announced to screen readers through a polite live region.
  const live = await p.page.locator('[aria-live="polite"]').allTextContents();
  assert.ok(live.some((t) => t.includes('New reply from support: ' + reply)), live.join(' | '));
  const after = (await api('GET', '/support', { init: user.init })).json;
  assert.deepEqual(after.messages.map((m) => m.from), ['you', 'support']);
  assert.equal(after.status, 'waiting');
  await axeClean(p, 'support (chat)');
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('payments: a purchase from the balance and a promo top-up are listed as GET /payments has them', async () => {
  const user = await newUser();
  ctl('user', 'set-balance', '--telegram-id', String(user.id), '--value', '100000');
  const bought = await api('POST', '/purchase', {
    init: user.init, body: { plan_id: 'start', days: 30, method: 'balance' }, headers: { 'Idempotency-Key': unique('k') },
  });
  assert.equal(bought.status, 200, JSON.stringify(bought.json));
  const code = unique('E2EPAY');
  ctl('promo', 'create', '--code', code, '--type', 'balance', '--value', '1000');
  assert.equal((await api('POST', '/promocode', { init: user.init, body: { code } })).json.ok, true);
  const items = (await api('GET', '/payments', { init: user.init })).json.items;
  assert.equal(items.length, 2);

  const p = await openScreen(user, 'account');
  await p.page.getByRole('navigation', { name: 'Account sections' }).getByRole('link', { name: 'Payment history' }).click();
  await ready(p.page);
  const rows = p.page.getByRole('list', { name: 'Transactions' }).getByRole('listitem');
  await rows.first().waitFor();
  assert.equal(await rows.count(), items.length);
  const byType = { subscription_payment: ['Subscription payment', '−'], gift: ['Gift', '\\+'] };
  for (let i = 0; i < items.length; i++) {
    const [label, sign] = byType[items[i].type];
    const row = rows.nth(i);
    const text = await row.innerText();
    assert.ok(text.includes(label), text);
    assert.ok(text.includes('Completed'), text);
    assert.match(text, new RegExp(sign + '\\D*' + String(items[i].amount_minor / 100) + '\\b'), text);
  }
  await axeClean(p, 'payments');
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('linked: an e-mail is linked with the code from the mail; a wrong code is refused first; GET /linked agrees', async () => {
  const user = await newUser();
  const email = `e2e-${user.id}-${randomBytes(3).toString('hex')}@example.com`;
  const p = await openScreen(user, 'linked');
  const list = p.page.getByRole('list', { name: 'Sign-in methods' });
  await list.getByText('@nina_' + user.id).waitFor();
  await axeClean(p, 'linked');

  await p.page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await p.page.getByLabel('New password').fill('correct horse 42');
  await p.page.getByRole('button', { name: 'Send code' }).click();
  await p.page.getByLabel('6-digit code').waitFor();
  await axeClean(p, 'linked (code step)');

  const mail = await waitFor(async () => {
    const r = await fetch(`${FAKES}/__fake/mail?to=${encodeURIComponent(email)}`);
    const m = await r.json();
    return m.length ? m[m.length - 1] : null;
  }, { what: 'the code mail' });
  const code = (mail.raw.match(/Your code: (\d{6})/) || mail.raw.match(/\b(\d{6})\b/))[1];

  p.allowHttp((r) => r.url().endsWith('/api/cabinet/link/email/confirm') && r.status() === 400);
  await p.page.getByLabel('6-digit code').fill(code === '000000' ? '111111' : '000000');
  await p.page.getByRole('button', { name: 'Confirm' }).click();
  await p.page.getByRole('alert').filter({ hasText: 'Wrong code' }).waitFor();
  assert.equal((await api('GET', '/linked', { init: user.init })).json.email, null);

  await p.page.getByLabel('6-digit code').fill(code);
  await p.page.getByRole('button', { name: 'Confirm' }).click();
  await list.getByText(email).waitFor();
  await list.getByText('Confirmed').waitFor();
  assert.equal(await p.page.getByLabel('6-digit code').count(), 0);
  const linked = (await api('GET', '/linked', { init: user.init })).json;
  assert.equal(linked.email, email);
  assert.equal(linked.email_verified, true);
  assert.equal(linked.has_password, true);
  await axeClean(p, 'linked (done)');
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('linked: after too many wrong codes the page says to request a new code, and nothing is linked', async () => {
  const user = await newUser();
  const email = `e2e-429-${user.id}@example.com`;
  const p = await openScreen(user, 'linked');
  p.allowHttp((r) => r.url().endsWith('/api/cabinet/link/email/confirm') && [400, 429].includes(r.status()));
  await p.page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await p.page.getByRole('textbox', { name: 'New password' }).fill('another pass 7');
  await p.page.getByRole('button', { name: 'Send code' }).click();
  const mail = await waitFor(async () => {
    const m = await (await fetch(`${FAKES}/__fake/mail?to=${encodeURIComponent(email)}`)).json();
    return m.length ? m[0] : null;
  }, { what: 'the code mail' });
  const real = mail.raw.match(/Your code: (\d{6})/)[1];
  const wrong = real === '123456' ? '654321' : '123456';
  const confirm = p.page.getByRole('button', { name: 'Confirm' });
  let last = 0;
  for (let i = 0; i < 8 && last !== 429; i++) {
    await p.page.getByRole('textbox', { name: '6-digit code' }).fill(wrong);
    const [res] = await Promise.all([
      p.page.waitForResponse((r) => r.url().endsWith('/link/email/confirm')),
      confirm.click(),
    ]);
    last = res.status();
  }
  assert.equal(last, 429);
  await p.page.getByRole('alert').filter({ hasText: 'Too many wrong codes. Request a new code' }).waitFor();
  assert.equal(await confirm.isDisabled(), true);
  await p.page.getByRole('button', { name: 'Send a new code' }).waitFor();
  assert.equal((await api('GET', '/linked', { init: user.init })).json.email, null);
  await axeClean(p, 'linked (too many codes)');
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

// Links a Google account to a Telegram user the way the web cabinet's link mode does: the
// authorize call (binding cookie), the fake provider's redirect with a code, the callback.
async function linkGoogle(user, name) {
  const start = await api('GET', '/auth/oauth/google/authorize', { init: user.init });
  assert.equal(start.status, 200, JSON.stringify(start.json));
  const cookie = (start.headers.get('set-cookie') || '').split(';')[0];
  const fakeUser = JSON.stringify({ sub: 'g-' + user.id, email: `g${user.id}@gmail.example`, email_verified: true, name });
  const back = await fetch(start.json.authorize_url + '&fake_user=' + encodeURIComponent(fakeUser), { redirect: 'manual' });
  const code = new URL(back.headers.get('location')).searchParams.get('code');
  const done = await api('POST', '/auth/oauth/callback', {
    init: user.init, headers: { Cookie: cookie }, body: { provider: 'google', code, state: start.json.state },
  });
  assert.equal(done.status, 200, JSON.stringify(done.json));
  return done.json;   // the session the callback opened
}

test('linked: a Google account is unlinked after the inline confirmation; Cancel keeps it', async () => {
  const user = await newUser();
  await linkGoogle(user, 'Nina Google');
  assert.equal((await api('GET', '/linked', { init: user.init })).json.oauth.length, 1);
  const p = await openScreen(user, 'linked');
  const list = p.page.getByRole('list', { name: 'Sign-in methods' });
  await list.getByText('Nina Google').waitFor();
  await p.page.getByRole('button', { name: 'Unlink Google' }).click();
  await p.page.getByRole('button', { name: 'Cancel' }).click();
  await p.page.getByRole('button', { name: 'Unlink Google' }).click();
  await axeClean(p, 'linked (confirm unlink)');
  await p.page.getByRole('button', { name: 'Yes, unlink' }).click();
  await list.getByText('Nina Google').waitFor({ state: 'detached' });
  await list.getByText('Telegram', { exact: true }).waitFor();
  assert.deepEqual((await api('GET', '/linked', { init: user.init })).json.oauth, []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('linked: the mini-app ends every web cabinet session of the account', async () => {
  const user = await newUser();
  const web = await linkGoogle(user, 'Nina Google');   // linking signs that browser in
  const p = await openScreen(user, 'linked');
  await p.page.getByRole('button', { name: 'End all web cabinet sessions' }).click();
  await p.page.getByText('End the web cabinet\'s sessions on every browser and device?').waitFor();
  await axeClean(p, 'linked (end sessions)');
  await p.page.getByRole('button', { name: 'Yes, end them' }).click();
  await p.page.getByText('1 other session ended').waitFor();
  assert.equal((await api('POST', '/auth/refresh', { body: { refresh_token: web.refresh_token } })).status, 401);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('linked: without a way into the web cabinet the mini-app offers no session card', async () => {
  const user = await newUser();
  const p = await openScreen(user, 'linked');
  await p.page.getByRole('list', { name: 'Sign-in methods' }).getByText('Telegram', { exact: true }).waitFor();
  assert.equal(await p.page.getByRole('button', { name: 'End all web cabinet sessions' }).count(), 0);
  await p.close();
});

test('referral: the link and code are the server\'s; Share opens Telegram\'s share sheet with the link', async () => {
  const user = await newUser();
  const ref = (await api('GET', '/referral', { init: user.init })).json;
  const p = await openScreen(user, 'referral');
  const field = p.page.getByLabel('Your invitation link');
  await field.waitFor();
  assert.equal(await field.inputValue(), ref.link);
  await p.page.getByText('Your code: ' + ref.code).waitFor();
  await p.page.getByText(`You get ${ref.commission_percent}% of every payment`).waitFor();
  await axeClean(p, 'referral');

  await p.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(p.page.url()).origin });
  await p.page.getByRole('button', { name: 'Copy link' }).click();
  await p.page.getByRole('status').getByText('Copied').waitFor();
  assert.equal(await p.page.evaluate(() => navigator.clipboard.readText()), ref.link);

  await p.page.getByRole('button', { name: 'Share' }).click();
  const events = await waitFor(async () => {
    const e = await p.tgEvents('web_app_open_tg_link');
    return e.length ? e : null;
  }, { what: 'web_app_open_tg_link' });
  const path = events[events.length - 1].data.path_full;
  assert.ok(path.startsWith('/share/url?url=' + encodeURIComponent(ref.link) + '&text='), path);
  assert.equal(new URLSearchParams(path.split('?')[1]).get('url'), ref.link);
  // Telegram's own Main button shares too.
  const main = (await p.tgEvents('web_app_setup_main_button')).at(-1);
  assert.equal(main.data.is_visible, true);
  assert.equal(main.data.text, 'Share');
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

// Every control of the screen is reached with the Tab key, in order, none skipped.
async function tabsThrough(page, route) {
  const controls = await page.evaluate(() => {
    const all = [...document.querySelectorAll('#screen a[href], #screen button, #screen input, #screen textarea, #screen [tabindex="0"]')];
    all.forEach((el, i) => { el.dataset.tabProbe = String(i); });
    return all.filter((el) => !el.disabled && el.getClientRects().length).map((el) => el.dataset.tabProbe);
  });
  await page.evaluate(() => document.getElementById('screen').focus());
  const reached = new Set();
  for (let i = 0; i < controls.length + 12 && reached.size < controls.length; i++) {
    await page.keyboard.press('Tab');
    const probe = await page.evaluate(() => document.activeElement && document.activeElement.dataset.tabProbe);
    if (probe !== undefined && probe !== null) reached.add(probe);
  }
  assert.deepEqual(controls.filter((c) => !reached.has(c)), [], `controls of ${route} not reached with Tab`);
}

test('demo mode: every account screen answers from the demo data, in Russian too, with no /api request and no missing string', async () => {
  for (const lang of ['en', 'ru']) {
    const p = await openPage(browser, `/app/?mock=1&lang=${lang}`);
    const apiCalls = [];
    const missing = [];
    p.page.on('request', (r) => { if (new URL(r.url()).pathname.startsWith('/api/')) apiCalls.push(r.url()); });
    p.page.on('console', (m) => { if (m.text().startsWith('i18n: missing')) missing.push(m.text()); });
    await ready(p.page);
    for (const route of ['account', 'payments', 'referral', 'promo', 'support', 'linked']) {
      await p.page.evaluate((r) => { location.hash = '#/' + r; }, route);
      await p.page.waitForSelector(`html[data-screen="${route}"] #screen[aria-busy="false"]`);
      await axeClean(p, `${route} (demo, ${lang})`);
      if (lang === 'en') await tabsThrough(p.page, route);
    }
    assert.deepEqual(apiCalls, []);
    assert.deepEqual(missing, []);
    assert.deepEqual(await p.problems(), []);
    await p.close();
  }
});
