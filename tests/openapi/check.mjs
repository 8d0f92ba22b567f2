// docs/openapi.yaml cannot drift from the server (tests/openapi/run.sh, ctest `openapi`):
//  1. the document is valid OpenAPI 3.1, and its schemas use only JSON Schema keywords
//     (a misspelt `requried` would otherwise be ignored silently);
//  2. every route of fcgi-app/api/routes.cpp has an operation and every operation a route,
//     with the route's AuthKind as `x-cabinet-auth` and a matching `security`;
//  3. the Swagger UI vendored under nginx/html/api-docs/vendor is the pinned npm package's
//     (tools/vendor-api-docs copies it after a version change in package.json);
//  4. every answer the integration suite got through nginx (CABINET_HTTP_LOG, one JSON line
//     each: method, path, request_body, status, content_type, retry_after, body; written by
//     tests/integration/http_log.cpp) matches an operation, a documented status, content
//     type and schema, and a request it took (2xx) had the documented request body. An
//     answer to a path of the pool with no operation must be the router's 404/405 error; a
//     CORS preflight (OPTIONS) an empty 204 or that 404.
//
// usage: node check.mjs [LOG]   (LOG defaults to $CABINET_HTTP_LOG; without one, 1 to 3 only)
// Exit 0 all good, 1 a drift (each printed), 77 no log (nothing live to check).
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const DOC_PATH = process.env.OPENAPI_DOC || resolve(ROOT, "docs/openapi.yaml");
const ROUTES_PATH = resolve(ROOT, "fcgi-app/api/routes.cpp");
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

const failures = [];
const fail = (msg) => failures.push(msg);

const doc = parseYaml(readFileSync(DOC_PATH, "utf8"));

// ---- 1. valid OpenAPI 3.1 ------------------------------------------------------------------
{
  const v = new Validator();
  const res = await v.validate(structuredClone(doc));
  if (!res.valid) fail(`the document is not valid OpenAPI ${doc.openapi}: ${JSON.stringify(res.errors, null, 1)}`);
  else if (v.version !== "3.1") fail(`the document is OpenAPI ${v.version}, not 3.1`);
}

// Every Schema Object uses JSON Schema 2020-12 keywords (and OpenAPI's few) only.
const SCHEMA_KEYWORDS = new Set([
  "$ref", "$id", "$defs", "$comment", "$schema", "$anchor", "$dynamicRef", "$dynamicAnchor",
  "type", "enum", "const", "title", "description", "default", "examples", "example", "deprecated",
  "readOnly", "writeOnly", "format", "pattern", "minLength", "maxLength", "minimum", "maximum",
  "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "items", "prefixItems", "minItems", "maxItems",
  "uniqueItems", "contains", "minContains", "maxContains", "properties", "patternProperties",
  "additionalProperties", "unevaluatedProperties", "unevaluatedItems", "propertyNames", "required",
  "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "allOf", "anyOf", "oneOf",
  "not", "if", "then", "else", "contentMediaType", "contentEncoding", "discriminator", "xml", "externalDocs",
]);
function checkSchema(s, where) {
  if (typeof s !== "object" || s === null || Array.isArray(s)) return;
  for (const [k, v] of Object.entries(s)) {
    if (!SCHEMA_KEYWORDS.has(k) && !k.startsWith("x-")) fail(`${where}: "${k}" is not a schema keyword`);
    if (["properties", "patternProperties", "$defs", "dependentSchemas"].includes(k))
      for (const [name, sub] of Object.entries(v)) checkSchema(sub, `${where}.${k}.${name}`);
    else if (["allOf", "anyOf", "oneOf", "prefixItems"].includes(k)) v.forEach((sub, i) => checkSchema(sub, `${where}.${k}[${i}]`));
    else if (["items", "additionalProperties", "unevaluatedProperties", "not", "if", "then", "else", "contains",
              "propertyNames", "unevaluatedItems"].includes(k)) checkSchema(v, `${where}.${k}`);
  }
}
function eachSchemaIn(node, where) {  // the schemas of content, parameters and headers
  if (typeof node !== "object" || node === null) return;
  for (const [k, v] of Object.entries(node)) {
    if (k === "schema") checkSchema(v, `${where}.schema`);
    else eachSchemaIn(v, `${where}.${k}`);
  }
}
for (const [name, s] of Object.entries(doc.components?.schemas ?? {})) checkSchema(s, `components.schemas.${name}`);
eachSchemaIn(doc.paths, "paths");
eachSchemaIn(doc.components?.responses, "components.responses");
eachSchemaIn(doc.components?.parameters, "components.parameters");
eachSchemaIn(doc.components?.headers, "components.headers");

// ---- 3. the vendored viewer is the pinned package ------------------------------------------------
{
  const vendored = resolve(ROOT, "nginx/html/api-docs/vendor/swagger-ui");
  const pkg = resolve(dirname(fileURLToPath(import.meta.url)), "node_modules/swagger-ui-dist");
  for (const f of ["swagger-ui-bundle.js", "swagger-ui.css", "LICENSE", "NOTICE", "swagger-ui-bundle.js.LICENSE.txt"]) {
    if (!existsSync(resolve(vendored, f))) fail(`${vendored}/${f} is missing (tools/vendor-api-docs)`);
    else if (!readFileSync(resolve(vendored, f)).equals(readFileSync(resolve(pkg, f))))
      fail(`${vendored}/${f} differs from swagger-ui-dist ${JSON.parse(readFileSync(resolve(pkg, "package.json"))).version} (tools/vendor-api-docs)`);
  }
}

// ---- 2. the route table and the document agree ------------------------------------------------
const operations = [];  // {method, template, op, regex, paramCount}
for (const [template, item] of Object.entries(doc.paths ?? {})) {
  for (const method of METHODS) {
    if (!item[method]) continue;
    const parts = template.split("/");
    operations.push({
      method: method.toUpperCase(), template, op: item[method],
      parts, literal: parts.filter((p) => !p.startsWith("{")).length,
    });
  }
}
{
  const source = readFileSync(ROUTES_PATH, "utf8");
  const routes = [...source.matchAll(/\{\s*"([A-Z]+)",\s*"([^"]+)",\s*AuthKind::(\w+)/g)]
    .map(([, method, path, auth]) => ({ method, path, auth }));
  if (routes.length < 10) fail(`only ${routes.length} routes parsed from ${ROUTES_PATH}: has its format changed?`);
  const key = (m, p) => `${m} ${p}`;
  const documented = new Map(operations.map((o) => [key(o.method, o.template), o]));
  const served = new Set(routes.map((r) => key(r.method, r.path)));
  // The staff kinds (http/router.hpp: owner, owner_viewer, owner_support, staff) take either
  // credential of a staff member and name the roles admitted; any other caller gets 403.
  const STAFF_KINDS = new Set(["owner", "owner_viewer", "owner_support", "staff"]);
  const expectedSecurity = {
    tma: [["telegramInitData"]],
    tma_or_jwt: [["telegramInitData"], ["bearerJwt"]],
    jwt: [["bearerJwt"]],
    ...Object.fromEntries([...STAFF_KINDS].map((k) => [k, [["telegramInitData"], ["bearerJwt"]]])),
  };
  for (const r of routes) {
    const o = documented.get(key(r.method, r.path));
    if (!o) { fail(`route ${key(r.method, r.path)} (routes.cpp) has no operation in the document`); continue; }
    if (o.op["x-cabinet-auth"] !== r.auth)
      fail(`${key(r.method, r.path)}: x-cabinet-auth is ${o.op["x-cabinet-auth"]}, routes.cpp says ${r.auth}`);
    const security = (o.op.security ?? doc.security ?? []).map((req) => Object.keys(req).sort());
    const want = expectedSecurity[r.auth];
    if (!want && r.auth !== "none") fail(`${key(r.method, r.path)}: AuthKind::${r.auth} is new to this check (expectedSecurity)`);
    if (want && JSON.stringify(security) !== JSON.stringify(want))
      fail(`${key(r.method, r.path)}: security ${JSON.stringify(security)} for AuthKind::${r.auth}, expected ${JSON.stringify(want)}`);
    if (!want && security.some((req) => req.includes("telegramInitData") || req.includes("bearerJwt")) &&
        !security.some((req) => req.length === 0))
      fail(`${key(r.method, r.path)}: AuthKind::none but the document requires a credential`);
    if (want && !o.op.responses?.["401"]) fail(`${key(r.method, r.path)}: needs a credential but documents no 401`);
    if (STAFF_KINDS.has(r.auth) && !o.op.responses?.["403"])
      fail(`${key(r.method, r.path)}: a staff route (AuthKind::${r.auth}) without 403`);
  }
  for (const o of operations)
    if (!served.has(key(o.method, o.template))) fail(`operation ${key(o.method, o.template)} has no route in routes.cpp`);
}

// ---- 4. the live answers ---------------------------------------------------------------------
const logPath = process.argv[2] || process.env.CABINET_HTTP_LOG;
if (!logPath) {
  report();
  console.log("openapi: no CABINET_HTTP_LOG (run through tools/stack test): live answers not checked");
  process.exit(failures.length ? 1 : 77);
}
if (!existsSync(logPath)) {
  fail(`${logPath} does not exist: the integration suite must run first (CTEST_ARGS='-R ^(integration|openapi)$')`);
  report();
  process.exit(1);
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
ajv.addSchema(doc, "openapi");
const pointer = (parts) => "#/" + parts.map((p) => String(p).replaceAll("~", "~0").replaceAll("/", "~1")).join("/");
const validators = new Map();
function validatorFor(parts) {
  const ref = pointer(parts);
  if (!validators.has(ref)) validators.set(ref, ajv.compile({ $ref: "openapi" + ref }));
  return validators.get(ref);
}
const deref = (node) => (node?.$ref ? node.$ref.replace(/^#\//, "").split("/").reduce((n, p) => n?.[p], doc) : node);
// A Response Object, following a `$ref` to components/responses; with its pointer.
function responseOf(o, status) {
  let parts = ["paths", o.template, o.method.toLowerCase(), "responses", status];
  let r = o.op.responses?.[status];
  if (r?.$ref) {
    parts = r.$ref.replace(/^#\//, "").split("/").map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"));
    r = parts.reduce((node, p) => node?.[p], doc);
  }
  return r ? { r, parts } : null;
}

// The pool's paths, as nginx routes them to it (nginx/cabinet_locations.conf); the rest is
// the static front end and not in this document. /api/docs is the reference itself.
const poolPath = (p) => !/^\/api\/docs(\/|$)/.test(p) && (/^\/(api|health)(\/|$)/.test(p) || p === "/dl" || p === "/bot/webhook");

function decodeSegments(path) {
  try { return path.split("/").map(decodeURIComponent); } catch { return null; }
}
// The operations whose template matches: literal segments equal, a {param} any non-empty
// segment; the most literal template wins (/maintenance/mode over /maintenance/{action}).
function matchOperations(path) {
  const segs = decodeSegments(path);
  if (!segs) return [];
  const hits = operations.filter((o) => o.parts.length === segs.length &&
    o.parts.every((p, i) => (p.startsWith("{") ? segs[i].length > 0 : p === segs[i])));
  const best = Math.max(...hits.map((o) => o.literal));
  return hits.filter((o) => o.literal === best);
}

// nginx's own answers (nginx/html/errors/*.json, the fixed bodies of cabinet_errors.conf):
// a request nginx cannot parse or will not pass on (broken headers, a URI or body too
// large, the pool down) gets one of these on any path, before any route; the document
// says so in its description. Read from the config, so they cannot drift either.
const nginxAnswers = new Set();
{
  const dir = resolve(ROOT, "nginx/html/errors");
  for (const f of readdirSync(dir).filter((n) => /^\d{3}\.json$/.test(n)))
    nginxAnswers.add(`${f.slice(0, 3)} ${JSON.stringify(JSON.parse(readFileSync(resolve(dir, f), "utf8")))}`);
  const conf = readFileSync(resolve(ROOT, "nginx/cabinet_errors.conf"), "utf8");
  for (const [, status, body] of conf.matchAll(/^location @\w+\s*\{[^}\n]*return (\d{3}) '([^']*?)(?:\\n)?'/gm))
    nginxAnswers.add(`${status} ${JSON.stringify(JSON.parse(body))}`);
  if (nginxAnswers.size < 6) fail(`only ${nginxAnswers.size} of nginx's error answers found in nginx/: has the config changed?`);
}
const fromNginx = (e) => { const b = parseJson(e.body); return b !== undefined && nginxAnswers.has(`${e.status} ${JSON.stringify(b)}`); };

const routerError = (e) => validatorFor(["components", "schemas", "Error"])(parseJson(e.body));
function parseJson(text) { try { return JSON.parse(text); } catch { return undefined; } }

const seen = new Map();  // "METHOD template" -> Set of statuses
let checked = 0, skipped = 0;
for (const line of readFileSync(logPath, "utf8").split("\n")) {
  if (!line.trim()) continue;
  const e = JSON.parse(line);
  const path = e.path.split("?")[0].split("#")[0];
  const what = `${e.method} ${e.path.length > 120 ? e.path.slice(0, 120) + "..." : e.path} -> ${e.status}`;
  if (!poolPath(path)) { skipped++; continue; }
  checked++;
  const candidates = matchOperations(path);
  const ops = candidates.filter((o) => o.method === e.method);
  if (e.method === "OPTIONS") {
    const ok = (candidates.length && e.status === 204 && e.body === "") || (e.status === 404 && routerError(e));
    if (!ok) fail(`${what}: a preflight answers an empty 204 on a documented path, else 404`);
    continue;
  }
  if (fromNginx(e) && !(ops.length && responseOf(ops[0], String(e.status)))) continue;  // nginx's, before any route
  if (!ops.length) {
    // Not an operation: the router's refusal, nothing else (nginx's are handled above).
    const status = candidates.length ? [405, 404] : [404];
    if (!status.includes(e.status) || !routerError(e))
      fail(`${what}: no operation in the document for this ${candidates.length ? "method" : "path"}, and the answer is not a ${status.join("/")} error body: ${e.body.slice(0, 200)}`);
    continue;
  }
  const o = ops[0];
  const k = `${o.method} ${o.template}`;
  if (!seen.has(k)) seen.set(k, new Set());
  seen.get(k).add(e.status);
  // A request the server took (2xx) had the documented body: a field the document requires
  // that the server does not, or a wrong type, shows here.
  const reqSchema = o.op.requestBody?.content?.["application/json"]?.schema;
  if (reqSchema && e.status >= 200 && e.status < 300 && e.request_body !== undefined) {
    const sent = parseJson(e.request_body);
    const validate = validatorFor(["paths", o.template, o.method.toLowerCase(), "requestBody", "content", "application/json", "schema"]);
    if (sent === undefined) fail(`${what}: the server took a request body that is not JSON: ${e.request_body.slice(0, 100)}`);
    else if (!validate(sent))
      fail(`${what}: the server took a request body the document refuses: ${validate.errors.map((x) => `${x.instancePath || "/"} ${x.message}`).slice(0, 4).join("; ")}\n    request: ${e.request_body.slice(0, 300)}`);
  }
  const found = responseOf(o, String(e.status));
  if (!found) { fail(`${what}: status ${e.status} is not documented for ${k}: ${e.body.slice(0, 200)}`); continue; }
  const { r, parts } = found;
  for (const [name, h] of Object.entries(r.headers ?? {}))
    if (name.toLowerCase() === "retry-after" && deref(h).required && !/^[0-9]+$/.test(e.retry_after))
      fail(`${what}: Retry-After is required here, got "${e.retry_after}"`);
  if (!r.content) {
    if (e.body !== "") fail(`${what}: ${k} ${e.status} has no body in the document, got ${e.body.slice(0, 100)}`);
    continue;
  }
  const ctype = (e.content_type || "").split(";")[0].trim().toLowerCase();
  if (!r.content[ctype]) { fail(`${what}: content type "${e.content_type}" is not documented (${Object.keys(r.content)})`); continue; }
  const schema = r.content[ctype].schema;
  if (!schema) continue;
  let body = e.body;
  if (ctype === "application/json") {
    body = parseJson(e.body);
    if (body === undefined) { fail(`${what}: not JSON: ${e.body.slice(0, 200)}`); continue; }
  }
  const validate = validatorFor([...parts, "content", ctype, "schema"]);
  if (!validate(body)) {
    const errs = validate.errors.map((x) => `${x.instancePath || "/"} ${x.message}${x.params?.additionalProperty ? ` (${x.params.additionalProperty})` : ""}${x.params?.missingProperty ? "" : ""}`);
    fail(`${what}: body does not match ${k} ${e.status}: ${[...new Set(errs)].slice(0, 6).join("; ")}\n    body: ${e.body.slice(0, 300)}`);
  }
}

report();
const never = operations.filter((o) => !seen.has(`${o.method} ${o.template}`)).map((o) => `${o.method} ${o.template}`);
console.log(`openapi: ${checked} answers of the pool checked against ${operations.length} operations ` +
            `(${skipped} of the static front end not in the document); log ${logPath}`);
if (never.length) console.log(`openapi: operations the integration suite never called: ${never.join(", ")}`);
process.exit(failures.length ? 1 : 0);

function report() {
  for (const f of failures.slice(0, 60)) console.log(`FAIL ${f}`);
  if (failures.length > 60) console.log(`... and ${failures.length - 60} more`);
  if (failures.length) console.log(`openapi: ${failures.length} drift(s) between docs/openapi.yaml and the server`);
}
