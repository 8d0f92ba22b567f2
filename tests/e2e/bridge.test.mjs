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
