// The sandboxes: pages a person clicks through in a browser on the local stack, at
// $SANDBOX_URL (nginx proxies /sandbox/ of the cabinet's origin to this process; the
// production config never does, tools/check-nginx asserts it). They complete the flows the
// outside services would, through the cabinet's real entry points:
//
//   /sandbox/                              the index
//   /sandbox/mail                          the mail catcher: what the fake SMTP server received
//   /sandbox/yookassa/checkout/<id>        Pay / Cancel -> the notification POSTed to the
//                                          cabinet's webhook, then 303 to the return_url
//   /sandbox/cryptobot/invoice/<id>        Pay -> the signed invoice_paid update to the webhook
//   /sandbox/stars/invoice/<slug>          Pay -> pre_checkout_query, then successful_payment
//                                          on the bot webhook, as Telegram sends them
//   /sandbox/oauth/<provider>/authorize    the providers' sign-in page (oauth.mjs)
//   /sandbox/sandbox.css
//
// CABINET_URL is where the webhooks go (through nginx, as the real services reach it).
import { randomBytes } from 'node:crypto';

import * as cryptobot from './cryptobot.mjs';
import { CSS, html, page, raw, redirect } from './html.mjs';
import * as smtp from './smtp.mjs';
import * as telegram from './telegram.mjs';
import * as yookassa from './yookassa.mjs';

const cabinetUrl = () => (process.env.CABINET_URL || '').replace(/\/+$/, '');
const stars = new Map();  // invoice payload -> {status, telegram_id} once the sandbox page paid it
let updateSeq = Math.floor(Date.now() / 1000);

// ---- mail --------------------------------------------------------------------------------
function headersOf(text) {
  const out = {};
  for (const line of text.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const m = line.match(/^([A-Za-z0-9-]+):\s*(.*)$/);
    if (m) out[m[1].toLowerCase()] = m[2];
  }
  return out;
}

// =?utf-8?B?...?= and =?utf-8?Q?...?= words (RFC 2047).
function decodeWords(s) {
  return String(s ?? '').replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=\s*(?==\?)?/g, (_, charset, enc, text) => {
    try {
      const bytes = enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64')
        : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (x, h) => String.fromCharCode(parseInt(h, 16))), 'latin1');
      return new TextDecoder(charset).decode(bytes);
    } catch { return text; }
  });
}

function decodeBody(body, encoding) {
  const enc = (encoding || '').toLowerCase();
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable') {
    return Buffer.from(body.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (x, h) => String.fromCharCode(parseInt(h, 16))), 'latin1')
      .toString('utf8');
  }
  return body;
}

// The text of a message: its text/plain part (else the HTML part without tags).
function textOf(raw) {
  const sep = raw.search(/\r?\n\r?\n/);
  const head = headersOf(sep === -1 ? raw : raw.slice(0, sep));
  const body = sep === -1 ? '' : raw.slice(sep).replace(/^\r?\n\r?\n/, '');
  const type = (head['content-type'] || 'text/plain').toLowerCase();
  if (type.startsWith('multipart/')) {
    const b = (head['content-type'].match(/boundary="?([^";]+)"?/i) || [])[1];
    if (!b) return { head, text: body };
    const parts = body.split('--' + b).slice(1).filter((p) => !p.startsWith('--'));
    const texts = parts.map((p) => textOf(p.replace(/^\r?\n/, '')));
    const plain = texts.find((t) => t.type.startsWith('text/plain')) || texts.find((t) => t.text);
    return { head, type, text: plain ? plain.text : '' };
  }
  let text = decodeBody(body, head['content-transfer-encoding']);
  if (type.startsWith('text/html')) text = text.replace(/<[^>]*>/g, '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
  return { head, type, text };
}

// Text with its http(s) links as links; everything else escaped.
function linkify(text) {
  const out = [];
  let last = 0;
  for (const m of text.matchAll(/https?:\/\/[^\s<>"']+/g)) {
    const url = m[0].replace(/[.,;:!?)\]]+$/, '');
    out.push(html`${text.slice(last, m.index)}`, html`<a href="${url}">${url}</a>`);
    last = m.index + url.length;
  }
  out.push(html`${text.slice(last)}`);
  return out;
}

function mailPage(res, url) {
  const to = url.searchParams.get('to') || '';
  const mails = smtp.list(to || undefined).slice().reverse();
  const items = mails.map((m) => {
    const { head, text } = textOf(m.raw);
    const subject = decodeWords(head.subject) || '(no subject)';
    return html`<li class="card"><article aria-labelledby="mail-${m.seq}">
<h2 id="mail-${m.seq}">${subject}</h2>
<dl><dt>To</dt><dd>${m.to.join(', ')}</dd><dt>From</dt><dd>${decodeWords(head.from) || m.from}</dd>
<dt>Received</dt><dd><time datetime="${m.at}">${m.at.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}</time></dd></dl>
<pre class="mail-body">${linkify(text.trim())}</pre>
</article></li>`;
  });
  return page(res, {
    title: 'Mail catcher',
    body: html`<p>Every mail the cabinet sent in this stack (the fake SMTP server keeps them in memory), newest first.
${to ? html`Only the mails to <strong>${to}</strong>: <a href="/sandbox/mail">show all</a>.` : ''}</p>
${mails.length ? html`<ul class="list">${items}</ul>` : html`<p class="card">No mail yet. Register on <a href="/cabinet/">the web cabinet</a> to get one.</p>`}`,
  });
}

// ---- the cabinet's webhooks ------------------------------------------------------------
// A cabinet that is down is an answer too (status 0): the page says so.
async function post(path, body, headers = {}) {
  try {
    const r = await fetch(cabinetUrl() + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(20000),
    });
    return { status: r.status, text: await r.text() };
  } catch (e) {
    return { status: 0, text: `${cabinetUrl() + path}: ${e.cause?.message ?? e.message}` };
  }
}

function webhookFailed(res, what, r) {
  return page(res, {
    status: 502,
    title: 'The cabinet refused the notification',
    body: html`<div class="card error" role="alert"><p>${what} was sent to the cabinet, ${r.status ? `which answered HTTP ${r.status}` : 'which could not be reached'}:</p>
<pre class="mail-body">${r.text.slice(0, 2000)}</pre></div>`,
  });
}

const money = (value, currency) => `${value} ${currency}`;

// ---- YooKassa --------------------------------------------------------------------------
async function yookassaCheckout(req, res, id, form) {
  const p = yookassa.payment(id);
  if (!p) return page(res, { status: 404, title: 'No such payment', body: html`<p class="card">The sandbox has no YooKassa payment ${id}.</p>` });
  const returnUrl = p.confirmation?.return_url ?? p.return_url;
  if (req.method === 'POST') {
    const action = form.action === 'cancel' ? 'canceled' : form.action === 'pay' ? 'succeeded' : null;
    if (!action) return page(res, { status: 400, title: 'Unknown action', body: html`<p class="card">Use the Pay or Cancel button.</p>` });
    p.return_url = returnUrl;
    const notification = yookassa.settle(id, action);
    if (notification) {
      const r = await post('/api/v1/payments/yookassa', notification);
      if (r.status < 200 || r.status > 299) return webhookFailed(res, `The ${notification.event} notification`, r);
    }
    return returnUrl ? redirect(res, returnUrl) : statusPage(res, p.status);
  }
  if (p.status !== 'pending') return statusPage(res, p.status, returnUrl);
  return page(res, {
    title: 'YooKassa checkout',
    body: html`<section class="card" aria-labelledby="pay-title">
<h2 id="pay-title">${p.description || 'Payment'}</h2>
<p class="amount">${money(p.amount.value, p.amount.currency)}</p>
<dl><dt>Payment</dt><dd>${p.id}</dd><dt>Shop</dt><dd>${p.recipient.account_id}</dd></dl>
<form method="post" class="actions">
<button class="primary" type="submit" name="action" value="pay">Pay</button>
<button type="submit" name="action" value="cancel">Cancel</button>
</form>
<p class="hint">Pay marks the payment succeeded and sends YooKassa's notification to the cabinet; Cancel marks it canceled. Then you go back to the shop.</p>
</section>`,
  });
}

function statusPage(res, status, back) {
  const paid = status === 'succeeded' || status === 'paid';
  return page(res, {
    title: paid ? 'Paid' : status === 'canceled' || status === 'cancelled' ? 'Cancelled' : `Payment ${status}`,
    body: html`<div class="card" role="status"><p>${paid ? 'This payment is paid. You can close this page.' : `This payment is ${status}. Nothing more to do here.`}</p>
${back ? html`<p><a href="${back}">Back to the shop</a></p>` : ''}</div>`,
  });
}

// ---- CryptoBot -------------------------------------------------------------------------
async function cryptobotInvoice(req, res, id, form) {
  const inv = cryptobot.invoice(id);
  if (!inv) return page(res, { status: 404, title: 'No such invoice', body: html`<p class="card">The sandbox has no CryptoBot invoice ${id}.</p>` });
  if (req.method === 'POST') {
    if (form.action === 'cancel') {
      return page(res, { title: 'Cancelled', body: html`<div class="card" role="status"><p>Nothing was paid; the invoice stays open. You can close this page.</p></div>` });
    }
    if (form.action !== 'pay') return page(res, { status: 400, title: 'Unknown action', body: html`<p class="card">Use the Pay or Cancel button.</p>` });
    if (inv.status === 'active') {
      const { body, signature } = cryptobot.markPaid(inv);
      const r = await post('/api/v1/payments/cryptobot', body, { 'crypto-pay-api-signature': signature });
      if (r.status < 200 || r.status > 299) return webhookFailed(res, 'The invoice_paid update', r);
    }
    if (inv.paid_btn_url) return redirect(res, inv.paid_btn_url);
    return statusPage(res, inv.status);
  }
  if (inv.status !== 'active') return statusPage(res, inv.status);
  const amount = inv.currency_type === 'fiat' ? money(inv.amount, inv.fiat) : money(inv.amount, inv.asset);
  return page(res, {
    title: 'CryptoBot invoice',
    body: html`<section class="card" aria-labelledby="pay-title">
<h2 id="pay-title">${inv.description || 'Invoice'}</h2>
<p class="amount">${amount}</p>
<dl><dt>Invoice</dt><dd>${inv.invoice_id}</dd>${inv.accepted_assets ? html`<dt>Paid in</dt><dd>USDT (sandbox rate 90.00)</dd>` : ''}</dl>
<form method="post" class="actions">
<button class="primary" type="submit" name="action" value="pay">Pay</button>
<button type="submit" name="action" value="cancel">Cancel</button>
</form>
<p class="hint">Pay marks the invoice paid and sends the signed invoice_paid update to the cabinet.</p>
</section>`,
  });
}

// ---- Telegram Stars --------------------------------------------------------------------
function hook(update) {
  return post('/bot/webhook', update, { 'X-Telegram-Bot-Api-Secret-Token': process.env.BOT_WEBHOOK_SECRET || '' });
}

async function starsInvoice(req, res, slug, form, url) {
  const inv = telegram.decodeSlug(slug);
  if (!inv) return page(res, { status: 404, title: 'No such invoice', body: html`<p class="card">This Stars invoice link is not one of the sandbox's.</p>` });
  const done = stars.get(inv.payload);
  const idField = (value, error) => html`<label for="tg-id">Payer's Telegram id</label>
<input id="tg-id" name="telegram_id" inputmode="numeric" pattern="[0-9]{1,15}" required value="${value}" aria-describedby="tg-id-hint${error ? ' tg-id-error' : ''}">
<p class="hint" id="tg-id-hint">The Telegram account that pays: the shop's user who bought (the mini-app's user; tools/stack up's demo user is 100000001).</p>
${error ? html`<p class="error" id="tg-id-error" role="alert">${error}</p>` : ''}`;
  const show = (status, value, error) => page(res, {
    status,
    title: 'Telegram Stars',
    body: html`<section class="card" aria-labelledby="pay-title">
<h2 id="pay-title">${inv.title}</h2>
${inv.description ? html`<p>${inv.description}</p>` : ''}
<p class="amount">${inv.amount} Stars (XTR)</p>
<form method="post">
${idField(value, error)}
<div class="actions">
<button class="primary" type="submit" name="action" value="pay">Pay</button>
<button type="submit" name="action" value="cancel" formnovalidate>Cancel</button>
</div>
</form>
<p class="hint">Pay sends the cabinet's bot the pre_checkout_query Telegram would, then, once the bot accepts it, the successful payment.</p>
</section>`,
  });
  if (req.method !== 'POST') {
    if (done) return statusPage(res, done.status);
    return show(200, url.searchParams.get('telegram_id') || url.searchParams.get('user') || '', '');
  }
  if (form.action === 'cancel') {
    return page(res, { title: 'Cancelled', body: html`<div class="card" role="status"><p>Nothing was paid. You can close this page.</p></div>` });
  }
  if (form.action !== 'pay') return show(400, form.telegram_id || '', 'Use the Pay or Cancel button.');
  if (done) return statusPage(res, done.status);
  const tgId = Number(form.telegram_id);
  if (!/^[0-9]{1,15}$/.test(form.telegram_id || '') || !tgId) return show(400, form.telegram_id || '', 'Enter the payer\'s Telegram id (digits).');
  const from = { id: tgId, is_bot: false, first_name: 'Sandbox' };
  const queryId = 'sandbox-' + randomBytes(8).toString('hex');
  let r = await hook({ update_id: ++updateSeq, pre_checkout_query: { id: queryId, from, currency: 'XTR', total_amount: inv.amount, invoice_payload: inv.payload } });
  if (r.status !== 200) return webhookFailed(res, 'The pre_checkout_query update', r);
  // The bot answers through the Bot API (answerPreCheckoutQuery) before or soon after
  // its webhook answer.
  let answer = null;
  for (let i = 0; i < 50 && !(answer = telegram.preCheckoutAnswer(queryId)); i++) await new Promise((s) => setTimeout(s, 100));
  if (!answer) return show(504, form.telegram_id, 'The bot did not answer the pre-checkout query within 5 seconds.');
  if (!answer.ok) return show(409, form.telegram_id, `The bot declined the payment: ${answer.error_message || 'no reason given'}`);
  const charge = 'sandbox_' + randomBytes(10).toString('hex');
  r = await hook({
    update_id: ++updateSeq,
    message: {
      message_id: updateSeq, date: Math.floor(Date.now() / 1000), from, chat: { id: tgId, type: 'private', first_name: 'Sandbox' },
      successful_payment: { currency: 'XTR', total_amount: inv.amount, invoice_payload: inv.payload, telegram_payment_charge_id: charge, provider_payment_charge_id: '' },
    },
  });
  if (r.status !== 200) return webhookFailed(res, 'The successful_payment update', r);
  stars.set(inv.payload, { status: 'paid', telegram_id: tgId });
  return statusPage(res, 'paid');
}

// ---- index -----------------------------------------------------------------------------
function index(res) {
  const cab = cabinetUrl();
  // The checkouts still open, newest first (a person who closed the page finds it here).
  const open = [
    ...yookassa.list().filter((p) => p.status === 'pending' && p.confirmation)
      .map((p) => ({ at: p.created_at, href: `/sandbox/yookassa/checkout/${encodeURIComponent(p.id)}`, text: `YooKassa: ${p.description || p.id}, ${money(p.amount.value, p.amount.currency)}` })),
    ...cryptobot.list().filter((i) => i.status === 'active')
      .map((i) => ({ at: i.created_at, href: `/sandbox/cryptobot/invoice/${i.invoice_id}`, text: `CryptoBot: ${i.description || i.invoice_id}, ${money(i.amount, i.fiat ?? i.asset)}` })),
  ].sort((a, b) => b.at.localeCompare(a.at)).slice(0, 20);
  return page(res, {
    title: 'Sandboxes of the local stack',
    body: html`<p>This stack talks to local fakes instead of the outside services. These pages play the part of their web pages, so that every flow can be clicked through in a browser.</p>
<ul class="list">
<li class="card"><h2><a href="/sandbox/mail">Mail catcher</a></h2><p>The mails the cabinet sent (verification links, e-mail link codes), newest first.</p></li>
<li class="card"><h2>YooKassa checkout</h2><p>Choosing YooKassa in the <a href="${cab}/app/">mini-app</a> or the <a href="${cab}/cabinet/">web cabinet</a> opens a sandbox checkout page with Pay and Cancel; Pay sends YooKassa's notification to the cabinet's webhook and brings you back to the shop.</p></li>
<li class="card"><h2>CryptoBot invoice</h2><p>Choosing CryptoBot opens the sandbox invoice page; Pay sends the signed invoice_paid update to the cabinet's webhook.</p></li>
<li class="card"><h2>Telegram Stars</h2><p>Paying with Stars opens the sandbox's Stars invoice; Pay sends the bot the pre-checkout query and the successful payment, as Telegram would.</p></li>
<li class="card"><h2>OAuth sign-in</h2><p>The Google, Yandex and VK buttons of the <a href="${cab}/cabinet/">web cabinet</a> lead to a sandbox sign-in page where you choose who you are.</p></li>
</ul>
<section class="card" aria-labelledby="open-title"><h2 id="open-title">Open checkouts</h2>
${open.length ? html`<ul>${open.map((o) => html`<li><a href="${o.href}">${o.text}</a></li>`)}</ul>` : html`<p>None: every payment started here is paid or cancelled.</p>`}
</section>`,
  });
}

// path: below /sandbox (e.g. "/mail"); fields: the form's fields.
export async function handle(req, res, path, parsed, url, oauth) {
  const form = parsed.form ?? {};
  if (path === '/' || path === '') return index(res);
  if (path === '/sandbox.css') {
    res.writeHead(200, { 'Content-Type': 'text/css; charset=utf-8', 'Content-Length': Buffer.byteLength(CSS) });
    res.end(CSS);
    return 200;
  }
  if (path === '/mail') return mailPage(res, url);
  let m = path.match(/^\/yookassa\/checkout\/([^/]+)$/);
  if (m) return yookassaCheckout(req, res, decodeURIComponent(m[1]), form);
  m = path.match(/^\/cryptobot\/invoice\/(\d+)$/);
  if (m) return cryptobotInvoice(req, res, m[1], form);
  m = path.match(/^\/stars\/invoice\/([A-Za-z0-9_-]+)$/);
  if (m) return starsInvoice(req, res, m[1], form, url);
  // Only the page the browser opens; token and userinfo stay server-to-server.
  if (/^\/oauth\/[a-z]+\/authorize$/.test(path)) return oauth.handle(req, res, path.slice('/oauth'.length), parsed, url);
  return page(res, { status: 404, title: 'Not found', body: raw('<p class="card">No such sandbox page. <a href="/sandbox/">All sandboxes</a>.</p>') });
}
