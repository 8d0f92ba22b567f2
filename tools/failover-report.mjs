// What the clients of tools/failover-drill saw, from the load's JSON-lines log
// (tools/failover-load.mjs). Exit 1 when the act broke its rule.
//
//   node tools/failover-report.mjs act1 LOG kill=MS dead=MS
//       a pool host killed: no read may fail (nginx repeats it on the other host); a paid
//       request may fail only when it was in flight on the killed host at the kill (nginx
//       must not repeat a sent POST elsewhere), and its repeat with the same key settles it
//   node tools/failover-report.mjs act2 LOG stop=MS promote=MS
//       the primary stopped, the replica promoted: the outage window, /health degraded in
//       between and ok after, every paid operation settled in the end
//   node tools/failover-report.mjs keys LOG ACKED_KEYS ACKED_PAYMENTS
//       writes the acknowledged purchase keys and payment ids, one a line, for the SQL checks
import { readFileSync, writeFileSync } from 'node:fs';

const [mode, file, ...rest] = process.argv.slice(2);
const rows = readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const marks = Object.fromEntries(rest.filter((a) => a.includes('=')).map((a) => a.split('=')).map(([k, v]) => [k, Number(v)]));
const requests = rows.filter((r) => 'status' in r);
// A lost connection or a 5xx, but not a 503 "busy" (Retry-After, by design under load).
const failed = (r) => r.status === 0 || (r.status >= 500 && !/busy/.test(r.detail || ''));
const ends = rows.filter((r) => r.op.endsWith('-end'));
const abandoned = ends.filter((r) => !r.acked);
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
let bad = 0;
const say = (line) => console.error(`[drill]   ${line}`);
const rule = (ok, line) => { say(`${ok ? 'ok     ' : 'FAILED '} ${line}`); if (!ok) bad = 1; };

function counts() {
  const by = {};
  for (const r of requests) {
    const k = `${r.op} ${r.status || r.error}`;
    by[k] = (by[k] || 0) + 1;
  }
  say(`${requests.length} requests: ` + Object.entries(by).sort().map(([k, n]) => `${k}: ${n}`).join(', '));
  say(`paid operations: ${ends.filter((r) => r.acked).length} acknowledged, ${abandoned.length} abandoned`);
}

if (mode === 'act1') {
  counts();
  const reads = requests.filter((r) => r.op !== 'health' && r.op === 'read' && failed(r));
  const posts = requests.filter((r) => r.op !== 'read' && r.op !== 'health' && failed(r));
  // Sent before host 2 was gone (the kill takes a few ms), answered after the kill.
  const inFlight = posts.filter((r) => r.t0 <= marks.dead && r.t >= marks.kill);
  rule(reads.length === 0, `failed reads: ${reads.length} (nginx repeats a read on the other host)`);
  rule(posts.length === inFlight.length,
    `failed paid requests: ${posts.length}, all in flight on the killed host at the kill: ${inFlight.length} (not repeated by nginx; the client repeats with its key)`);
  rule(requests.filter((r) => r.op === 'health' && failed(r)).length === 0, '/health never failed');
  rule(abandoned.length === 0, 'every paid operation settled (200, or 409 for a repeat of a done one)');
} else if (mode === 'act2') {
  counts();
  const t = (ms) => `+${s(ms - marks.stop)}`;
  const failures = requests.filter(failed);
  const first = failures[0]; const last = failures.at(-1);
  const success = requests.find((r) => r.t0 >= marks.promote && !failed(r) && r.op !== 'health');
  const health = requests.filter((r) => r.op === 'health');
  const degraded = health.filter((r) => r.status === 503);
  say(`primary stopped at +0.00 s, replica promoted at ${t(marks.promote)}`);
  if (first) say(`failed requests: ${failures.length}, first at ${t(first.t)}, last at ${t(last.t)}: outage window ${s(last.t - first.t0)}`);
  if (success) say(`first success started after the promotion: ${t(success.t)} (${s(success.t - marks.promote)} after it)`);
  if (degraded.length) say(`/health 503 "degraded" from ${t(degraded[0].t)} to ${t(degraded.at(-1).t)}`);
  rule(failures.every((r) => r.t >= marks.stop), 'no failure before the primary stopped');
  rule(failures.every((r) => r.status !== 500), 'no 500: an outage, or a commit lost on the way, is a 503 to repeat');
  rule(degraded.length > 0 && degraded.every((r) => r.t >= marks.stop), '/health said degraded during the outage (and only then)');
  rule(health.length > 0 && health.at(-1).status === 200, '/health ok again at the end');
  rule(Boolean(success), 'requests succeed after the promotion');
  rule(abandoned.length === 0, 'every paid operation settled in the end (the clients repeat with their keys)');
} else if (mode === 'keys') {
  const [keysFile, paymentsFile] = rest;
  writeFileSync(keysFile, ends.filter((r) => r.op === 'purchase-end' && r.acked).map((r) => `${r.key}\n`).join(''));
  writeFileSync(paymentsFile, ends.filter((r) => r.op === 'payment-end' && r.acked).map((r) => `${r.id}\n`).join(''));
  say(`${ends.filter((r) => r.acked).length} acknowledged paid operations to find on the new primary`);
} else {
  console.error('usage: failover-report.mjs act1|act2|keys LOG ...');
  bad = 2;
}
process.exitCode = bad;
