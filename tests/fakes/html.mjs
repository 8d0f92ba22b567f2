// The sandbox pages' HTML (sandbox.mjs, oauth.mjs): escaped text only, a stylesheet from
// /sandbox/sandbox.css (the stack's CSP forbids inline style and script), the banner that
// says it is a sandbox, and noindex.

export function esc(s) {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

// A tagged template whose ${values} are escaped unless they are raw() (another html``).
class Raw { constructor(s) { this.s = s; } toString() { return this.s; } }
export const raw = (s) => new Raw(s);
export function html(strings, ...values) {
  let out = strings[0];
  values.forEach((v, i) => {
    const parts = Array.isArray(v) ? v : [v];
    out += parts.map((x) => (x instanceof Raw ? x.s : esc(x))).join('') + strings[i + 1];
  });
  return new Raw(out);
}

export const BANNER_EN = 'Sandbox — local test stack only: no real money, mail or accounts';
export const BANNER_RU = 'Песочница — только локальный тестовый стенд: ни настоящих денег, ни писем, ни учётных записей';

export function page(res, { title, body, status = 200 }) {
  const text = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${esc(title)} · Sandbox</title>
<link rel="stylesheet" href="/sandbox/sandbox.css">
</head>
<body>
<header class="banner" role="banner">
<p><strong>${esc(BANNER_EN)}</strong></p>
<p lang="ru">${esc(BANNER_RU)}</p>
<nav aria-label="Sandbox"><a href="/sandbox/">All sandboxes</a> · <a href="/sandbox/mail">Mail catcher</a></nav>
</header>
<main>
<h1>${esc(title)}</h1>
${body}
</main>
</body>
</html>
`;
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'X-Robots-Tag': 'noindex, nofollow',
  });
  res.end(text);
  return status;
}

export function redirect(res, location, status = 303) {
  res.writeHead(status, { Location: location, 'Content-Length': 0 });
  res.end();
  return status;
}

// Colours from the system (light and dark), large targets, a visible focus ring.
export const CSS = `:root { color-scheme: light dark; --bg: #f6f7f9; --card: #fff; --text: #16181d; --muted: #4b5260;
  --accent: #1f5fd1; --on-accent: #fff; --warn-bg: #fff3c4; --warn-text: #4a3800; --border: #c9ced8; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #121418; --card: #1d2026; --text: #eceff4; --muted: #b4bac6; --accent: #8fb4ff; --on-accent: #0d1420;
    --warn-bg: #3b3000; --warn-text: #ffe88a; --border: #3a3f4a; }
}
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; background: var(--bg); color: var(--text); }
.banner { background: var(--warn-bg); color: var(--warn-text); padding: .75rem 1rem; border-bottom: 2px solid currentColor; }
.banner p { margin: 0 0 .25rem; }
.banner a { color: inherit; }
main { max-width: 44rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 0 0 .5rem; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.card { background: var(--card); border: 1px solid var(--border); border-radius: 12px; padding: 1rem; margin: 0 0 1rem; }
.list { list-style: none; padding: 0; margin: 0; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0 0 1rem; }
dt { color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
.amount { font-size: 2rem; font-weight: 700; margin: .25rem 0 1rem; }
.mail-body { white-space: pre-wrap; overflow-wrap: anywhere; font: 14px/1.5 ui-monospace, monospace; margin: 0;
  background: var(--bg); padding: .75rem; border-radius: 8px; }
.actions { display: flex; gap: .75rem; flex-wrap: wrap; margin-top: 1rem; }
button { font: inherit; min-height: 44px; padding: .5rem 1.5rem; border-radius: 8px; cursor: pointer;
  border: 2px solid var(--accent); background: var(--card); color: var(--text); }
button.primary { background: var(--accent); color: var(--on-accent); }
label { display: block; font-weight: 600; margin: .75rem 0 .25rem; }
input { font: inherit; width: 100%; min-height: 44px; padding: .5rem; border: 1px solid var(--muted); border-radius: 8px;
  background: var(--card); color: var(--text); }
.hint, .muted { color: var(--muted); }
.error { border-color: currentColor; }
`;
