// The public landing at `/` (issue 15): real HTML that the worker renders from the shop's
// data, so a visitor (and a search engine) reads the plans /public/plans returns, the owner's
// copy and the Open Graph tags before any script runs; an owner's change reaches the page on
// its own; a switched-off landing is a minimal page; robots.txt and the favicon are served.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { axe, launch, openPage } from './lib/browser.mjs';
import { BASE, api, ctl, waitFor } from './lib/stack.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

// Sets app config keys for one test and puts the old values back (the other files share the stack).
async function withConfig(changes, fn) {
  const old = Object.fromEntries(Object.keys(changes).map((k) => [k, ctl('config', 'get', k).trim()]));
  try {
    for (const [k, v] of Object.entries(changes)) ctl('config', 'set', k, v);
    await fn();
  } finally {
    for (const [k, v] of Object.entries(old)) ctl('config', 'set', k, v);
  }
}

// The page as nginx serves it now (the worker rewrites it within seconds of a change).
const landingHtml = async () => (await fetch(BASE + '/')).text();
const waitForLanding = (pred, what) => waitFor(async () => {
  const html = await landingHtml();
  return pred(html) ? html : null;
}, { timeout: 20000, what });

// What the landing must show for each plan: its name and each duration's list price.
function priceText(minor, currency) {
  const amount = (minor / 100).toLocaleString('en-US', { maximumFractionDigits: 2, minimumFractionDigits: minor % 100 ? 2 : 0 });
  return `${amount}\u00a0${{ RUB: '₽', USD: '$', EUR: '€' }[currency] || currency}`;
}

test('without scripts the landing shows the plans /public/plans returns, the owner\'s copy and the Open Graph tags', async () => {
  const plans = await api('GET', '/public/plans');
  const landing = await api('GET', '/public/landing');
  assert.equal(plans.status, 200);
  assert.ok(plans.json.items.length > 0, 'the demo shop has plans');

  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const res = await page.goto(BASE + '/');
  assert.equal(res.status(), 200);
  assert.equal(res.headers()['cache-control'], 'no-cache');

  await page.getByRole('heading', { level: 1, name: landing.json.headline }).waitFor();
  assert.equal(await page.title(), `${landing.json.title} — ${landing.json.headline}`);
  const meta = (sel) => page.locator(sel).getAttribute('content');
  assert.equal(await meta('meta[name="description"]'), landing.json.subheadline);
  assert.equal(await meta('meta[property="og:title"]'), await page.title());
  assert.equal(await meta('meta[property="og:description"]'), landing.json.subheadline);
  assert.equal(await meta('meta[property="og:url"]'), BASE + '/');
  assert.equal(await page.locator('link[rel="canonical"]').getAttribute('href'), BASE + '/');
  assert.match(await page.locator('link[rel="icon"]').getAttribute('href'), /^\/static\/[0-9a-f]{12}\/shared\/icon\.svg$/);

  const list = page.getByRole('region', { name: 'Plans' });
  for (const plan of plans.json.items) {
    const card = list.getByRole('listitem').filter({ has: page.getByRole('heading', { name: plan.name, exact: true }) });
    await card.waitFor();
    for (const d of plan.durations) {
      const row = card.getByRole('listitem').filter({ hasText: `${d.days} days` });
      assert.equal(await row.locator('strong').innerText(), priceText(d.price_minor, plans.json.currency), `${plan.name}, ${d.days} days`);
    }
  }
  for (const f of landing.json.features) await page.getByRole('heading', { name: f.title }).waitFor();
  for (const q of landing.json.faq) await page.getByText(q.q).waitFor();
  // The call to action of cta_target "web" opens the web cabinet; the bot is the other way in.
  const cta = page.getByRole('main').getByRole('link', { name: 'Open the cabinet' });
  assert.equal(await cta.getAttribute('href'), landing.json.cabinet_url + '/');
  assert.equal(await page.getByRole('main').getByRole('link', { name: 'Open in Telegram' }).getAttribute('href'),
    `https://t.me/${landing.json.bot_username}`);
  await context.close();
});

test('with scripts the landing is painted in the shop\'s template and accent, axe clean, with no problem', async () => {
  const config = (await api('GET', '/config')).json;
  // A test before may have just put the template back: the page follows within seconds.
  await waitForLanding((h) => h.includes(`data-template="${config.template}"`), 'the landing in step with /config');
  for (const scheme of ['light', 'dark']) {
    const p = await openPage(browser, '/', { colorScheme: scheme, viewport: { width: 390, height: 844 } });
    await p.page.getByRole('heading', { level: 1 }).waitFor();
    await p.page.waitForFunction((s) => document.documentElement.dataset.scheme === s, scheme);
    assert.equal(await p.page.evaluate(() => document.documentElement.dataset.template), config.template);
    // The accent is the owner's (fitted for contrast): the primary button's fill is painted from it.
    const accent = await p.page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--accent').trim());
    assert.ok(accent.startsWith('#'), `accent painted: ${accent}`);
    assert.deepEqual(await axe(p.page), [], scheme);
    assert.deepEqual(await p.problems(), []);
    await p.close();
  }
});

test('an owner\'s edit and a new price reach the page without anyone rendering it by hand', async () => {
  const headline = 'Private internet, e2e ' + Date.now();
  await withConfig({ 'landing.headline': headline, template: 'd' }, async () => {
    // Both edits on the page (the worker may render between the two `config set`s).
    const html = await waitForLanding((h) => h.includes(`<h1>${headline}</h1>`) && h.includes('data-template="d"'),
      'the new headline and template on /');
    assert.match(html, /\/themes\/d\.css/);
    const p = await openPage(browser, '/');
    await p.page.getByRole('heading', { level: 1, name: headline }).waitFor();
    assert.deepEqual(await axe(p.page), []);
    assert.deepEqual(await p.problems(), []);
    await p.close();
  });
  // A plan's price changed from the command line (the bot's admin would do the same).
  const plans = (await api('GET', '/public/plans')).json;
  const plan = plans.items[0];
  const d = plan.durations[0];
  const bumped = d.price_minor + 100;
  ctl('plan', 'price', '--code', plan.public_code, '--days', String(d.days), '--months', String(d.months ?? 1), '--price', String(bumped));
  try {
    await waitForLanding((h) => h.includes(priceText(bumped, plans.currency)), 'the new price on /');
  } finally {
    ctl('plan', 'price', '--code', plan.public_code, '--days', String(d.days), '--months', String(d.months ?? 1), '--price', String(d.price_minor));
  }
  await waitForLanding((h) => h.includes(priceText(d.price_minor, plans.currency)), 'the old price back on /');
});

test('cta_target "bot" leads to the bot; a switched-off landing is a minimal page that is not indexed', async () => {
  const bot = (await api('GET', '/public/landing')).json.bot_username;
  await withConfig({ 'landing.cta_target': 'bot' }, async () => {
    await waitForLanding((h) => /<p class="site-actions"><a class="btn btn-primary" href="https:\/\/t\.me\//.test(h), 'the bot as the main call');
    const p = await openPage(browser, '/');
    const main = p.page.getByRole('main').getByRole('link', { name: 'Open in Telegram' });
    assert.equal(await main.getAttribute('href'), `https://t.me/${bot}`);
    assert.deepEqual(await p.problems(), []);
    await p.close();
  });
  await withConfig({ 'landing.enabled': 'false' }, async () => {
    await waitForLanding((h) => h.includes('noindex'), 'the minimal page');
    const p = await openPage(browser, '/');
    const title = (await api('GET', '/config')).json.title;
    await p.page.getByRole('heading', { level: 1, name: title }).waitFor();
    assert.equal(await p.page.getByRole('region', { name: 'Plans' }).count(), 0);
    assert.equal(await p.page.getByRole('link', { name: 'Open in Telegram' }).first().getAttribute('href'), `https://t.me/${bot}`);
    assert.deepEqual(await axe(p.page), []);
    assert.deepEqual(await p.problems(), []);
    await p.close();
  });
  await waitForLanding((h) => !h.includes('noindex'), 'the full landing back');
});

test('robots.txt keeps crawlers on the landing and off the apps; /favicon.ico is the shop icon', async () => {
  const robots = await fetch(BASE + '/robots.txt');
  assert.equal(robots.status, 200);
  const text = await robots.text();
  for (const path of ['/api/', '/app/', '/cabinet/', '/admin/']) assert.match(text, new RegExp(`^Disallow: ${path}$`, 'm'));
  assert.doesNotMatch(text, /^Disallow: \/$/m);
  const icon = await fetch(BASE + '/favicon.ico');
  assert.equal(icon.status, 200);
  assert.equal(icon.headers.get('content-type'), 'image/svg+xml');
  assert.match(await icon.text(), /^<svg/);
});
