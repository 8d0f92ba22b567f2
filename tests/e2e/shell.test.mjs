// The mini-app's shell: demo mode makes no API call, a real user gets the home screen with
// their own data, and the whole-page states (401, 403, maintenance) say what to do.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { axe, launch, openPage, ready } from './lib/browser.mjs';
import { api, ctl, freshId, initData, waitFor } from './lib/stack.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

test('demo mode (?mock=1) shows every tab with demo data and makes no request to /api', async () => {
  const p = await openPage(browser, '/app/?mock=1');
  const apiCalls = [];
  p.page.on('request', (r) => { if (new URL(r.url()).pathname.startsWith('/api/')) apiCalls.push(r.url()); });
  await ready(p.page);
  await p.page.getByRole('heading', { name: 'Standard' }).waitFor();
  for (const tab of ['Plans', 'Connect', 'Account', 'Home']) {
    await p.page.getByRole('navigation').getByRole('link', { name: tab }).click();
    await ready(p.page);
  }
  assert.deepEqual(apiCalls, []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('outside Telegram with no init data the page is the demo, not an error', async () => {
  const p = await openPage(browser, '/app/');
  await ready(p.page);
  await p.page.getByText('Demo mode').waitFor();
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('a new Telegram user sees their own home screen, in their language, with no accessibility fault', async () => {
  const id = freshId();
  const p = await openPage(browser, '/app/', { init: initData(id, { firstName: 'Ира', languageCode: 'ru' }) });
  await ready(p.page);
  await p.page.getByRole('navigation', { name: 'Разделы' }).waitFor();
  const me = await api('GET', '/me', { init: initData(id) });
  assert.equal(me.status, 200);
  assert.equal(me.json.subscription, null);
  // The Telegram host was told the app is ready, and offered the primary action.
  const events = (await p.tgEvents()).map((e) => e.type);
  assert.ok(events.includes('web_app_ready'), events.join(','));
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('bad init data gets the "reopen the app" screen, not a broken page', async () => {
  const init = initData(freshId()).replace(/hash=[0-9a-f]+/, 'hash=' + '0'.repeat(64));
  const p = await openPage(browser, '/app/', { init });
  p.allowHttp((r) => r.url().endsWith('/api/cabinet/me') && r.status() === 401);
  await p.page.getByRole('heading', { name: 'Please reopen the app' }).waitFor();
  assert.equal(await p.page.getByRole('navigation').count(), 0);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('a blocked user gets the "access blocked" screen', async () => {
  const id = freshId();
  assert.equal((await api('GET', '/me', { init: initData(id) })).status, 200);
  ctl('user', 'block', '--telegram-id', String(id));
  const p = await openPage(browser, '/app/', { init: initData(id) });
  p.allowHttp((r) => r.url().endsWith('/api/cabinet/me') && r.status() === 403);
  await p.page.getByRole('heading', { name: 'Access blocked' }).waitFor();
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('in maintenance the app stays usable and tells its users, with the admins\' message', async () => {
  ctl('maintenance', 'on', '--message', 'Back at 18:00');
  try {
    await waitFor(async () => (await api('GET', '/config')).json.maintenance.active, { what: 'maintenance in /config' });
    const id = freshId();
    const p = await openPage(browser, '/app/', { init: initData(id) });
    await ready(p.page);
    await p.page.getByText('Back at 18:00').waitFor();
    // The cabinet itself keeps working (SPEC rule 4): the home screen is there.
    await p.page.getByRole('navigation', { name: 'Sections' }).waitFor();
    assert.deepEqual(await axe(p.page), []);
    assert.deepEqual(await p.problems(), []);
    await p.close();
  } finally {
    ctl('maintenance', 'off');
  }
  await waitFor(async () => !(await api('GET', '/config')).json.maintenance.active, { what: 'maintenance off' });
  const p = await openPage(browser, '/app/', { init: initData(freshId()) });
  await ready(p.page);
  assert.equal(await p.page.getByText('Back at 18:00').count(), 0);
  await p.close();
});

test('Telegram\'s theme, safe areas and Back button reach the page', async () => {
  const id = freshId();
  const p = await openPage(browser, '/app/', {
    init: initData(id),
    themeParams: { bg_color: '#ffffff', text_color: '#000000', hint_color: '#707579', button_color: '#3390ec' },
  });
  await ready(p.page);
  assert.equal(await p.page.evaluate(() => document.documentElement.dataset.scheme), 'light');
  // The user switches Telegram to its night theme while the app is open.
  await p.tgEvent('theme_changed', { theme_params: { bg_color: '#212121', text_color: '#ffffff', hint_color: '#aaaaaa', button_color: '#8774e1' } });
  assert.equal(await p.page.evaluate(() => document.documentElement.dataset.scheme), 'dark');
  // Full screen on a phone with a notch: the shell moves below Telegram's insets.
  const padTop = () => p.page.evaluate(() => parseFloat(getComputedStyle(document.getElementById('shell')).paddingTop));
  const before = await padTop();
  await p.tgEvent('safe_area_changed', { top: 44, bottom: 34, left: 0, right: 0 });
  await p.tgEvent('content_safe_area_changed', { top: 46, bottom: 0, left: 0, right: 0 });
  assert.ok(await padTop() >= before + 90 - 1, `padding-top ${await padTop()} after the insets, ${before} before`);
  // A sub-screen shows Telegram's Back button; pressing it returns to the parent screen.
  await p.page.evaluate(() => { location.hash = '#/payments'; });
  await ready(p.page);
  const back = (await p.tgEvents('web_app_setup_back_button')).at(-1);
  assert.deepEqual(back.data, { is_visible: true });
  await p.tgEvent('back_button_pressed', {});
  await p.page.waitForFunction(() => location.hash === '#/account');
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('a window opened before a deploy reloads into the new release instead of mixing the two', async () => {
  const p = await openPage(browser, '/app/?mock=1');
  await ready(p.page);
  const release = await p.page.evaluate(() => document.querySelector('script[type=module]').src.match(/\/static\/([0-9a-f]{12})\//)[1]);
  const other = release === 'ffffffffffff' ? 'eeeeeeeeeeee' : 'ffffffffffff';
  // The deploy: the old release's files are gone, the entry page names a new one.
  // (Once each: the reloaded page gets the real files.) The first module asked for from
  // here on is the plans screen's (screens/plans.js, or its chunk in a release step's bundle).
  const ours = (url) => url.pathname.startsWith(`/static/${release}/app/`) && url.pathname.endsWith('.js');
  await p.page.route(ours, (r) => r.fulfill({ status: 404, body: 'gone' }), { times: 1 });
  await p.page.route('**/app/', async (r) => {
    const real = await r.fetch();
    r.fulfill({ response: real, body: (await real.text()).replaceAll(release, other) });
  }, { times: 1 });
  p.allowHttp((r) => r.status() === 404 && ours(new URL(r.url())));
  const reloaded = p.page.waitForEvent('load');
  await p.page.evaluate(() => { location.hash = '#/plans'; });
  await reloaded;
  await ready(p.page);
  await p.page.getByRole('heading', { name: 'Plans', level: 1 }).waitFor();
  // The reload itself cuts off the old page's request for the screen: that is the point.
  const problems = (await p.problems()).filter((x) => !/\/app\/\S+\.js net::ERR_ABORTED/.test(x));
  assert.deepEqual(problems, []);
  await p.close();
});
