/**
 * Rate limits over HTTP, on both backends (`lib/rate_limits/rate_limits.ts`): per client address (IPv6 by its
 * /64) and globally on donor creation, payment creation and admin registration; the decline caps
 * per email and per address; 429 with `Retry-After` and a JSON message. Client addresses are
 * given through `X-Forwarded-For` (`TRUST_PROXY`), as a proxy in front would.
 */
import assert from "node:assert/strict";
import { loadConfig } from "@/lib/app/config.ts";
import { recordResult } from "@/lib/donations/completion.ts";
import type { PaymentProvider } from "@/lib/providers/provider.ts";
import { RateLimitedError } from "@/lib/rate_limits/rate_limits.ts";
import { admitPayment } from "@/tests/helpers/rate_limits.ts";
import { runRetentionSweep } from "@/lib/retention/retention.ts";
import { signPayload } from "@/lib/shared/signing.ts";
import type { Payment } from "@/lib/storage/types.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { capturedLog, paymentFixture, seedDonor } from "@/tests/helpers/fixtures.ts";
import { api, type JsonAnswer } from "@/tests/helpers/http.ts";
import { payOnSandboxPage } from "@/tests/helpers/payments.ts";
import { backendTest } from "@/tests/helpers/stores.ts";

const DECLINE_CARD = "4000 0000 0000 0033";

const from = (address: string) => ({ "x-forwarded-for": address });

let emails = 0;
/** `POST /api/user` from `address`; a new email unless one is given. */
const donor = (app: TestApp, address: string, email = `donor${++emails}@example.org`) =>
  api(
    app.url,
    "POST",
    "/api/user",
    { firstName: "Dana", lastName: "Levi", email, country: "Israel" },
    from(address),
  );

/** `POST /api/payment/create` from `address`, signed as the island signs it. */
async function payment(app: TestApp, address: string, userId: string): Promise<JsonAnswer> {
  const key = await api(app.url, "GET", "/api/signing-key");
  const body = await signPayload(
    { amount: 10, currency: "nis", userId, isMonthly: false, language: "en" },
    key.body,
  );
  return await api(app.url, "POST", "/api/payment/create", body, from(address));
}

/** A donor of `address` (and `email`) whose payment started there was declined. */
async function declined(
  app: TestApp,
  address: string,
  email = `donor${++emails}@example.org`,
): Promise<string> {
  const created = await donor(app, address, email);
  assert.equal(created.status, 201);
  const counted = `declines:email:${email.toLowerCase()}`;
  const before = (await app.store.rateLimits.peek(counted, Date.now())).count;
  const started = await payment(app, address, created.body.id);
  assert.equal(started.status, 200, JSON.stringify(started.body));
  const landed = await payOnSandboxPage(app, started.body.url, DECLINE_CARD);
  assert.match(landed.pathname, /\/error$/);
  // The sandbox also notifies our server, and whichever of the notification and the return records
  // the decline first counts it: wait until it is counted, not only until the return answered.
  for (
    let waited = 0;
    (await app.store.rateLimits.peek(counted, Date.now())).count === before;
    waited += 20
  ) {
    if (waited > 5_000) throw new Error("the decline was never counted");
    await new Promise((r) => setTimeout(r, 20));
  }
  return created.body.id;
}

/** Asserts a 429 with a `Retry-After` of 1 to `maxSeconds` and the API's JSON message. */
function assertLimited(res: JsonAnswer, maxSeconds: number, message: RegExp): void {
  assert.equal(res.status, 429, JSON.stringify(res.body));
  const retry = Number(res.headers.get("retry-after"));
  assert.ok(Number.isInteger(retry) && retry >= 1 && retry <= maxSeconds, `Retry-After ${retry}`);
  assert.equal(res.body.statusCode, 429);
  assert.match(res.body.message, message);
}

const limits = (env: Record<string, string>) => ({
  TRUST_PROXY: "1",
  RATE_LIMIT_WINDOW_SECONDS: "600",
  RATE_LIMIT_PER_ADDRESS: "1000",
  RATE_LIMIT_GLOBAL: "1000",
  ...env,
});

backendTest(
  "rate limits: donors per address, then 429 with Retry-After; IPv6 by its /64",
  async (t, open) => {
    const app = await startTestApp({ store: await open(), env: limits({ RATE_LIMIT_PER_ADDRESS: "3" }) });
    try {
      await t.step("an IPv4 address gets 3 donors, then 429; another address is not affected", async () => {
        for (let i = 0; i < 3; i++) assert.equal((await donor(app, "203.0.113.7")).status, 201);
        assertLimited(await donor(app, "203.0.113.7"), 600, /Too many requests/);
        assertLimited(await donor(app, "203.0.113.7"), 600, /Too many requests/);
        assert.equal((await donor(app, "203.0.113.8")).status, 201);
        const warned = app.logs.filter((l) => l.msg === "rate limited");
        assert.equal(warned.length, 2, "one warning line per refusal, for whoever watches the logs");
        assert.equal(warned[0].action, "donor");
        // A bad request is answered as such, and counts nothing.
        const bad = await api(app.url, "POST", "/api/user", { firstName: "" }, from("203.0.113.9"));
        assert.equal(bad.status, 400);
        for (let i = 0; i < 2; i++) assert.equal((await donor(app, "203.0.113.9")).status, 201);
      });

      await t.step("IPv6 addresses in one /64 share a bucket, whatever their spelling", async () => {
        for (
          const address of [
            "2001:db8:1:2::1",
            "2001:DB8:1:2:ffff::9",
            "2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd",
          ]
        ) {
          assert.equal((await donor(app, address)).status, 201, address);
        }
        assertLimited(await donor(app, "2001:db8:1:2:7::77"), 600, /Too many requests/);
        assert.equal((await donor(app, "2001:db8:1:3::1")).status, 201, "the next /64 is another client");
        // An IPv4-mapped address is its IPv4 address.
        assertLimited(await donor(app, "::ffff:203.0.113.7"), 600, /Too many requests/);
      });
    } finally {
      await app.close();
    }
  },
);

backendTest("rate limits: the global limit, and payments counted apart from donors", async (t, open) => {
  const app = await startTestApp({
    store: await open(),
    env: limits({ RATE_LIMIT_PER_ADDRESS: "2", RATE_LIMIT_GLOBAL: "4" }),
  });
  try {
    await t.step("everyone together gets 4 donors; the fifth address is refused", async () => {
      const ids: string[] = [];
      for (const address of ["198.51.100.1", "198.51.100.2", "198.51.100.3", "198.51.100.4"]) {
        const res = await donor(app, address);
        assert.equal(res.status, 201);
        ids.push(res.body.id);
      }
      assertLimited(await donor(app, "198.51.100.5"), 600, /Too many requests/);

      // Payments have limits of their own: 2 per address, 4 in all.
      assert.equal((await payment(app, "198.51.100.1", ids[0])).status, 200);
      assert.equal((await payment(app, "198.51.100.1", ids[1])).status, 200);
      assertLimited(await payment(app, "198.51.100.1", ids[2]), 600, /Too many requests/);
      assert.equal((await payment(app, "198.51.100.2", ids[2])).status, 200);
      assert.equal((await payment(app, "198.51.100.3", ids[3])).status, 200);
      assertLimited(await payment(app, "198.51.100.6", ids[3]), 600, /Too many requests/);
    });
  } finally {
    await app.close();
  }
});

backendTest("rate limits: declines per email and per address stop new payments", async (t, open) => {
  const app = await startTestApp({
    store: await open(),
    env: limits({
      DECLINE_LIMIT_PER_EMAIL: "2",
      DECLINE_LIMIT_PER_ADDRESS: "3",
      DECLINE_WINDOW_SECONDS: "3600",
    }),
  });
  try {
    await t.step("two declines of one email: its next payment is refused, anywhere", async () => {
      const email = "tester@example.org";
      const first = await declined(app, "192.0.2.1", email);
      await declined(app, "192.0.2.2", email);
      assertLimited(await payment(app, "192.0.2.1", first), 3600, /Too many declined payments/);
      assert.ok(app.logs.some((l) => l.msg === "payment refused: too many declines"));
      // A new donor with the same email (in another case) from a third address is refused too.
      const again = await donor(app, "192.0.2.3", "Tester@Example.org");
      assertLimited(await payment(app, "192.0.2.3", again.body.id), 3600, /declined/);
      // Another email from those addresses still pays.
      const other = await donor(app, "192.0.2.3");
      assert.equal((await payment(app, "192.0.2.3", other.body.id)).status, 200);
    });

    await t.step(
      "three declines from one address (different emails): its next payment is refused",
      async () => {
        for (let i = 0; i < 3; i++) await declined(app, "2001:db8:cafe:1::10");
        // A new email from the same /64.
        const next = await donor(app, "2001:db8:cafe:1::99");
        assertLimited(await payment(app, "2001:db8:cafe:1::99", next.body.id), 3600, /declined/);
        // The same donor from elsewhere is not refused: its email has no declines.
        assert.equal((await payment(app, "192.0.2.50", next.body.id)).status, 200);
      },
    );
  } finally {
    await app.close();
  }
});

backendTest("rate limits: admin registration per address and globally", async (t, open) => {
  const app = await startTestApp({
    store: await open(),
    env: limits({ REGISTRATION_LIMIT_PER_ADDRESS: "2", REGISTRATION_LIMIT_GLOBAL: "3" }),
  });
  const register = (address: string, n: number) =>
    api(
      app.url,
      "POST",
      "/api/auth/admin/register",
      { email: `admin${n}@museum.org`, password: "correct horse battery staple", name: `Admin ${n}` },
      from(address),
    );
  try {
    await t.step("2 per address, then 429; 3 in all", async () => {
      assert.equal((await register("203.0.113.20", 1)).status, 201);
      assert.equal((await register("203.0.113.20", 2)).status, 201);
      assertLimited(await register("203.0.113.20", 3), 3600, /Too many requests/);
      assert.equal((await register("203.0.113.21", 4)).status, 201);
      assertLimited(await register("203.0.113.22", 5), 3600, /Too many requests/);
      assert.equal(await app.store.admins.getByEmail("admin5@museum.org"), null, "nothing was created");
    });
  } finally {
    await app.close();
  }
});

backendTest(
  "rate limits: a decline is counted once, whoever records it (return, notification, reconciliation)",
  async (t, open) => {
    const store = await open();
    const { log } = capturedLog();
    const settings = (await loadConfig({
      APP_SECRET: "a-test-secret-that-is-long-enough-0123",
      DECLINE_LIMIT_PER_EMAIL: "2",
    }))
      .rateLimits;
    // The context every completion path builds: no request, no client address; only the settings.
    const ctx = { store, log, provider: { id: "sandbox" } as PaymentProvider, rateLimits: settings };
    const donor = await seedDonor(store);
    const recordDeclined = async (payment: Payment) =>
      await recordResult(ctx, payment, {
        providerRef: `ref-${payment.id}`,
        statusCode: "033",
        errorMessage: "declined (test)",
        amount: payment.amount,
        currency: payment.currency,
        resultData: null,
        cardToken: null,
      });
    await t.step("the same decline recorded twice counts once; a second one reaches the cap", async () => {
      const first = paymentFixture({ donorId: donor.id });
      await admitPayment(store, settings, {
        email: donor.email,
        address: "192.0.2.77",
        paymentId: first.id,
        countRequest: false,
      });
      await recordDeclined(first);
      await recordDeclined(first);
      const client = { email: donor.email, address: "192.0.2.77", paymentId: "probe", countRequest: false };
      await admitPayment(store, settings, client);
      assert.equal((await store.rateLimits.peek("declines:addr:192.0.2.77", Date.now())).count, 1);
      await recordDeclined(paymentFixture({ donorId: donor.id }));
      await assert.rejects(() => admitPayment(store, settings, client), RateLimitedError);
      // A kiosk's declines are not card testing: not counted.
      const other = await store.donors.create({ ...donor, id: "kiosk-donor", email: "kiosk@example.org" });
      await recordDeclined(paymentFixture({ donorId: other.id, channel: "terminal", shopNumber: "7" }));
      await admitPayment(store, settings, { ...client, email: other.email, address: "192.0.2.78" });
    });
  },
);

backendTest("rate limits: the daily retention sweep deletes ended windows and origins", async (t, open) => {
  const store = await open();
  const { log } = capturedLog();
  await t.step("PostgreSQL deletes them; Deno KV has nothing to sweep (its keys expire)", async () => {
    const now = Date.now();
    await store.rateLimits.hit("donor:addr:192.0.2.200", 5, 1_000, now - 60_000);
    await store.rateLimits.hit("donor:addr:192.0.2.201", 5, 600_000, now);
    await store.rateLimits.rememberOrigin("old-payment", "192.0.2.200", 1_000, now - 60_000);
    const report = await runRetentionSweep({ store, log });
    assert.deepEqual(report.failed, []);
    assert.equal(report.rateLimits, store.kind === "postgres" ? 2 : 0);
    assert.equal(
      (await store.rateLimits.peek("donor:addr:192.0.2.201", Date.now())).count,
      1,
      "an open window stays",
    );
  });
});
