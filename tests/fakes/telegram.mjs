// Telegram Bot API at /telegram/bot<token>/<method>: the methods the cabinet's bot side
// calls, answered as the real API answers ({ok: true, result} or {ok: false, error_code,
// description}). Fields may come as JSON, a form, multipart (sendDocument) or the query
// string; the journal keeps them for tests to assert on.
import { fields, reply } from './http_util.mjs';

let invoiceSeq = 0;
let messageSeq = 1000;

const TRUE_METHODS = new Set([
  'answerPreCheckoutQuery', 'answerCallbackQuery', 'setWebhook', 'deleteWebhook', 'setMyCommands',
  'setChatMenuButton', 'deleteMessage', 'sendChatAction', 'refundStarPayment',
]);
const MESSAGE_METHODS = new Set([
  'sendMessage', 'sendDocument', 'sendPhoto', 'sendInvoice', 'editMessageText', 'forwardMessage', 'copyMessage',
]);

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
    return reply(res, 200, { ok: true, result: `https://t.me/$invoice-fake-${++invoiceSeq}` });
  }
  if (TRUE_METHODS.has(method)) return reply(res, 200, { ok: true, result: true });
  if (MESSAGE_METHODS.has(method)) {
    if (f.chat_id === undefined || f.chat_id === '') return fail(res, 400, 'Bad Request: chat_id is empty');
    if (method === 'sendMessage' && !f.text) return fail(res, 400, 'Bad Request: message text is empty');
    // A multipart upload is journaled by its fields and the file's name and size, never its bytes.
    if (method === 'sendDocument' && (f.document === undefined || f.document === '' || (typeof f.document === 'object' && !f.document.size)))
      return fail(res, 400, 'Bad Request: there is no document in the request');
    return reply(res, 200, { ok: true, result: message(method, f) });
  }
  return fail(res, 404, 'Not Found: method not found');
}
