// The owner's Look section (/admin/#/look): the template picked among eight live previews,
// the title and a button's text edited and seen in the big preview before anything is
// saved, then Save publishes: /api/admin/app-config, the customer's /me and /config, and
// the landing at / say it. Hostile text is text everywhere (admin, mini-app, landing) and a
// javascript: link is refused by the form, dropped by the server and never a button in the
// mini-app. A viewer sees the section with every control disabled, and a forced PUT is 403.
// The app config is put back at the end (the other files read it).
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';

import { axe, launch, openPage, ready, screenshotPath } from './lib/browser.mjs';
import { BASE, api, freshId, initData, waitFor } from './lib/stack.mjs';

const OWNER = 100000001;
const VIEWER = 100000003;
const HOSTILE = '<img src=x onerror=alert(1)>';
const PREVIEW = 'Preview of the mini-app with the unsaved look';

async function adminApi(method, path, body, who = OWNER) {
  const res = await fetch(BASE + '/api/admin' + path, {
    method,
    headers: { Authorization: 'tma ' + initData(who), ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: await res.json().catch(() => null) };
}
async function appConfig() {
  const r = await adminApi('GET', '/app-config');
  assert.equal(r.status, 200, JSON.stringify(r.json));
  return Object.fromEntries(r.json.items.map((i) => [i.name, i.value]));
}
const landingHtml = async () => (await fetch(BASE + '/')).text();
const customerMe = async () => (await api('GET', '/me', { init: initData(freshId()) })).json;

let browser;
let original;
before(async () => {
  browser = await launch();
  original = await appConfig();
});
// Puts back every value a test changed (an empty accent cannot be stored), so each test
// starts from the shop's own look and the other files find it as it was.
async function restore() {
  const now = await appConfig();
  for (const [name, value] of Object.entries(original)) {
    if (now[name] === value || (name === 'accent_color' && !value)) continue;
    const r = await adminApi('PUT', '/app-config/' + name, { value });
    assert.equal(r.status, 200, `put back ${name}: ${JSON.stringify(r.json)}`);
  }
}
afterEach(restore);
after(async () => {
  await restore();
  await browser.close();
});

const openLook = (who = OWNER, opts = {}) => openPage(browser, '/admin/#/look', { init: initData(who), viewport: { width: 1280, height: 900 }, ...opts });
async function lookReady(p) {
  await ready(p.page);
  await p.page.getByRole('heading', { level: 1, name: 'Look' }).waitFor();
  await p.page.getByLabel('Shop name').waitFor();
}
// The big preview's document (a same-origin frame of /app/?mock=1).
const preview = (p) => p.page.getByTitle(PREVIEW).contentFrame();
const TEMPLATES = ['Native', 'Ledger', 'Terminal', 'Gazette', 'Candy', 'Brutal', 'Aurora', 'Console'];
// Every preview frame has booted and painted `title` (before leaving the section, whose
// frames' loads would otherwise be cut short and counted as failed requests).
async function previewsReady(p, title, names = TEMPLATES, big = true) {
  if (big) await preview(p).getByText(title, { exact: true }).first().waitFor();
  for (const name of names) {
    await p.page.getByTitle('Preview of template ' + name).contentFrame().getByText(title, { exact: true }).first().waitFor();
  }
}

test('the owner picks a template, edits the title and a button, sees them in the preview before saving, and Save publishes them', async () => {
  const p = await openLook();
  await lookReady(p);
  assert.deepEqual(await axe(p.page), []);
  const stamp = Date.now().toString(36);
  const title = 'Shop ' + stamp;
  const renew = 'Renew ' + stamp;
  const headline = 'Headline ' + stamp;
  const next = original.template === 'e' ? 'c' : 'e';
  const nextName = { c: 'Terminal', e: 'Candy' }[next];

  await p.page.getByRole('radio', { name: nextName }).check();
  await p.page.getByLabel('Shop name').fill(title);
  await p.page.getByRole('group', { name: 'Renew', exact: true }).getByLabel('Text').fill(renew);
  await p.page.getByLabel('Headline', { exact: true }).fill(headline);
  await p.page.getByText('4 unsaved changes.').waitFor();

  // The preview repaints with the unsaved look: template, title, the button's text.
  const frame = preview(p);
  await frame.getByText(title, { exact: true }).waitFor();
  await frame.getByText(renew, { exact: true }).first().waitFor();
  await waitFor(async () => (await frame.locator('html').getAttribute('data-template')) === next, { what: 'the preview\'s template' });
  // A preview never talks to the Telegram host the admin runs in (its header colour, its
  // Main Button): a frame of our own origin is not inside Telegram.
  assert.deepEqual(await frame.locator('html').evaluate(() => window.__tg || []), []);
  // The chooser's own frame of that template shows the title too.
  await p.page.getByTitle('Preview of template ' + nextName).contentFrame().getByText(title, { exact: true }).waitFor();
  // Nothing has reached the server yet.
  const before = await appConfig();
  assert.equal(before.title, original.title);
  assert.equal(before.template, original.template);

  await p.page.getByRole('button', { name: 'Save and publish' }).click();
  await p.page.getByText('No unsaved changes.').waitFor();
  await p.page.getByText(/^Published/).waitFor();

  const saved = await appConfig();
  assert.equal(saved.template, next);
  assert.equal(saved.title, title);
  assert.equal(saved['landing.headline'], headline);
  assert.equal(JSON.parse(saved.ui).buttons.renew.text, renew);
  // A customer's next /me and /config have it.
  const me = await customerMe();
  assert.equal(me.app.template, next);
  assert.equal(me.app.title, title);
  assert.equal(me.app.ui.buttons.renew.text, renew);
  const config = (await api('GET', '/config', { init: initData(freshId()) })).json;
  assert.equal(config.template, next);
  assert.equal(config.title, title);
  assert.equal(config.accent_color, saved.accent_color);
  // The landing is rendered again by the worker within seconds.
  await waitFor(async () => (await landingHtml()).includes(headline), { timeout: 20000, what: 'the landing with the new headline' });
  // The audit log says who changed what.
  const audit = (await adminApi('GET', '/audit?limit=20')).json.items;
  assert.ok(audit.some((e) => e.actor === 'telegram:' + OWNER && JSON.stringify(e.payload || '').includes(title)), 'the title change is audited');

  // The real mini-app, as a customer, shows the new title and button.
  const app = await openPage(browser, '/app/', { init: initData(freshId()) });
  await ready(app.page);
  await app.page.getByText(title, { exact: true }).first().waitFor();
  assert.equal(await app.page.locator('html').getAttribute('data-template'), next);
  assert.deepEqual(await app.problems(), []);
  await app.close();

  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('hostile text is shown as text in the admin, the preview, the mini-app and the landing; a javascript: link is refused and dropped', async () => {
  const p = await openLook();
  const dialogs = [];
  p.page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  await lookReady(p);
  const stamp = Date.now().toString(36);
  const title = HOSTILE + ' ' + stamp;
  const feature = HOSTILE + ' feature ' + stamp;   // its own text: the title is on the landing too
  await p.page.getByLabel('Shop name').fill(title);
  await p.page.getByRole('button', { name: 'Add a block' }).click();
  const block = p.page.getByRole('group', { name: 'Block 1' });
  await block.getByLabel('Title').fill(HOSTILE);
  await block.getByLabel('Button text').fill('Evil link');
  await block.getByLabel('Link').fill('javascript:alert(1)');
  await p.page.getByRole('group', { name: 'Feature 1' }).getByLabel('Title').fill(feature);
  await p.page.getByLabel('Accent colour (HEX)', { exact: true }).fill('#12');

  // The preview shows the markup as text, and no button for the refused link.
  const frame = preview(p);
  await frame.getByText(title, { exact: true }).waitFor();
  await frame.getByRole('heading', { name: HOSTILE }).waitFor();
  assert.equal(await frame.getByRole('button', { name: 'Evil link' }).count(), 0);
  assert.equal(await frame.locator('img[src="x"]').count(), 0);

  // Save refuses: the errors stand next to their fields, and nothing is sent.
  const configBefore = await appConfig();
  await p.page.getByRole('button', { name: 'Save and publish' }).click();
  await p.page.getByText('2 fields need fixing before saving.').waitFor();
  const link = block.getByLabel('Link');
  assert.equal(await link.getAttribute('aria-invalid'), 'true');
  await block.getByText('Links must start with https://, http://, tg:// or mailto:').waitFor();
  await p.page.getByText('A colour like #2481cc (six hex digits).').waitFor();
  assert.equal(await p.page.evaluate(() => document.activeElement.getAttribute('aria-invalid')), 'true', 'focus on the first wrong field');
  assert.deepEqual(await appConfig(), configBefore);
  assert.deepEqual(await axe(p.page), []);

  // Fixed: the link goes, the colour is valid; Save stores the markup as plain text.
  await link.fill('');
  await block.getByLabel('Button text').fill('');
  await p.page.getByLabel('Accent colour (HEX)', { exact: true }).fill('#0a7e5a');
  await p.page.getByRole('button', { name: 'Save and publish' }).click();
  await p.page.getByText('No unsaved changes.').waitFor();
  const saved = await appConfig();
  assert.equal(saved.title, title.trim());
  assert.equal(saved.accent_color, '#0a7e5a');
  assert.equal(JSON.parse(saved.ui).blocks[0].title, HOSTILE);
  assert.equal(JSON.parse(saved['landing.features'])[0].title, feature);

  // Forced past the form, the server drops a javascript: link (and its extra button).
  const ui = JSON.parse(saved.ui);
  ui.blocks[0] = { ...ui.blocks[0], url: 'javascript:alert(1)', button_label: 'Evil link' };
  ui.buttons_extra = [{ id: 'x1', screen: 'home', label: 'Evil extra', url: 'javascript:alert(2)', style: 'primary' }];
  const forced = await adminApi('PUT', '/app-config/ui', { value: JSON.stringify(ui) });
  assert.equal(forced.status, 200, JSON.stringify(forced.json));
  const stored = JSON.parse(Object.fromEntries(forced.json.items.map((i) => [i.name, i.value])).ui);
  assert.ok(!JSON.stringify(stored).includes('javascript:'), 'no javascript: link stored');
  assert.deepEqual(stored.buttons_extra || [], []);

  // The mini-app as a customer: the markup is text, no link button.
  const app = await openPage(browser, '/app/', { init: initData(freshId()) });
  app.page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  await ready(app.page);
  await app.page.getByRole('heading', { name: HOSTILE }).waitFor();
  await app.page.getByText(title, { exact: true }).first().waitFor();
  assert.equal(await app.page.getByRole('button', { name: /Evil/ }).count(), 0);
  assert.equal(await app.page.locator('img[src="x"]').count(), 0);
  assert.deepEqual(await app.problems(), []);
  await app.close();

  // The landing: escaped in the HTML, shown as text in the browser.
  const escaped = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  await waitFor(async () => (await landingHtml()).includes(escaped(feature)), { timeout: 20000, what: 'the landing with the feature' });
  assert.ok(!(await landingHtml()).includes(HOSTILE), 'no raw markup in the landing');
  const landing = await openPage(browser, '/', { viewport: { width: 1280, height: 900 } });
  landing.page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  await landing.page.getByText(feature, { exact: true }).waitFor();
  assert.equal(await landing.page.locator('img[src="x"]').count(), 0);
  assert.deepEqual(await landing.problems(), []);
  await landing.close();

  // Back in the admin, after a reload, the stored markup is text in the form.
  await p.page.reload();
  await lookReady(p);
  assert.equal(await p.page.getByLabel('Shop name').inputValue(), title.trim());
  assert.equal(await p.page.locator('img[src="x"]').count(), 0);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('a pale accent gets the contrast warning the pages compute; a preset clears it; the preview takes the colour unsaved', async () => {
  const p = await openLook();
  await lookReady(p);
  const accent = p.page.getByLabel('Accent colour (HEX)', { exact: true });
  await accent.fill('#ffd400');
  const warning = p.page.getByRole('status').filter({ hasText: 'This colour is hard to read as text' });
  await warning.getByText(/On a light page it reads at 1\.4:1/).waitFor();
  await warning.getByText(/White text does not read on this colour/).waitFor();
  assert.deepEqual(await axe(p.page), []);
  await p.page.getByRole('button', { name: 'Use #0a7e5a' }).click();
  assert.equal(await accent.inputValue(), '#0a7e5a');
  await warning.waitFor({ state: 'detached' }).catch(() => {});
  assert.equal(await p.page.getByText('This colour is hard to read as text').isVisible(), false);
  const frame = preview(p);
  await waitFor(async () => (await frame.locator('html').evaluate((el) => getComputedStyle(el).getPropertyValue('--accent').trim())) === '#0a7e5a',
    { what: 'the preview painted with the unsaved accent' });
  assert.equal((await appConfig()).accent_color, original.accent_color, 'nothing saved');
  // Discard puts the form and the preview back to the saved look.
  await p.page.getByRole('button', { name: 'Discard changes' }).click();
  await p.page.getByText('Changes discarded.').waitFor();
  assert.equal(await accent.inputValue(), original.accent_color);
  assert.ok(await p.page.getByRole('button', { name: 'Save and publish' }).isDisabled());
  await waitFor(async () => (await frame.locator('html').evaluate((el) => getComputedStyle(el).getPropertyValue('--accent').trim())) !== '#0a7e5a',
    { what: 'the preview back to the saved accent' });
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('the keyboard reaches everything: templates by arrow keys, home sections moved up and down, Save', async () => {
  const p = await openLook();
  await lookReady(p);
  const checked = await p.page.getByRole('radio', { checked: true }).first().getAttribute('value');
  // Tab from the page's start reaches the template group, the first form field and more.
  const seen = new Set();
  await p.page.locator('body').focus();
  for (let i = 0; i < 60; i++) {
    await p.page.keyboard.press('Tab');
    seen.add(await p.page.evaluate(() => {
      const el = document.activeElement;
      return el.labels && el.labels[0] ? el.labels[0].textContent : el.getAttribute('aria-label') || el.textContent.trim();
    }));
  }
  for (const name of ['Shop name', 'Greeting on the home screen', 'Accent colour (HEX)']) assert.ok(seen.has(name), `${name} reached by Tab: ${[...seen].join(' | ')}`);
  // Arrow keys move within the templates.
  const radio = p.page.getByRole('radio', { checked: true }).first();
  await radio.focus();
  await p.page.keyboard.press('ArrowRight');
  const now = await p.page.getByRole('radio', { checked: true }).first().getAttribute('value');
  assert.notEqual(now, checked);
  // A home section moved by keyboard keeps the focus on its button.
  const list = p.page.getByRole('list', { name: 'Home sections in order' });
  const names = async () => (await list.getByRole('listitem').allTextContents()).map((t) => t.replace(/(Always shown|Shown).*$/, ''));
  const order = await names();
  await p.page.getByRole('button', { name: 'Move Plans down' }).focus();
  await p.page.keyboard.press('Enter');
  const moved = await names();
  assert.equal(moved.indexOf('Plans'), order.indexOf('Plans') + 1);
  assert.equal(await p.page.evaluate(() => document.activeElement.getAttribute('aria-label')), 'Move Plans down');
  await p.page.keyboard.press('Shift+Tab');
  await p.page.keyboard.press('Enter');   // "Move Plans up": back where it was
  assert.deepEqual(await names(), order);
  // Save is reached and works from the keyboard.
  const save = p.page.getByRole('button', { name: 'Save and publish' });
  await save.focus();
  await p.page.keyboard.press('Enter');
  await p.page.getByText('No unsaved changes.').waitFor();
  assert.equal((await appConfig()).template, now);
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('the preview shows a block on the screen it is placed on, an extra button, the section order and the scale, all unsaved', async () => {
  const p = await openLook();
  await lookReady(p);
  const stamp = Date.now().toString(36);
  await p.page.getByRole('button', { name: 'Add a block' }).click();
  const block = p.page.getByRole('group', { name: 'Block 1' });
  await block.getByLabel('Screen').selectOption('connect');
  await block.getByLabel('Title').fill('Setup help ' + stamp);
  await block.getByLabel('Text', { exact: true }).fill('Write to us if the app does not connect.');
  await p.page.getByRole('button', { name: 'Add a button' }).click();
  const extra = p.page.getByRole('group', { name: 'Button 1' });
  await extra.getByLabel('Button text').fill('Our channel ' + stamp);
  await extra.getByLabel('Link').fill('https://t.me/example_channel');
  await p.page.getByRole('button', { name: 'Move Telegram proxy up' }).click();
  await p.page.getByRole('button', { name: 'Move Telegram proxy up' }).click();
  await p.page.getByLabel('Text and spacing size').fill('110');

  const frame = preview(p);
  await frame.getByRole('button', { name: 'Our channel ' + stamp }).waitFor();
  // Home: the proxy section now comes before the plans' teaser.
  await waitFor(async () => {
    const text = await frame.locator('main').innerText();
    return text.indexOf('Telegram proxy') >= 0 && text.indexOf('Telegram proxy') < text.indexOf('Plans and prices');
  }, { what: 'the proxy section above the plans in the preview' });
  assert.equal(await frame.locator('html').evaluate((el) => getComputedStyle(el).getPropertyValue('--ui-scale').trim()), '1.1');
  assert.equal(await frame.getByRole('heading', { name: 'Setup help ' + stamp }).count(), 0, 'not on home');
  await p.page.getByRole('group', { name: 'Screen in the preview' }).getByRole('button', { name: 'Connect' }).click();
  await frame.getByRole('heading', { name: 'Setup help ' + stamp }).waitFor();
  assert.equal((await appConfig()).ui, original.ui, 'nothing saved');
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('a value the server refuses (422) is named next to its field; what went before it is stored', async () => {
  const p = await openLook();
  await lookReady(p);
  // The form checks what the server checks, so a refusal is made here: the title's PUT
  // answers as the server does for a bad title (detail starting with the field's name).
  await p.page.route('**/api/admin/app-config/title', (route) => (route.request().method() === 'PUT'
    ? route.fulfill({ status: 422, contentType: 'application/json', body: JSON.stringify({ detail: 'title must be 1..64 characters (got 70)' }) })
    : route.continue()));
  p.allowHttp((r) => r.status() === 422 && new URL(r.url()).pathname === '/api/admin/app-config/title');
  const next = original.template === 'h' ? 'g' : 'h';
  await p.page.getByRole('radio', { name: { g: 'Aurora', h: 'Console' }[next] }).check();
  await p.page.getByLabel('Shop name').fill('Refused ' + Date.now().toString(36));
  await p.page.getByRole('button', { name: 'Save and publish' }).click();
  await p.page.getByText('The server refused a value: title must be 1..64 characters (got 70)').waitFor();
  const title = p.page.getByLabel('Shop name');
  assert.equal(await title.getAttribute('aria-invalid'), 'true');
  assert.equal(await p.page.evaluate(() => document.activeElement.id), await title.getAttribute('id'));
  // The template went first and is stored; the title is still an unsaved change.
  assert.equal((await appConfig()).template, next);
  await p.page.getByText('1 unsaved change.').waitFor();
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('unsaved edits survive a visit to another section, and Discard drops them', async () => {
  const p = await openLook();
  await lookReady(p);
  const draftTitle = 'Draft ' + Date.now().toString(36);
  await p.page.getByLabel('Shop name').fill(draftTitle);
  await p.page.getByText('1 unsaved change.').waitFor();
  await previewsReady(p, draftTitle);
  await p.page.getByRole('navigation').getByRole('link', { name: 'Audit log' }).click();
  await ready(p.page);
  await p.page.getByRole('navigation').getByRole('link', { name: 'Look' }).click();
  await lookReady(p);
  assert.equal(await p.page.getByLabel('Shop name').inputValue(), draftTitle);
  await p.page.getByText('1 unsaved change kept from before: Save publishes it, Discard drops it.').waitFor();
  await preview(p).getByText(draftTitle, { exact: true }).waitFor();
  assert.equal((await appConfig()).title, original.title, 'nothing saved');
  await p.page.getByRole('button', { name: 'Discard changes' }).click();
  assert.equal(await p.page.getByLabel('Shop name').inputValue(), original.title);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('in Russian every string of the section is translated, and the previews speak Russian', async () => {
  const p = await openPage(browser, '/admin/#/look', { init: initData(OWNER, { languageCode: 'ru' }), viewport: { width: 1280, height: 900 } });
  await ready(p.page);
  await p.page.getByRole('heading', { level: 1, name: 'Оформление' }).waitFor();
  await p.page.getByLabel('Название магазина').waitFor();
  const text = await p.page.locator('main').innerText();
  assert.ok(!/\blook\.[a-z]/.test(text), 'no raw i18n key: ' + (text.match(/\blook\.[a-zA-Z.]+/) || [''])[0]);
  const frame = p.page.getByTitle('Превью мини-приложения с несохранённым оформлением').contentFrame();
  await frame.getByRole('heading', { name: 'Главная' }).waitFor();
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('a viewer sees the section with every control disabled, and a forced PUT is 403', async () => {
  const p = await openLook(VIEWER);
  await lookReady(p);
  assert.ok(await p.page.getByLabel('Shop name').isDisabled());
  assert.ok(await p.page.getByRole('radio', { name: 'Candy' }).isDisabled());
  assert.ok(await p.page.getByRole('button', { name: 'Add a block' }).isDisabled());
  assert.equal(await p.page.getByRole('button', { name: 'Save and publish' }).count(), 0);
  await p.page.getByText('Read only: your role may look but not change.').waitFor();
  const forced = await adminApi('PUT', '/app-config/title', { value: 'Viewer was here' }, VIEWER);
  assert.equal(forced.status, 403);
  assert.notEqual((await appConfig()).title, 'Viewer was here');
  assert.deepEqual(await axe(p.page), []);
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

test('screenshots at 1280 and 390 px (docs/screenshots/admin-look-*.png)', async () => {
  for (const [width, height] of [[1280, 1600], [390, 1688]]) {
    const p = await openLook(OWNER, { viewport: { width, height } });
    await lookReady(p);
    // The frames in view have booted and taken the look (the shop's title is in each).
    // (At 390 px the big preview is far below the first screen and not loaded yet: lazy.)
    await previewsReady(p, original.title, width > 1000 ? TEMPLATES : TEMPLATES.slice(0, 2), width > 1000);
    await p.page.waitForTimeout(500);   // fonts and the last repaint
    await p.page.screenshot({ path: screenshotPath(`admin-look-${width}.png`) });
    assert.deepEqual(await axe(p.page), []);
    assert.deepEqual(await p.problems(), []);
    await p.close();
  }
});
