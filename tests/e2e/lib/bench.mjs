// What the front-end benchmarks share (bench-front.mjs: the mini-app; bench-landing.mjs:
// the landing): the run count, the CPU and network throttling, the browser, the machine's
// description and small formatters. Settings from the environment (tools/front-bench).
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';

import { chromium } from 'playwright-core';

import { CHROMIUM, ROOT } from './browser.mjs';
import { BASE } from './stack.mjs';

export const RUNS = Number(process.env.BENCH_RUNS || 5);
export const CPU_RATE = Number(process.env.BENCH_CPU || 4);
export const PROFILES = {
  // The slow phone (issue 51): what a customer on a weak mobile link gets.
  phone: { name: 'phone: 400 ms latency, 400 kbit/s down and up',
    latency: 400, downloadThroughput: (400 * 1000) / 8, uploadThroughput: (400 * 1000) / 8 },
  lighthouse: { name: 'Lighthouse mobile ("Slow 4G"): 562.5 ms latency, 1.44 Mbit/s down, 675 kbit/s up',
    latency: 562.5, downloadThroughput: (1.6 * 1024 * 1024 * 0.9) / 8, uploadThroughput: (750 * 1024 * 0.9) / 8 },
  slow3g: { name: 'DevTools "Slow 3G": 2000 ms latency, 400 kbit/s down and up',
    latency: 2000, downloadThroughput: (500 * 1000 * 0.8) / 8, uploadThroughput: (500 * 1000 * 0.8) / 8 },
};
export const NETWORK = process.env.BENCH_NETWORK || 'lighthouse';
export const PROFILE = PROFILES[NETWORK];
if (!PROFILE) { console.error(`bench: BENCH_NETWORK is one of ${Object.keys(PROFILES).join(', ')}`); process.exit(2); }
// The profiles a bench runs when BENCH_NETWORK names none (bench-front.mjs: both the
// issue's phone and Lighthouse's; the landing keeps one).
export const NETWORKS = process.env.BENCH_NETWORK ? [NETWORK] : ['phone', 'lighthouse'];

// Pages load from BENCH_URL (tools/front-bench's HTTP/2 proxy) or the stack itself.
export const PAGE_BASE = process.env.BENCH_URL || BASE;
export const HTTP = process.env.BENCH_HTTP || '1.1';

// The CPU and network of a profile (by default the chosen one), on one page's CDP session.
export async function throttle(cdp, profile = PROFILE) {
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_RATE });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false, latency: profile.latency, downloadThroughput: profile.downloadThroughput, uploadThroughput: profile.uploadThroughput,
  });
}

export function launchBench() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
      ...(process.env.BENCH_SPKI ? [`--ignore-certificate-errors-spki-list=${process.env.BENCH_SPKI}`] : [])],
  });
}

export const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

export const kb = (b) => (b / 1024).toFixed(1) + ' KB';
export const ms = (x) => Math.round(x) + ' ms';

export function machine() {
  const c = cpus();
  let chromium = '';
  try { chromium = execFileSync(process.env.CHROMIUM || '/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(); } catch { /* unknown */ }
  let commit = '';
  try { commit = execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(); } catch { /* not a checkout */ }
  let dirty = false;
  try { dirty = execFileSync('git', ['-C', ROOT, 'status', '--porcelain', 'nginx/html'], { encoding: 'utf8' }).trim() !== ''; } catch { /* no */ }
  return { cpus: `${c.length} CPUs (${(c[0] && c[0].model) || '?'})`, ram: (totalmem() / 2 ** 30).toFixed(1) + ' GiB', chromium, commit: commit + (dirty ? ' + uncommitted nginx/html' : ''), load: loadavg().map((x) => x.toFixed(2)).join(' ') };
}

