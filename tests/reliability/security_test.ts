/**
 * Security checks across the whole app, each derived from the route manifest or the OpenAPI
 * document so a new route is covered without editing this file:
 *
 * 1. Headers. The request pipeline (`lib/http/pipeline.ts`, the first middleware) gives every
 *    answer the headers of `lib/http/security.ts` (hono's `secureHeaders`, captured once; a page
 *    is made with them), so EVERY answer of the app — pages, API JSON, built files,
 *    redirects, 304, 400/401/404/405/413/415, 500 and 503 — carries the same set: the CSP below
 *    with a fresh nonce per response, HSTS (2 years, subdomains), nosniff, Referrer-Policy
 *    strict-origin-when-cross-origin, X-Frame-Options DENY, COOP and CORP same-origin, a
 *    Permissions-Policy, hono's defaults (X-XSS-Protection 0, …), and no X-Powered-By. Paths
 *    under `/sandbox/pay/` (the card page shown in our own payment frame) are the one exception:
 *    `frame-ancestors 'self'` and X-Frame-Options SAMEORIGIN. HTML answers additionally carry
 *    the CSP nonce on every `<script>` and no inline event handler.
 * 2. The client build (`_build/`, every file and its .br/.gz variant decompressed) holds no
 *    secret and no string of a server-only module.
 * 3. The auth matrix: every admin route of the route manifest (under `/api/auth/admin/` and
 *    `/api/transaction/`, documented or not) but the explicit public calls, each method × no
 *    token, malformed tokens, an expired token, one signed with another secret, a refresh token, a
 *    pending, a rejected and an approved admin; every documented one is an `auth: bearer`
 *    operation and every bearer operation is one of them; every other operation answers the same
 *    with or without a token.
 * 4. Markup and formulas in donor fields stay inert in the admin table and the cancel page
 *    (Chromium: no script runs, no dialog, the text shows literally) and in the CSV export.
 */
import { newMemberNumber } from "@/lib/memberships/mod.ts";
import { readMuseumSettings } from "@/lib/museum/mod.ts";
import { pngOf } from "@/tests/helpers/images.ts";
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import type { Dialog, Page } from "playwright-core";
import { createAccessToken, deriveKey } from "@/lib/staff/tokens.ts";
import { enrolledCode, totpCode, twoFactorTarget, twoFactorVerifyBody } from "@/tests/helpers/two_factor.ts";
import { newId } from "@/lib/core/ids.ts";
import { openKvStore } from "@/lib/storage/kv/mod.ts";
import type { Store, Transaction } from "@/lib/storage/types.ts";
import { createKioskDevice } from "@/lib/kiosk/devices.ts";
import { protectedAdminOperations } from "@/tests/helpers/admin_routes.ts";
import { ensureTestBuild, ROOT, startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { browserTest, launchBrowser } from "@/tests/helpers/browser.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { pairTestKiosk } from "@/tests/helpers/kiosk.ts";
import { createPayment, payOnSandboxPage } from "@/tests/helpers/payments.ts";
import {
  type ApiOperation,
  apiOperations,
  discoverRoutes,
  FIXTURE_ADMINS,
  type Fixtures,
  type FuzzRequest,
  type FuzzResponse,
  type LeakMarker,
  readTree,
  rng,
  sampleValue,
  scanForLeaks,
  send,
  setUpFixtures,
  signText,
} from "./fuzz_support.ts";

/** The settings the sandbox app runs with here (terminal sales decided at once). */
const ENV = { SANDBOX_TERMINAL_AUTO: "approve", TERMINAL_DEADLINE_SECONDS: "2" };
/** The key purpose of admin access tokens (lib/app/services.ts). */
const ACCESS_TOKEN_PURPOSE = "admin-access-token/v1";

// ---- 1. headers --------------------------------------------------------------------------------

/** The CSP directives of lib/http/security.ts, with the sandbox provider (no external frame). */
function expectedCsp(framable: boolean): Record<string, string[]> {
  return {
    "default-src": ["'self'"],
    "script-src": ["'nonce-*'", "'strict-dynamic'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "worker-src": ["'self'"],
    "frame-src": ["'self'"],
    "form-action": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "frame-ancestors": [framable ? "'self'" : "'none'"],
  };
}

/** Headers with one fixed value on every answer (X-Frame-Options depends on the path). */
const FIXED_HEADERS: Record<string, string> = {
  "strict-transport-security": "max-age=63072000; includeSubDomains",
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=()",
  "origin-agent-cluster": "?1",
  "x-dns-prefetch-control": "off",
  "x-download-options": "noopen",
  "x-permitted-cross-domain-policies": "none",
  "x-xss-protection": "0",
};

/**
 * The problems of one answer's security headers (empty when right); the CSP nonce goes to
 * `nonces`.
 */
function headerProblems(path: string, res: FuzzResponse, nonces: string[]): string[] {
  const problems: string[] = [];
  const pathname = new URL(path, "http://x").pathname;
  const framable = pathname.startsWith("/sandbox/pay/");
  const csp = res.headers.get("content-security-policy");
  if (!csp) return ["no Content-Security-Policy"];
  const directives: Record<string, string[]> = {};
  for (const part of csp.split(";").map((p) => p.trim()).filter(Boolean)) {
    const [name, ...values] = part.split(/\s+/);
    if (name in directives) problems.push(`CSP directive ${name} given twice`);
    directives[name] = values;
  }
  const nonce = directives["script-src"]?.[0]?.match(/^'nonce-([A-Za-z0-9+/]{22}==)'$/)?.[1];
  if (!nonce) problems.push(`script-src has no nonce of 16 random bytes: ${directives["script-src"]}`);
  else nonces.push(nonce);
  const seen = { ...directives, "script-src": ["'nonce-*'", ...(directives["script-src"] ?? []).slice(1)] };
  try {
    assert.deepEqual(seen, expectedCsp(framable));
  } catch {
    problems.push(`CSP is ${csp}`);
  }
  for (const [name, fixed] of Object.entries(FIXED_HEADERS)) {
    // The front desk's page scans cards with the camera; no other page may use it.
    const value = name === "permissions-policy" && /^\/[a-z]{2}\/desk\/?$/.test(pathname)
      ? fixed.replace("camera=()", "camera=(self)")
      : name === "referrer-policy" && res.status !== 405 &&
          /^\/[a-z]{2}\/membership\/auto-renew\/?$/.test(pathname)
      // The automatic renewal's turn-off page is opened from a link holding its token: no referrer.
      ? "no-referrer"
      : fixed;
    if (res.headers.get(name) !== value) problems.push(`${name}: ${res.headers.get(name)} (want ${value})`);
  }
  const frame = framable ? "SAMEORIGIN" : "DENY";
  if (res.headers.get("x-frame-options") !== frame) {
    problems.push(`x-frame-options: ${res.headers.get("x-frame-options")} (want ${frame})`);
  }
  if (res.headers.has("x-powered-by")) problems.push("X-Powered-By is sent");
  const type = res.headers.get("content-type") ?? "";
  if (type.startsWith("text/html") && res.body.length > 0 && nonce) {
    const html = new TextDecoder().decode(res.body);
    for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) {
      if (!tag.includes(` nonce="${nonce}"`)) problems.push(`a script without this response's nonce: ${tag}`);
    }
    const handler = html.match(
      /<[a-z][^>]*\son(?:click|load|error|submit|change|input|focus|blur|mouse\w+|key\w+)\s*=/i,
    )
      ?.[0];
    if (handler) problems.push(`an inline event handler (the CSP would block it): ${handler.slice(0, 80)}`);
  }
  return problems;
}

/** A path of a route with real values in its parameters. */
function concretePath(pattern: string, fx: Fixtures): string {
  const values: Record<string, string> = {
    lang: "en",
    id: fx.donorIds[0],
    paymentId: fx.paymentIds[0],
    ref: fx.sandboxRefs[1],
    provider: fx.providerId,
    terminalNumber: fx.testTerminals[0],
    terminalId: "sim-7",
    shopNumber: "7",
  };
  return pattern.replace(/:(\w+)\??/g, (_, name) => values[name] ?? "x").replace(/(.)\/$/, "$1");
}

/** A plausible body for an API operation (signed when it is signed). */
async function sampleBody(op: ApiOperation, fx: Fixtures): Promise<string | undefined> {
  if (!op.body) return undefined;
  const value = sampleValue(op.body, rng(7), fx) as Record<string, unknown>;
  const text = JSON.stringify(value);
  return op.signed ? (await signText(text, fx.signingKey)) ?? text : text;
}

Deno.test("security headers on every route, method and kind of answer", async (t) => {
  const app = await startTestApp({ env: ENV });
  const kv = await openKvStore(":memory:");
  // A store that fails: reading a donor throws (500), the health ping fails (503).
  const broken: Store = {
    ...kv,
    ping: () => Promise.reject(new Error("storage down (security test)")),
    donors: { ...kv.donors, get: () => Promise.reject(new Error("boom (security test)")) },
  };
  const failing = await startTestApp({ store: broken });
  try {
    const fx = await setUpFixtures(app);
    const doc = await (await fetch(`${app.url}/api/openapi.json`)).json();
    const ops = apiOperations(doc);
    const cases: { base: string; req: FuzzRequest }[] = [];
    const add = (req: Omit<FuzzRequest, "note">, base = app.url) =>
      cases.push({ base, req: { ...req, note: "" } });

    // Every route with every method it answers, and one it does not (405).
    for (const route of discoverRoutes()) {
      const path = concretePath(route.pattern, fx);
      const refused = ["DELETE", "PUT", "PATCH"].find((m) => !route.methods.includes(m));
      for (const method of [...route.methods, ...(refused ? [refused] : [])]) {
        const op = ops.find((o) => o.template === route.template && o.method === method);
        const headers: [string, string][] = [["authorization", `Bearer ${fx.approvedToken}`]];
        let body: string | undefined;
        if (op) {
          body = await sampleBody(op, fx);
          if (body) headers.push(["content-type", "application/json"]);
        } else if (method === "POST" && !route.api) {
          headers.push(["content-type", "application/x-www-form-urlencoded"], ["origin", fx.origin]);
          body = "firstName=Dana&lastName=Levi&email=dana%40example.org&country=Israel&choice=tier-1";
        }
        add({ method, path, headers, body });
      }
    }
    // Built files (200, and 304 for a matching ETag), public files, misses and errors.
    for (const name of fx.builtFiles) add({ method: "GET", path: `/_app/${name}`, headers: [] });
    const first = await fetch(`${app.url}/_app/${fx.builtFiles[0]}`);
    await first.body?.cancel();
    add({
      method: "GET",
      path: `/_app/${fx.builtFiles[0]}`,
      headers: [["if-none-match", first.headers.get("etag")!]],
    });
    for (const path of fx.publicPaths) add({ method: "GET", path, headers: [] });
    for (
      const path of [
        "/",
        "/xx/success",
        "/en/nope",
        "/api/nope",
        "/_app/nope.js",
        "/sandbox/pay/nope",
        "/api/auth/admin/me",
        "/api/transaction/export",
        "/api/user/..%2f..%2fdeno.json",
      ]
    ) add({ method: "GET", path, headers: [] });
    const json: [string, string][] = [["content-type", "application/json"]];
    add({ method: "POST", path: "/api/user", headers: json, body: `{"a":"${"x".repeat(70_000)}"}` });
    add({ method: "POST", path: "/api/user", headers: [["content-type", "text/plain"]], body: "{}" });
    add({ method: "POST", path: "/api/user", headers: json, body: "{" });
    add({ method: "GET", path: "/en/", headers: [["host", "a b"]] });
    add({ method: "GET", path: "/api/feature-flags", headers: [["host", "a b"]] });
    // The failing app: 500 JSON, 500 HTML, 503.
    const donor = "D".repeat(24);
    add({ method: "GET", path: `/api/user/${donor}`, headers: [] }, failing.url);
    add({ method: "GET", path: `/en/cancel-subscription?userId=${donor}`, headers: [] }, failing.url);
    add({ method: "GET", path: "/health", headers: [] }, failing.url);

    const problems: string[] = [];
    const nonces: string[] = [];
    const statuses = new Set<number>();
    const kinds = new Set<string>();
    for (const { base, req } of cases) {
      const res = await send(base, req);
      statuses.add(res.status);
      kinds.add((res.headers.get("content-type") ?? "none").split(";")[0]);
      for (const p of headerProblems(req.path, res, nonces)) {
        problems.push(`${req.method} ${req.path.slice(0, 100)} → ${res.status}: ${p}`);
      }
      if (req.headers.some(([h]) => h === "authorization") && req.path.startsWith("/api/")) {
        const cache = res.headers.get("cache-control") ?? "";
        if (!cache.includes("no-store") && !req.path.startsWith("/api/openapi.json")) {
          problems.push(
            `${req.method} ${req.path} → ${res.status}: an authorized answer is cacheable (${cache})`,
          );
        }
      }
    }
    await t.step("every answer carries exactly the configured headers", () => {
      assert.deepEqual(problems, []);
    });
    await t.step("the cases covered every kind of answer", () => {
      for (const s of [200, 201, 204, 302, 303, 304, 400, 401, 404, 405, 413, 415, 500, 503]) {
        assert.ok(statuses.has(s), `no answer with status ${s}: ${[...statuses].sort()}`);
      }
      for (
        const k of ["text/html", "application/json", "text/javascript", "text/css", "text/plain", "text/csv"]
      ) {
        assert.ok(kinds.has(k), `no ${k} answer: ${[...kinds].sort()}`);
      }
    });
    await t.step("a fresh nonce for every answer", () => {
      assert.equal(new Set(nonces).size, nonces.length, "a CSP nonce was sent twice");
      assert.equal(nonces.length, cases.length);
    });
    await t.step(
      "the check itself fails on a wrong header, a framable page or a script without the nonce",
      () => {
        const ok: FuzzResponse = {
          status: 200,
          headers: new Headers({
            ...FIXED_HEADERS,
            "x-frame-options": "DENY",
            "content-type": "text/html",
            "content-security-policy": Object.entries(expectedCsp(false)).map(([k, v]) =>
              `${k} ${v.join(" ").replace("'nonce-*'", `'nonce-${"A".repeat(22)}=='`)}`
            ).join("; "),
          }),
          body: new TextEncoder().encode(`<script nonce="${"A".repeat(22)}==">1</script>`),
          fromApp: true,
          raw: false,
        };
        assert.deepEqual(headerProblems("/en", ok, []), []);
        const tweak = (name: string, value: string | null, body?: string): FuzzResponse => {
          const headers = new Headers(ok.headers);
          if (value === null) headers.delete(name);
          else headers.set(name, value);
          return { ...ok, headers, body: body === undefined ? ok.body : new TextEncoder().encode(body) };
        };
        const csp = ok.headers.get("content-security-policy")!;
        assert.equal(headerProblems("/en", tweak("x-content-type-options", null), []).length, 1);
        assert.equal(
          headerProblems("/en", tweak("content-security-policy", csp.replace("'none'", "*")), []).length,
          1,
        );
        assert.equal(headerProblems("/sandbox/pay/x", ok, []).length, 2, "framing rules differ there");
        assert.equal(
          headerProblems("/en", tweak("content-type", "text/html", "<script>1</script>"), []).length,
          1,
        );
        assert.equal(
          headerProblems("/en", tweak("content-type", "text/html", '<a onclick="x()">'), []).length,
          1,
        );
      },
    );
  } finally {
    await failing.close();
    await kv.close();
    await app.close();
  }
});

// ---- 2. secrets in the client build ------------------------------------------------------------

/** Where a server-only marker comes from: the text must really be in that source. */
interface ModuleMarker extends LeakMarker {
  marker: string;
  /** A file under the project (or a glob-like path under node_modules/.deno) holding the marker. */
  source: string;
}

/** Strings that only server-only code holds: each would be in the bundle if that code leaked. */
const MODULE_MARKERS: ModuleMarker[] = [
  {
    marker: "SCRAM-SHA-256",
    why: "postgres.js (the PostgreSQL client)",
    source: "vendor/postgres/src/connection.js",
  },
  {
    marker: "ERR_JWS_SIGNATURE_VERIFICATION_FAILED",
    why: "jose (JWT)",
    source: "npm:jose/dist/webapi/util/errors.js",
  },
  {
    marker: "AGFzbQ",
    why: "a WebAssembly module (hash-wasm's argon2)",
    source: "npm:hash-wasm/dist/index.esm.js",
  },
  { marker: "argon2id", why: "password hashing", source: "lib/staff/passwords.ts" },
  {
    marker: "secureHeadersNonce",
    why: "hono (the server framework)",
    source: "npm:hono/dist/middleware/secure-headers/secure-headers.js",
  },
  { marker: ACCESS_TOKEN_PURPOSE, why: "the access-token key derivation", source: "lib/app/services.ts" },
  {
    marker: "museum-donations/admin-api",
    why: "access-token claims (lib/staff/tokens.ts)",
    source: "lib/staff/tokens.ts",
  },
  {
    marker: "refresh_families_revoked",
    why: "the Deno KV store's keys",
    source: "lib/storage/kv/refresh_tokens.ts",
  },
  {
    marker: "transactions_by_provider",
    why: "the Deno KV store's keys",
    source: "lib/storage/kv/transactions.ts",
  },
  { marker: "admins_by_email", why: "the Deno KV store's keys", source: "lib/storage/kv/admins.ts" },
  { marker: "payments_dedupe", why: "the Deno KV store's keys", source: "lib/storage/kv/payments.ts" },
  {
    marker: "transaction_search",
    why: "the PostgreSQL schema",
    source: "lib/storage/postgres/transaction_lists.ts",
  },
  {
    marker: "PELECARD_PASSWORD",
    why: "the configuration (provider credentials)",
    source: "lib/providers/config.ts",
  },
  { marker: "DATABASE_URL", why: "the configuration", source: "lib/app/config.ts" },
  { marker: "APP_SECRET", why: "the configuration", source: "lib/app/config.ts" },
  { marker: "DebitRegularType", why: "the Pelecard client", source: "lib/providers/pelecard/pelecard.ts" },
];

/** Reads a marker's source; `npm:<package>/<path>` is looked up in node_modules/.deno. */
async function readSource(source: string): Promise<string> {
  if (!source.startsWith("npm:")) return await Deno.readTextFile(`${ROOT}/${source}`);
  const [pkg, ...rest] = source.slice(4).split("/");
  for await (const entry of Deno.readDir(`${ROOT}/node_modules/.deno`)) {
    if (!entry.name.startsWith(`${pkg}@`)) continue;
    try {
      return await Deno.readTextFile(
        `${ROOT}/node_modules/.deno/${entry.name}/node_modules/${pkg}/${rest.join("/")}`,
      );
    } catch { /* another version without that file */ }
  }
  throw new Error(`${source}: not found under node_modules/.deno`);
}

/** Secret values of this machine and of the test app, as markers. */
async function secretMarkers(): Promise<LeakMarker[]> {
  const app = await startTestApp();
  const secrets: LeakMarker[] = [
    { marker: app.config.appSecret, why: "the test app's APP_SECRET" },
    { marker: /postgres(?:ql)?:\/\/[^\s"'`/]*:[^\s"'`/]*@/, why: "a database URL with a password" },
    { marker: /-----BEGIN [A-Z ]*PRIVATE KEY-----/, why: "a private key" },
  ];
  await app.close();
  const devSecret = await Deno.readTextFile(`${ROOT}/data/app-secret`).catch(() => "");
  if (devSecret.trim().length >= 16) secrets.push({ marker: devSecret.trim(), why: "data/app-secret" });
  for (
    const name of [
      "APP_SECRET",
      "SIGNING_KEYS",
      "DATABASE_URL",
      "PELECARD_PASSWORD",
      "PELECARD_TOKEN_PASSWORD",
    ]
  ) {
    const value = Deno.env.get(name)?.trim() ?? "";
    if (value.length >= 8) secrets.push({ marker: value, why: `env ${name}` });
  }
  for (const part of (Deno.env.get("SIGNING_KEYS") ?? "").split(",")) {
    const secret = part.split(":")[1]?.trim();
    if (secret && secret.length >= 16) secrets.push({ marker: secret, why: "a SIGNING_KEYS secret" });
  }
  return secrets;
}

Deno.test("no secret and no server-only module in any file of the client build", async (t) => {
  await ensureTestBuild();
  const markers: LeakMarker[] = [...await secretMarkers(), ...MODULE_MARKERS];

  await t.step("each module marker really is in that module's source", async () => {
    for (const m of MODULE_MARKERS) {
      assert.ok((await readSource(m.source)).includes(m.marker), `${m.source} holds "${m.marker}"`);
    }
  });

  await t.step("the scan finds a leak, plain or compressed", () => {
    const fake = new Map<string, Uint8Array>([
      ["static/Island-ABC.js", new TextEncoder().encode('const k=["refresh_families_revoked",id];')],
      ["static/chunk-XYZ.js.gz", gzipSync(new TextEncoder().encode(`x="${markers[0].marker}"`))],
      ["static/clean.js", new TextEncoder().encode("export const a = 1;")],
    ]);
    const leaks = scanForLeaks(fake, markers);
    assert.deepEqual(leaks.map((l) => [l.file, l.why]), [
      ["static/Island-ABC.js", "the Deno KV store's keys"],
      ["static/chunk-XYZ.js.gz", "the test app's APP_SECRET"],
    ]);
  });

  await t.step("the build holds none of them", async () => {
    const files = await readTree(`${ROOT}/_build`);
    const scripts = [...files.keys()].filter((f) => f.endsWith(".js"));
    assert.ok(scripts.length >= 5, `the build has its islands: ${scripts.join(", ")}`);
    assert.deepEqual(scanForLeaks(files, markers), []);
  });
});

// ---- 3. the auth matrix ------------------------------------------------------------------------

Deno.test("auth matrix: every admin route × every kind of caller; public operations stay public", async (t) => {
  const app = await startTestApp({ env: ENV });
  try {
    const fx = await setUpFixtures(app);
    const approvedId = fx.adminIds[0];
    const realKey = await deriveKey(app.config.appSecret, ACCESS_TOKEN_PURPOSE);
    const expired = await createAccessToken(
      realKey,
      { adminId: approvedId },
      new Date(Date.now() - 2 * 3600_000),
    );
    const otherKey = await deriveKey("another-app-secret-that-is-long-enough-987", ACCESS_TOKEN_PURPOSE);
    const forged = await createAccessToken(otherKey, { adminId: approvedId });
    // Minted here with the app's key: proves the two above fail for their flaw alone.
    const minted = await createAccessToken(realKey, { adminId: approvedId });
    const [h, p] = fx.approvedToken.split(".");
    const none = btoa(JSON.stringify({ alg: "none", typ: "at+jwt" })).replace(/=+$/, "");
    const rejectedLogin = await api(app.url, "POST", "/api/auth/admin/login", FIXTURE_ADMINS.rejected);
    assert.equal(rejectedLogin.status, 403, "a rejected admin cannot sign in");

    const doc = await (await fetch(`${app.url}/api/openapi.json`)).json();
    const ops = apiOperations(doc);
    const bearerOps = ops.filter((o) => o.bearer);
    assert.ok(bearerOps.length >= 8, `bearer operations: ${bearerOps.map((o) => o.template)}`);
    // The admin routes come from the manifest (a new one is checked without editing this test);
    // the OpenAPI document, where it documents one, tells the answer an admin gets.
    const adminOps = protectedAdminOperations().map((a) => ({
      ...a,
      op: ops.find((o) => o.method === a.method && o.template === a.template),
    }));
    const isAdminOp = (o: ApiOperation) => adminOps.some((a) => a.op === o);
    // A member for the members routes: one membership at level 1, made once.
    let member: string | null = null;
    const matrixMember = async () => {
      if (member) return member;
      const number = newMemberNumber();
      const now = new Date().toISOString();
      const end = new Date(Date.now() + 365 * 86_400_000).toISOString();
      await app.store.memberships.change({
        email: "matrix-member@example.org",
        apply: () => ({
          number,
          donorId: "donor_matrix",
          subscriptionId: null,
          terms: [{
            levelId: 1,
            start: now,
            end,
            kind: "join",
            transactionId: "tx_matrix",
            subscriptionId: null,
            amount: 2000,
            currency: 1,
            charges: 1,
          }],
        }),
      }, now);
      return member = number;
    };
    await t.step("the bearer operations of the document are the documented admin routes", () => {
      assert.deepEqual(bearerOps.filter((o) => !isAdminOp(o)).map((o) => o.template), []);
      assert.deepEqual(adminOps.filter((a) => a.op && !a.op.bearer).map((a) => a.template), []);
    });

    type Caller = {
      name: string;
      header: string | null;
      /**
       * The status, or `null` for a signed-in caller on an undocumented route: any but 401 (and
       * 403 when approved).
       */
      expect: (op: ApiOperation | undefined) => number | null;
      message?: RegExp;
    };
    const okStatus = (op: ApiOperation | undefined) =>
      op ? Number(op.responses.find((s) => s.startsWith("2"))) : null;
    const callers: Caller[] = [
      { name: "no token", header: null, expect: () => 401 },
      { name: "empty Bearer", header: "Bearer ", expect: () => 401 },
      { name: "not a JWT", header: "Bearer not-a-jwt", expect: () => 401 },
      { name: "Basic credentials", header: "Basic YWRtaW46YWRtaW4=", expect: () => 401 },
      { name: "token without signature", header: `Bearer ${h}.${p}.`, expect: () => 401 },
      { name: "alg none", header: `Bearer ${none}.${p}.`, expect: () => 401 },
      { name: "expired token", header: `Bearer ${expired}`, expect: () => 401, message: /expired/ },
      {
        name: "token signed with another secret",
        header: `Bearer ${forged}`,
        expect: () => 401,
        message: /not valid/,
      },
      { name: "refresh token as access token", header: `Bearer ${fx.refreshTokens[0]}`, expect: () => 401 },
      { name: "rejected admin", header: `Bearer ${fx.rejectedToken}`, expect: () => 401 },
      {
        name: "pending admin",
        header: `Bearer ${fx.pendingToken}`,
        expect: (op) => op?.responses.includes("403") ? 403 : okStatus(op),
      },
      { name: "approved admin", header: `Bearer ${fx.approvedToken}`, expect: okStatus },
      { name: "approved admin, token minted here", header: `Bearer ${minted}`, expect: okStatus },
    ];

    const pendingTarget = async () => {
      const id = newId();
      await app.store.admins.create({
        id,
        email: `target-${id.toLowerCase()}@museum.org`,
        name: "Target",
        passwordHash: "$argon2id$not-a-real-hash",
        status: "pending",
        role: null,
        createdAt: new Date().toISOString(),
        decidedBy: null,
        decidedAt: null,
      }, { approveIfFirst: false });
      return id;
    };

    // Role changes and deactivations act on an active staff member (not the owner making them).
    const staffTarget = async () => {
      const id = await pendingTarget();
      await app.store.admins.setStatus(id, "approved", approvedId, new Date().toISOString(), "pending", {
        role: "viewer",
      });
      return id;
    };

    const kioskTarget = async () =>
      (await createKioskDevice(app.store, app.config, (await app.store.admins.get(approvedId))!, {
        name: "Target kiosk",
        shopNumber: "7",
      })).device.id;

    // A successful gift of its own for each receipt or refund call, recorded without messages, and
    // the sandbox's record of its payment (what a refund gives back from).
    const transactionTarget = async () => {
      const id = newId();
      const now = new Date().toISOString();
      await app.store.sandbox.create({
        ref: `matrix-${id}`,
        kind: "hosted",
        status: "paid",
        reference: `matrix-pay-${id}`,
        terminalId: null,
        amount: 1000,
        currency: 1,
        createdAt: now,
        updatedAt: now,
        data: {},
      });
      await app.store.transactions.record({
        id,
        kind: "success",
        statusCode: "000",
        isMonthly: false,
        createdAt: new Date().toISOString(),
        donorId: newId(),
        user: { firstName: "Matrix", lastName: "Donor", email: "matrix@example.org" },
        amount: 1000,
        currency: 1,
        resultData: {
          CreditCardNumber: "458045******4580",
          CreditType: "1",
          DebitTotal: "1000",
          DebitCurrency: 1,
        },
        errorMessage: null,
        provider: "sandbox",
        providerTransactionId: `matrix-${id}`,
      });
      return id;
    };

    const wrong: string[] = [];
    for (const { method, template, op } of adminOps) {
      for (const caller of callers) {
        // Each decision gets its own pending target (each kiosk call its own device), so a
        // wrongful success would show.
        const kiosk = template.startsWith("/api/kiosk-devices");
        const staff = /^\/api\/auth\/admin\/\{id\}\/(role|deactivate)$/.test(template);
        const target = kiosk
          ? kioskTarget
          : template.startsWith("/api/transaction/{id}")
          ? transactionTarget
          : staff
          ? staffTarget
          : template === "/api/auth/admin/{id}/two-factor-reset"
          // Something to reset: a pending admin with two-factor.
          ? async () => await twoFactorTarget(app.store, await pendingTarget())
          : pendingTarget;
        // The donor view needs an address with donor records (the fixtures' first donor).
        const museumImage = template === "/api/settings/museum/{image}";
        const museumVersion = museumImage ? (await readMuseumSettings(app.store)).version : 0;
        const query = template === "/api/donor"
          ? "?email=dana@example.org"
          : template === "/api/visits/member"
          ? `?number=${await matrixMember()}`
          : template === "/api/visits/search"
          ? "?q=matrix"
          : museumImage && method === "DELETE"
          ? `?version=${museumVersion}`
          : "";
        const path = template.replace("{id}", await target()).replace("{number}", await matrixMember())
          .replace("{image}", "logo") + query;
        const headers: Record<string, string> = caller.header === null
          ? {}
          : { authorization: caller.header };
        let body: string | undefined;
        if (kiosk && method === "POST" && template === "/api/kiosk-devices") {
          body = JSON.stringify({ name: "Matrix kiosk", shopNumber: "7" });
          headers["content-type"] = "application/json";
        }
        // The front desk: a visitor let in anyway (no membership), under an id of its own.
        if (template === "/api/visits" && method === "POST") {
          body = JSON.stringify({
            id: crypto.randomUUID(),
            kind: "override",
            number: null,
            name: "Matrix Visitor",
            guests: 0,
            reason: "the auth matrix",
          });
        }
        // The museum's logo: a small PNG over the version read now (a multipart form, as the editor sends).
        let form: FormData | undefined;
        if (museumImage && method === "PUT") {
          form = new FormData();
          form.set("version", String(museumVersion));
          form.set("file", new File([new Uint8Array(pngOf(40, 40))], "logo.png", { type: "image/png" }));
        }
        if (template === "/api/memberships/{number}/cardholders") {
          body = JSON.stringify({ cardholders: ["Dana Levi"] });
        }
        if (template === "/api/auth/admin/{id}/role") {
          body = JSON.stringify({ role: "finance" });
          headers["content-type"] = "application/json";
        }
        // Two-factor: the setting as it is; a set-up confirmed with the code of a set-up begun just now.
        if (template === "/api/auth/admin/two-factor/required") body = JSON.stringify({ required: false });
        if (template === "/api/auth/admin/two-factor/enrol") {
          await app.store.twoFactor.reset(approvedId, new Date().toISOString());
        }
        if (template === "/api/auth/admin/two-factor/confirm") {
          await app.store.twoFactor.reset(approvedId, new Date().toISOString());
          body = JSON.stringify({ code: await enrolmentCode(app, caller.header) });
        }
        // One's own two-factor: a fresh set-up of the approved admin, and its app's current code.
        if (
          template === "/api/auth/admin/two-factor/recovery-codes" ||
          template === "/api/auth/admin/two-factor/disable"
        ) {
          body = JSON.stringify({ code: await enrolledCode(app.store, app.config.appSecret, approvedId) });
        }
        // Settings: a flag set to what it is; refunds: part of the target gift, under a key of its own.
        if (template === "/api/settings/flags" && method === "POST") {
          body = JSON.stringify({ flag: "MONTHLY_PAYMENT", enabled: true });
        }
        // The museum's settings: saved as they are, over the version read now.
        if (template === "/api/settings/museum" && method === "PUT") {
          const { version, identity, levels } = await readMuseumSettings(app.store);
          body = JSON.stringify({ version, identity, levels });
        }
        // A person's answer to a refund pending for 20 minutes on the target gift.
        if (template === "/api/transaction/{id}/refund-outcome") {
          const transactionId = path.split("/")[3];
          const { refund: lost } = await app.store.refunds.begin({
            id: newId(),
            transactionId,
            key: newId(),
            amount: 100,
            currency: 1,
            reason: "mistake",
            note: "",
            actorId: approvedId,
            actorEmail: "matrix@museum.org",
            cancelMonthly: false,
            createdAt: new Date(Date.now() - 20 * 60_000).toISOString(),
            state: "pending",
            providerRef: null,
            error: null,
            settledAt: null,
            failureReport: null,
          }, 1000);
          // "succeeded": one person's answer (a "failed" one waits for a second person, 202).
          body = JSON.stringify({ refundId: lost.id, outcome: "succeeded" });
        }
        const refund = template === "/api/transaction/{id}/refund" && method === "POST";
        if (refund) body = JSON.stringify({ amount: 100, reason: "mistake", key: newId() });
        if (body !== undefined) headers["content-type"] = "application/json";
        const res = await fetch(app.url + path, { method, headers, body: form ?? body });
        const text = await res.text();
        // A refund under a new key is created (201); its 200 answers a key used before.
        const documented = caller.expect(op);
        // A visit under a new id too (its 200 answers an id recorded before).
        const created = refund || (template === "/api/visits" && method === "POST");
        const want = created && documented === 200 ? 201 : documented;
        const refused = caller.name.startsWith("approved") ? [401, 403] : [401];
        if (want === null ? refused.includes(res.status) : res.status !== want) {
          wrong.push(
            `${method} ${template} as ${caller.name}: ${res.status} (want ${want ?? `not ${refused}`}) ${
              text.slice(0, 120)
            }`,
          );
          continue;
        }
        if (res.status >= 400 && want !== null) {
          const message = JSON.parse(text).message;
          if (typeof message !== "string" || message === "") {
            wrong.push(`${template} ${caller.name}: no message`);
          }
          if (caller.message && !caller.message.test(message)) {
            wrong.push(
              `${template} as ${caller.name}: message "${message}" does not match ${caller.message}`,
            );
          }
        }
      }
    }
    await t.step(`${adminOps.length} admin operations × ${callers.length} callers`, () => {
      assert.deepEqual(wrong, []);
    });

    // Public operations: the same answer with no token, an approved admin's and a garbage one,
    // and never 401/403 (signed ones carry a valid signature; terminal sales come from a paired kiosk).
    const kiosk = await pairTestKiosk(app, "7");
    const publicOps = ops.filter((o) => !o.bearer);
    const publicWrong: string[] = [];
    let n = 0;
    for (const op of publicOps) {
      const seen: number[] = [];
      for (const header of [null, `Bearer ${fx.approvedToken}`, "Bearer x.y.z"]) {
        const { path, body, headers: extra } = await publicRequest(app, op, fx, n++, kiosk.headers);
        const headers: Record<string, string> = header === null
          ? { ...extra }
          : { ...extra, authorization: header };
        if (body !== undefined) headers["content-type"] = "application/json";
        const res = await fetch(app.url + path, { method: op.method, headers, body });
        await res.body?.cancel();
        seen.push(res.status);
      }
      if (new Set(seen).size !== 1 || seen[0] === 401 || seen[0] === 403) {
        publicWrong.push(
          `${op.method} ${op.template}: ${seen.join(", ")} (no token, admin token, garbage token)`,
        );
      }
    }
    for (const path of ["/api/openapi.json", "/api/docs"]) {
      const res = await fetch(app.url + path);
      await res.body?.cancel();
      if (res.status !== 200) publicWrong.push(`GET ${path}: ${res.status}`);
    }
    await t.step(`${publicOps.length} public operations answer without a token`, () => {
      assert.ok(publicOps.length >= 10, publicOps.map((o) => o.template).join());
      assert.deepEqual(publicWrong, []);
    });
  } finally {
    await app.close();
  }
});

/** A valid request for a public operation (fresh where a value is used up: emails, refresh tokens). */
/** Begins a set-up as the caller of `header` (when an approved one) and answers the app's first code. */
async function enrolmentCode(app: TestApp, header: string | null): Promise<string> {
  const res = await fetch(`${app.url}/api/auth/admin/two-factor/enrol`, {
    method: "POST",
    headers: header ? { authorization: header } : {},
  });
  const secret = res.ok ? (await res.json()).secret : (await res.body?.cancel(), null);
  return secret ? totpCode(secret) : "000000";
}

async function publicRequest(
  app: TestApp,
  op: ApiOperation,
  fx: Fixtures,
  n: number,
  kioskHeaders: Record<string, string>,
): Promise<{ path: string; body?: string; headers?: Record<string, string> }> {
  const path = op.template.replace(/\{(\w+)\}/g, (_, name: string) =>
    ({
      id: fx.donorIds[2],
      provider: fx.providerId,
      terminalNumber: fx.testTerminals[0],
    })[name] ?? "x");
  const login = () =>
    api(app.url, "POST", "/api/auth/admin/login", {
      email: FIXTURE_ADMINS.approved.email,
      password: FIXTURE_ADMINS.approved.password,
    });
  switch (op.template) {
    case "/api/auth/admin/login":
      return {
        path,
        body: JSON.stringify({
          email: FIXTURE_ADMINS.approved.email,
          password: FIXTURE_ADMINS.approved.password,
        }),
      };
    case "/api/auth/admin/register":
      return {
        path,
        body: JSON.stringify({
          email: `public-${n}-${newId().slice(0, 5)}@museum.org`,
          password: "ledger-and-ink-public-2026",
        }),
      };
    case "/api/auth/admin/two-factor/verify":
      return { path, body: JSON.stringify(await twoFactorVerifyBody(app.store, app.config.appSecret)) };
    case "/api/auth/admin/refresh":
    case "/api/auth/admin/logout":
      return { path, body: JSON.stringify({ refreshToken: (await login()).body.refreshToken }) };
    case "/api/payment/test-emv/{terminalNumber}":
      return { path, body: JSON.stringify({ language: "en", shopNumber: "7" }), headers: kioskHeaders };
    case "/api/payment/pay-emv":
      return {
        path,
        headers: kioskHeaders,
        body: (await signText(
          JSON.stringify({
            amount: 20,
            currency: "nis",
            userId: fx.donorIds[0],
            language: "en",
            isMonthly: false,
            shopNumber: "7",
          }),
          fx.signingKey,
        ))!,
      };
  }
  if (!op.body) return { path };
  const value = sampleValue(op.body, rng(n + 1), fx) as Record<string, unknown>;
  if ("isMonthly" in value) value.isMonthly = false;
  // A gift at a membership level must pay its price: the sample is a plain gift.
  delete value.levelId;
  const text = JSON.stringify(value);
  return { path, body: op.signed ? (await signText(text, fx.signingKey))! : text };
}

// ---- 4. markup and formulas in donor fields ----------------------------------------------------

const WAIT = 15_000;

/** Donors paid through the real API and the sandbox: their fields reach the transactions. */
const API_DONORS = [
  {
    firstName: `<img src=x onerror="window.__xss=1;alert(1)">`,
    lastName: `<script>window.__xss=1</script>`,
    email: `"><svg/onload=window.__xss=1>@example.org`,
    country: `<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>`,
    card: "4580 1234 5678 9015",
  },
  {
    firstName: `=HYPERLINK("http://evil.example","x")`,
    lastName: `+cmd|' /C calc'!A0`,
    email: `-2+3@example.org`,
    country: `@SUM(1+1)`,
    card: "4000 0000 0000 0033",
  },
];

/** Recorded straight into storage (what any provider could bring back). */
const STORED_NAMES: [string, string, string][] = [
  [`</td></tr></table><script>window.__xss=1</script>`, `javascript:window.__xss=1`, "a@example.org"],
  [
    `{{constructor.constructor('window.__xss=1')()}}`,
    `<a href="javascript:window.__xss=1">x</a>`,
    "b@example.org",
  ],
  [`@SUM(1+1)*cmd|' /C calc'!A0`, `<style>body{display:none}</style>`, "c@example.org"],
  [`\t=1+1`, `<<script>script>window.__xss=1<</script>/script>`, "d@example.org"],
  [`-1+1`, `"'><img src=x onerror=alert(1)>`, "=1+1@example.org"],
];

function storedTransaction(i: number, [firstName, lastName, email]: [string, string, string]): Transaction {
  const success = i % 2 === 0;
  return {
    id: newId(),
    kind: success ? "success" : "error",
    statusCode: success ? "000" : "004",
    isMonthly: false,
    createdAt: new Date(Date.now() - (10 - i) * 60_000).toISOString(),
    donorId: newId(),
    user: { firstName, lastName, email },
    amount: 2000,
    currency: 1,
    resultData: success
      ? { CreditCardNumber: "458045******4580", CreditType: "1", DebitTotal: "2000", DebitCurrency: 1 }
      : null,
    errorMessage: success ? null : "Declined by the card issuer",
    provider: "sandbox",
    providerTransactionId: `xss-${i}`,
  };
}

/** Asserts that no payload ran on `page` and that each text shows literally. */
async function assertInert(page: Page, dialogs: string[], texts: string[], where: string): Promise<void> {
  assert.equal(await page.evaluate(() => "__xss" in globalThis), false, `${where}: a payload ran`);
  assert.deepEqual(dialogs, [], `${where}: a dialog opened`);
  const injected = await page.evaluate(() =>
    [...document.querySelectorAll(
      "[onerror], [onload], [onclick], iframe[srcdoc], a[href^='javascript:'], img[src='x']",
    )]
      .map((e) => e.outerHTML.slice(0, 80))
  );
  assert.deepEqual(injected, [], `${where}: payload markup became elements`);
  const unsigned = await page.evaluate(() =>
    [...document.querySelectorAll("script")].filter((s) => !s.hasAttribute("nonce")).map((s) =>
      s.outerHTML.slice(0, 80)
    )
  );
  assert.deepEqual(unsigned, [], `${where}: a script element without the nonce`);
  const shown = await page.evaluate(() => document.body.textContent ?? "");
  for (const text of texts) assert.ok(shown.includes(text), `${where}: "${text}" is shown literally`);
}

/** RFC 4180 records. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += ch;
  }
  if (cell !== "" || row.length > 0) rows.push([...row, cell]);
  return rows;
}

browserTest("markup and formulas in donor fields stay inert: admin table, cancel page, CSV", async (t) => {
  const app = await startTestApp({ env: ENV });
  const browser = await launchBrowser();
  try {
    const admin = FIXTURE_ADMINS.approved;
    const reg = await api(app.url, "POST", "/api/auth/admin/register", admin);
    assert.equal(reg.status, 201);
    // Through the real API: a donor, a signed payment, the sandbox's card page, our return route.
    const donorIds: string[] = [];
    const landings: URL[] = [];
    for (const d of API_DONORS) {
      const { card: _, ...fields } = d;
      const created = await api(app.url, "POST", "/api/user", fields);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      donorIds.push(created.body.id);
      const payment = await createPayment(app, { amount: 20, currency: "nis", userId: created.body.id });
      assert.equal(payment.status, 200, JSON.stringify(payment.body));
      landings.push(await payOnSandboxPage(app, new URL(payment.body.url, app.url).href, d.card));
    }
    for (const [i, names] of STORED_NAMES.entries()) {
      await app.store.transactions.record(storedTransaction(i, names));
    }
    // As stored; the table trims the joined name, so a leading tab is not on screen.
    const texts = [
      ...API_DONORS.flatMap((d) => [d.firstName, d.lastName, d.email.toLowerCase()]),
      ...STORED_NAMES.flatMap(([f, l, e]) => [f, l, e]),
    ];
    const shownTexts = texts.map((s) => s.trim());

    const context = await browser.newContext({ timezoneId: "UTC", viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (d: Dialog) => {
      dialogs.push(d.message());
      d.dismiss().catch(() => {});
    });

    await t.step("the check catches a payload that runs", async () => {
      const probe = await context.newPage();
      await probe.setContent(`<p>shown</p><img src=x onerror="window.__xss=1">`);
      await probe.waitForFunction(() => "__xss" in globalThis, null, { timeout: WAIT });
      await assert.rejects(assertInert(probe, [], ["shown"], "probe"), /a payload ran/);
      await probe.close();
    });

    await t.step("the admin table shows every field as text, and nothing runs", async () => {
      await page.goto(`${app.url}/en/login`);
      await page.locator("button[type=submit]:not([disabled])").waitFor({ timeout: WAIT });
      await page.fill("#login-email", admin.email);
      await page.fill("#login-password", admin.password);
      await page.click("button[type=submit]");
      await page.waitForURL(`${app.url}/en/admin`, { timeout: WAIT });
      // The table is the transactions section's (issue 26); the overview's requests answered first.
      await page.waitForLoadState("networkidle", { timeout: WAIT });
      await page.goto(`${app.url}/en/admin/transactions`);
      await page.waitForFunction(
        () => document.querySelector(".history")?.getAttribute("data-loaded") === location.search,
        null,
        { timeout: WAIT },
      );
      const rows = await page.locator(".tx-table tbody tr").count();
      assert.equal(rows, API_DONORS.length + STORED_NAMES.length, "every transaction is on the first page");
      await assertInert(page, dialogs, shownTexts, "admin table");
    });

    await t.step("the cancel page and the result page show the donor as text", async () => {
      for (const [i, id] of donorIds.entries()) {
        await page.goto(`${app.url}/en/cancel-subscription?userId=${id}`);
        const d = API_DONORS[i];
        await assertInert(
          page,
          dialogs,
          [d.firstName, d.lastName, d.email.toLowerCase(), d.country],
          "cancel page",
        );
        await page.goto(landings[i].href);
        await assertInert(page, dialogs, [], `result page ${landings[i].pathname}`);
      }
    });
    await context.close();

    await t.step("the no-JavaScript donation form echoes hostile values escaped", async () => {
      const body = new URLSearchParams({
        firstName: API_DONORS[0].firstName,
        lastName: API_DONORS[0].lastName,
        email: "not-an-email",
        country: API_DONORS[0].country,
        choice: "tier-1",
      });
      const res = await fetch(`${app.url}/en/`, {
        method: "POST",
        body,
        headers: { origin: new URL(app.url).origin },
      });
      const html = await res.text();
      assert.equal(res.status, 422);
      for (const raw of [API_DONORS[0].firstName, API_DONORS[0].lastName, API_DONORS[0].country]) {
        assert.ok(!html.includes(raw), `echoed raw: ${raw}`);
      }
      assert.ok(html.includes("&lt;img src=x") || html.includes("&lt;img src&#61;x"), "echoed escaped");
    });

    await t.step("the CSV keeps markup as plain text and neutralises formulas", async () => {
      const login = await api(app.url, "POST", "/api/auth/admin/login", admin);
      const res = await fetch(`${app.url}/api/transaction/export?lang=en`, {
        headers: bearer(login.body.accessToken),
      });
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /^text\/csv/);
      assert.match(res.headers.get("content-disposition") ?? "", /^attachment;/);
      assert.equal(res.headers.get("x-content-type-options"), "nosniff");
      const rows = parseCsv((await res.text()).replace(/^\uFEFF/, ""));
      const header = rows[0];
      const amount = header.indexOf("Amount");
      assert.ok(amount >= 0, header.join());
      const cells = rows.slice(1).flatMap((r) => r.filter((_, i) => i !== amount));
      assert.equal(rows.length - 1, API_DONORS.length + STORED_NAMES.length);
      const isFormula = (c: string) => /^[=+\-@\t\r]/.test(c);
      assert.deepEqual(
        parseCsv('a,"=1+1",@x\r\n').flat().filter(isFormula),
        ["=1+1", "@x"],
        "the rule bites",
      );
      const formulas = cells.filter(isFormula);
      assert.deepEqual(formulas, [], "a cell a spreadsheet would run as a formula");
      for (const text of texts) {
        const want = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
        assert.ok(cells.includes(want), `the CSV holds ${JSON.stringify(want)}`);
      }
      assert.ok(cells.includes("<script>window.__xss=1</script>"), "markup stays plain text, not escaped");
      assert.ok(cells.includes(`'=HYPERLINK("http://evil.example","x")`));
    });
  } finally {
    await browser.close();
    await app.close();
  }
});
