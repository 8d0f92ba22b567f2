// shared/session.js, the web cabinet's session, with two tabs in one process: their
// storage, channel and lock are shared fakes, so the test decides when a tab's broadcast
// arrives. The browser test (cabinet.test.mjs, "two tabs share one rotation") cannot pick
// that moment; this one pins the order that once made a third /auth/refresh on a busy CI.
import assert from 'node:assert/strict';
import { beforeEach, mock, test } from 'node:test';

// localStorage, shared by the tabs. After a write made while `lagNext` is set, reads return
// what the key held before it (`lagging`): the other tab's process has not been told yet.
const store = new Map();
const before = new Map();
let lagNext = false;
let lagging = false;
globalThis.localStorage = {
  getItem: (k) => {
    if (lagging && before.has(k)) return before.get(k);
    return store.has(k) ? store.get(k) : null;
  },
  setItem: (k, v) => {
    before.set(k, store.has(k) ? store.get(k) : null);
    store.set(k, String(v));
    if (lagNext) { lagNext = false; lagging = true; }
  },
  removeItem: (k) => { before.set(k, store.has(k) ? store.get(k) : null); store.delete(k); },
};
globalThis.window = { addEventListener() {} };

// BroadcastChannel whose messages wait in `held` while `holding` is set.
const channels = new Set();
let holding = false;
let held = [];
globalThis.BroadcastChannel = class {
  constructor() { channels.add(this); this.onmessage = null; }
  postMessage(data) {
    for (const c of channels) {
      if (c === this) continue;
      const deliver = () => c.onmessage && c.onmessage({ data: structuredClone(data) });
      if (holding) held.push(deliver); else queueMicrotask(deliver);
    }
  }
};
const release = () => { holding = false; const h = held; held = []; h.forEach((f) => f()); };

// Web Locks: one holder at a time, in request order; { ifAvailable } gets null when taken.
let tail = Promise.resolve();
let holders = 0;
globalThis.navigator = {
  locks: {
    request(_name, options, fn) {
      if (typeof options === 'function') { fn = options; options = {}; }
      if (options.ifAvailable && holders > 0) return Promise.resolve().then(() => fn(null));
      holders += 1;
      const run = tail.then(() => fn({ name: _name })).finally(() => { holders -= 1; });
      tail = run.catch(() => {});
      return run;
    },
  },
};

const { createSession } = await import('../../nginx/html/shared/session.js');

// The server: each refresh token is spent once; its access tokens live 15 minutes. The
// tests sign in with one that lives 30 s, so the tabs' rotation is due (60 s before the end).
function server() {
  const calls = [];
  let n = 1;
  const valid = new Set(['r1']);
  const fetchImpl = async (url, init) => {
    const body = JSON.parse(init.body);
    calls.push(body.refresh_token);
    if (!valid.delete(body.refresh_token)) return new Response(JSON.stringify({ detail: 'spent' }), { status: 401 });
    n += 1;
    valid.add('r' + n);
    return Response.json({ access_token: 'a' + n, refresh_token: 'r' + n, expires_in: 900, user: { id: 1 } });
  };
  return { calls, fetchImpl, endAll: () => valid.clear() };
}

// Two tabs on one server, signed in in the first with a token that is due for rotation;
// the second has taken it from the first's broadcast.
async function twoSignedInTabs() {
  const { calls, fetchImpl } = server();
  const a = createSession({ fetchImpl });
  const b = createSession({ fetchImpl });
  a.adopt({ access_token: 'a1', refresh_token: 'r1', expires_in: 30, user: { id: 1 } });
  await new Promise((r) => setImmediate(r));
  assert.equal(b.credential(), 'Bearer a1', 'the second tab took the first one\'s tokens');
  return { calls, a, b };
}

beforeEach(() => {
  store.clear();
  before.clear();
  lagNext = false;
  lagging = false;
  tail = Promise.resolve();
  holders = 0;
  channels.clear();
  holding = false;
  held = [];
  mock.timers.reset();
  mock.timers.enable({ apis: ['setTimeout'] });   // no rotation timer fires by itself
});

test("a tab whose timer fires after another tab stored new tokens, before their broadcast, takes them and does not rotate again", async () => {
  const { calls, a, b } = await twoSignedInTabs();

  holding = true;                       // A's broadcast will be late
  assert.equal(await a.refresh(), true);
  assert.deepEqual(calls, ['r1']);
  const waiting = b.refresh();          // B's timer: storage says r2 already, B holds a1
  await new Promise((r) => setImmediate(r));
  release();
  assert.equal(await waiting, true, 'the second tab stays signed in');
  assert.deepEqual(calls, ['r1'], 'one /auth/refresh for both tabs');
  assert.equal(b.credential(), 'Bearer a2', 'the second tab uses the first one\'s new access token');
  assert.equal(a.credential(), 'Bearer a2');
});

test('a tab that waited for the lock while another rotated, and does not see its stored token yet, takes the broadcast and does not rotate again', async () => {
  const { calls, a, b } = await twoSignedInTabs();

  holding = true;                       // A's broadcast will be late,
  lagNext = true;                       // and B will still read r1 after A stores r2
  const first = a.refresh();
  const second = b.refresh();           // B's timer at the same moment: the lock is A's
  assert.equal(await first, true);
  for (let i = 0; i < 5; i += 1) await new Promise((r) => setImmediate(r));
  assert.deepEqual(calls, ['r1'], 'B waits to hear from A instead of rotating r1 again');
  release();
  assert.equal(await second, true, 'the second tab stays signed in');
  assert.deepEqual(calls, ['r1'], 'one /auth/refresh for both tabs');
  assert.equal(b.credential(), 'Bearer a2');
  lagging = false;
  assert.equal(await b.refresh(), true, 'its next rotation uses the token A stored');
  assert.deepEqual(calls, ['r1', 'r2']);
});

test('a tab alone rotates with its own token, and a refused refresh signs it out', async () => {
  const { calls, fetchImpl, endAll } = server();
  const a = createSession({ fetchImpl });
  a.adopt({ access_token: 'a1', refresh_token: 'r1', expires_in: 30, user: { id: 1 } });
  assert.equal(await a.refresh(), true);
  assert.equal(await a.refresh(), true);
  assert.deepEqual(calls, ['r1', 'r2']);
  assert.equal(a.credential(), 'Bearer a3');
  endAll();                             // the session is logged out elsewhere
  assert.equal(await a.refresh(), false);
  assert.deepEqual(calls, ['r1', 'r2', 'r3']);
  assert.equal(a.credential(), null);
  assert.equal(localStorage.getItem('cabinet.session'), null);
});

test('a new tab restores from storage and rotates once', async () => {
  const { calls, fetchImpl } = server();
  store.set('cabinet.session', JSON.stringify({ refresh: 'r1', user: { id: 1 } }));
  const b = createSession({ fetchImpl });
  assert.equal(await b.restore(), true);
  assert.deepEqual(calls, ['r1']);
  assert.equal(b.credential(), 'Bearer a2');
});
