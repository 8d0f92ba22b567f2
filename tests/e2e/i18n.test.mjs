// The two string tables hold the same keys with the same placeholders, and every plural
// has the forms its language needs: the page loads only the user's table (shared/i18n.js),
// so a key missing from one language would show as a raw key to those users.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { ROOT } from './lib/browser.mjs';

const table = (lang) => JSON.parse(readFileSync(join(ROOT, 'nginx/html/shared/i18n', lang + '.json'), 'utf8'));
const en = table('en');
const ru = table('ru');
const placeholders = (v) => [...new Set([...JSON.stringify(v).matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();

test('en and ru have the same keys', () => {
  assert.deepEqual(Object.keys(ru).filter((k) => !(k in en)), [], 'only in ru');
  assert.deepEqual(Object.keys(en).filter((k) => !(k in ru)), [], 'only in en');
});

test('each string has the same placeholders in both languages, and no empty text', () => {
  for (const k of Object.keys(en)) {
    assert.deepEqual(placeholders(ru[k]), placeholders(en[k]), k);
    for (const v of [en[k], ru[k]].flatMap((x) => (typeof x === 'object' ? Object.values(x) : [x]))) {
      assert.ok(typeof v === 'string' && v.trim() !== '', `${k}: empty or not text`);
    }
  }
});

test('plurals have the forms of their language (en: one, other; ru: one, few, many, other)', () => {
  for (const k of Object.keys(en)) {
    if (typeof en[k] === 'object') assert.deepEqual(Object.keys(en[k]).sort(), ['one', 'other'], `en ${k}`);
    if (typeof ru[k] === 'object') assert.deepEqual(Object.keys(ru[k]).sort(), ['few', 'many', 'one', 'other'], `ru ${k}`);
  }
});

// The mini-app's first tables (shared/i18n/<lang>.first.json, asked for with the page; the
// whole table follows once home is shown): copies of the whole tables' strings, as
// tools/i18n-first writes them, holding every string the first screen's modules name.
test('the first tables are the whole tables\' strings of the first screen (tools/i18n-first), none missing', () => {
  execFileSync(join(ROOT, 'tools/i18n-first'), ['--check'], { stdio: ['ignore', 'pipe', 'pipe'] });
  for (const lang of ['en', 'ru']) {
    const first = table(lang + '.first');
    const whole = table(lang);
    for (const [k, v] of Object.entries(first)) assert.deepEqual(v, whole[k], `${lang}.first ${k}`);
    assert.ok(Object.keys(first).length < Object.keys(whole).length / 4, `${lang}.first holds the first screen's strings only`);
  }
  const first = table('en.first');
  const files = ['app/main.js', 'app/shell.js', 'app/screens/home.js', 'app/owner.js', 'app/consent.js',
    'shared/errors.js', 'shared/format.js', 'shared/page-notes.js'];
  for (const f of files) {
    const source = readFileSync(join(ROOT, 'nginx/html', f), 'utf8');
    for (const m of source.matchAll(/\bt\('([a-z0-9_]+(?:\.[a-z0-9_]+)+)'/g)) assert.ok(m[1] in first, `${f}: "${m[1]}" is not in the first table (tools/i18n-first PREFIXES)`);
  }
});

// The admin's own tables (nginx/html/admin/i18n, merged over the shared one by admin/main.js):
// the same rules, and no key of the shared table shadowed by accident.
const adminTable = (lang) => JSON.parse(readFileSync(join(ROOT, 'nginx/html/admin/i18n', lang + '.json'), 'utf8'));
const aen = adminTable('en');
const aru = adminTable('ru');

test('the admin tables: the same keys and placeholders in en and ru, plurals complete, none shadows a shared key', () => {
  assert.deepEqual(Object.keys(aru).filter((k) => !(k in aen)), [], 'only in admin ru');
  assert.deepEqual(Object.keys(aen).filter((k) => !(k in aru)), [], 'only in admin en');
  assert.deepEqual(Object.keys(aen).filter((k) => k in en), [], 'in both the admin and the shared table');
  for (const k of Object.keys(aen)) {
    assert.deepEqual(placeholders(aru[k]), placeholders(aen[k]), k);
    for (const v of [aen[k], aru[k]].flatMap((x) => (typeof x === 'object' ? Object.values(x) : [x]))) {
      assert.ok(typeof v === 'string' && v.trim() !== '', `${k}: empty or not text`);
    }
    if (typeof aen[k] === 'object') assert.deepEqual(Object.keys(aen[k]).sort(), ['one', 'other'], `en ${k}`);
    if (typeof aru[k] === 'object') assert.deepEqual(Object.keys(aru[k]).sort(), ['few', 'many', 'one', 'other'], `ru ${k}`);
  }
});

// Error details in the customer's language (issue 49): every reason the server names with a
// code (errors.hpp; `ApiError(..., "code")`) has a text in both tables, and the pages say it
// in the user's language while `detail` stays English for programs.
test('every error code the server names is said in both languages', async () => {
  const { readdirSync, statSync } = await import('node:fs');
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(cpp|hpp)$/.test(name)) files.push(p);
    }
  };
  walk(join(ROOT, 'fcgi-app'));
  const codes = new Set();
  for (const f of files) {
    const src = readFileSync(f, 'utf8').replace(/\s*\n\s*/g, ' ');
    for (const m of src.matchAll(/(?:bad_request|unauthorized|forbidden|not_found|conflict|ApiError(?: e)?)\s*[({][^;{}]*?,\s*"([a-z]+(?:_[a-z]+)*)"\s*[)}]/g)) codes.add(m[1]);
    // The upstream errors name theirs by status (panel/panel_errors.hpp, payments/gateway.hpp).
    for (const m of src.matchAll(/kBusyStatus \? "([a-z]+(?:_[a-z]+)*)" : "([a-z]+(?:_[a-z]+)*)"/g)) { codes.add(m[1]); codes.add(m[2]); }
  }
  for (const known of ['insufficient_balance', 'payment_not_open', 'busy', 'panel_unavailable', 'guest_online_only']) {
    assert.ok(codes.has(known), `the scan finds ${known}`);
  }
  const missing = [...codes].filter((c) => !(('code.' + c) in en) || !(('code.' + c) in ru));
  assert.deepEqual(missing, [], 'codes without a text');
});

test('a coded error is said in the language of the user; an uncoded one falls back as before', async () => {
  const { errorText } = await import('../../nginx/html/shared/errors.js');
  const { ApiError } = await import('../../nginx/html/shared/api.js');
  const { makeT } = await import('../../nginx/html/shared/i18n.js');
  const tRu = makeT('ru', ru);
  const tEn = makeT('en', en);
  const coded = new ApiError(409, 'this payment is no longer open', { body: { detail: 'this payment is no longer open', code: 'payment_not_open' } });
  assert.equal(errorText(coded, tRu), ru['code.payment_not_open']);
  assert.equal(errorText(coded, tEn), en['code.payment_not_open']);
  const plain = new ApiError(400, 'plan_id is required', { body: { detail: 'plan_id is required', code: 'invalid_request' } });
  assert.equal(errorText(plain, tEn), 'plan_id is required');
  assert.equal(errorText(plain, tRu), ru['error.400']);
});
