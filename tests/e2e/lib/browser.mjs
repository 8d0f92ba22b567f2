// Headless Debian Chromium driven by playwright-core, with what every test checks on
// every page: no console error, no uncaught exception, no failed request, no CSP
// violation. A page can play inside Telegram: the host's side of the Mini App protocol is
// emulated (TelegramWebviewProxy records what the page posts; `tgEvent` answers).
import { readFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

import { BASE } from './stack.mjs';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

export async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

// What the page under test posts to its Telegram host, and CSP violations, recorded in the
// page itself before any of its scripts run.
function hostScript({ telegram }) {
  window.__csp = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
  });
  if (telegram) {
    window.__tg = [];
    window.TelegramWebviewProxy = {
      postEvent(type, data) { window.__tg.push({ type, data: data ? JSON.parse(data) : null }); },
    };
  }
}

// openPage(browser, '/app/', { init, themeParams, platform, colorScheme, viewport })
// → { page, problems(), tgEvents(), tgEvent(type, data), allowHttp(predicate) }
export async function openPage(browser, path, opts = {}) {
  const context = await browser.newContext({
    viewport: opts.viewport || { width: 390, height: 844 },
    deviceScaleFactor: 1,
    colorScheme: opts.colorScheme || 'light',
    locale: opts.locale || 'en-GB',
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  const problems = [];
  const allowed = [];   // predicates for answers a test expects (a 402, a 429)
  // "Failed to load resource" repeats an HTTP error that the response check below judges.
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(`console: ${m.text()}`);
    // A string shown as its key (shared/i18n.js): missing, or not yet loaded (the mini-app's
    // first table, shared/i18n/<lang>.first.json, lacks a string its first screen shows).
    if (m.text().startsWith('i18n: missing')) problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`exception: ${e.message}`));
  page.on('requestfailed', (r) => {
    const f = r.failure();
    // A navigation away (openLink in a plain browser) aborts what was loading; not a fault.
    if (f && /ERR_ABORTED/.test(f.errorText) && r.resourceType() !== 'script' && r.resourceType() !== 'stylesheet') return;
    problems.push(`request failed: ${r.method()} ${r.url()} ${f && f.errorText}`);
  });
  // Judged when problems() is called: an answer may arrive before the test's allowHttp()
  // (the page's inline script asks for /me while the page is still loading).
  const httpErrors = [];
  page.on('response', (r) => { if (r.status() >= 400) httpErrors.push(r); });
  await page.addInitScript(hostScript, { telegram: Boolean(opts.init || opts.telegram) });

  let url = BASE + path;
  if (opts.init) {
    const hash = new URLSearchParams({
      tgWebAppData: opts.init,
      tgWebAppVersion: '8.0',
      tgWebAppPlatform: opts.platform || 'android',
      ...(opts.themeParams ? { tgWebAppThemeParams: JSON.stringify(opts.themeParams) } : {}),
    });
    url += (path.includes('#') ? '&' : '#') + hash.toString();
  }
  await page.goto(url, { waitUntil: 'domcontentloaded' });

  return {
    page,
    context,
    allowHttp(pred) { allowed.push(pred); },
    async problems() {
      const csp = await page.evaluate(() => window.__csp || []).catch(() => []);
      const http = httpErrors.filter((r) => !allowed.some((p) => p(r))).map((r) => `HTTP ${r.status()}: ${r.request().method()} ${r.url()}`);
      return [...problems, ...http, ...csp.map((c) => `CSP: ${c}`)];
    },
    tgEvents(type) {
      return page.evaluate((t) => (window.__tg || []).filter((e) => !t || e.type === t), type);
    },
    tgEvent(type, data) {
      return page.evaluate(([t, d]) => window.Telegram.WebView.receiveEvent(t, d), [type, data]);
    },
    close: () => context.close(),
  };
}

// The first screen is usable: the shell is painted and no longer busy, nor is any part of
// the screen that fills in after it (aria-busy, such as the home screen's autopay card).
export async function ready(page) {
  await page.waitForSelector('#screen[aria-busy="false"]', { timeout: 15000 });
  await page.waitForFunction(() => !document.querySelector('#screen [aria-busy="true"]'), null, { timeout: 15000 });
}

// axe-core on the page as it is now; returns the serious and critical violations as text.
// page.evaluate is not subject to the page's CSP, so the page needs no exception for it.
export async function axe(page) {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(() => window.axe.run(document, {
    resultTypes: ['violations'],
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
  }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

export function screenshotPath(name) {
  const dir = join(ROOT, 'docs', 'screenshots');
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}
