// Contract test of the mock panel against the published Remnawave API
// (@remnawave/backend-contract, pinned in package.json): walks a user through its whole life
// and checks every request we send against the command's RequestSchema and every answer
// against its ResponseSchema. Then it reads the mock's request journal and checks the
// bodies that other clients (the cabinet's panel client) sent, so a client that drifts
// from the contract fails here and not against a real panel.
//
//   PANEL_URL=http://127.0.0.1:3010 node contract.mjs
//
// One line per check; the last line is exactly "N passed, M failed"; exit 1 on any failure.
import contract from '@remnawave/backend-contract';
import { z } from 'zod';

const {
  REST_API,
  GetMetadataCommand,
  GetRemnawaveHealthCommand,
  GetInternalSquadsCommand,
  GetAllNodesCommand,
  CreateUserCommand,
  GetAllUsersCommand,
  GetUserByUuidCommand,
  GetUserByTelegramIdCommand,
  GetUserByUsernameCommand,
  UpdateUserCommand,
  DeleteUserCommand,
  EnableUserCommand,
  DisableUserCommand,
  ResetUserTrafficCommand,
  RevokeUserSubscriptionCommand,
  GetUserHwidDevicesCommand,
  DeleteUserHwidDeviceCommand,
  DeleteAllUserHwidDevicesCommand,
  FetchIpsCommand,
  FetchIpsResultCommand,
  FetchUsersIpsCommand,
  FetchUsersIpsResultCommand,
  DropConnectionsCommand,
} = contract;

const BASE = (process.env.PANEL_URL || 'http://127.0.0.1:3010').replace(/\/+$/, '');
const USER_AGENT = 'cabinet-contract-test';
const EXPECTED_VERSION = '2.8.4';

// The real panel's error bodies (backend src/common/exception/*.filter.ts).
const PanelErrorSchema = z.object({
  timestamp: z.string().datetime(),
  path: z.string(),
  message: z.string(),
  errorCode: z.string(),
});
const ValidationErrorSchema = z.object({
  statusCode: z.literal(400),
  message: z.string(),
  errors: z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() })),
});

let passed = 0;
let failed = 0;

function check(name, ok, detail = '') {
  if (ok) passed += 1;
  else failed += 1;
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name}${!ok && detail ? ` -- ${detail}` : ''}`);
  return ok;
}

function issues(error) {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

function validate(name, schema, value) {
  const r = schema.safeParse(value);
  check(name, r.success, r.success ? '' : issues(r.error));
  return r.success;
}

// A body that is sent as it is, not as JSON.
const RAW_TEXT = Symbol('raw body');
const RAW = (text) => ({ [RAW_TEXT]: text });

async function call(method, path, body) {
  const headers = { Authorization: 'Bearer contract-test', 'User-Agent': USER_AGENT };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(BASE + path, {
    method,
    headers,
    body: body === undefined ? undefined : body[RAW_TEXT] ?? JSON.stringify(body),
    signal: AbortSignal.timeout(15000),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

// Sends a request whose body is first checked against the command's RequestSchema.
async function send(name, method, path, body, requestSchema) {
  if (requestSchema) validate(`${name}: request body fits RequestSchema`, requestSchema, body);
  return call(method, path, body);
}

// Checks status and ResponseSchema; returns the parsed `response` (or undefined).
function expectOk(name, res, status, responseSchema) {
  check(`${name}: HTTP ${status}`, res.status === status, `got ${res.status} ${res.text.slice(0, 200)}`);
  if (responseSchema) validate(`${name}: answer fits ResponseSchema`, responseSchema, res.json);
  return res.json ? res.json.response : undefined;
}

function expectPanelError(name, res, status, errorCode) {
  check(`${name}: HTTP ${status}`, res.status === status, `got ${res.status} ${res.text.slice(0, 200)}`);
  if (validate(`${name}: error body has the panel's shape`, PanelErrorSchema, res.json) && errorCode)
    check(`${name}: errorCode ${errorCode}`, res.json.errorCode === errorCode, `got ${res.json.errorCode}`);
}

function expectValidationError(name, res) {
  check(`${name}: HTTP 400`, res.status === 400, `got ${res.status} ${res.text.slice(0, 200)}`);
  validate(`${name}: error body has the validation shape`, ValidationErrorSchema, res.json);
}

const days = (n) => new Date(Date.now() + n * 86400000).toISOString();
const GiB = 1024 ** 3;

async function systemChecks() {
  const meta = expectOk('metadata', await call('GET', REST_API.SYSTEM.METADATA), 200, GetMetadataCommand.ResponseSchema);
  check(`metadata: version ${EXPECTED_VERSION}`, meta?.version === EXPECTED_VERSION, `got ${meta?.version}`);
  const health = expectOk('health', await call('GET', REST_API.SYSTEM.HEALTH), 200, GetRemnawaveHealthCommand.ResponseSchema);
  check(`health: version ${EXPECTED_VERSION}`, health?.version === EXPECTED_VERSION, `got ${health?.version}`);

  const squads = expectOk('squads', await call('GET', REST_API.INTERNAL_SQUADS.GET), 200, GetInternalSquadsCommand.ResponseSchema);
  const again = (await call('GET', '/api/internal-squads')).json?.response;
  check('squads: two of them', squads?.internalSquads?.length === 2 && squads.total === 2);
  check(
    'squads: same UUIDs on every call (with and without trailing slash)',
    JSON.stringify(squads?.internalSquads?.map((s) => s.uuid)) === JSON.stringify(again?.internalSquads?.map((s) => s.uuid)),
  );

  const nodes = expectOk('nodes', await call('GET', REST_API.NODES.GET), 200, GetAllNodesCommand.ResponseSchema);
  const nodesAgain = expectOk('nodes without trailing slash', await call('GET', '/api/nodes'), 200, GetAllNodesCommand.ResponseSchema);
  check('nodes: three of them, as an array', Array.isArray(nodes) && nodes.length === 3);
  check(
    'nodes: same UUIDs on every call',
    JSON.stringify(nodes?.map((n) => n.uuid)) === JSON.stringify(nodesAgain?.map((n) => n.uuid)),
  );
  check(
    'nodes: traffic figures float between calls',
    nodes?.some((n, i) => n.trafficUsedBytes !== nodesAgain?.[i]?.trafficUsedBytes),
  );
  return { squads: squads?.internalSquads ?? [], nodes: nodes ?? [] };
}

async function subscriptionChecks(name, user) {
  const path = new URL(user.subscriptionUrl).pathname;
  for (const p of [path, REST_API.SUBSCRIPTION.GET(user.shortUuid)]) {
    const res = await call('GET', p);
    check(`${name} GET ${p}: HTTP 200`, res.status === 200, `got ${res.status}`);
    const info = res.headers.get('subscription-userinfo') || '';
    check(`${name} GET ${p}: subscription-userinfo`, /^upload=\d+; download=\d+; total=\d+; expire=\d+$/.test(info), info);
    check(`${name} GET ${p}: profile-update-interval`, /^\d+$/.test(res.headers.get('profile-update-interval') || ''));
    check(`${name} GET ${p}: profile-title`, (res.headers.get('profile-title') || '').length > 0);
    check(`${name} GET ${p}: content-disposition`, /attachment/.test(res.headers.get('content-disposition') || ''));
    const links = Buffer.from(res.text, 'base64').toString('utf8').trim().split('\n');
    check(
      `${name} GET ${p}: base64 of vless:// links with the user's vlessUuid`,
      links.length >= 1 && links.every((l) => l.startsWith(`vless://${user.vlessUuid}@`)),
      links[0],
    );
  }
}

async function userFlow(catalog) {
  const telegramId = 700000000 + Math.floor(Math.random() * 100000000);
  const username = `ct_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
  const createBody = {
    username,
    expireAt: days(30),
    trafficLimitBytes: 10 * GiB,
    trafficLimitStrategy: 'MONTH',
    telegramId,
    email: `${username}@example.com`,
    description: 'contract test user',
    hwidDeviceLimit: 3,
    activeInternalSquads: [catalog.squads[0].uuid],
  };
  const created = expectOk(
    'create user',
    await send('create user', 'POST', REST_API.USERS.CREATE, createBody, CreateUserCommand.RequestSchema),
    201,
    CreateUserCommand.ResponseSchema,
  );
  if (!created) return;
  check('create user: fields as sent', created.username === username && created.telegramId === telegramId &&
    created.trafficLimitBytes === 10 * GiB && created.activeInternalSquads[0]?.uuid === catalog.squads[0].uuid);
  check('create user: ACTIVE', created.status === 'ACTIVE', created.status);
  const uuid = created.uuid;
  validate('path parameter fits GetUserByUuidCommand.RequestSchema', GetUserByUuidCommand.RequestSchema, { uuid });

  expectPanelError('create same username', await call('POST', REST_API.USERS.CREATE, createBody), 400, 'A019');
  expectValidationError('create with bad username', await call('POST', '/api/users', { ...createBody, username: 'a' }));
  expectValidationError('create with no expireAt', await call('POST', '/api/users', { username: `${username}x` }));
  expectPanelError('create with a body that is not JSON', await call('POST', '/api/users', RAW('{oops')), 400, 'E000');

  const read = expectOk('read user', await call('GET', REST_API.USERS.GET_BY_UUID(uuid)), 200, GetUserByUuidCommand.ResponseSchema);
  check('read user: same user', read?.uuid === uuid && read?.username === username);

  const listed = expectOk('list users', await call('GET', `${REST_API.USERS.GET}?start=0&size=1000`), 200, GetAllUsersCommand.ResponseSchema);
  check('list users: includes the user', listed?.users?.some((u) => u.uuid === uuid));

  validate('telegram id fits GetUserByTelegramIdCommand.RequestSchema', GetUserByTelegramIdCommand.RequestSchema, { telegramId: String(telegramId) });
  const byTg = expectOk('by telegram id', await call('GET', REST_API.USERS.GET_BY.TELEGRAM_ID(telegramId)), 200, GetUserByTelegramIdCommand.ResponseSchema);
  check('by telegram id: an array with the user', Array.isArray(byTg) && byTg.some((u) => u.uuid === uuid));
  expectPanelError('by unknown telegram id', await call('GET', REST_API.USERS.GET_BY.TELEGRAM_ID(1)), 404, 'A062');
  validate('username fits GetUserByUsernameCommand.RequestSchema', GetUserByUsernameCommand.RequestSchema, { username });
  const byName = expectOk('by username', await call('GET', REST_API.USERS.GET_BY.USERNAME(username)), 200, GetUserByUsernameCommand.ResponseSchema);
  check('by username: the user', byName?.uuid === uuid);
  expectPanelError('by unknown username', await call('GET', REST_API.USERS.GET_BY.USERNAME(`${username}_none`)), 404, 'A063');

  const upd1 = expectOk(
    'update (PATCH /api/users, uuid in body)',
    await send('update (PATCH /api/users)', 'PATCH', REST_API.USERS.UPDATE, { uuid, description: 'updated once', trafficLimitBytes: 20 * GiB }, UpdateUserCommand.RequestSchema),
    200,
    UpdateUserCommand.ResponseSchema,
  );
  check('update (body uuid): applied', upd1?.description === 'updated once' && upd1?.trafficLimitBytes === 20 * GiB);
  const newExpire = days(60);
  const upd2 = expectOk(
    'update (PATCH /api/users/{uuid})',
    await send('update (PATCH /api/users/{uuid})', 'PATCH', `/api/users/${uuid}`, { uuid, expireAt: newExpire, hwidDeviceLimit: 5, email: null }, UpdateUserCommand.RequestSchema),
    200,
    UpdateUserCommand.ResponseSchema,
  );
  check('update (path uuid): applied', upd2?.hwidDeviceLimit === 5 && upd2?.email === null &&
    Date.parse(upd2?.expireAt) === Date.parse(newExpire) && upd2?.description === 'updated once');
  expectValidationError('update to status LIMITED', await call('PATCH', '/api/users', { uuid, status: 'LIMITED' }));
  expectPanelError('update unknown user', await call('PATCH', '/api/users', { uuid: '00000000-0000-4000-8000-000000000000', description: 'x' }), 404, 'A025');

  // actions
  const uuidParam = { uuid };
  validate('disable: path parameter fits RequestSchema', DisableUserCommand.RequestSchema, uuidParam);
  const disabled = expectOk('disable', await call('POST', REST_API.USERS.ACTIONS.DISABLE(uuid)), 200, DisableUserCommand.ResponseSchema);
  check('disable: DISABLED', disabled?.status === 'DISABLED', disabled?.status);
  expectPanelError('disable twice', await call('POST', REST_API.USERS.ACTIONS.DISABLE(uuid)), 400, 'A029');
  validate('enable: path parameter fits RequestSchema', EnableUserCommand.RequestSchema, uuidParam);
  const enabled = expectOk('enable', await call('POST', REST_API.USERS.ACTIONS.ENABLE(uuid)), 200, EnableUserCommand.ResponseSchema);
  check('enable: ACTIVE', enabled?.status === 'ACTIVE', enabled?.status);
  validate('reset-traffic: path parameter fits RequestSchema', ResetUserTrafficCommand.RequestSchema, uuidParam);
  const reset = expectOk('reset-traffic', await call('POST', REST_API.USERS.ACTIONS.RESET_TRAFFIC(uuid)), 200, ResetUserTrafficCommand.ResponseSchema);
  check('reset-traffic: used traffic 0, reset time set', reset?.userTraffic?.usedTrafficBytes === 0 && reset?.lastTrafficResetAt !== null);
  expectOk('drop-connections (user action)', await call('POST', `/api/users/${uuid}/actions/drop-connections`), 200, DropConnectionsCommand.ResponseSchema);

  await subscriptionChecks('sub link', enabled ?? created);
  const before = enabled ?? created;
  const revokeBody = {};
  validate('revoke: body fits RequestBodySchema', RevokeUserSubscriptionCommand.RequestBodySchema, revokeBody);
  const revoked = expectOk('revoke', await call('POST', REST_API.USERS.ACTIONS.REVOKE_SUBSCRIPTION(uuid), revokeBody), 200, RevokeUserSubscriptionCommand.ResponseSchema);
  check('revoke: new shortUuid and subscriptionUrl', revoked && revoked.shortUuid !== before.shortUuid && revoked.subscriptionUrl !== before.subscriptionUrl);
  const oldLink = await call('GET', new URL(before.subscriptionUrl).pathname);
  check('revoke: old link answers 404 at once', oldLink.status === 404, `got ${oldLink.status}`);
  if (revoked) await subscriptionChecks('new sub link', revoked);

  // HWID devices
  validate('devices: path parameter fits RequestSchema', GetUserHwidDevicesCommand.RequestSchema, { userUuid: uuid });
  const devices = expectOk('devices', await call('GET', REST_API.HWID.GET_USER_HWID_DEVICES(uuid)), 200, GetUserHwidDevicesCommand.ResponseSchema);
  const devicesAgain = (await call('GET', REST_API.HWID.GET_USER_HWID_DEVICES(uuid))).json?.response;
  check('devices: two demo devices', devices?.total === 2 && devices?.devices?.length === 2);
  check('devices: stable across calls', JSON.stringify(devices) === JSON.stringify(devicesAgain));
  if (devices?.devices?.length) {
    const hwid = devices.devices[0].hwid;
    const left = expectOk(
      'delete device',
      await send('delete device', 'POST', REST_API.HWID.DELETE_USER_HWID_DEVICE, { userUuid: uuid, hwid }, DeleteUserHwidDeviceCommand.RequestSchema),
      200,
      DeleteUserHwidDeviceCommand.ResponseSchema,
    );
    check('delete device: one left, not the deleted one', left?.total === 1 && left?.devices?.every((d) => d.hwid !== hwid));
    const after = (await call('GET', REST_API.HWID.GET_USER_HWID_DEVICES(uuid))).json?.response;
    check('delete device: stays deleted', after?.total === 1);
    expectPanelError('delete unknown device', await call('POST', REST_API.HWID.DELETE_USER_HWID_DEVICE, { userUuid: uuid, hwid }), 404, 'A204');
  }

  // ip-control
  const node = catalog.nodes[0];
  if (node) {
    validate('fetch-users-ips: path parameter fits RequestSchema', FetchUsersIpsCommand.RequestSchema, { nodeUuid: node.uuid });
    const job = expectOk('fetch-users-ips', await call('POST', REST_API.IP_CONTROL.FETCH_USERS_IPS(node.uuid)), 200, FetchUsersIpsCommand.ResponseSchema);
    const result = expectOk('fetch-users-ips result', await call('GET', REST_API.IP_CONTROL.GET_FETCH_USERS_IPS_RESULT(job?.jobId ?? 'none')), 200, FetchUsersIpsResultCommand.ResponseSchema);
    check('fetch-users-ips result: completed for the node', result?.isCompleted === true && result?.result?.nodeUuid === node.uuid);
  }
  validate('fetch-ips: path parameter fits RequestSchema', FetchIpsCommand.RequestSchema, { uuid });
  const userJob = expectOk('fetch-ips', await call('POST', REST_API.IP_CONTROL.FETCH_IPS(uuid)), 200, FetchIpsCommand.ResponseSchema);
  const userIps = expectOk('fetch-ips result', await call('GET', REST_API.IP_CONTROL.GET_FETCH_IPS_RESULT(userJob?.jobId ?? 'none')), 200, FetchIpsResultCommand.ResponseSchema);
  check('fetch-ips result: per-node IPs of the user', userIps?.result?.userUuid === uuid && userIps.result.nodes.length > 0);
  expectPanelError('unknown job', await call('GET', REST_API.IP_CONTROL.GET_FETCH_USERS_IPS_RESULT('no-such-job')), 404, 'A218');
  expectOk(
    'drop-connections',
    await send('drop-connections', 'POST', REST_API.IP_CONTROL.DROP_CONNECTIONS,
      { dropBy: { by: 'userUuids', userUuids: [uuid] }, targetNodes: { target: 'allNodes' } }, DropConnectionsCommand.RequestSchema),
    200,
    DropConnectionsCommand.ResponseSchema,
  );
  expectValidationError('drop-connections with empty list', await call('POST', REST_API.IP_CONTROL.DROP_CONNECTIONS,
    { dropBy: { by: 'userUuids', userUuids: [] }, targetNodes: { target: 'allNodes' } }));

  // delete
  validate('delete: path parameter fits RequestSchema', DeleteUserCommand.RequestSchema, uuidParam);
  const deleted = expectOk('delete user', await call('DELETE', REST_API.USERS.DELETE(uuid)), 200, DeleteUserCommand.ResponseSchema);
  check('delete user: isDeleted', deleted?.isDeleted === true);
  expectPanelError('read deleted user', await call('GET', REST_API.USERS.GET_BY_UUID(uuid)), 404, 'A025');
  if (revoked) {
    const gone = await call('GET', new URL(revoked.subscriptionUrl).pathname);
    check('deleted user: link answers 404', gone.status === 404, `got ${gone.status}`);
  }
  expectValidationError('read with a malformed uuid', await call('GET', '/api/users/not-a-uuid'));
}

async function faultChecks() {
  const arm = (body) => call('POST', '/__mock/fault', body);
  check('fault status500: armed', (await arm({ mode: 'status500', times: 1 })).status === 200);
  const r500 = await call('GET', REST_API.SYSTEM.METADATA);
  check('fault status500: next request answers 500', r500.status === 500, `got ${r500.status}`);
  check('fault status500: only once', (await call('GET', REST_API.SYSTEM.METADATA)).status === 200);
  await arm({ mode: 'garbage', times: 1 });
  const garbage = await call('GET', REST_API.SYSTEM.METADATA);
  check('fault garbage: 200 with a body that is not JSON', garbage.status === 200 && garbage.json === undefined);
  await arm({ mode: 'delay', delay_ms: 300, times: 1 });
  const t0 = Date.now();
  const slow = await call('GET', REST_API.SYSTEM.METADATA);
  check('fault delay: answer comes late but normal', slow.status === 200 && Date.now() - t0 >= 290, `${Date.now() - t0} ms`);
  await arm({ mode: 'status500', times: 1, method: 'POST' });
  check('fault for POST: a GET passes it', (await call('GET', REST_API.SYSTEM.METADATA)).status === 200);
  const post500 = await call('POST', REST_API.USERS.CREATE, {});
  check('fault for POST: the next POST answers 500', post500.status === 500, `got ${post500.status}`);
  check('fault for POST: only once', (await call('POST', REST_API.USERS.CREATE, {})).status === 400);
  check('fault method: a bad one refused', (await arm({ mode: 'status500', method: 'TRACE' })).status === 400);
  await arm({ mode: 'status500', times: 1, path: '/api/nodes' });
  check('fault for a path: another path passes it', (await call('GET', REST_API.SYSTEM.METADATA)).status === 200);
  check('fault for a path: that path answers 500', (await call('GET', '/api/nodes')).status === 500);
  check('fault path: one outside /api/ refused', (await arm({ mode: 'status500', path: '/__mock/journal' })).status === 400);
  await arm({ mode: 'status500', times: 5 });
  check('reset-faults', (await call('POST', '/__mock/reset-faults')).status === 200 &&
    (await call('GET', REST_API.SYSTEM.METADATA)).status === 200);
}

// Which contract command a journalled request was, and what of it to check: the body
// against the RequestSchema (or the body schema), path parameters against theirs.
const uuidRe = '([^/]+)';
const JOURNAL_RULES = [
  ['POST', /^\/api\/users\/?$/, (m, body) => [['CreateUserCommand body', CreateUserCommand.RequestSchema, body]]],
  // The panel sync's pages (cabinetctl sync-panel): start and size as the query schema allows (size <= 1000).
  ['GET', /^\/api\/users\/?$/, (m, body, query) => [['GetAllUsersCommand query', GetAllUsersCommand.RequestQuerySchema, Object.fromEntries(new URLSearchParams(query ?? ''))]]],
  ['PATCH', /^\/api\/users\/?$/, (m, body) => [['UpdateUserCommand body', UpdateUserCommand.RequestSchema, body]]],
  ['PATCH', new RegExp(`^/api/users/${uuidRe}/?$`), (m, body) => [['UpdateUserCommand body (uuid from path)', UpdateUserCommand.RequestSchema, { ...(body ?? {}), uuid: m[1] }]]],
  ['GET', /^\/api\/users\/by-telegram-id\/([^/]+)\/?$/, (m) => [['GetUserByTelegramIdCommand params', GetUserByTelegramIdCommand.RequestSchema, { telegramId: m[1] }]]],
  ['GET', /^\/api\/users\/by-username\/([^/]+)\/?$/, (m) => [['GetUserByUsernameCommand params', GetUserByUsernameCommand.RequestSchema, { username: m[1] }]]],
  ['GET', new RegExp(`^/api/users/${uuidRe}/?$`), (m) => [['GetUserByUuidCommand params', GetUserByUuidCommand.RequestSchema, { uuid: m[1] }]]],
  ['DELETE', new RegExp(`^/api/users/${uuidRe}/?$`), (m) => [['DeleteUserCommand params', DeleteUserCommand.RequestSchema, { uuid: m[1] }]]],
  ['POST', new RegExp(`^/api/users/${uuidRe}/actions/enable/?$`), (m) => [['EnableUserCommand params', EnableUserCommand.RequestSchema, { uuid: m[1] }]]],
  ['POST', new RegExp(`^/api/users/${uuidRe}/actions/disable/?$`), (m) => [['DisableUserCommand params', DisableUserCommand.RequestSchema, { uuid: m[1] }]]],
  ['POST', new RegExp(`^/api/users/${uuidRe}/actions/reset-traffic/?$`), (m) => [['ResetUserTrafficCommand params', ResetUserTrafficCommand.RequestSchema, { uuid: m[1] }]]],
  ['POST', new RegExp(`^/api/users/${uuidRe}/actions/revoke/?$`), (m, body) => [
    ['RevokeUserSubscriptionCommand params', RevokeUserSubscriptionCommand.RequestSchema, { uuid: m[1] }],
    ['RevokeUserSubscriptionCommand body', RevokeUserSubscriptionCommand.RequestBodySchema, body],
  ]],
  ['POST', new RegExp(`^/api/users/${uuidRe}/actions/drop-connections/?$`), (m) => [['drop-connections params', z.object({ uuid: z.string().uuid() }), { uuid: m[1] }]]],
  ['GET', /^\/api\/hwid\/devices\/([^/]+)\/?$/, (m) => [['GetUserHwidDevicesCommand params', GetUserHwidDevicesCommand.RequestSchema, { userUuid: m[1] }]]],
  ['POST', /^\/api\/hwid\/devices\/delete\/?$/, (m, body) => [['DeleteUserHwidDeviceCommand body', DeleteUserHwidDeviceCommand.RequestSchema, body]]],
  ['POST', /^\/api\/hwid\/devices\/delete-all\/?$/, (m, body) => [['DeleteAllUserHwidDevicesCommand body', DeleteAllUserHwidDevicesCommand.RequestSchema, body]]],
  ['POST', /^\/api\/ip-control\/drop-connections\/?$/, (m, body) => [['DropConnectionsCommand body', DropConnectionsCommand.RequestSchema, body]]],
  ['POST', /^\/api\/ip-control\/fetch-users-ips\/([^/]+)\/?$/, (m) => [['FetchUsersIpsCommand params', FetchUsersIpsCommand.RequestSchema, { nodeUuid: m[1] }]]],
  ['POST', /^\/api\/ip-control\/fetch-ips\/([^/]+)\/?$/, (m) => [['FetchIpsCommand params', FetchIpsCommand.RequestSchema, { uuid: m[1] }]]],
  ['GET', /^\/api\/(system\/(metadata|health)|internal-squads|nodes|ip-control\/fetch(-users)?-ips\/result\/[^/]+)\/?$/, () => []],
  ['GET', /^\/(api\/)?sub\/[^/]+\/?$/, () => []],
];

async function journalChecks() {
  const res = await call('GET', '/__mock/journal');
  check('journal: HTTP 200', res.status === 200);
  const entries = Array.isArray(res.json?.response) ? res.json.response : [];
  check('journal: has our requests', entries.some((e) => e.userAgent === USER_AGENT && e.method === 'POST' && e.path.startsWith('/api/users')));
  const others = entries.filter((e) => e.userAgent !== USER_AGENT);
  console.log(`INFO journal: ${entries.length} requests, ${others.length} from other clients`);
  for (const e of others) {
    const rule = JOURNAL_RULES.find(([method, re]) => method === e.method && re.test(e.path));
    if (!rule) {
      console.log(`INFO journal: ${e.method} ${e.path} is not a contract command the mock knows; not checked`);
      continue;
    }
    const m = e.path.match(rule[1]);
    const targets = rule[2](m, e.body, e.query);
    if (targets.length === 0) {
      check(`journal ${e.method} ${e.path}: no body expected`, e.body === null || e.body === undefined, JSON.stringify(e.body));
    }
    for (const [what, schema, value] of targets) validate(`journal ${e.method} ${e.path}: ${what}`, schema, value);
  }
}

async function main() {
  try {
    const catalog = await systemChecks();
    await userFlow(catalog);
    await faultChecks();
    await journalChecks();
  } catch (err) {
    check('the test ran to the end', false, err?.stack ?? String(err));
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

await main();
