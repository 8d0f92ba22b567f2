// A tiny SMTP server for the test stack: enough of RFC 5321 for libcurl (EHLO/HELO, MAIL
// FROM, RCPT TO, DATA, RSET, NOOP, QUIT). No STARTTLS and no AUTH are advertised, so the
// cabinet's "STARTTLS when offered" falls back to plain text here. SMTPUTF8 (RFC 6531) is,
// as by Postfix and the big mail services: an address beyond ASCII is taken only in a
// transaction whose MAIL FROM asked for it, as a real relay refuses it otherwise. Every
// accepted message is kept in memory (with `smtputf8`); server.mjs serves them at /__fake/mail.
import net from 'node:net';
import { domainToASCII } from 'node:url';

const MAX_MESSAGES = 2000;
const MAX_MESSAGE_BYTES = 1024 * 1024;
let seq = 0;
let messages = [];

// An address as a relay routes it: lower case, the domain in its ASCII (punycode) form
// (libcurl sends it so when the locale lets it convert, raw UTF-8 otherwise).
function canonical(a) {
  const at = a.lastIndexOf('@');
  if (at < 0) return a.toLowerCase();
  return (a.slice(0, at) + '@' + (domainToASCII(a.slice(at + 1)) || a.slice(at + 1))).toLowerCase();
}

// Received messages, oldest first; `to` filters by a recipient (case-insensitive).
export function list(to) {
  const want = to ? canonical(to) : null;
  return messages.filter((m) => !want || m.to.some((r) => canonical(r) === want));
}

export function clear() { messages = []; }

function address(arg) {
  const m = arg.match(/<([^>]*)>/);
  return (m ? m[1] : arg.split(/\s+/)[0] ?? '').trim();
}

function session(socket) {
  let buf = '';
  let env = { from: null, to: [], smtputf8: false };
  let data = null;  // lines of the message while in DATA
  let dataBytes = 0;
  const say = (line) => socket.write(line + '\r\n');
  const reset = () => { env = { from: null, to: [], smtputf8: false }; data = null; dataBytes = 0; };
  const ascii = (a) => /^[\x00-\x7f]*$/.test(a);

  say('220 fake-smtp ESMTP ready');
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => {
    buf += chunk;
    let nl;
    while ((nl = buf.indexOf('\n')) !== -1) {
      const line = buf.slice(0, nl).replace(/\r$/, '');
      buf = buf.slice(nl + 1);
      if (data !== null) {
        if (line === '.') {
          const raw = data.join('\r\n') + '\r\n';
          messages.push({ seq: ++seq, at: new Date().toISOString(), from: env.from, to: env.to, smtputf8: env.smtputf8, raw });
          if (messages.length > MAX_MESSAGES) messages = messages.slice(-MAX_MESSAGES);
          reset();
          say('250 2.0.0 OK queued as ' + seq);
          continue;
        }
        dataBytes += line.length + 2;
        if (dataBytes <= MAX_MESSAGE_BYTES) data.push(line.startsWith('..') ? line.slice(1) : line);
        continue;
      }
      const m = line.match(/^(\S+)\s*(.*)$/);
      const verb = (m?.[1] ?? '').toUpperCase();
      const arg = m?.[2] ?? '';
      if (verb === 'EHLO') { say('250-fake-smtp'); say('250-8BITMIME'); say('250-SMTPUTF8'); say('250 SIZE 1048576'); }
      else if (verb === 'HELO') say('250 fake-smtp');
      else if (verb === 'MAIL' && /^FROM:/i.test(arg)) {
        reset();
        env.smtputf8 = /\sSMTPUTF8(\s|$)/i.test(arg);
        env.from = address(arg.slice(5));
        say('250 2.1.0 OK');
      } else if (verb === 'RCPT' && /^TO:/i.test(arg)) {
        const to = address(arg.slice(3));
        if (env.from === null) say('503 5.5.1 MAIL first');
        else if (!ascii(to) && !env.smtputf8) say('553 5.6.7 address beyond ASCII without SMTPUTF8');
        else { env.to.push(to); say('250 2.1.5 OK'); }
      } else if (verb === 'DATA') {
        if (env.to.length === 0) say('503 5.5.1 RCPT first');
        else { data = []; say('354 End data with <CR><LF>.<CR><LF>'); }
      } else if (verb === 'RSET') { reset(); say('250 2.0.0 OK'); }
      else if (verb === 'NOOP') say('250 2.0.0 OK');
      else if (verb === 'QUIT') { say('221 2.0.0 Bye'); socket.end(); }
      else say('502 5.5.2 command not implemented');
    }
  });
  socket.on('error', () => {});
}

export function start(port) {
  const server = net.createServer(session);
  server.listen(port, '127.0.0.1', () => console.log(`fake smtp listening on 127.0.0.1:${port}`));
  return server;
}
