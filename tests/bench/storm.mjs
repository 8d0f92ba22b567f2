// The webhook storm's provider (tools/bench-storm.sh): posts every notification in DIR
// (*.json) to URL at once, from this one process, and posts again each one answered 503
// after its Retry-After (else 1 s), as YooKassa retries, until DEADLINE_S seconds have
// passed. Prints "<last status> <posts>" per notification.
//
//   node tests/bench/storm.mjs DIR URL DEADLINE_S
//
// One process rather than a curl per notification: 200 curl processes started at once cost
// the shared CPUs more than the cabinet spends on the whole storm, and the bench would then
// measure its own process starts (docs/decisions.md "Webhook storms").
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';

const [dir, url, deadlineArg] = process.argv.slice(2);
const deadline = Date.now() + Number(deadlineArg ?? 120) * 1000;
// A connection per notification, as separate provider requests arrive.
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

function post(body) {
  return new Promise((resolve) => {
    const req = http.request(url, { method: 'POST', agent, timeout: 30000, headers: { 'Content-Type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, retryAfter: Number(res.headers['retry-after']) }));
      });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, retryAfter: NaN }));
    req.end(body);
  });
}

async function deliver(body) {
  for (let posts = 1; ; posts++) {
    const { status, retryAfter } = await post(body);
    if (status !== 503 || Date.now() >= deadline) return `${status} ${posts}`;
    await new Promise((r) => setTimeout(r, (Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : 1) * 1000));
  }
}

const bodies = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => readFileSync(join(dir, f)));
const lines = await Promise.all(bodies.filter((b) => b.length > 0).map(deliver));
process.stdout.write(lines.map((l) => l + '\n').join(''));
