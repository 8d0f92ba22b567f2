// The web cabinet's functions beyond sign-in: buying with an online gateway by redirect and
// back (paid, and back without paying), Telegram Stars through the invoice link, linking
// an OAuth account and Telegram from a web session, the admin screens for a web-signed-in
// admin (and "not allowed" for anyone else), the demo (?mock=1) and every screen axe-clean.
// Each click is checked on the server too.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { axe, launch, openPage, ready } from './lib/browser.mjs';
import { api, BASE, ctl, FAKES, waitFor } from './lib/stack.mjs';

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
  assert.equal((await api('POST', '/auth/register', { body: { email, password: PASSWORD } })).status, 200);
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
