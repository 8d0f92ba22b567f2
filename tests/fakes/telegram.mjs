// Telegram Bot API at /telegram/bot<token>/<method>: the methods the cabinet's bot side
// calls, answered as the real API answers ({ok: true, result} or {ok: false, error_code,
// description}). Fields may come as JSON, a form, multipart (sendDocument) or the query
// string; the journal keeps them for tests to assert on.
//
// createInvoiceLink answers one of two link styles:
//   telegram  https://t.me/$invoice-fake-<n>, as Telegram does (the mini-app then asks its
//             Telegram host to open the invoice; the C++ tests expect this shape)
//   sandbox   <SANDBOX_URL>/stars/invoice/<slug>, the sandbox's Stars checkout page
//             (sandbox.mjs); the slug carries title, description, payload and amount
// The default is STARS_INVOICE_LINKS, else sandbox when SANDBOX_URL is set. Controls:
//   GET  /__fake/telegram/invoice-links                        {"style": ...}
//   POST /__fake/telegram/invoice-links {"style":"telegram"}   switch (returns the previous)
//   GET  /__fake/telegram/pre-checkout/<query id>              the cabinet's answer, or 404
//   POST /__fake/telegram/blocked {"chat_ids":[1,2]}            these chats have blocked the bot: a
//                                                              message to one answers 403 as Telegram does
//   DELETE /__fake/telegram/blocked                            nobody has
import { fields, reply } from './http_util.mjs';

let invoiceSeq = 0;
let messageSeq = 1000;
let linkStyle = process.env.STARS_INVOICE_LINKS || (process.env.SANDBOX_URL ? 'sandbox' : 'telegram');
const preCheckoutAnswers = new Map();  // pre_checkout_query_id -> {ok, error_message}
let blockedChats = new Set();  // chat ids (as text) that blocked the bot

// The sandbox's invoice slug: what the Stars checkout page shows and sends back.
export function invoiceSlug(f) {
  let amount = 0;
  try { amount = Number((typeof f.prices === 'string' ? JSON.parse(f.prices) : f.prices)?.[0]?.amount ?? 0); } catch { amount = 0; }
  const inv = { title: String(f.title), description: String(f.description ?? ''), payload: String(f.payload), amount };
  return Buffer.from(JSON.stringify(inv)).toString('base64url');
}
export function decodeSlug(slug) {
  try {
    const inv = JSON.parse(Buffer.from(slug, 'base64url').toString('utf8'));
    return inv && typeof inv.payload === 'string' && Number.isInteger(inv.amount) && inv.amount > 0 ? inv : null;
  } catch { return null; }
}
export function preCheckoutAnswer(id) { return preCheckoutAnswers.get(id) ?? null; }

export function hook(req, res, path, parsed) {
  if (path === '/invoice-links') {
    const before = linkStyle;
    if (req.method === 'POST') {
      const style = parsed.json?.style;
      if (style !== 'telegram' && style !== 'sandbox') return reply(res, 400, { error: 'style must be telegram or sandbox' });
      if (style === 'sandbox' && !process.env.SANDBOX_URL) return reply(res, 409, { error: 'SANDBOX_URL is not set' });
      linkStyle = style;
    }
    return reply(res, 200, { style: linkStyle, previous: before });
  }
  if (path === '/blocked') {
    if (req.method === 'DELETE') blockedChats = new Set();
    else if (req.method === 'POST') {
      const ids = parsed.json?.chat_ids;
      if (!Array.isArray(ids)) return reply(res, 400, { error: 'chat_ids must be an array' });
      blockedChats = new Set(ids.map(String));
    }
    return reply(res, 200, { chat_ids: [...blockedChats] });
  }
  const m = path.match(/^\/pre-checkout\/(.+)$/);
  if (m && req.method === 'GET') {
    const a = preCheckoutAnswers.get(decodeURIComponent(m[1]));
    return a ? reply(res, 200, a) : reply(res, 404, { error: 'not answered' });
  }
  return reply(res, 404, { error: 'no such telegram control' });
}

const TRUE_METHODS = new Set([
  'answerPreCheckoutQuery', 'answerCallbackQuery', 'setWebhook', 'deleteWebhook', 'setMyCommands',
  'setChatMenuButton', 'deleteMessage', 'sendChatAction',
]);
const MESSAGE_METHODS = new Set([
  'sendMessage', 'sendDocument', 'sendPhoto', 'sendInvoice', 'editMessageText', 'forwardMessage', 'copyMessage',
]);

const refundedCharges = new Set();  // refundStarPayment's charge ids

function fail(res, code, description) {
  return reply(res, code, { ok: false, error_code: code, description });
}

function message(method, f) {
  const chatId = Number.isNaN(Number(f.chat_id)) ? f.chat_id : Number(f.chat_id);
  const m = {
    message_id: f.message_id ? Number(f.message_id) : ++messageSeq,
    date: Math.floor(Date.now() / 1000),
    chat: { id: chatId, type: Number(chatId) < 0 ? 'supergroup' : 'private' },
  };
  if (f.message_thread_id) m.message_thread_id = Number(f.message_thread_id);
  if (f.text !== undefined) m.text = f.text;
  if (f.caption !== undefined) m.caption = f.caption;
  if (method === 'sendDocument') {
    const d = f.document;
    m.document = typeof d === 'object' && d
      ? { file_id: `fake-file-${m.message_id}`, file_unique_id: `u${m.message_id}`, file_name: d.filename, file_size: d.size }
      : { file_id: String(d), file_unique_id: `u${m.message_id}` };
  }
  if (method === 'sendInvoice') m.invoice = { title: f.title, description: f.description, currency: f.currency };
  return m;
}

export function handle(req, res, path, parsed, url) {
  const m = path.match(/^\/bot([^/]*)\/([A-Za-z]+)$/);
  if (!m) return fail(res, 404, 'Not Found');
  if (!/^\d+:[A-Za-z0-9_-]+$/.test(m[1])) return fail(res, 401, 'Unauthorized');
  const method = m[2];
  const f = fields(parsed, url);
  if (method === 'getMe') {
    return reply(res, 200, { ok: true, result: { id: Number(m[1].split(':')[0]), is_bot: true, first_name: 'Fake bot', username: process.env.BOT_USERNAME || 'fake_bot' } });
  }
  if (method === 'createInvoiceLink') {
    if (!f.title || !f.payload || !f.currency || !f.prices) return fail(res, 400, 'Bad Request: required parameters are missing');
    ++invoiceSeq;
    const link = linkStyle === 'sandbox' && process.env.SANDBOX_URL
      ? `${process.env.SANDBOX_URL}/stars/invoice/${invoiceSlug(f)}`
      : `https://t.me/$invoice-fake-${invoiceSeq}`;
    return reply(res, 200, { ok: true, result: link });
  }
  if (method === 'answerPreCheckoutQuery' && f.pre_checkout_query_id !== undefined) {
    const ok = f.ok === true || f.ok === 'true';
    preCheckoutAnswers.set(String(f.pre_checkout_query_id), { ok, ...(ok ? {} : { error_message: String(f.error_message ?? '') }) });
    if (preCheckoutAnswers.size > 1000) preCheckoutAnswers.delete(preCheckoutAnswers.keys().next().value);
  }
  if (method === 'refundStarPayment') {
    // Telegram refunds a charge once; the second time it says so.
    if (!f.user_id || !f.telegram_payment_charge_id) return fail(res, 400, 'Bad Request: required parameters are missing');
    if (refundedCharges.has(String(f.telegram_payment_charge_id))) return fail(res, 400, 'Bad Request: CHARGE_ALREADY_REFUNDED');
    refundedCharges.add(String(f.telegram_payment_charge_id));
    return reply(res, 200, { ok: true, result: true });
  }
  if (TRUE_METHODS.has(method)) return reply(res, 200, { ok: true, result: true });
  if (MESSAGE_METHODS.has(method)) {
    if (f.chat_id === undefined || f.chat_id === '') return fail(res, 400, 'Bad Request: chat_id is empty');
    if (method === 'sendMessage' && !f.text) return fail(res, 400, 'Bad Request: message text is empty');
    if (blockedChats.has(String(f.chat_id))) return fail(res, 403, 'Forbidden: bot was blocked by the user');
    // A multipart upload is journaled by its fields and the file's name and size, never its bytes.
    if (method === 'sendDocument' && (f.document === undefined || f.document === '' || (typeof f.document === 'object' && !f.document.size)))
      return fail(res, 400, 'Bad Request: there is no document in the request');
    return reply(res, 200, { ok: true, result: message(method, f) });
  }
  return fail(res, 404, 'Not Found: method not found');
}
