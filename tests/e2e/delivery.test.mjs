// How nginx delivers the front end (nginx/cabinet_static.conf, the maps in
// nginx/cabinet_http.conf): entry pages revalidated on every load with the strict CSP,
// assets under /static/<release>/ cached for a year, gzip for text, the API left alone,
// no directory listing and no way out of nginx/html. Plain HTTP requests (node:http keeps
// a path exactly as written, so `..` tricks reach nginx as sent), and Chromium for
// frame-ancestors. The byte budget of the first screen is checked here too (the time
// budget is a benchmark: tests/e2e/bench-front.mjs).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join, relative } from 'node:path';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';

import { ROOT, axe, launch, openPage, ready, screenshotPath } from './lib/browser.mjs';
import { BASE, api, initData, freshId } from './lib/stack.mjs';

// The policy of nginx/cabinet_http.conf ($cabinet_csp), directive by directive.
const CSP = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'frame-ancestors': ["'self'", 'https://web.telegram.org'],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'object-src': ["'none'"],
};
const YEAR = 'public, max-age=31536000, immutable';
// The tree nginx serves: nginx/html, or the release step's minified copy of it when the
// stack runs one (FRONT_BUILD=1 tools/stack up: $STACK_DIR/html, tools/front-build).
const STACK_HTML = process.env.STACK_DIR ? join(process.env.STACK_DIR, 'html') : '';
const SERVED = STACK_HTML && existsSync(join(STACK_HTML, 'app', 'index.html')) ? STACK_HTML : join(ROOT, 'nginx/html');
const RELEASE_RE = /\/static\/([0-9a-f]{12})\//g;

// GET with the path sent byte for byte; the body decoded when gzipped.
function get(path, headers = {}) {
  const url = new URL(BASE);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: 'GET', headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const body = res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
        resolve({ status: res.statusCode, headers: res.headers, raw, text: body.toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end();
  });
}
const gz = { 'Accept-Encoding': 'gzip' };

function parseCsp(value) {
  const out = {};
  for (const part of String(value || '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out[name] = sources;
  }
  return out;
}

// The release id the entry page names, and every asset URL in it.
async function entry(path = '/app/') {
  const r = await get(path, gz);
  const ids = new Set([...r.text.matchAll(RELEASE_RE)].map((m) => m[1]));
  const assets = [...r.text.matchAll(/(?:href|src)="(\/static\/[^"]+)"/g)].map((m) => m[1]);
  return { ...r, ids, release: [...ids][0], assets };
}

// The static imports of a module (import … from './x.js'; export … from …), resolved; as
// written in nginx/html or minified by tools/front-build (import{h as n}from"./dom.js").
function staticImports(url, source) {
  const out = [];
  for (const m of source.matchAll(/(?:^|[;}\s])(?:import|export)\s*[{*\w][^'";()]*?from\s*['"]([^'"]+)['"]/g)) out.push(new URL(m[1], url).pathname);
  for (const m of source.matchAll(/(?:^|[;}\s])import\s*['"]([^'"]+)['"]/g)) out.push(new URL(m[1], url).pathname);
  return out;
}
// The module graph of the first screen: main.js and home's module (the shell's
// `home: () => import('./screens/home.js')`, or the chunk a bundle names there) with
// everything they import.
async function firstScreenModules(release) {
  const seen = new Map();
  let homeFound = false;
  const queue = [`/static/${release}/app/main.js`];
  while (queue.length) {
    const path = queue.shift();
    if (seen.has(path)) continue;
    const r = await get(path);
    assert.equal(r.status, 200, path);
    seen.set(path, r.text);
    queue.push(...staticImports(new URL(path, BASE), r.text));
    const home = /\bhome:\s*\(\)\s*=>\s*import\(\s*['"]([^'"]+)['"]\s*\)/.exec(r.text);
    if (home) queue.push(new URL(home[1], new URL(path, BASE)).pathname);
    homeFound ||= Boolean(home);
  }
  assert.ok(homeFound, 'the shell\'s import of home is found');
  return [...seen.keys()];
}

let browser;
before(async () => { browser = await launch(); });
after(async () => { if (browser) await browser.close(); });

test('the entry page: exact CSP, no-cache, nosniff, gzip, and one release id for every asset', async () => {
  for (const path of ['/app/', '/app/index.html']) {
    const r = await entry(path);
    assert.equal(r.status, 200, path);
    assert.match(r.headers['content-type'], /^text\/html/);
    // The policy, with one exception: the page's one inline script (it asks for /config
    // and /me with the page), allowed by its hash, which nginx/cabinet_http.conf must
    // carry for the script as served (an edit of app/index.html's script needs a new hash).
    const inline = [...r.text.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([^]*?)<\/script>/g)].map((m) => m[1]);
    assert.equal(inline.length, 1, `${path}: one inline <script>`);
    const hash = `'sha256-${createHash('sha256').update(inline[0], 'utf8').digest('base64')}'`;
    const csp = parseCsp(r.headers['content-security-policy']);
    assert.deepEqual(csp['script-src'], ["'self'", hash], `${path}: script-src 'self' and the inline script's hash (nginx/cabinet_http.conf)`);
    assert.deepEqual({ ...csp, 'script-src': ["'self'"] }, CSP, path);
    assert.ok(!/unsafe-inline|unsafe-eval/.test(r.headers['content-security-policy']));
    assert.equal(r.headers['cache-control'], 'no-cache', path);
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
    assert.equal(r.headers['content-encoding'], 'gzip', `${path} is gzipped for a client that takes it`);
    assert.ok(!r.text.includes('__RELEASE__'), 'nginx wrote the release id in');
    assert.equal(r.ids.size, 1, `one release id in ${path}: ${[...r.ids]}`);
    assert.ok(r.assets.length >= 3);
    assert.ok(!/\sstyle="/.test(r.text), 'no style="" attribute');
  }
  // The other pages: the policy as it is, no inline script at all.
  for (const path of ['/cabinet/', '/admin/']) {
    const r = await get(path, gz);
    assert.equal(r.status, 200, path);
    assert.deepEqual(parseCsp(r.headers['content-security-policy']), CSP, path);
    assert.ok(!/<script(?![^>]*\bsrc=)[^>]*>/.test(r.text), `${path}: no inline <script>`);
    assert.ok(!/\sstyle="/.test(r.text), `${path}: no style="" attribute`);
  }
  const plain = await get('/app/');
  assert.equal(plain.headers['content-encoding'], undefined, 'no gzip without Accept-Encoding');
});

test('every asset of the release answers 200, a year immutable, with its type, nosniff and gzip', async () => {
  const { release, assets } = await entry();
  const modules = await firstScreenModules(release);
  const extra = ['shared/i18n/en.json', 'shared/i18n/ru.json', 'shared/i18n/en.first.json', 'shared/i18n/ru.first.json', 'themes/a.css'].map((p) => `/static/${release}/${p}`);
  const all = [...new Set([...assets, ...modules, ...extra])];
  const types = { js: /^application\/javascript/, css: /^text\/css/, json: /^application\/json/, svg: /^image\/svg\+xml/ };
  for (const path of all) {
    const ext = path.split('.').pop();
    const r = await get(path, gz);
    assert.equal(r.status, 200, path);
    assert.equal(r.headers['cache-control'], YEAR, path);
    assert.equal(r.headers['x-content-type-options'], 'nosniff', path);
    assert.match(r.headers['content-type'], types[ext], path);
    // A policy applies to documents (and workers) only: none on a script, stylesheet or
    // table, where it cost 250 bytes a response; an SVG, a document when opened, keeps it.
    if (ext === 'svg') assert.deepEqual(parseCsp(r.headers['content-security-policy']), CSP, path);
    else assert.equal(r.headers['content-security-policy'], undefined, `${path}: no CSP`);
    assert.equal(r.headers.etag, undefined, `${path}: immutable, no ETag`);
    if (r.text.length > 300 && ext !== 'svg') {
      assert.equal(r.headers['content-encoding'], 'gzip', `${path} gzipped`);
      assert.match(r.headers.vary || '', /Accept-Encoding/i, path);
    }
    // The file served is the file in nginx/html (or in the release step's copy of it).
    const file = readFileSync(join(SERVED, path.slice('/static/'.length + 13)), 'utf8');
    assert.equal(r.text, file, path);
  }
});

test('/app/config.js (the owner\'s settings) is used as cached and revalidated in the background, outside the release', async () => {
  const { assets } = await entry();
  const r = await get('/app/config.js', gz);
  assert.equal(r.status, 200);
  assert.match(r.headers['content-type'], /^application\/javascript/);
  // Never fresh (max-age=0): an edit shows from the second opening on, without a round
  // trip before the app starts (nginx/cabinet_http.conf).
  assert.match(r.headers['cache-control'], /^max-age=0, stale-while-revalidate=\d+$/);
  assert.equal(r.headers['x-content-type-options'], 'nosniff');
  assert.ok(!assets.some((a) => a.endsWith('/config.js')), 'config.js is not under a release path');
});

test('API answers carry no CSP and are never gzipped (BREACH), even when asked', async () => {
  const init = initData(freshId());
  for (const [path, headers] of [
    ['/api/cabinet/config', gz],
    ['/api/cabinet/me', { ...gz, Authorization: 'tma ' + init }],
    ['/api/cabinet/plans', { ...gz, Authorization: 'tma ' + init }],
  ]) {
    const r = await get(path, headers);
    assert.equal(r.status, 200, path);
    assert.match(r.headers['content-type'], /^application\/json/, path);
    assert.equal(r.headers['content-security-policy'], undefined, `${path}: no CSP`);
    assert.equal(r.headers['content-encoding'], undefined, `${path}: not gzipped`);
    assert.notEqual(r.headers['cache-control'], YEAR, path);
    assert.equal(r.headers['x-content-type-options'], 'nosniff', path);
    JSON.parse(r.text);
  }
  const h = await get('/health', gz);
  assert.equal(h.headers['content-security-policy'], undefined, '/health: no CSP');
});

test('a made-up path or a directory under the release is a 404 (or 403), never a listing', async () => {
  const { release } = await entry();
  const paths = ['nope.js', 'app/screens/nope.js', 'shared/i18n/xx.json', 'app/', 'shared/', 'shared/i18n/', 'themes/', '']
    .map((p) => `/static/${release}/${p}`)
    .concat([`/static/${release}`, '/static/', '/static/nothex123456/app/main.js', '/app/nope.html',
      // another (an old) release: only the current one is served (app/shell.js reloads)
      `/static/${release === '0123456789ab' ? 'ba9876543210' : '0123456789ab'}/app/main.js`]);
  for (const path of paths) {
    const r = await get(path, gz);
    assert.ok([403, 404].includes(r.status), `${path}: ${r.status}`);
    assert.match(r.headers['content-type'] || '', /^(text\/html|application\/json)/, path);
    assert.ok(!/Index of|<pre>|Parent Directory/i.test(r.text), `${path} is not a directory listing`);
    assert.notEqual(r.headers['cache-control'], YEAR, `${path}: an error is not cached for a year`);
  }
});

test('nothing outside nginx/html is reachable through /static/<release>/ with ../ tricks', async () => {
  const { release } = await entry();
  const secrets = [
    readFileSync(join(ROOT, 'tools/stack'), 'utf8').split('\n')[1],
    readFileSync(join(ROOT, 'nginx/cabinet_http.conf'), 'utf8').split('\n')[0],
    readFileSync(join(ROOT, 'tests/e2e/package.json'), 'utf8').split('\n')[1],
    'root:x:0:0',
  ];
  const targets = ['tools/stack', 'nginx/cabinet_http.conf', 'tests/e2e/package.json', 'etc/passwd'];
  const ups = ['../', '%2e%2e/', '%2E%2E/', '.%2e/', '%2e./', '..%2f', '%2e%2e%2f', '..%2F', '..\\', '%2e%2e%5c', '....//', '..;/', '%252e%252e/'];
  let tried = 0;
  for (const up of ups) {
    for (const depth of [2, 3, 8]) {
      for (const target of targets) {
        const path = `/static/${release}/app/${up.repeat(depth)}${target}`;
        const r = await get(path);
        tried++;
        assert.notEqual(r.status, 200, `${path} answered 200`);
        for (const s of secrets) assert.ok(!r.text.includes(s), `${path} leaked ${target}`);
      }
    }
  }
  // The same from the entry page and from an alias-looking release path.
  for (const path of ['/app/../tools/stack', '/app/%2e%2e/tools/stack', `/static/${release}/..`, `/static/${release}/%2e%2e`,
    `/static/${release}/%2e%2e%2f%2e%2e%2ftools/stack`, `/static/${release}//etc/passwd`, `/static/${release}/./../../tools/stack`]) {
    const r = await get(path);
    assert.notEqual(r.status, 200, path);
    for (const s of secrets) assert.ok(!r.text.includes(s), `${path} leaked`);
  }
  assert.ok(tried > 100);
});

test('performance budget: the first screen is at most 60 KB gzipped, and every module it imports is preloaded', async () => {
  const { release, assets, raw } = await entry();
  const modules = await firstScreenModules(release);
  const preloaded = new Set(assets);
  const missing = modules.filter((m) => !preloaded.has(m));
  assert.deepEqual(missing, [], 'app/index.html has a <link rel="modulepreload"> for each module of the first screen');
  // What a first visit downloads: the page, config.js, every asset it names, the modules,
  // the first screen's strings and the default theme (and any font the CSS names).
  const css = [`/static/${release}/themes/base.css`, `/static/${release}/themes/a.css`];
  const fonts = new Set();
  for (const path of css) {
    const r = await get(path);
    for (const m of r.text.matchAll(/url\(\s*['"]?([^'")]+\.woff2)['"]?\s*\)/g)) fonts.add(new URL(m[1], new URL(path, BASE)).pathname);
  }
  let total = raw.length;
  const sizes = { 'app/index.html': raw.length };
  for (const path of new Set(['/app/config.js', ...assets, ...modules, ...css, `/static/${release}/shared/i18n/en.first.json`, ...fonts])) {
    const r = await get(path, gz);
    assert.equal(r.status, 200, path);
    total += r.raw.length;
    sizes[path.replace(/^\/static\/[0-9a-f]{12}\//, '')] = r.raw.length;
  }
  assert.ok(total <= 60 * 1024, `first screen ${total} bytes gzipped > 60 KB: ${JSON.stringify(sizes)}`);
});

test('Chromium refuses to show the mini-app framed by another origin, and shows it framed by itself', async () => {
  const other = BASE.replace('127.0.0.1', 'localhost');   // same port, another origin
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`exception: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  const host = (origin) => `${origin}/__frame_host.html`;
  for (const origin of [other, BASE]) {
    await context.route(host(origin), (route) => route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>host</title><iframe title="app" src="${BASE}/app/?mock=1" width="390" height="700"></iframe>`,
    }));
  }
  const appFrame = () => page.frames().find((f) => f !== page.mainFrame());
  // Framed by another origin: Chromium puts its error page in the frame instead.
  await page.goto(host(other));
  let url = '';
  for (let i = 0; i < 100 && !url.startsWith('chrome-error:'); i++) {
    await page.waitForTimeout(50);
    url = appFrame() ? appFrame().url() : '';
  }
  assert.match(url, /^chrome-error:/, `framed by ${other}: refused`);
  assert.ok(!(await page.getByText('Demo mode').isVisible()));
  // Framed by the same origin (theme previews): the app runs.
  await page.goto(host(BASE));
  await page.frameLocator('iframe[title="app"]').getByText('Demo mode').waitFor({ timeout: 15000 });
  assert.equal(appFrame().url(), `${BASE}/app/?mock=1`);
  assert.deepEqual(problems, []);
  await context.close();
});

// A link with init data in its address may be someone else's, made to sign this browser
// into their account (issue 49): in a plain browser (no Telegram bridge) the page asks
// "continue as @name?" and sends no credential until the answer is yes; "Not me" opens the
// demo; a yes holds for the tab.
test('init data in the address of a plain browser tab is used only after "continue as @name?"', async () => {
  const id = freshId();
  const init = initData(id, { firstName: 'Mallory', username: 'mallory_shop' });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB', reducedMotion: 'reduce' });
  const page = await context.newPage();
  const calls = [];
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/api/')) calls.push([u.pathname, r.headers().authorization || '']);
  });
  const hash = new URLSearchParams({ tgWebAppData: init, tgWebAppVersion: '8.0', tgWebAppPlatform: 'android' });
  const signedIn = () => calls.filter(([, auth]) => auth.startsWith('tma '));
  await page.goto(`${BASE}/app/#${hash}`);
  await page.getByRole('heading', { name: 'Continue as @mallory_shop?' }).waitFor();
  await ready(page);
  assert.deepEqual(signedIn(), [], 'no request carries the link\'s init data before the answer');
  assert.deepEqual(await axe(page), []);
  await page.screenshot({ path: screenshotPath('app-consent-390.png') });

  await page.getByRole('button', { name: 'Not me' }).click();
  await page.getByText('Demo mode').first().waitFor();
  assert.deepEqual(signedIn(), []);

  await page.goto('about:blank');
  await page.goto(`${BASE}/app/#${hash}`);
  await page.getByRole('button', { name: 'Continue as @mallory_shop' }).click();
  await page.getByRole('heading', { name: 'Subscription' }).waitFor();
  assert.ok(signedIn().some(([path]) => path === '/api/cabinet/me'));
  // The yes holds for this tab: a reload signs in without asking again.
  await page.reload();
  await page.getByRole('heading', { name: 'Subscription' }).waitFor();
  assert.equal(await page.getByRole('heading', { name: 'Continue as @mallory_shop?' }).count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a live opening asks for /config and /me once each, at page start (the page\'s inline script), and again after a reload', async () => {
  const id = freshId();
  const init = initData(id, { firstName: 'Early' });
  // A page with the Telegram host in place, watched from before the app's first request.
  const p = await openPage(browser, '/app/config.js', { telegram: true });
  const calls = [];
  p.page.on('request', (r) => { const u = new URL(r.url()); if (u.pathname.startsWith('/api/')) calls.push(u.pathname); });
  const hash = new URLSearchParams({ tgWebAppData: init, tgWebAppVersion: '8.0', tgWebAppPlatform: 'android' });
  await p.page.goto(`${BASE}/app/#${hash}`);
  await ready(p.page);
  await p.page.getByRole('heading', { name: 'Subscription' }).waitFor();
  assert.deepEqual(calls.sort(), ['/api/cabinet/config', '/api/cabinet/me']);
  assert.deepEqual(await axe(p.page), []);
  // A reload inside Telegram keeps the init data (sessionStorage) and asks again, once each.
  calls.length = 0;
  await p.page.reload();
  await ready(p.page);
  await p.page.getByRole('heading', { name: 'Subscription' }).waitFor();
  assert.deepEqual(calls.sort(), ['/api/cabinet/config', '/api/cabinet/me']);
  // The answers were this user's: the server made the account from that init data.
  const me = await api('GET', '/me', { init });
  assert.equal(me.status, 200);
  assert.equal(me.json.user.first_name, 'Early');
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

// The round trips of a cold opening: the page, then its files and /config, /me and the
// language table all at once. Judged by order, not time: on a slow network (CDP latency)
// /me's request goes out before config.js or any module of the app has arrived.
test('a cold opening asks for /config, /me and the language table in the same round as the app\'s files', async () => {
  const init = initData(freshId(), { firstName: 'Round' });
  const p = await openPage(browser, '/app/config.js', { telegram: true });
  const cdp = await p.context.newCDPSession(p.page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: -1, uploadThroughput: -1 });
  await cdp.send('Network.clearBrowserCache');
  const events = [];
  const name = (r) => new URL(r.url()).pathname.replace(/^\/static\/[0-9a-f]{12}\//, '');
  p.page.on('request', (r) => events.push(`ask ${name(r)}`));
  p.page.on('requestfinished', (r) => events.push(`got ${name(r)}`));
  const hash = new URLSearchParams({ tgWebAppData: init, tgWebAppVersion: '8.0', tgWebAppPlatform: 'android' });
  await p.page.goto(`${BASE}/app/#${hash}`);
  await ready(p.page);
  await p.page.getByRole('heading', { name: 'Subscription' }).waitFor();
  const at = (e) => { const i = events.indexOf(e); assert.ok(i >= 0, `${e} in ${events.join(', ')}`); return i; };
  const firstFile = Math.min(...events.map((e, i) => (/^got (?:\/app\/config\.js|app\/.*\.js|shared\/.*\.js)$/.test(e) ? i : Infinity)));
  for (const asked of ['ask /api/cabinet/me', 'ask /api/cabinet/config', 'ask shared/i18n/en.first.json']) {
    assert.ok(at(asked) > at('ask /app/'), `${asked} after the page`);
    assert.ok(at(asked) < firstFile, `${asked} before any script file arrived: ${events.join(', ')}`);
  }
  assert.ok(at('ask /api/cabinet/me') < at('got app/main.js'));
  assert.equal(events.filter((e) => e === 'ask /api/cabinet/me').length, 1, 'once');
  assert.deepEqual(await p.problems(), []);
  await p.close();
});


// The first screen's strings come in a small table of their own (shared/i18n/en.first.json);
// the whole table is asked for once home is shown and is never on its path: held back here,
// home is still shown, and another screen waits for it instead of showing raw keys.
test('home is shown with the first table only; the whole table follows, and another screen waits for it', async () => {
  const init = initData(freshId(), { firstName: 'Strings' });
  const p = await openPage(browser, '/app/config.js', { telegram: true });
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await p.page.route('**/shared/i18n/en.json', async (route) => { await held; await route.continue(); });
  const wholeAsked = p.page.waitForRequest((r) => r.url().endsWith('/shared/i18n/en.json'));
  const hash = new URLSearchParams({ tgWebAppData: init, tgWebAppVersion: '8.0', tgWebAppPlatform: 'android' });
  await p.page.goto(`${BASE}/app/#${hash}`);
  await ready(p.page);
  await p.page.getByRole('heading', { name: 'Subscription' }).waitFor();
  await wholeAsked;   // asked for once home is shown; held, and home is there all the same
  await p.page.getByRole('link', { name: 'Account' }).click();
  await p.page.waitForTimeout(300);
  assert.equal(await p.page.locator('html[data-screen="account"]').count(), 0, 'the account screen waits for the whole table');
  release();
  await p.page.waitForSelector('html[data-screen="account"] #screen[aria-busy="false"]');
  await p.page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
  assert.deepEqual(await p.problems(), []);
  await p.close();
});

// The release step (tools/front-build): the same files at the same paths, JavaScript and
// CSS smaller, each module importing the same modules, everything else byte for byte (the
// owners' config.js files, the entry pages' inline script, so its CSP hash holds); and
// then each entry page's bundle: its main.js (and app/demo.js) importing chunks of its own
// folder only, the page's modulepreload lines naming files of the bundle.
test('tools/front-build minifies the tree file by file, bundles each page, and changes nothing else', () => {
  const src = join(ROOT, 'nginx/html');
  const out = join(mkdtempSync(join(tmpdir(), 'front-build-')), 'html');
  const BUNDLED = ['app/main.js', 'app/demo.js', 'cabinet/main.js', 'admin/main.js'];
  const PAGES = ['app/index.html', 'cabinet/index.html', 'admin/index.html'];
  const hints = /^<link rel="modulepreload" href="\/static\/__RELEASE__\/([^"]+)">\n/gm;
  try {
    execFileSync(join(ROOT, 'tools/front-build'), [out], { stdio: ['ignore', 'pipe', 'pipe'] });
    const files = (dir) => readdirSync(dir, { recursive: true }).filter((f) => statSync(join(dir, f)).isFile() && !f.endsWith('.gz')).sort();
    const chunks = files(out).filter((f) => !files(src).includes(f));
    assert.deepEqual(files(out).filter((f) => !chunks.includes(f)), files(src));
    for (const f of chunks) assert.match(f, /^(?:app|cabinet|admin)\/c-[A-Z0-9]+\.js$/, `${f}: a chunk of a bundle`);
    let before = 0;
    let after = 0;
    for (const f of files(src)) {
      const a = readFileSync(join(src, f), 'utf8');
      const b = readFileSync(join(out, f), 'utf8');
      if (PAGES.includes(f)) {
        assert.equal(b.replace(hints, ''), a.replace(hints, ''), `${f}: only its modulepreload lines changed`);
        const named = [...b.matchAll(hints)].map((m) => m[1]);
        assert.ok(named.length >= 3 && named.every((n) => n.startsWith(f.split('/')[0] + '/') && existsSync(join(out, n))), `${f}: preloads its bundle's files: ${named}`);
        continue;
      }
      const minified = /\.(?:js|css)$/.test(f) && !f.endsWith('config.js') && !f.startsWith('api-docs');
      if (!minified) { assert.equal(b, a, `${f} unchanged`); continue; }
      assert.ok(b.length < a.length || BUNDLED.includes(f), `${f} minified`);
      before += a.length;
      after += b.length;
      if (f.endsWith('.js')) {
        const url = new URL(`http://x/${relative(src, join(src, f))}`);
        if (BUNDLED.includes(f)) {
          const page = f.split('/')[0];
          const own = staticImports(url, b);
          assert.ok(own.every((i) => new RegExp(`^/${page}/c-[A-Z0-9]+\\.js$`).test(i)), `${f}: imports its bundle's chunks only: ${own}`);
        } else {
          assert.deepEqual(staticImports(url, b).sort(), staticImports(url, a).sort(), `${f}: the same imports`);
        }
      }
    }
    assert.ok(after < before * 0.7, `minified ${before} → ${after} characters`);
  } finally {
    rmSync(join(out, '..'), { recursive: true, force: true });
  }
});
