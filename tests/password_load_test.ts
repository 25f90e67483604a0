/**
 * Passwords cost CPU (issue 13, item 4): sign-ins hash in the password pool, off the event loop, so
 * the site keeps answering while a flood of them is being checked; a full queue answers 503 with
 * Retry-After instead of piling up; and a registration of a taken email does not hash at all.
 *
 * The flood runs against `main.ts` as its own process: the event loop under test is then the
 * server's alone, not shared with this test's client.
 */
import assert from "node:assert/strict";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api } from "@/tests/helpers/http.ts";
import { spawnApp } from "@/tests/reliability/process_support.ts";

const PASSWORD = "a-long-museum-passphrase";
/**
 * Sign-ins sent at once. With one worker the last waits for all the hashes before it: 50 took over
 * the request's 45 s limit (`REQUEST_TIMEOUT_MS`) on a loaded machine (about a second a hash under
 * three busy loops), and the last dozen answered 503. A queue this long still outlasts three health
 * checks by far.
 */
const FLOOD = 24;

Deno.test(`${FLOOD} parallel sign-ins are hashed off the event loop: /health answers while they wait`, async () => {
  // One worker: the hashes then take a while, one after another.
  const server = await spawnApp({ KV_PATH: ":memory:", TRUST_PROXY: "1", PASSWORD_WORKERS: "1" });
  try {
    const login = (i: number) =>
      api(
        server.url,
        "POST",
        "/api/auth/admin/login",
        { email: `visitor${i}@museum.org`, password: PASSWORD },
        {
          "x-forwarded-for": `198.51.100.${i + 1}`,
        },
      );
    // Warm up: the login route and the worker (and its WebAssembly) load on first use.
    assert.equal((await login(200)).status, 401);

    let done = 0;
    let firstDone: () => void = () => {};
    const first = new Promise<void>((resolve) => firstDone = resolve);
    const logins = Array.from({ length: FLOOD }, (_, i) =>
      login(i).finally(() => {
        done++;
        firstDone();
      }));
    // Once the first sign-in is answered the hashing is under way, and the others wait their turn.
    await first;
    // Three health checks, one after another, while the sign-ins are being hashed. With the hashing
    // on the event loop, a check waits behind the hashes that are due (the first one waited for
    // most of the flood); off it, each check is answered at once. Told by order, not by time (the
    // machine may be busy): when the checks are answered, most sign-ins are still waiting.
    for (let probe = 0; probe < 3; probe++) {
      const health = await fetch(`${server.url}/health`);
      await health.body?.cancel();
      assert.equal(health.status, 200);
    }
    const stillQueued = FLOOD - done;
    const answers = await Promise.all(logins);
    // Unknown emails: every one was hashed (against the dummy hash) and refused; none was dropped.
    assert.deepEqual(answers.map((a) => a.status), Array(FLOOD).fill(401));
    assert.ok(
      stillQueued >= FLOOD / 2,
      `the health checks were answered while sign-ins were queued: ${stillQueued} of ${FLOOD} still waiting`,
    );
  } finally {
    await server.stop();
  }
});

Deno.test("beyond the password queue, sign-ins answer 503 with Retry-After and are not counted as failures", async () => {
  const app = await startTestApp({ env: { TRUST_PROXY: "1", PASSWORD_WORKERS: "1", PASSWORD_QUEUE: "2" } });
  try {
    const attempts = Array.from({ length: 12 }, (_, i) => ({
      email: `guess${i}@museum.org`,
      address: `203.0.113.${i + 1}`,
    }));
    const answers = await Promise.all(
      attempts.map(({ email, address }) =>
        api(app.url, "POST", "/api/auth/admin/login", { email, password: PASSWORD }, {
          "x-forwarded-for": address,
        })
      ),
    );
    const busy = answers.map((a, i) => ({ a, i })).filter(({ a }) => a.status === 503);
    assert.ok(busy.length >= 1, `statuses ${answers.map((a) => a.status)}`);
    assert.ok(busy.length <= 12 - 3, "one running and two queued were accepted");
    for (const { a } of answers.filter((a) => a.status !== 503).map((a) => ({ a }))) {
      assert.equal(a.status, 401);
    }
    const now = Date.now();
    for (const { a, i } of busy) {
      const retryAfter = Number(a.headers.get("retry-after"));
      assert.ok(
        Number.isInteger(retryAfter) && retryAfter >= 1,
        `Retry-After ${a.headers.get("retry-after")}`,
      );
      assert.equal(a.body.statusCode, 503);
      assert.match(a.body.message, /busy/);
      // Nothing was tried: the throttle slot it took was given back.
      assert.deepEqual(await app.store.throttle.recent(`login:email:${attempts[i].email}`, now, 900_000), []);
      assert.deepEqual(
        await app.store.throttle.recent(`login:addr:${attempts[i].address}`, now, 900_000),
        [],
      );
    }
    assert.equal(app.services.passwords.stats.refused, busy.length);
  } finally {
    await app.close();
  }
});

Deno.test("registering a taken email answers 409 without hashing a password", async () => {
  const app = await startTestApp();
  try {
    const register = (email: string) =>
      api(app.url, "POST", "/api/auth/admin/register", { email, password: PASSWORD });
    assert.equal((await register("curator@museum.org")).status, 201);
    const hashed = app.services.passwords.stats.accepted;
    assert.equal(hashed, 1);
    const taken = await register("Curator@Museum.org");
    assert.equal(taken.status, 409);
    assert.match(taken.body.message, /already exists/);
    assert.equal(app.services.passwords.stats.accepted, hashed, "no hash for a taken email");
    assert.equal((await register("guide@museum.org")).status, 201);
    assert.equal(app.services.passwords.stats.accepted, hashed + 1, "a new email is hashed");
  } finally {
    await app.close();
  }
});
