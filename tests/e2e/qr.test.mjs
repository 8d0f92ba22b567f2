// shared/qr.js, the page's own QR encoder, against the `qrcode` npm package (a dev
// dependency only: the page never loads it): for the same text in byte mode at level M the
// version, the mask and every module must be the same.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import QRCode from 'qrcode';

import { encode, qrPath } from '../../nginx/html/shared/qr.js';

function reference(text) {
  const qr = QRCode.create([{ data: text, mode: 'byte' }], { errorCorrectionLevel: 'M' });
  const { size, data } = qr.modules;
  const rows = [];
  for (let r = 0; r < size; r++) rows.push(Array.from(data.slice(r * size, (r + 1) * size), (v) => (v ? 1 : 0)).join(''));
  return { version: qr.version, mask: qr.maskPattern, rows };
}

function ours(text) {
  const q = encode(text);
  return { version: q.version, mask: q.mask, rows: q.modules.map((row) => Array.from(row).join('')) };
}

const url = (n) => {
  const base = 'https://vpn.example.com/api/sub/';
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_';
  let s = base;
  for (let i = 0; s.length < n; i++) s += alphabet[(i * 37 + n) % alphabet.length];
  return s.slice(0, n);
};

const inputs = [
  'a',
  'HELLO WORLD',
  'https://t.me/cabinet_demo_bot',
  'Подписка: ключ доступа ✓',
  ...[14, 26, 42, 62, 84, 106, 122, 152, 180, 213, 251, 287, 331, 362, 412, 480, 600, 900].map(url),
];

for (const text of inputs) {
  test(`the same matrix as the qrcode package for ${text.length} chars (${JSON.stringify(text.slice(0, 24))}…)`, () => {
    const a = ours(text);
    const b = reference(text);
    assert.equal(a.version, b.version, 'version');
    assert.equal(a.mask, b.mask, 'mask');
    assert.deepEqual(a.rows, b.rows);
  });
}

test('every mask is chosen for some input (the penalty really decides)', () => {
  const masks = new Set();
  for (let n = 10; n < 120 && masks.size < 8; n++) {
    const text = url(n);
    const a = ours(text);
    assert.equal(a.mask, reference(text).mask, `mask for ${n} chars`);
    masks.add(a.mask);
  }
  assert.ok(masks.size >= 6, [...masks].join(','));
});

test('a 200-character subscription URL fits (version ≤ 10) and the path stays inside the quiet zone', () => {
  const q = encode(url(200));
  assert.ok(q.version <= 10, `version ${q.version}`);
  const d = qrPath(q, 4);
  const nums = d.match(/M(\d+) (\d+)/g).map((m) => m.slice(1).split(' ').map(Number));
  for (const [x, y] of nums) {
    assert.ok(x >= 4 && y >= 4 && x < q.size + 4 && y < q.size + 4);
  }
});
