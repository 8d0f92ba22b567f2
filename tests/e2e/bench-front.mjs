// The mini-app's loading benchmark (never a test: it fails only when it cannot run).
// Run by tools/front-bench (or tools/stack bench --front) against a running stack:
//   - bytes of the first screen: a live Telegram user, home rendered, every response's
//     encoded bytes (headers + compressed body, CDP Network.loadingFinished) by type;
//   - of those, the bytes on the first screen's path: the responses that arrived before
//     home was usable (what is loaded after it is shown, or still on its way, did not
//     delay it);
//   - time to a usable home screen (#screen[aria-busy=false] holding the status card),
//     and to an up-to-date one (the status card no longer busy: a warm live opening draws
//     home from the copy kept on the device first, app/home-copy.js, and /me brings it up
//     to date), from navigation start, with Chromium's CPU 4× slower and a throttled network
//     (CDP Emulation.setCPUThrottlingRate, Network.emulateNetworkConditions), cold cache
//     (a new browser context) and warm cache (a second page in the same context), median
//     of BENCH_RUNS (5) runs; live user and demo mode (?mock=1); on every network profile;
//   - the request waterfall of one cold and one warm live load on the first profile, to
//     show what dominates.
// Writes/updates the "Front end" section at the end of docs/benchmarks.md (BENCH_LABEL
// names the run, e.g. "before preloading"); BENCH_NO_DOC=1 only prints.
//
// Network profiles (lib/bench.mjs; by default "phone" and "lighthouse" in one run,
// BENCH_NETWORK picks one): "phone": the slow phone of issue 51 (400 ms latency,
// 400 kbit/s down and up); "lighthouse": Lighthouse's mobile profile as DevTools
// throttling applies it (its "Slow 4G", once called "Fast 3G": 150 ms RTT × 3.75 =
// 562.5 ms latency, 1.6 Mbit/s × 0.9 down, 750 kbit/s × 0.9 up); "slow3g": DevTools'
// "Slow 3G" preset (2000 ms latency, 400 kbit/s down and up).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { ROOT } from './lib/browser.mjs';
import { CPU_RATE, HTTP, NETWORKS, PAGE_BASE, PROFILES, RUNS, kb, launchBench, machine, median, ms, throttle } from './lib/bench.mjs';
import { BASE, api, freshId, initData } from './lib/stack.mjs';

if (!BASE) { console.error('bench-front: CABINET_BASE_URL is not set (run it through tools/front-bench)'); process.exit(2); }
// Issue 51's goals, on the phone profile: usable ≤ 1.5 s cold and ≤ 0.8 s warm, ≤ 20 KB
// on the first screen's path; and ≤ 60 KB for the whole first screen, fonts included.
const GOAL_BYTES = 60 * 1024;
const GOAL_PATH_BYTES = 20 * 1024;
const GOAL_COLD_MS = 1500;
const GOAL_WARM_MS = 800;
// The stack serves tools/front-build's copy (FRONT_BUILD=1 tools/stack up) when it made one.
const BUILT = Boolean(process.env.STACK_DIR) && existsSync(join(process.env.STACK_DIR, 'html', 'app', 'index.html'));

// Before any script of the page: the Telegram host (for a live user) and the moments the
// home screen is usable and up to date, by the page's own clock (ms since navigation start).
function pageScript({ telegram }) {
  if (telegram) window.TelegramWebviewProxy = { postEvent() {} };
  const check = () => {
    const s = document.getElementById('screen');
    const card = s && s.getAttribute('aria-busy') === 'false' && s.querySelector('.status-card');
    if (window.__usable === undefined && card) window.__usable = performance.now();
    if (window.__current === undefined && card && card.getAttribute('aria-busy') !== 'true') window.__current = performance.now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-busy'] });
}

function kindOf(r) {
  const path = new URL(r.url).pathname;
  if (path.startsWith('/api/')) return 'api';
  if (r.type === 'Document') return 'html';
  if (r.type === 'Script') return 'js';
  if (r.type === 'Stylesheet') return 'css';
  if (r.type === 'Font') return 'font';
  if (path.endsWith('.json')) return 'i18n json';
  if (r.type === 'Image' || path.endsWith('.svg')) return 'image';
  return r.type.toLowerCase();
}

// One load of `url` in a new page of `context`, throttled; resolves with the time to a
// usable home and every request (url, type, encoded bytes, start and end since navigation).
async function load(context, url, { telegram, profile }) {
  const page = await context.newPage();
  await page.addInitScript(pageScript, { telegram });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await throttle(cdp, profile);
  const reqs = new Map();
  cdp.on('Network.requestWillBeSent', (e) => { reqs.set(e.requestId, { url: e.request.url, type: e.type || 'Other', start: e.timestamp, bytes: 0, cached: false }); });
  cdp.on('Network.responseReceived', (e) => {
    const r = reqs.get(e.requestId);
    if (r) { r.type = e.type || r.type; r.status = e.response.status; r.cached = e.response.fromDiskCache || e.response.fromMemoryCache || false; }
  });
  cdp.on('Network.requestServedFromCache', (e) => { const r = reqs.get(e.requestId); if (r) r.cached = true; });
  cdp.on('Network.loadingFinished', (e) => { const r = reqs.get(e.requestId); if (r) { r.bytes = e.encodedDataLength; r.end = e.timestamp; } });
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__current !== undefined, null, { timeout: 60000, polling: 50 });
  const { usable, current } = await page.evaluate(() => ({ usable: window.__usable, current: window.__current }));
  await page.waitForLoadState('load');
  await page.waitForTimeout(100);   // late responses of the first screen (favicon)
  const t0 = Math.min(...[...reqs.values()].map((r) => r.start));
  const requests = [...reqs.values()].map((r) => ({
    ...r, path: new URL(r.url).pathname.replace(/^\/static\/[0-9a-f]{12}\//, '') + (r.url.includes('?') ? '?' + r.url.split('?')[1].split('#')[0] : ''),
    kind: kindOf(r), startMs: Math.round((r.start - t0) * 1000), endMs: r.end ? Math.round((r.end - t0) * 1000) : null,
  }));
  await page.close();
  if (problems.length) throw new Error(`page errors: ${problems.join('; ')}`);
  return { usable, current, requests };
}


async function scenario(browser, network, name, url, opts) {
  opts = { ...opts, profile: PROFILES[network] };
  const cold = [];
  const warm = [];
  const warmCurrent = [];
  let first = null;
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB', colorScheme: 'light' });
    const c = await load(context, url, opts);
    const w = await load(context, url, opts);
    await context.close();
    cold.push(c.usable);
    warm.push(w.usable);
    warmCurrent.push(w.current);
    if (!first) first = { cold: c.requests, warm: w.requests, coldUsable: c.usable, warmUsable: w.usable, warmCurrent: w.current };
    process.stderr.write(`[front-bench] ${network}, ${name} run ${i + 1}/${RUNS}: cold ${Math.round(c.usable)} ms, warm ${Math.round(w.usable)} ms (up to date ${Math.round(w.current)} ms)\n`);
  }
  return { network, name, cold, warm, warmCurrent, first };
}

function byKind(requests) {
  const out = {};
  for (const r of requests) {
    const k = out[r.kind] || (out[r.kind] = { n: 0, bytes: 0 });
    k.n++;
    k.bytes += r.bytes;
  }
  return out;
}
function waterfall(requests) {
  const rows = requests.filter((r) => r.endMs !== null).sort((a, b) => a.startMs - b.startMs);
  return ['| request | type | bytes | start | end |', '|---|---|---:|---:|---:|',
    ...rows.map((r) => `| \`${r.path}\` | ${r.kind} | ${r.cached ? 'cached' : r.bytes} | ${r.startMs} | ${r.endMs} |`)].join('\n');
}

// Where the time of one load goes: the page, the app's files, /me, and the rest (script
// work before and after), in ms since the first request.
function criticalPath(requests, usable, current = usable) {
  const end = (pred) => Math.max(0, ...requests.filter(pred).map((r) => r.endMs || 0));
  const html = end((r) => r.kind === 'html');
  const files = end((r) => ['js', 'css', 'i18n json'].includes(r.kind) && !r.cached);
  const me = requests.find((r) => r.path === '/api/cabinet/me');
  const parts = [`page until ${html} ms`];
  if (files > html) parts.push(`the app's files until ${files} ms`);
  else parts.push('the app\'s files from the cache');
  if (me) parts.push(`/me from ${me.startMs} to ${me.endMs} ms`);
  parts.push(`usable at ${Math.round(usable)} ms`);
  if (current - usable >= 1) parts.push(`up to date at ${Math.round(current)} ms`);
  return parts.join(', ');
}

function section(results, m) {
  const date = new Date().toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
  const label = process.env.BENCH_LABEL ? ` — ${process.env.BENCH_LABEL}` : '';
  const live = results[0];   // the first profile's live user
  const kinds = byKind(live.first.cold);
  const total = live.first.cold.reduce((s, r) => s + r.bytes, 0);
  const path = live.first.cold.filter((r) => r.endMs !== null && r.endMs <= live.first.coldUsable);
  const pathBytes = path.reduce((s, r) => s + r.bytes, 0);
  const fontBytes = (kinds.font && kinds.font.bytes) || 0;
  const rows = Object.entries(kinds).sort((a, b) => b[1].bytes - a[1].bytes)
    .map(([k, v]) => `| ${k} | ${v.n} | ${kb(v.bytes)} |`).join('\n');
  const times = results.map((r) => `| ${r.network} | ${r.name} | ${ms(median(r.cold))} | ${ms(median(r.warm))} | ${ms(median(r.warmCurrent))} | ${r.cold.map((x) => Math.round(x)).join(', ')} | ${r.warm.map((x) => Math.round(x)).join(', ')} |`).join('\n');
  const met = (ok) => (ok ? 'met' : 'not met');
  const phone = results.filter((r) => r.network === 'phone');
  const goal = phone.length
    ? `goal on the phone ≤ ${ms(GOAL_COLD_MS)} cold, ≤ ${ms(GOAL_WARM_MS)} warm: ${met(phone.every((r) => median(r.cold) <= GOAL_COLD_MS && median(r.warm) <= GOAL_WARM_MS))}`
    : 'the phone profile was not run';
  const warmReqs = live.first.warm.filter((r) => !r.cached && r.endMs !== null).length;
  const profiles = [...new Set(results.map((r) => r.network))];
  return `### ${date}${label}

- Machine: ${m.cpus}, ${m.ram} RAM; ${m.chromium}; load average at the end ${m.load}; commit ${m.commit}; front end served ${BUILT ? 'through the release step (FRONT_BUILD=1: tools/front-build\'s minified copy)' : 'as it is in nginx/html (no release step)'}.
- Networks: ${profiles.map((n) => `${PROFILES[n].name} (\`${n}\`)`).join('; ')}; CPU ${CPU_RATE}× slower; ${HTTP === '2' ? 'HTTP/2 over TLS (a local nginx in front of the stack, as production)' : 'HTTP/1.1 to the stack (6 connections a host; production speaks HTTP/2)'} (BENCH_HTTP=${HTTP}); ${RUNS} runs each.
- First screen of a live user (cold cache, ${live.network}): **${kb(pathBytes)}** in ${path.length} responses that arrived before home was usable (goal ≤ 20 KB: ${met(pathBytes <= GOAL_PATH_BYTES)}); ${kb(total)} in ${live.first.cold.length} responses until the page's load event, fonts ${kb(fontBytes)} (goal ≤ 60 KB: ${met(total <= GOAL_BYTES)}).
- Time to a usable home, median: ${results.map((r) => `${r.network} ${r.name} cold ${ms(median(r.cold))}, warm ${ms(median(r.warm))}`).join('; ')} (${goal}; ${warmReqs} requests reach the network on a warm live load; warm and up to date with /me: ${results.filter((r) => r.name === 'live user').map((r) => `${r.network} ${ms(median(r.warmCurrent))}`).join(', ')}).

- Where the time goes (first live run, ${live.network}): cold: ${criticalPath(live.first.cold, live.first.coldUsable)}; warm: ${criticalPath(live.first.warm, live.first.warmUsable, live.first.warmCurrent)}.

| type | responses | bytes (headers + encoded body) |
|---|---:|---:|
${rows}
| **total** | ${live.first.cold.length} | **${kb(total)}** |

| network | case | cold median | warm median | warm, up to date | cold runs (ms) | warm runs (ms) |
|---|---|---:|---:|---:|---|---|
${times}

<details><summary>Waterfall of the first cold live load, ${live.network} (ms since the first request)</summary>

${waterfall(live.first.cold)}

</details>

<details><summary>Waterfall of the first warm live load, ${live.network} (cached: from the HTTP cache)</summary>

${waterfall(live.first.warm)}

</details>
`;
}

const INTRO = `## Front end

The mini-app's first screen, measured in Debian's Chromium by \`tests/e2e/bench-front.mjs\`
(\`tools/front-bench\` or \`tools/stack bench --front\`, against a running stack; it never
fails a build). **Bytes**: a live Telegram user (signed init data, a trial subscription)
loads \`/app/\` until home is rendered; every response's encoded size (headers and the
compressed body, CDP \`Network.loadingFinished\`) is summed by type. **Time**: from navigation
start to \`#screen[aria-busy=false]\` holding the status card (and, warm, to the status card
no longer busy: "up to date"), measured by the page's own clock, with the CPU 4× slower
(CDP \`Emulation.setCPUThrottlingRate\`) and a throttled network (CDP \`Network.emulateNetworkConditions\`): by default both issue 51's phone
(\`phone\`: 400 ms latency, 400 kbit/s down and up) and Lighthouse's mobile profile
(\`lighthouse\`), \`BENCH_NETWORK\` picks one; cold cache is a new browser context, warm
cache a second page in the same context (Telegram opens a new web view each time, so this
is what a returning customer gets); the median of 5 runs each (\`BENCH_RUNS\`), for a live
user and for demo mode (\`?mock=1\`). Goals (issue 51, on the phone): usable ≤ 1.5 s cold
and ≤ 0.8 s warm, ≤ 20 KB on the first screen's path (the responses that arrived before
home was usable), ≤ 60 KB for the whole first screen including fonts. By default pages go
through a throw-away local nginx speaking HTTP/2 over TLS, as production does (\`BENCH_HTTP=1.1\`: the stack's own
port, where Chromium opens 6 connections to a host and the first screen's files queue).
The machine is shared: the load average is in each run, and figures under load are slower.

**Round trips, then bytes.** A cold opening takes two round trips in a row: the page, then
everything at once (config.js, main.js's modules, home's, the stylesheets, and /config,
/me and the language table, which the page's inline script asks for as it arrives:
docs/decisions.md, "The mini-app's first screen"); a warm one takes one, the page
(no-cache; its \`sub_filter\` drops the ETag, so it is a small answer rather than a 304,
the same round trip): home is drawn from the copy of the last /me kept on the device
(app/home-copy.js) and /me, asked with the page, brings it up to date ("up to date"; until
2026-12-07 home waited for it, two round trips). On the phone two round trips are 0.8 s,
so what is left cold is bytes: 400 kbit/s moves 50 KB a second, and every KB on the first
screen's path costs 20 ms: hence the first screen's own string table and the release step
that minifies the JavaScript and CSS (\`FRONT_BUILD=1 tools/stack up\` serves it; a run says
which tree it measured); warm, the script's own time on a 4× slower CPU. Until 2026-12-07
a cold opening took three round trips (app/early.js, a file,
asked for /config and /me only once it had arrived, and after base.css); before
2026-11-24 five over HTTP/1.1 (the page, two rounds of files with config.js queued in the
second, /config + /me + the language table once main.js ran, then the theme CSS once
/config named it) and a warm one three (config.js revalidated before the app could start).

<!-- front-end runs below, newest first; bench-front.mjs inserts each new run here -->`;
const RUNS_MARKER = '<!-- front-end runs below, newest first; bench-front.mjs inserts each new run here -->';

function writeDoc(text) {
  const doc = join(ROOT, 'docs', 'benchmarks.md');
  const old = existsSync(doc) ? readFileSync(doc, 'utf8') : '# Benchmarks\n';
  let head = old;
  let history = '';
  let tail = '';
  const at = old.indexOf('\n## Front end\n');
  if (at >= 0) {
    head = old.slice(0, at + 1);
    const rest = old.slice(at + 1);
    const mk = rest.indexOf(RUNS_MARKER);
    // Runs end where a section of another kind starts (a "## " heading), if any; that
    // section and the ones after it stay where they are, after the runs.
    history = mk >= 0 ? rest.slice(mk + RUNS_MARKER.length) : '';
    const next = history.search(/\n## /);
    if (next >= 0) { tail = history.slice(next + 1).trim(); history = history.slice(0, next); }
  }
  const out = `${head.replace(/\s*$/, '')}\n\n${INTRO}\n\n${text.trim()}\n${history.trim() ? '\n' + history.trim() + '\n' : ''}${tail ? '\n' + tail + '\n' : ''}`;
  writeFileSync(doc, out);
  return doc;
}

async function main() {
  // The live user: a trial subscription, so home shows days, traffic and devices.
  const id = freshId();
  const init = initData(id, { firstName: 'Bench', languageCode: 'en' });
  const me = await api('GET', '/me', { init });
  if (me.status !== 200) throw new Error(`/me for the bench user: ${me.status}`);
  if (!me.json.subscription) {
    const t = await api('POST', '/trial', { init });
    if (t.status !== 200) process.stderr.write(`[front-bench] no trial (${t.status}): home shows the no-subscription card\n`);
  }
  const hash = new URLSearchParams({ tgWebAppData: init, tgWebAppVersion: '8.0', tgWebAppPlatform: 'android' });
  const browser = await launchBench();
  try {
    const results = [];
    for (const network of NETWORKS) {
      results.push(await scenario(browser, network, 'live user', `${PAGE_BASE}/app/#${hash}`, { telegram: true }));
      results.push(await scenario(browser, network, 'demo (?mock=1)', `${PAGE_BASE}/app/?mock=1`, { telegram: false }));
    }
    const text = section(results, machine());
    process.stdout.write('\n' + text + '\n');
    if (process.env.BENCH_NO_DOC !== '1') process.stderr.write(`[front-bench] wrote ${writeDoc(text)}\n`);
  } finally {
    await browser.close();
  }
}

main().catch((e) => { console.error('bench-front:', e); process.exit(1); });
