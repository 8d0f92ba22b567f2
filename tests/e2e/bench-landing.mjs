// The landing's loading benchmark (never a test): bytes of the page with everything it
// loads, and the time to first contentful paint (the browser's own paint timing), with the
// same CPU and network throttling as the mini-app's (lib/bench.mjs), cold cache (a new
// browser context) and warm (a second page in it), median of BENCH_RUNS runs. Run by
// `tools/front-bench --landing`; writes the "Landing" section of docs/benchmarks.md
// (BENCH_NO_DOC=1 only prints).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { ROOT } from './lib/browser.mjs';
import { CPU_RATE, HTTP, NETWORK, PAGE_BASE, PROFILE, RUNS, kb, launchBench, machine, median, ms, throttle } from './lib/bench.mjs';
import { BASE } from './lib/stack.mjs';

if (!BASE) { console.error('bench-landing: CABINET_BASE_URL is not set (run it through tools/front-bench --landing)'); process.exit(2); }
const GOAL_FCP_MS = 1800;   // web.dev's "good" first contentful paint

async function load(context) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await throttle(cdp);
  const reqs = new Map();
  cdp.on('Network.requestWillBeSent', (e) => { reqs.set(e.requestId, { url: e.request.url, bytes: 0, cached: false, type: e.type || 'Other' }); });
  cdp.on('Network.responseReceived', (e) => { const r = reqs.get(e.requestId); if (r) { r.type = e.type || r.type; r.cached = e.response.fromDiskCache || e.response.fromMemoryCache || false; } });
  cdp.on('Network.requestServedFromCache', (e) => { const r = reqs.get(e.requestId); if (r) r.cached = true; });
  cdp.on('Network.loadingFinished', (e) => { const r = reqs.get(e.requestId); if (r) r.bytes = e.encodedDataLength; });
  await page.goto(PAGE_BASE + '/', { waitUntil: 'load' });
  const fcp = await page.evaluate(() => new Promise((resolve) => {
    const seen = performance.getEntriesByName('first-contentful-paint')[0];
    if (seen) return resolve(seen.startTime);
    new PerformanceObserver((l) => resolve(l.getEntries()[0].startTime)).observe({ type: 'paint', buffered: true });
  }));
  await page.waitForTimeout(100);
  await page.close();
  return { fcp, requests: [...reqs.values()] };
}

function section(cold, warm, first, m) {
  const date = new Date().toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
  const total = first.requests.reduce((s, r) => s + r.bytes, 0);
  const rows = first.requests.map((r) => `| \`${new URL(r.url).pathname.replace(/^\/static\/[0-9a-f]{12}\//, '')}\` | ${r.type.toLowerCase()} | ${kb(r.bytes)} |`).join('\n');
  const met = (ok) => (ok ? 'met' : 'not met');
  return `## Landing

The public landing at \`/\` (the worker's rendered HTML, its stylesheets and one small
module), measured by \`tests/e2e/bench-landing.mjs\` (\`tools/front-bench --landing\`) with the
mini-app's throttling: first contentful paint by the browser's own paint timing, cold cache
(a new browser context) and warm (a second page in it), median of ${RUNS} runs. Goal: FCP ≤ 1.8 s
(web.dev's "good"). The page is real HTML: its text and prices paint with the stylesheets,
before and without the script.

### ${date}

- Machine: ${m.cpus}, ${m.ram} RAM; ${m.chromium}; load average at the end ${m.load}; commit ${m.commit}.
- Network: ${PROFILE.name} (BENCH_NETWORK=${NETWORK}); CPU ${CPU_RATE}× slower; ${HTTP === '2' ? 'HTTP/2 over TLS (a local nginx in front of the stack, as production)' : 'HTTP/1.1 to the stack'} (BENCH_HTTP=${HTTP}).
- First load (cold cache): **${kb(total)}** in ${first.requests.length} responses.
- First contentful paint, median: cold **${ms(median(cold))}**, warm **${ms(median(warm))}** (goal ≤ 1.8 s: ${met(median(cold) <= GOAL_FCP_MS)} cold, ${met(median(warm) <= GOAL_FCP_MS)} warm); runs cold ${cold.map(Math.round).join(', ')}, warm ${warm.map(Math.round).join(', ')} ms.

| response | type | bytes (headers + encoded body) |
|---|---|---:|
${rows}
| **total** | | **${kb(total)}** |
`;
}

// The "Landing" section replaces the one before; the rest of the file stays as it is.
function writeDoc(text) {
  const doc = join(ROOT, 'docs', 'benchmarks.md');
  let old = existsSync(doc) ? readFileSync(doc, 'utf8') : '# Benchmarks\n';
  const at = old.indexOf('\n## Landing\n');
  if (at >= 0) {
    const next = old.slice(at + 1).search(/\n## /);
    old = old.slice(0, at + 1) + (next >= 0 ? old.slice(at + 1 + next + 1) : '');
  }
  writeFileSync(doc, `${old.replace(/\s*$/, '')}\n\n${text.trim()}\n`);
  return doc;
}

async function main() {
  const browser = await launchBench();
  try {
    const cold = [];
    const warm = [];
    let first = null;
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB', colorScheme: 'light' });
      const c = await load(context);
      const w = await load(context);
      await context.close();
      cold.push(c.fcp);
      warm.push(w.fcp);
      first = first || c;
      process.stderr.write(`[bench-landing] run ${i + 1}/${RUNS}: FCP cold ${Math.round(c.fcp)} ms, warm ${Math.round(w.fcp)} ms\n`);
    }
    const text = section(cold, warm, first, machine());
    process.stdout.write('\n' + text + '\n');
    if (process.env.BENCH_NO_DOC !== '1') process.stderr.write(`[bench-landing] wrote ${writeDoc(text)}\n`);
  } finally {
    await browser.close();
  }
}

main().catch((e) => { console.error('bench-landing:', e); process.exit(1); });
