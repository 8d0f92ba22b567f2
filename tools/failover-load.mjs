// The load of tools/failover-drill: reads and paid operations through nginx, as clients
// that behave well do. Every answer goes to a JSON-lines log (one object a request) for
// the drill to measure the outage window and check the invariants against the database.
//
//   BASE=http://127.0.0.1:PORT FAKES=http://127.0.0.1:PORT USERS=users.txt OUT=log.jsonl \
//   STOP_FILE=path CONCURRENCY=8 node tools/failover-load.mjs
//
// USERS: lines of "telegram id<TAB>Authorization header". Runs until STOP_FILE exists, then finishes what
// it holds (a paid operation is followed to its end for up to 20 s more) and exits.
// Operations, picked at random by each of CONCURRENCY loops:
//   read      GET /api/cabinet/me (nginx may repeat it on another pool host)
//   purchase  POST /purchase from the balance with an Idempotency-Key; a 5xx or a lost
//             connection is repeated with the same key until 200 (done) or 409 (an earlier
//             attempt was done): the key is then "acknowledged" and must be in the database
//   payment   POST /purchase via YooKassa, the fake provider marks it paid, and its webhook
//             is delivered until the cabinet answers 200 (as YooKassa retries): the payment
//             is then "acknowledged" and must end completed, once
import { existsSync, readFileSync, appendFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';

const BASE = process.env.BASE;
const FAKES = process.env.FAKES;
const OUT = process.env.OUT;
const STOP_FILE = process.env.STOP_FILE;
const CONCURRENCY = Number(process.env.CONCURRENCY || 8);
const users = process.env.USERS ? readFileSync(process.env.USERS, 'utf8').trim().split('\n')
  .map((line) => { const [tg, auth] = line.split('\t'); return { tg: Number(tg), auth }; }) : [];
const GRACE_MS = 20000;
let stoppedAt = 0;

const stopping = () => {
  if (!stoppedAt && existsSync(STOP_FILE)) stoppedAt = Date.now();
  return stoppedAt !== 0;
};
const gaveUp = () => stoppedAt !== 0 && Date.now() - stoppedAt > GRACE_MS;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (o) => appendFileSync(OUT, JSON.stringify({ t: Date.now(), ...o }) + '\n');

// One request; a lost connection or a timeout is status 0.
async function call(method, url, headers, body) {
  const t0 = Date.now();
  try {
    const r = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(15000) });
    const text = await r.text();
    let json = null;
    try { json = JSON.parse(text); } catch { /* an nginx error page */ }
    return { status: r.status, json, t0, detail: r.status >= 400 ? json?.detail : undefined };
  } catch (e) {
    return { status: 0, json: null, t0, error: String(e.cause?.code || e.name) };
  }
}

async function read(u) {
  const r = await call('GET', `${BASE}/api/cabinet/me`, { Authorization: u.auth });
  log({ op: 'read', tg: u.tg, status: r.status, t0: r.t0, error: r.error, detail: r.detail });
}

// Repeats fn() until it returns true or the grace after the stop has passed.
async function until(fn) {
  for (;;) {
    if (await fn()) return true;
    if (gaveUp()) return false;
    await sleep(200);
  }
}

async function purchase(u) {
  const key = randomUUID();
  const body = JSON.stringify({ plan_id: 'standard', days: 30, method: 'balance' });
  let attempt = 0;
  const acked = await until(async () => {
    const r = await call('POST', `${BASE}/api/cabinet/purchase`,
      { Authorization: u.auth, 'Content-Type': 'application/json', 'Idempotency-Key': key }, body);
    log({ op: 'purchase', tg: u.tg, key, attempt: attempt++, status: r.status, t0: r.t0, error: r.error, detail: r.detail });
    return r.status === 200 || r.status === 409;
  });
  log({ op: 'purchase-end', tg: u.tg, key, acked, attempts: attempt });
}

async function payment(u) {
  const key = randomUUID();
  const body = JSON.stringify({ plan_id: 'standard', days: 30, method: 'yookassa' });
  let id = null;
  let attempt = 0;
  await until(async () => {
    const r = await call('POST', `${BASE}/api/cabinet/purchase`,
      { Authorization: u.auth, 'Content-Type': 'application/json', 'Idempotency-Key': key }, body);
    log({ op: 'invoice', tg: u.tg, key, attempt: attempt++, status: r.status, t0: r.t0, error: r.error, detail: r.detail });
    if (r.status === 200) id = r.json.redirect_url.split('/').pop();
    return r.status === 200 || r.status === 409;  // 409: made, but its page is lost: the user gives up
  });
  if (!id) return;
  // The user pays on the provider's page; the provider then notifies us until we say 200.
  const paid = await call('POST', `${FAKES}/__fake/yookassa/payments/${id}`,
    { 'Content-Type': 'application/json' }, JSON.stringify({ status: 'succeeded' }));
  if (paid.status !== 200) { log({ op: 'payment-end', tg: u.tg, id, acked: false, why: 'fake' }); return; }
  const notification = JSON.stringify(paid.json.notification);
  attempt = 0;
  const acked = await until(async () => {
    const r = await call('POST', `${BASE}/api/v1/payments/yookassa`, { 'Content-Type': 'application/json' }, notification);
    log({ op: 'webhook', tg: u.tg, id, attempt: attempt++, status: r.status, t0: r.t0, error: r.error, detail: r.detail });
    return r.status === 200;
  });
  log({ op: 'payment-end', tg: u.tg, id, acked, attempts: attempt });
}

async function loop(n) {
  while (!stopping()) {
    const u = users[Math.floor(Math.random() * users.length)];
    const p = Math.random();
    if (p < 0.7) await read(u);
    else if (p < 0.9) await purchase(u);
    else await payment(u);
    if (n === 0) await sleep(0);
  }
}

// What a load balancer's probe sees: GET /health every 250 ms.
async function probe() {
  while (!stopping()) {
    const r = await call('GET', `${BASE}/health`, {});
    log({ op: 'health', status: r.status, t0: r.t0, error: r.error, detail: r.detail });
    await sleep(250);
  }
}

await Promise.all([probe(), ...Array.from({ length: CONCURRENCY }, (_, i) => loop(i))]);
