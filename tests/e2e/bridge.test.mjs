// shared/telegram.js, the page's own bridge to the Telegram host, driven in Node with a
// stand-in window: links from answers (a gateway's redirect_url, an owner's button, a proxy
// link) reach the host or a new window only when Telegram's own SDK would open them.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createTelegram } from '../../nginx/html/shared/telegram.js';

// A mobile Telegram client's webview (TelegramWebviewProxy), or a plain browser tab.
function fakeWindow({ inTelegram = true } = {}) {
  const posted = [];
  const opened = [];
  const win = {
    location: { hash: inTelegram ? '#tgWebAppData=user%3D1&tgWebAppPlatform=android' : '', href: 'https://shop.example/app/' },
    sessionStorage: { getItem: () => null, setItem: () => {} },
    open: (url, target, features) => { opened.push([url, target, features]); },
    addEventListener: () => {},
    posted,
    opened,
  };
  win.parent = win;
  if (inTelegram) win.TelegramWebviewProxy = { postEvent: (type, data) => posted.push([type, JSON.parse(data)]) };
  return win;
}

test('openLink hands http(s) pages to Telegram and refuses every other scheme', () => {
  const win = fakeWindow();
  const tg = createTelegram(win);
  assert.equal(tg.openLink('https://pay.example/checkout?id=1'), true);
  assert.deepEqual(win.posted, [['web_app_open_link', { url: 'https://pay.example/checkout?id=1' }]]);
  for (const bad of ['javascript:alert(document.cookie)', 'JavaScript:alert(1)', 'data:text/html,<b>x</b>',
    'tg://resolve?domain=x', 'happ://add/https://sub.example/x', 'not a url', '']) {
    assert.equal(tg.openLink(bad), false, bad);
  }
  assert.equal(win.posted.length, 1);
  assert.deepEqual(win.opened, []);
});

test('openTelegramLink takes t.me links only', () => {
  const win = fakeWindow();
  const tg = createTelegram(win);
  assert.equal(tg.openTelegramLink('https://t.me/share/url?url=x'), true);
  assert.deepEqual(win.posted, [['web_app_open_tg_link', { path_full: '/share/url?url=x' }]]);
  for (const bad of ['https://evil.example/t.me/x', 'http://t.me/x', 'javascript:alert(1)', 'nonsense']) {
    assert.equal(tg.openTelegramLink(bad), false, bad);
  }
  assert.equal(win.posted.length, 1);
  assert.deepEqual(win.opened, []);
});

test('outside Telegram the same links open in a new window, and the same ones are refused', () => {
  const win = fakeWindow({ inTelegram: false });
  const tg = createTelegram(win);
  assert.equal(tg.openLink('https://pay.example/checkout'), true);
  assert.equal(tg.openTelegramLink('https://t.me/shop_bot'), true);
  assert.equal(tg.openLink('javascript:alert(1)'), false);
  assert.deepEqual(win.opened, [['https://pay.example/checkout', '_blank', 'noopener'], ['https://t.me/shop_bot', '_blank', 'noopener']]);
  assert.deepEqual(win.posted, []);
});

// Init data in the address of a plain browser tab may be a link someone else made: it is
// used only after the user's yes (app/consent.js), which holds for that tab; inside a
// Telegram client (its bridge there) it is used at once.
test('init data from the address is used silently only inside Telegram; in a plain tab it waits for a yes', () => {
  const user = encodeURIComponent(JSON.stringify({ id: 7, username: 'mallory' }));
  const data = `user=${user}&hash=x`;
  const plainTab = (stored = {}) => {
    const win = fakeWindow({ inTelegram: false });
    const store = new Map(Object.entries(stored));
    win.location.hash = '#' + new URLSearchParams({ tgWebAppData: data, tgWebAppPlatform: 'android' });
    win.location.pathname = '/app/';
    win.location.search = '';
    win.location.reload = () => { win.reloaded = true; };
    win.location.replace = (u) => { win.replaced = u; };
    win.sessionStorage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v), removeItem: (k) => store.delete(k) };
    return { win, store };
  };
  const { win, store } = plainTab();
  const tg = createTelegram(win);
  assert.equal(tg.initData, '', 'not used before the question');
  assert.equal(tg.pendingLaunch.user.username, 'mallory');
  tg.pendingLaunch.accept();
  assert.equal(win.reloaded, true);
  assert.equal(store.get('cabinet.tg.consent'), data);
  // The reload: the same tab, the yes remembered.
  const again = createTelegram(plainTab(Object.fromEntries(store)).win);
  assert.equal(again.initData, data);
  assert.equal(again.pendingLaunch, null);
  // No: the launch parameters are forgotten and the page opens without them.
  const no = plainTab();
  createTelegram(no.win).pendingLaunch.decline();
  assert.equal(no.store.has('cabinet.tg.launch'), false);
  assert.equal(no.win.replaced, '/app/');
  // A yes for other init data does not count for this one.
  assert.equal(createTelegram(plainTab({ 'cabinet.tg.consent': 'user=1&hash=y' }).win).initData, '');
  // Inside Telegram: used at once, nothing asked.
  const inside = fakeWindow();
  inside.location.hash = '#' + new URLSearchParams({ tgWebAppData: data, tgWebAppPlatform: 'android' });
  const tgInside = createTelegram(inside);
  assert.equal(tgInside.initData, data);
  assert.equal(tgInside.pendingLaunch, null);
});
