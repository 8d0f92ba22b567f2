// Fakes of the outside services the cabinet talks to, for the test stack (tools/stack test)
// and the local one (tools/stack up): one process on 127.0.0.1:$FAKES_PORT, the service
// chosen by the path prefix. Only ever started by tools/stack (never installed, never a
// systemd unit); the production nginx site never reaches it (tools/check-nginx).
//
//   /yookassa/v3/...          YooKassa API v3 (yookassa.mjs)
//   /cryptobot/api/...        Crypto Pay API of @CryptoBot (cryptobot.mjs)
//   /telegram/bot<token>/...  Telegram Bot API (telegram.mjs)
//   /oauth/<provider>/...     Google, Yandex, VK ID: authorize, token, userinfo (oauth.mjs)
//   /sandbox/...              the sandboxes (sandbox.mjs): pages a person clicks in a browser,
//                             through the local stack's nginx at /sandbox/ ($SANDBOX_URL):
//                             the index, the mail catcher (/sandbox/mail), the checkout pages
//                             of YooKassa, CryptoBot and Stars (Pay goes through the cabinet's
//                             real webhooks at $CABINET_URL), the OAuth sign-in page
//                             (/sandbox/oauth/<provider>/authorize). Each says it is a sandbox.
//
// Test controls (never journaled, never failed on purpose; not proxied by nginx):
//   GET    /__fake/health
//   GET    /__fake/journal[?service=yookassa&path=/payments&since=<seq>]  requests received, oldest first
//   DELETE /__fake/journal
//   POST   /__fake/fail {"service":"yookassa","count":3,"status":500}    the next `count` calls answer `status`
//                    [,"body":{...}]                                      with that JSON body (Telegram's 429 says retry_after)
//   POST   /__fake/slow {"service":"yookassa","count":20,"delay_ms":1500} the next `count` calls answer that late
//   DELETE /__fake/fail                                                   no more injected failures or delays
//   /__fake/yookassa/..., /__fake/cryptobot/..., /__fake/telegram/...     per-service hooks (see their files)
//   GET    /__fake/mail[?to=<addr>]   mails the fake SMTP server (smtp.mjs, on $SMTP_FAKE_PORT) received
//   DELETE /__fake/mail
//
// Only node: built-ins, so the stack needs no npm install. Credentials the fakes check come
// from the same environment as the cabinet's (YOOKASSA_SHOP_ID, YOOKASSA_SECRET_KEY,
// CRYPTOBOT_TOKEN, <PROVIDER>_CLIENT_ID/_SECRET); unset means any non-empty credential is accepted.
// SANDBOX_URL, CABINET_URL and STARS_INVOICE_LINKS (telegram.mjs) come from tools/stack.
import http from 'node:http';

import * as cryptobot from './cryptobot.mjs';
import * as oauth from './oauth.mjs';
import * as smtp from './smtp.mjs';
import { parseBody, reply } from './http_util.mjs';
import * as sandbox from './sandbox.mjs';
import * as telegram from './telegram.mjs';
import * as yookassa from './yookassa.mjs';

const services = { yookassa, cryptobot, telegram, oauth };
const MAX_JOURNAL = 5000;
const MAX_BODY = 20 * 1024 * 1024;  // sendDocument uploads backups

let seq = 0;
let journal = [];
const failures = {};  // service -> {count, status}
const delays = {};    // service -> {count, ms}

function record(service, req, url, raw, parsed, status) {
  const entry = {
    seq: ++seq,
    at: new Date().toISOString(),
    at_ms: Date.now(),  // when the call was answered: tests check a sender's pacing by it
    service,
    method: req.method,
    path: url.pathname.slice(service.length + 1),  // without the service prefix
    query: Object.fromEntries(url.searchParams),
    headers: req.headers,
    body: parsed.multipart ? null : raw.toString('utf8').slice(0, 65536),
    json: parsed.json ?? null,
    form: parsed.form ?? null,
    status,
  };
  journal.push(entry);
  if (journal.length > MAX_JOURNAL) journal = journal.slice(-MAX_JOURNAL);
}

function control(req, res, url, parsed) {
  const p = url.pathname;
  if (p === '/__fake/health') return reply(res, 200, { ok: true });
  if (p === '/__fake/journal' && req.method === 'GET') {
    const q = url.searchParams;
    const since = Number(q.get('since') ?? 0);
    return reply(res, 200, journal.filter((e) => e.seq > since &&
      (!q.get('service') || e.service === q.get('service')) &&
      (!q.get('path') || e.path.startsWith(q.get('path')))));
  }
  if (p === '/__fake/journal' && req.method === 'DELETE') { journal = []; return reply(res, 200, { ok: true }); }
  if (p === '/__fake/mail' && req.method === 'GET') return reply(res, 200, smtp.list(url.searchParams.get('to')));
  if (p === '/__fake/mail' && req.method === 'DELETE') { smtp.clear(); return reply(res, 200, { ok: true }); }
  if (p === '/__fake/fail' && req.method === 'POST') {
    const b = parsed.json ?? {};
    if (!services[b.service]) return reply(res, 400, { error: 'service must be one of ' + Object.keys(services) });
    failures[b.service] = { count: Number(b.count ?? 1), status: Number(b.status ?? 500), body: b.body ?? null };
    return reply(res, 200, { ok: true, ...failures[b.service] });
  }
  if (p === '/__fake/fail' && req.method === 'DELETE') {
    for (const k of Object.keys(failures)) delete failures[k];
    for (const k of Object.keys(delays)) delete delays[k];
    return reply(res, 200, { ok: true });
  }
  if (p === '/__fake/slow' && req.method === 'POST') {
    const b = parsed.json ?? {};
    if (!services[b.service]) return reply(res, 400, { error: 'service must be one of ' + Object.keys(services) });
    delays[b.service] = { count: Number(b.count ?? 1), ms: Number(b.delay_ms ?? 1000) };
    return reply(res, 200, { ok: true, ...delays[b.service] });
  }
  const m = p.match(/^\/__fake\/([a-z]+)(\/.*)$/);
  if (m && services[m[1]]?.hook) return services[m[1]].hook(req, res, m[2], parsed, url);
  return reply(res, 404, { error: 'no such fake control' });
}

async function handle(req, res) {
  const url = new URL(req.url, 'http://fake');
  const raw = await readBody(req);
  const parsed = parseBody(req.headers['content-type'] ?? '', raw);
  if (url.pathname.startsWith('/__fake/')) return control(req, res, url, parsed);
  if (url.pathname === '/sandbox' || url.pathname.startsWith('/sandbox/')) {
    return sandbox.handle(req, res, url.pathname.slice('/sandbox'.length), parsed, url, oauth);
  }
  const service = url.pathname.split('/')[1];
  if (!services[service]) return reply(res, 404, { error: 'no fake for ' + url.pathname });
  const d = delays[service];
  if (d && d.count > 0) {  // a slow provider: the call is answered, late
    d.count -= 1;
    await new Promise((r) => setTimeout(r, d.ms));
  }
  const f = failures[service];
  if (f && f.count > 0) {  // an outage: answered before the service sees the call
    f.count -= 1;
    record(service, req, url, raw, parsed, f.status);
    return reply(res, f.status, f.body ?? { error: 'injected failure' });
  }
  const status = services[service].handle(req, res, url.pathname.slice(service.length + 1), parsed, url);
  record(service, req, url, raw, parsed, status);
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY) { reject(new Error('body too large')); req.destroy(); return; }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const port = Number(process.env.FAKES_PORT);
if (!port) { console.error('FAKES_PORT is not set'); process.exit(2); }
const server = http.createServer((req, res) => {
  handle(req, res).catch((e) => {
    console.error(new Date().toISOString(), req.method, req.url, e);
    if (!res.headersSent) reply(res, 500, { error: String(e) });
  });
});
server.keepAliveTimeout = 30000;
server.listen(port, '127.0.0.1', () => console.log(`fakes listening on 127.0.0.1:${port}`));
const smtpPort = Number(process.env.SMTP_FAKE_PORT);
const smtpServer = smtpPort ? smtp.start(smtpPort) : null;
for (const sig of ['SIGTERM', 'SIGINT']) {
  process.on(sig, () => { smtpServer?.close(); server.close(() => process.exit(0)); server.closeAllConnections(); });
}
