// The API reference at /api/docs: docs/openapi.yaml rendered by the vendored Swagger UI
// under the site's CSP (no inline script or style), every file from our own origin, every
// operation of the document listed. E2E_SCREENSHOTS=1 also writes
// docs/screenshots/api-docs.png.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { launch, openPage, ROOT, screenshotPath } from './lib/browser.mjs';
import { BASE } from './lib/stack.mjs';

const DOC = readFileSync(join(ROOT, 'docs', 'openapi.yaml'), 'utf8');
const OPERATIONS = [...DOC.matchAll(/^\s+operationId: (\w+)$/gm)].map((m) => m[1]);

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

test('/api/docs renders every operation of docs/openapi.yaml, from our origin only, under the CSP', async () => {
  const p = await openPage(browser, '/api/docs', { viewport: { width: 1280, height: 900 } });
  const foreign = [];
  p.page.on('request', (r) => { if (!r.url().startsWith(BASE) && !r.url().startsWith('data:')) foreign.push(r.url()); });
  await p.page.waitForSelector('.opblock', { timeout: 20000 });
  const ids = await p.page.$$eval('.opblock', (els) => els.map((e) => e.id));
  assert.equal(ids.length, OPERATIONS.length, `operations rendered: ${ids.length}, in the document: ${OPERATIONS.length}`);
  await p.page.getByText('Profile, app config and current subscription').waitFor();

  if (process.env.E2E_SCREENSHOTS === '1') await p.page.screenshot({ path: screenshotPath('api-docs.png') });

  // One operation opens with its responses, the shared error body among them.
  await p.page.locator('#operations-cabinet-getMe .opblock-summary-control').click();
  await p.page.locator('#operations-cabinet-getMe .responses-table').waitFor();
  assert.match(await p.page.locator('#operations-cabinet-getMe').innerText(), /401/);

  assert.deepEqual(await p.problems(), []);
  assert.deepEqual(foreign, []);
  await p.close();
});

test('/api/docs is a page with the site\'s CSP and no-cache, the document is YAML; the pool\'s API keeps its own headers', async () => {
  for (const path of ['/api/docs', '/api/docs/']) {
    const r = await fetch(BASE + path);
    assert.equal(r.status, 200, path);
    assert.match(r.headers.get('content-type'), /^text\/html/);
    assert.match(r.headers.get('content-security-policy') || '', /script-src 'self'/);
    assert.equal(r.headers.get('cache-control'), 'no-cache');
    const html = await r.text();
    assert.doesNotMatch(html, /__RELEASE__/);
    // The document itself, from the release path, as YAML: the same bytes as docs/openapi.yaml.
    const yaml = await fetch(BASE + html.match(/href="(\/static\/[0-9a-f]{12}\/api-docs\/openapi\.yaml)"/)[1]);
    assert.equal(yaml.headers.get('content-type'), 'application/yaml');
    assert.equal(await yaml.text(), DOC);
  }
  const api = await fetch(BASE + '/api/cabinet/config');
  assert.equal(api.headers.get('content-security-policy'), null);
  assert.equal((await fetch(BASE + '/api/docs/nope')).status, 404);
});
