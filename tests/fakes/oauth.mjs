// OAuth providers at /oauth/<provider>/{authorize,token,userinfo}: Google, Yandex and VK ID
// as the cabinet sees them (answers and error bodies shaped like the real ones).
//
// authorize: the real page asks the person to sign in, and so does this one (a sandbox page,
// also served as /sandbox/oauth/<provider>/authorize through the local stack's nginx): a
// form with e-mail and name, prefilled with a demo person, that posts back to itself. A test
// may skip the page by naming the person with the test-only `fake_user` parameter (JSON:
// {sub, email, email_verified, name}). Either way the answer is the 302 back to
// redirect_uri?code=...&state=... (vk adds device_id). The page's person gets a stable `sub`
// made from the e-mail, so signing in again is the same account. A code is
// single use, lives 10 minutes and is bound to client_id, redirect_uri and (vk) the PKCE
// code_challenge, so the token endpoint checks what the real ones check: client_secret
// (google, yandex), redirect_uri, and (vk) code_verifier and device_id.
// Credentials come from the stack's environment (GOOGLE_CLIENT_ID, ..._SECRET, ...).
import crypto from 'node:crypto';

import { html, page } from './html.mjs';
import { fields, reply } from './http_util.mjs';

const codes = new Map();    // code -> {provider, client_id, redirect_uri, challenge, device_id, user, expires}
const tokens = new Map();   // access token -> {provider, user}
const env = (p, what) => process.env[`${p.toUpperCase()}_CLIENT_${what}`] ?? '';
const random = () => crypto.randomBytes(24).toString('base64url');

function oauthError(res, status, error, description) {
  return reply(res, status, { error, error_description: description });
}

const NAMES = { google: 'Google', yandex: 'Yandex ID', vk: 'VK ID' };

// The sign-in page, and the person its form names (null while it is only shown).
function signIn(req, res, provider, f) {
  const email = String(f.email ?? '').trim();
  const name = String(f.name ?? '').trim();
  const valid = /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
  if (req.method === 'POST' && valid) {
    const sub = String(parseInt(crypto.createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 12), 16));
    return { user: { sub, email, email_verified: true, name: name || email.split('@')[0] } };
  }
  const error = req.method === 'POST' ? 'Enter an e-mail address like name@example.com.' : '';
  const status = page(res, {
    status: error ? 400 : 200,
    title: `Sign in with ${NAMES[provider]}`,
    body: html`<section class="card" aria-labelledby="who">
<h2 id="who">Who signs in?</h2>
<p>The shop asked ${NAMES[provider]} who you are. In this sandbox you say it: any e-mail makes an account of its own; the same e-mail again is the same account.</p>
<form method="post">
<label for="oauth-email">E-mail</label>
<input id="oauth-email" name="email" type="email" autocomplete="email" required value="${req.method === 'POST' ? email : 'demo.person@example.test'}"${error ? html` aria-invalid="true" aria-describedby="oauth-error"` : ''}>
${error ? html`<p class="error" id="oauth-error" role="alert">${error}</p>` : ''}
<label for="oauth-name">Name</label>
<input id="oauth-name" name="name" autocomplete="name" value="${req.method === 'POST' ? name : 'Demo Person'}">
<div class="actions"><button class="primary" type="submit">Sign in</button></div>
</form>
<p class="hint">Signing in sends you back to the shop with a one-time code, as ${NAMES[provider]} would.</p>
</section>`,
  });
  return { status };
}

function authorize(req, res, provider, f) {
  if (f.response_type !== 'code') return oauthError(res, 400, 'unsupported_response_type', 'response_type must be code');
  if (!f.client_id || f.client_id !== env(provider, 'ID')) return oauthError(res, 400, 'invalid_client', 'unknown client_id');
  if (!f.redirect_uri) return oauthError(res, 400, 'invalid_request', 'redirect_uri is missing');
  if (provider === 'vk' && (!f.code_challenge || f.code_challenge_method !== 'S256'))
    return oauthError(res, 400, 'invalid_request', 'code_challenge with S256 is required');
  let user;
  if (f.fake_user === undefined) {
    const who = signIn(req, res, provider, f);
    if (!who.user) return who.status;
    user = who.user;
  } else {
    try { user = JSON.parse(f.fake_user); } catch { return oauthError(res, 400, 'invalid_request', 'fake_user must be JSON'); }
    if (!user?.sub) return oauthError(res, 400, 'invalid_request', 'fake_user.sub is missing');
  }
  const code = random();
  const deviceId = provider === 'vk' ? random() : undefined;
  codes.set(code, { provider, client_id: f.client_id, redirect_uri: f.redirect_uri, challenge: f.code_challenge,
    device_id: deviceId, user, expires: Date.now() + 600_000 });
  const to = new URL(f.redirect_uri);
  to.searchParams.set('code', code);
  if (f.state !== undefined) to.searchParams.set('state', f.state);
  if (deviceId) { to.searchParams.set('device_id', deviceId); to.searchParams.set('type', 'code_v2'); }
  res.writeHead(302, { Location: to.toString(), 'Content-Length': 0 });
  res.end();
  return 302;
}

function token(req, res, provider, f) {
  if (req.method !== 'POST') return oauthError(res, 405, 'invalid_request', 'POST only');
  if (f.grant_type !== 'authorization_code') return oauthError(res, 400, 'unsupported_grant_type', 'grant_type');
  if (f.client_id !== env(provider, 'ID')) return oauthError(res, 401, 'invalid_client', 'The OAuth client was not found.');
  if (provider !== 'vk' && f.client_secret !== env(provider, 'SECRET'))
    return oauthError(res, 401, 'invalid_client', 'Unauthorized');
  const c = codes.get(f.code);
  codes.delete(f.code);  // single use, even when the rest is wrong
  if (!c || c.provider !== provider || c.expires < Date.now() || c.client_id !== f.client_id)
    return oauthError(res, 400, 'invalid_grant', 'Malformed auth code.');
  if (c.redirect_uri !== f.redirect_uri) return oauthError(res, 400, 'invalid_grant', 'redirect_uri mismatch');
  if (provider === 'vk') {
    const challenge = crypto.createHash('sha256').update(f.code_verifier ?? '').digest('base64url');
    if (challenge !== c.challenge) return oauthError(res, 400, 'invalid_grant', 'code_verifier is invalid');
    if (f.device_id !== c.device_id) return oauthError(res, 400, 'invalid_grant', 'device_id is invalid');
  }
  const access = random();
  tokens.set(access, { provider, user: c.user });
  if (provider === 'google')
    return reply(res, 200, { access_token: access, expires_in: 3599, scope: 'openid email profile', token_type: 'Bearer', id_token: 'fake.id.token' });
  if (provider === 'yandex')
    return reply(res, 200, { access_token: access, expires_in: 31536000, refresh_token: random(), token_type: 'bearer' });
  return reply(res, 200, { access_token: access, refresh_token: random(), id_token: 'fake.id.token', token_type: 'Bearer',
    expires_in: 3600, user_id: Number(c.user.sub) || c.user.sub, state: f.state, scope: 'email' });
}

function userinfo(req, res, provider, f) {
  const auth = req.headers.authorization ?? '';
  const t = provider === 'vk' ? f.access_token : auth.replace(provider === 'yandex' ? /^OAuth / : /^Bearer /, '');
  const entry = tokens.get(t);
  if (!entry || entry.provider !== provider) {
    if (provider === 'vk') return oauthError(res, 401, 'invalid_token', 'access_token is missing or invalid');
    if (provider === 'yandex') return reply(res, 401, { error: 'invalid_token', error_description: 'OAuth token is invalid' });
    return reply(res, 401, { error: 'invalid_request', error_description: 'Invalid Credentials' });
  }
  if (provider === 'vk' && f.client_id !== env('vk', 'ID')) return oauthError(res, 400, 'invalid_client', 'client_id is invalid');
  const u = entry.user;
  if (provider === 'google')
    return reply(res, 200, { sub: String(u.sub), name: u.name ?? '', email: u.email, email_verified: !!u.email_verified, picture: '' });
  if (provider === 'yandex') {
    const out = { id: String(u.sub), login: u.login ?? `login${u.sub}`, client_id: env('yandex', 'ID'), display_name: u.name ?? '', psuid: random() };
    if (u.email) { out.default_email = u.email; out.emails = [u.email]; }
    return reply(res, 200, out);
  }
  const [first, ...last] = String(u.name ?? '').split(' ');
  return reply(res, 200, { user: { user_id: String(u.sub), first_name: first, last_name: last.join(' '), avatar: '', email: u.email ?? '', sex: 0, verified: false } });
}

export function handle(req, res, path, parsed, url) {
  const m = path.match(/^\/(google|yandex|vk)\/(authorize|token|userinfo)$/);
  if (!m) return reply(res, 404, { error: 'not_found' });
  const f = fields(parsed, url);
  if (m[2] === 'authorize') return authorize(req, res, m[1], f);
  if (m[2] === 'token') return token(req, res, m[1], f);
  return userinfo(req, res, m[1], f);
}
