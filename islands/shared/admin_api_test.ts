import assert from "node:assert/strict";
import { ADMIN, memoryStorage } from "@/tests/helpers/admin_session.ts";
import { type ApiClientOptions, ApiError, createApiClient } from "./admin_api.ts";
import { createSignIn } from "./admin_sign_in.ts";
import { readSession, type SessionStorage } from "./admin_session.ts";

// ---- fakes ----------------------------------------------------------------------------------

const signedIn = (accessToken = "a1", refreshToken = "r1") =>
  memoryStorage({ accessToken, refreshToken, admin: JSON.stringify(ADMIN) });

/** One request the fake fetch saw. */
interface Call {
  path: string;
  method: string;
  authorization: string | null;
  contentType: string | null;
  body: unknown;
  keepalive: boolean;
}

type Handler = (call: Call, calls: Call[]) => Response | Promise<Response>;

/** A scripted `fetch`: `handler` answers each call; `calls` records them in order. */
function fakeFetch(handler: Handler) {
  const calls: Call[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    const call: Call = {
      path: String(input),
      method: init.method ?? "GET",
      authorization: headers.get("authorization"),
      contentType: headers.get("content-type"),
      body: typeof init.body === "string" ? JSON.parse(init.body) : init.body ?? null,
      keepalive: init.keepalive === true,
    };
    calls.push(call);
    return await handler(call, calls);
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers });
const unauthorized = () => json({ statusCode: 401, message: "The access token has expired" }, 401);

const REFRESH = "/api/auth/admin/refresh";
const LIST = "/api/transaction/get-all-success-transactions?page=1&limit=10";

/** A promise and its resolver, to hold an answer until the test lets it go. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Lets every pending promise job and timer callback run. */
const settle = () => new Promise((r) => setTimeout(r, 0));

/**
 * A server that knows which access tokens are good and which refresh token turns into which pair;
 * a used refresh token is refused (as the real server does, before it revokes the family).
 */
function fakeServer(options: {
  good: string[];
  rotations?: Record<string, { accessToken: string; refreshToken: string }>;
  holdRefresh?: Promise<void>;
}) {
  const good = new Set(options.good);
  const rotations = { ...options.rotations };
  return fakeFetch(async (call) => {
    if (call.path === REFRESH) {
      await options.holdRefresh;
      const token = (call.body as { refreshToken: string }).refreshToken;
      const next = rotations[token];
      if (!next) return json({ statusCode: 401, message: "The refresh token was already used" }, 401);
      delete rotations[token];
      good.add(next.accessToken);
      return json({ data: next });
    }
    const token = call.authorization?.replace(/^Bearer /, "") ?? "";
    return good.has(token) ? json({ data: [], page: 1, limit: 10, total: 0, token }) : unauthorized();
  });
}

function client(
  fetch: typeof globalThis.fetch,
  storage: SessionStorage,
  extra: Partial<ApiClientOptions> = {},
) {
  let signedOut = 0;
  const api = createApiClient({ fetch, storage, locks: null, onSignedOut: () => signedOut++, ...extra });
  return { api, signedOutCount: () => signedOut };
}

async function rejectsWith(promise: Promise<unknown>, check: Partial<ApiError>) {
  await assert.rejects(promise, (e) => {
    assert.ok(e instanceof ApiError, `an ApiError, not ${e}`);
    for (const [k, v] of Object.entries(check)) assert.deepEqual(e[k as keyof ApiError], v, k);
    return true;
  });
}

const paths = (calls: Call[]) =>
  calls.map((c) => `${c.path === LIST ? "list" : c.path} ${c.authorization ?? "-"}`);

// ---- requests -------------------------------------------------------------------------------

Deno.test("request: sends the stored access token as a Bearer header and answers the JSON", async () => {
  const { fetch, calls } = fakeServer({ good: ["a1"] });
  const { api } = client(fetch, signedIn());
  const page = await api.request<{ token: string; total: number }>(LIST);
  assert.equal(page.token, "a1");
  assert.equal(page.total, 0);
  assert.deepEqual(paths(calls), ["list Bearer a1"]);
  assert.equal(calls[0].contentType, null, "no content type without a body");
});

Deno.test("request: a JSON body gets the JSON content type; the caller's headers are kept", async () => {
  const { fetch, calls } = fakeFetch(() => json({ ok: true }));
  const { api } = client(fetch, signedIn());
  await api.request("/api/auth/admin/x/approve", { method: "POST", body: "{}", headers: { "x-trace": "7" } });
  assert.equal(calls[0].method, "POST");
  assert.equal(calls[0].contentType, "application/json");
  assert.equal(calls[0].authorization, "Bearer a1");
});

Deno.test("request: 204 answers null; a 200 that is not JSON is an 'Invalid response format'", async () => {
  let answer = () => new Response(null, { status: 204 });
  const { fetch } = fakeFetch(() => answer());
  const { api } = client(fetch, signedIn());
  assert.equal(await api.request("/api/x"), null);
  answer = () => new Response("<html>proxy</html>", { status: 200 });
  await rejectsWith(api.request("/api/x"), { kind: "format", status: null });
});

Deno.test("request without a session: no call, 401, onSignedOut", async () => {
  const { fetch, calls } = fakeFetch(() => json({}));
  const storage = memoryStorage();
  const { api, signedOutCount } = client(fetch, storage);
  await rejectsWith(api.request(LIST), { kind: "http", status: 401 });
  assert.equal(calls.length, 0);
  assert.equal(signedOutCount(), 1);
});

Deno.test("a 401 refreshes once and repeats the request once, with the new access token", async () => {
  const { fetch, calls } = fakeServer({
    good: [],
    rotations: { r1: { accessToken: "a2", refreshToken: "r2" } },
  });
  const storage = signedIn();
  const { api, signedOutCount } = client(fetch, storage);
  const page = await api.request<{ token: string }>(LIST);
  assert.equal(page.token, "a2");
  assert.deepEqual(paths(calls), ["list Bearer a1", `${REFRESH} -`, "list Bearer a2"]);
  const refresh = calls[1];
  assert.equal(refresh.method, "POST");
  assert.deepEqual(refresh.body, { refreshToken: "r1" });
  assert.equal(refresh.contentType, "application/json");
  // The new pair is stored; the profile is kept.
  assert.deepEqual(readSession(storage), { accessToken: "a2", refreshToken: "r2", admin: ADMIN });
  assert.equal(signedOutCount(), 0);

  // The next request uses the new token straight away.
  await api.request(LIST);
  assert.deepEqual(paths(calls).slice(3), ["list Bearer a2"]);
});

for (const count of [2, 10]) {
  Deno.test(`${count} concurrent requests that each meet a 401 share ONE refresh`, async () => {
    const hold = deferred();
    const { fetch, calls } = fakeServer({
      good: [],
      rotations: { r1: { accessToken: "a2", refreshToken: "r2" } },
      holdRefresh: hold.promise,
    });
    const storage = signedIn();
    const { api, signedOutCount } = client(fetch, storage);
    const pending = Array.from({ length: count }, () => api.request<{ token: string }>(LIST));
    await settle();
    // Every request has met its 401 and is waiting for the one refresh under way.
    assert.equal(calls.filter((c) => c.path === LIST).length, count);
    assert.equal(calls.filter((c) => c.path === REFRESH).length, 1);
    hold.resolve();
    const pages = await Promise.all(pending);
    assert.deepEqual(pages.map((p) => p.token), Array(count).fill("a2"));
    assert.equal(calls.filter((c) => c.path === REFRESH).length, 1, "exactly one refresh call");
    assert.equal(calls.length, 2 * count + 1, "each request sent twice, plus one refresh");
    assert.deepEqual(calls.filter((c) => c.path === LIST).map((c) => c.authorization), [
      ...Array(count).fill("Bearer a1"),
      ...Array(count).fill("Bearer a2"),
    ]);
    assert.deepEqual(readSession(storage)?.refreshToken, "r2");
    assert.equal(signedOutCount(), 0);
  });
}

Deno.test("a 401 that arrives after the refresh finished uses the new token without refreshing again", async () => {
  const late = deferred();
  const { fetch: server } = fakeServer({
    good: [],
    rotations: { r1: { accessToken: "a2", refreshToken: "r2" } },
  });
  let first = 0;
  const { fetch, calls } = fakeFetch(async (call) => {
    // The first request's first answer is slow: it comes after the second request's refresh.
    if (call.path === LIST && call.authorization === "Bearer a1" && ++first === 1) await late.promise;
    return await server(call.path, {
      method: call.method,
      headers: call.authorization ? { authorization: call.authorization } : {},
      body: call.body ? JSON.stringify(call.body) : undefined,
    });
  });
  const storage = signedIn();
  const { api } = client(fetch, storage);
  const slow = api.request<{ token: string }>(LIST);
  const fast = api.request<{ token: string }>(LIST);
  assert.equal((await fast).token, "a2");
  late.resolve();
  assert.equal((await slow).token, "a2");
  assert.equal(calls.filter((c) => c.path === REFRESH).length, 1, "the spent r1 is not sent again");
  assert.equal(readSession(storage)?.refreshToken, "r2");
});

Deno.test("a second 401 after the retry is thrown as 401, without another refresh", async () => {
  const { fetch, calls } = fakeFetch((call) =>
    call.path === REFRESH ? json({ data: { accessToken: "a2", refreshToken: "r2" } }) : unauthorized()
  );
  const storage = signedIn();
  const { api, signedOutCount } = client(fetch, storage);
  await rejectsWith(api.request(LIST), {
    kind: "http",
    status: 401,
    body: { statusCode: 401, message: "The access token has expired" },
  });
  assert.deepEqual(paths(calls), ["list Bearer a1", `${REFRESH} -`, "list Bearer a2"]);
  // The refresh itself worked: the session stays, with the new pair.
  assert.deepEqual(readSession(storage), { accessToken: "a2", refreshToken: "r2", admin: ADMIN });
  assert.equal(signedOutCount(), 0);
});

Deno.test("a refresh answered 401 clears the three items and calls onSignedOut once", async () => {
  const hold = deferred();
  const { fetch, calls } = fakeServer({ good: [], rotations: {}, holdRefresh: hold.promise });
  const storage = memoryStorage({
    accessToken: "a1",
    refreshToken: "r1",
    admin: JSON.stringify(ADMIN),
    lang: "he",
  });
  const { api, signedOutCount } = client(fetch, storage);
  const pending = [api.request(LIST), api.request(LIST), api.request(LIST)];
  await settle();
  hold.resolve();
  for (const p of pending) await rejectsWith(p, { kind: "http", status: 401 });
  assert.equal(calls.filter((c) => c.path === REFRESH).length, 1);
  assert.equal(calls.filter((c) => c.path === LIST).length, 3, "no request is repeated without a token");
  assert.deepEqual(Object.fromEntries(storage.map), { lang: "he" }, "only the session's items are gone");
  assert.equal(signedOutCount(), 1);
});

Deno.test("a refresh answered 400 (a token the server does not take) also ends the session", async () => {
  const { fetch } = fakeFetch((call) =>
    call.path === REFRESH
      ? json({ statusCode: 400, message: "refreshToken is too long" }, 400)
      : unauthorized()
  );
  const storage = signedIn();
  const { api, signedOutCount } = client(fetch, storage);
  await rejectsWith(api.request(LIST), { kind: "http", status: 401 });
  assert.equal(readSession(storage), null);
  assert.equal(signedOutCount(), 1);
});

Deno.test("a refresh that fails for the network or with a 5xx keeps the session and throws that", async (t) => {
  for (
    const [what, answer, expected] of [
      ["network", () => Promise.reject(new TypeError("Failed to fetch")), { kind: "network", status: null }],
      ["500", () => json({ statusCode: 500, message: "Internal error" }, 500), { kind: "http", status: 500 }],
      ["503", () => new Response("Service Unavailable", { status: 503 }), { kind: "http", status: 503 }],
    ] as const
  ) {
    await t.step(what, async () => {
      let refreshFails = true;
      const { fetch, calls } = fakeFetch((call) => {
        if (call.path === REFRESH) {
          return refreshFails ? answer() : json({ data: { accessToken: "a2", refreshToken: "r2" } });
        }
        return call.authorization === "Bearer a2" ? json({ token: "a2" }) : unauthorized();
      });
      const storage = signedIn();
      const { api, signedOutCount } = client(fetch, storage);
      await rejectsWith(api.request(LIST), expected);
      assert.deepEqual(readSession(storage), { accessToken: "a1", refreshToken: "r1", admin: ADMIN });
      assert.equal(signedOutCount(), 0);
      assert.equal(calls.filter((c) => c.path === LIST).length, 1, "not repeated after a failed refresh");

      // The failure is not remembered: the next request refreshes again and succeeds.
      refreshFails = false;
      assert.deepEqual(await api.request(LIST), { token: "a2" });
      assert.equal(calls.filter((c) => c.path === REFRESH).length, 2);
    });
  }
});

Deno.test("a refresh answer without both tokens is an 'Invalid response format' and keeps the session", async () => {
  const { fetch } = fakeFetch((call) =>
    call.path === REFRESH ? json({ accessToken: "a2", refreshToken: "r2" }) : unauthorized()
  );
  const storage = signedIn();
  const { api, signedOutCount } = client(fetch, storage);
  // The tokens must be inside `data` (spec section 7).
  await rejectsWith(api.request(LIST), { kind: "format" });
  assert.equal(readSession(storage)?.accessToken, "a1");
  assert.equal(signedOutCount(), 0);
});

Deno.test("a token another tab already replaced in storage is used without refreshing", async () => {
  const storage = signedIn();
  const { fetch, calls } = fakeFetch((call) => {
    if (call.path === REFRESH) return json({ data: { accessToken: "a9", refreshToken: "r9" } });
    if (call.authorization === "Bearer a1") {
      // While this request was out, another tab refreshed and stored its new pair.
      storage.setItem("accessToken", "a2");
      storage.setItem("refreshToken", "r2");
      return unauthorized();
    }
    return json({ token: call.authorization });
  });
  const { api } = client(fetch, storage);
  assert.deepEqual(await api.request(LIST), { token: "Bearer a2" });
  assert.deepEqual(paths(calls), ["list Bearer a1", "list Bearer a2"]);
  assert.equal(readSession(storage)?.refreshToken, "r2");
});

Deno.test("two tabs (two clients, one storage, one lock) refresh once between them", async () => {
  // A lock manager that runs one holder at a time, like navigator.locks.
  const names: string[] = [];
  let queue = Promise.resolve();
  const locks = {
    request(name: string, callback: () => Promise<unknown>) {
      names.push(name);
      const run = queue.then(callback);
      queue = run.then(() => undefined, () => undefined);
      return run;
    },
  } as unknown as Pick<LockManager, "request">;
  const hold = deferred();
  const { fetch, calls } = fakeServer({
    good: [],
    rotations: { r1: { accessToken: "a2", refreshToken: "r2" } },
    holdRefresh: hold.promise,
  });
  const storage = signedIn();
  const tabA = client(fetch, storage, { locks });
  const tabB = client(fetch, storage, { locks });
  const pending = [tabA.api.request<{ token: string }>(LIST), tabB.api.request<{ token: string }>(LIST)];
  await settle();
  hold.resolve();
  const pages = await Promise.all(pending);
  assert.deepEqual(pages.map((p) => p.token), ["a2", "a2"]);
  assert.equal(calls.filter((c) => c.path === REFRESH).length, 1, "the second tab did not spend r1 again");
  assert.deepEqual(names, ["admin-session-refresh", "admin-session-refresh"]);
  assert.equal(tabA.signedOutCount() + tabB.signedOutCount(), 0);
});

Deno.test("errors: the status, the server's JSON body, and a 429's Retry-After in seconds", async () => {
  let answer: () => Response = () =>
    json({ statusCode: 429, message: "Too many" }, 429, { "retry-after": "120" });
  const { fetch } = fakeFetch(() => answer());
  const { api } = client(fetch, signedIn());
  await rejectsWith(api.request(LIST), {
    kind: "http",
    status: 429,
    retryAfter: 120,
    body: { statusCode: 429, message: "Too many" },
    message: "Too many",
  });
  answer = () => json({ message: "Too many" }, 429);
  await rejectsWith(api.request(LIST), { status: 429, retryAfter: null });
  answer = () => json({ message: "Too many" }, 429, { "retry-after": "Wed, 21 Oct 2026 07:28:00 GMT" });
  await rejectsWith(api.request(LIST), { status: 429, retryAfter: null });
  answer = () => new Response("<h1>Bad gateway</h1>", { status: 502 });
  await rejectsWith(api.request(LIST), { kind: "http", status: 502, body: null, message: "HTTP 502" });
});

Deno.test("a request the network drops is kind 'network'", async () => {
  const { fetch } = fakeFetch(() => Promise.reject(new TypeError("Failed to fetch")));
  const { api, signedOutCount } = client(fetch, signedIn());
  await rejectsWith(api.request(LIST), { kind: "network", status: null });
  assert.equal(signedOutCount(), 0);
});

// ---- sign-in, register, sign-out ------------------------------------------------------------

const SESSION_ANSWER = { ...ADMIN, accessToken: "a1", refreshToken: "r1" };

Deno.test("signIn posts the credentials without a token and stores the three items", async () => {
  const { fetch, calls } = fakeFetch(() => json(SESSION_ANSWER));
  // A stale session of someone else is replaced.
  const storage = memoryStorage({ accessToken: "old", refreshToken: "old-r", admin: '{"x":1}' });
  const api = createSignIn({ fetch, storage });
  const session = await api.signIn("ana@museum.org", "violet-harbor");
  assert.deepEqual(session, { accessToken: "a1", refreshToken: "r1", admin: ADMIN });
  assert.equal(calls.length, 1);
  assert.equal(calls[0].path, "/api/auth/admin/login");
  assert.equal(calls[0].method, "POST");
  assert.equal(calls[0].authorization, null);
  assert.equal(calls[0].contentType, "application/json");
  assert.deepEqual(calls[0].body, { email: "ana@museum.org", password: "violet-harbor" });
  assert.deepEqual(Object.fromEntries(storage.map), {
    accessToken: "a1",
    refreshToken: "r1",
    admin: JSON.stringify(ADMIN),
  });
});

Deno.test("register posts the name too and stores the three items", async () => {
  const { fetch, calls } = fakeFetch(() => json(SESSION_ANSWER, 201));
  const storage = memoryStorage();
  const api = createSignIn({ fetch, storage });
  await api.register("Ana Curator", "ana@museum.org", "violet-harbor");
  assert.equal(calls[0].path, "/api/auth/admin/register");
  assert.deepEqual(calls[0].body, {
    name: "Ana Curator",
    email: "ana@museum.org",
    password: "violet-harbor",
  });
  assert.deepEqual(readSession(storage), { accessToken: "a1", refreshToken: "r1", admin: ADMIN });
});

Deno.test("an answer lacking a token or the profile is kind 'format' and stores nothing", async (t) => {
  const { accessToken: _a, ...noAccess } = SESSION_ANSWER;
  const { refreshToken: _r, ...noRefresh } = SESSION_ANSWER;
  const { email: _e, ...noEmail } = SESSION_ANSWER;
  for (
    const [what, body] of [
      ["no access token", noAccess],
      ["no refresh token", noRefresh],
      ["an empty access token", { ...SESSION_ANSWER, accessToken: "" }],
      ["a numeric refresh token", { ...SESSION_ANSWER, refreshToken: 5 }],
      ["no email", noEmail],
      ["tokens inside data", { data: { accessToken: "a1", refreshToken: "r1" } }],
      ["null", null],
      ["not JSON", "not json"],
    ] as const
  ) {
    await t.step(what, async () => {
      const { fetch } = fakeFetch(() =>
        body === "not json" ? new Response("<html>", { status: 200 }) : json(body)
      );
      const storage = memoryStorage();
      const api = createSignIn({ fetch, storage });
      await rejectsWith(api.signIn("ana@museum.org", "violet-harbor"), { kind: "format", status: null });
      await rejectsWith(api.register("Ana", "ana@museum.org", "violet-harbor"), { kind: "format" });
      assert.equal(storage.map.size, 0);
    });
  }
});

Deno.test("signIn refused: the status, body and Retry-After; nothing stored, no refresh", async () => {
  let answer = () => json({ statusCode: 401, message: "Invalid credentials" }, 401);
  const { fetch, calls } = fakeFetch(() => answer());
  const storage = memoryStorage();
  const api = createSignIn({ fetch, storage });
  await rejectsWith(api.signIn("ana@museum.org", "wrong-password"), {
    kind: "http",
    status: 401,
    body: { statusCode: 401, message: "Invalid credentials" },
  });
  assert.equal(calls.length, 1, "a refused sign-in is not a reason to refresh");
  answer = () => json({ statusCode: 429, message: "Too many" }, 429, { "retry-after": "600" });
  await rejectsWith(api.signIn("ana@museum.org", "wrong-password"), { status: 429, retryAfter: 600 });
  assert.equal(storage.map.size, 0);
});

Deno.test("signIn when the network is down is kind 'network'", async () => {
  const { fetch } = fakeFetch(() => Promise.reject(new TypeError("Failed to fetch")));
  const api = createSignIn({ fetch, storage: memoryStorage() });
  await rejectsWith(api.signIn("ana@museum.org", "violet-harbor"), { kind: "network" });
});

Deno.test("signOut posts the refresh token to /api/auth/admin/logout and clears the session", async () => {
  const { fetch, calls } = fakeFetch(() => new Response(null, { status: 204 }));
  const storage = memoryStorage({
    accessToken: "a1",
    refreshToken: "r1",
    admin: JSON.stringify(ADMIN),
    lang: "en",
  });
  const { api, signedOutCount } = client(fetch, storage);
  await api.signOut();
  assert.equal(calls.length, 1);
  assert.equal(calls[0].path, "/api/auth/admin/logout");
  assert.equal(calls[0].method, "POST");
  assert.deepEqual(calls[0].body, { refreshToken: "r1" });
  assert.equal(calls[0].keepalive, true, "the call survives the navigation to the sign-in page");
  assert.deepEqual(Object.fromEntries(storage.map), { lang: "en" });
  assert.equal(signedOutCount(), 0, "onSignedOut is for a session the server ended");
});

Deno.test("signOut clears the session even when the logout call fails", async (t) => {
  for (
    const [what, answer] of [
      ["network", () => Promise.reject(new TypeError("Failed to fetch"))],
      ["500", () => json({ message: "down" }, 500)],
    ] as const
  ) {
    await t.step(what, async () => {
      const { fetch, calls } = fakeFetch(() => answer());
      const storage = signedIn();
      const { api } = client(fetch, storage);
      await api.signOut();
      assert.equal(calls.length, 1);
      assert.equal(storage.map.size, 0);
    });
  }
});

Deno.test("signOut clears the session before the logout call answers", async () => {
  const hold = deferred<Response>();
  const { fetch } = fakeFetch(() => hold.promise);
  const storage = signedIn();
  const { api } = client(fetch, storage);
  const out = api.signOut();
  assert.equal(readSession(storage), null);
  hold.resolve(new Response(null, { status: 204 }));
  await out;
});

Deno.test("signOut without a session makes no call", async () => {
  const { fetch, calls } = fakeFetch(() => json({}));
  const { api } = client(fetch, memoryStorage());
  await api.signOut();
  assert.equal(calls.length, 0);
});
