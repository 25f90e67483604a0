/**
 * The limiter: address buckets (IPv6 by /64), the order of the two limits (a refused client uses
 * none of everyone's budget), the decline caps, and the HTTP answer of a refusal.
 */
import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "@/lib/app/config.ts";
import { errorAnswer, errorResponse } from "@/lib/http/domain_errors.ts";
import {
  addressBucket,
  limitRequest,
  RateLimitedError,
  type RateLimitSettings,
  recordDecline,
} from "./rate_limits.ts";
import { openStore } from "@/lib/storage/mod.ts";
import type { Store } from "@/lib/storage/types.ts";
import { admitPayment } from "@/tests/helpers/rate_limits.ts";

const SETTINGS: RateLimitSettings = {
  windowMs: 60_000,
  perAddress: 2,
  global: 3,
  registrationsPerAddress: 1,
  registrationsGlobal: 5,
  declineWindowMs: 3_600_000,
  declinesPerEmail: 2,
  declinesPerAddress: 3,
};

Deno.test("addressBucket: IPv4 as is; IPv6 by its /64, however written; IPv4-mapped as IPv4", () => {
  const cases: [string, string][] = [
    ["203.0.113.7", "203.0.113.7"],
    [" 203.0.113.7 ", "203.0.113.7"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:0DB8:0001:0002:ffff:0:0:1", "2001:db8:1:2::/64"],
    ["2001:db8:1:2::", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["[2001:db8:1:2::9]", "2001:db8:1:2::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["::", "0:0:0:0::/64"],
    ["::ffff:198.51.100.4", "198.51.100.4"],
    ["64:ff9b::198.51.100.4", "64:ff9b:0:0::/64"],
    ["unknown", "unknown"],
    // Not an address: kept as given (lowercased), so it is still a bucket of its own.
    ["1:2:3", "1:2:3"],
    ["1::2::3", "1::2::3"],
    ["2001:db8:1:2:3:4:5:6:7", "2001:db8:1:2:3:4:5:6:7"],
    ["::ffff:300.1.1.1", "::ffff:300.1.1.1"],
  ];
  for (const [address, bucket] of cases) assert.equal(addressBucket(address), bucket, address);
});

Deno.test("limitRequest: the address first, then everyone; a refused client spends none of the global budget", async () => {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    const now = 1_700_000_000_000;
    await limitRequest(store, SETTINGS, "donor", "192.0.2.1", now);
    await limitRequest(store, SETTINGS, "donor", "192.0.2.1", now);
    const refused = await limitRequest(store, SETTINGS, "donor", "192.0.2.1", now + 10_000).catch((e) => e);
    assert.ok(refused instanceof RateLimitedError);
    assert.equal(refused.retryAfterSeconds, 50);
    assert.equal(refused.reason, "requests");
    // The refused hit did not count globally: one more client gets the third global slot.
    await limitRequest(store, SETTINGS, "donor", "192.0.2.2", now);
    await assert.rejects(() => limitRequest(store, SETTINGS, "donor", "192.0.2.3", now), RateLimitedError);
    // Actions are counted apart; registration has its own window (an hour).
    await limitRequest(store, SETTINGS, "payment", "192.0.2.1", now);
    await limitRequest(store, SETTINGS, "registration", "192.0.2.1", now);
    const registration = await limitRequest(store, SETTINGS, "registration", "192.0.2.1", now).catch((e) =>
      e
    );
    assert.equal(registration.retryAfterSeconds, 3600);
    // The window ends: counting starts again.
    await limitRequest(store, SETTINGS, "donor", "192.0.2.1", now + 60_000);
  } finally {
    await store.close();
  }
});

/** A payment start's decline check alone: not counted, its origin remembered under a probe id. */
const refuseAfterDeclines = (
  store: Store,
  settings: RateLimitSettings,
  client: { email: string; address: string },
  now: number,
) => admitPayment(store, settings, { ...client, paymentId: `probe-${now}`, countRequest: false }, now);

/** A payment started from `address`: its origin remembered (its donor's email is never near a cap). */
const rememberPaymentOrigin = (store: Store, paymentId: string, address: string, now: number) =>
  admitPayment(
    store,
    SETTINGS,
    { email: "origin@example.org", address, paymentId, countRequest: false },
    now,
  );

Deno.test("decline caps: counted against the email and the payment's origin; refused at the cap", async () => {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    const now = 1_700_000_000_000;
    const client = { email: "Card@Tester.example", address: "2001:db8:9:9::1" };
    await refuseAfterDeclines(store, SETTINGS, client, now);
    await rememberPaymentOrigin(store, "pay-1", "2001:db8:9:9::2", now);
    await recordDecline(store, SETTINGS, { paymentId: "pay-1", email: "card@tester.example" }, now);
    await refuseAfterDeclines(store, SETTINGS, client, now);
    // A payment whose origin is unknown (started before, or by no request) counts for the email only.
    await recordDecline(store, SETTINGS, { paymentId: "pay-unknown", email: "card@tester.example" }, now + 1);
    const refused = await refuseAfterDeclines(store, SETTINGS, client, now + 1_000).catch((e) => e);
    assert.ok(refused instanceof RateLimitedError);
    assert.equal(refused.reason, "declines");
    assert.equal(refused.retryAfterSeconds, 3599);
    // Another email from the same /64: one decline there so far, under its cap of 3.
    await refuseAfterDeclines(
      store,
      SETTINGS,
      { email: "other@example.org", address: "2001:db8:9:9::7" },
      now,
    );
    for (const id of ["pay-2", "pay-3"]) {
      await rememberPaymentOrigin(store, id, "2001:db8:9:9::3", now);
      await recordDecline(store, SETTINGS, { paymentId: id, email: `${id}@example.org` }, now);
    }
    await assert.rejects(
      () =>
        refuseAfterDeclines(store, SETTINGS, { email: "other@example.org", address: "2001:db8:9:9::7" }, now),
      RateLimitedError,
    );
    // After the window, both are free again.
    await refuseAfterDeclines(store, SETTINGS, client, now + 3_600_000);
  } finally {
    await store.close();
  }
});

Deno.test("paymentAdmission: one call counts the start, checks the caps, remembers the origin only when admitted", async () => {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    const now = 1_700_000_000_000;
    const start = (paymentId: string, address = "192.0.2.9", countRequest = true) =>
      admitPayment(store, SETTINGS, { email: "donor@example.org", address, paymentId, countRequest }, now);
    await start("p1");
    await start("p2");
    // The third from one address is over its limit of 2: refused, and its origin is not kept.
    const refused = await start("p3").catch((e) => e);
    assert.ok(refused instanceof RateLimitedError);
    assert.equal(refused.reason, "requests");
    assert.equal(refused.retryAfterSeconds, 60);
    assert.equal(await store.rateLimits.originOf("p1", now), "192.0.2.9");
    assert.equal(await store.rateLimits.originOf("p3", now), null);
    // Not counted (counted before), it passes the limit and is remembered.
    await start("p4", "192.0.2.9", false);
    assert.equal(await store.rateLimits.originOf("p4", now), "192.0.2.9");
    assert.equal((await store.rateLimits.peek("payment:addr:192.0.2.9", now)).count, 3);
    // The global limit of 3 was reached by the first two and the refused third's address: another
    // address still counts against it.
    assert.equal((await store.rateLimits.peek("payment:all", now)).count, 2);
    await start("p5", "192.0.2.10");
    const global = await start("p6", "192.0.2.11").catch((e) => e);
    assert.equal(global.reason, "requests");
  } finally {
    await store.close();
  }
});

Deno.test("RateLimitedError: 429, Retry-After in seconds, the API's JSON message", async () => {
  const res = errorResponse(errorAnswer(new RateLimitedError(42, "requests"))!);
  assert.equal(res.status, 429);
  assert.equal(res.headers.get("retry-after"), "42");
  assert.deepEqual(await res.json(), {
    message: "Too many requests; try again in 42 seconds",
    statusCode: 429,
  });
  const declines = errorResponse(errorAnswer(new RateLimitedError(3600, "declines"))!);
  assert.equal(declines.status, 429);
  assert.equal(declines.headers.get("retry-after"), "3600");
});

Deno.test("config: the limits' defaults, and a bad value stops start-up naming the setting", async () => {
  const base = { APP_SECRET: "a-test-secret-that-is-long-enough-0123" };
  assert.deepEqual((await loadConfig(base)).rateLimits, {
    windowMs: 600_000,
    perAddress: 120,
    global: 1200,
    registrationsPerAddress: 10,
    registrationsGlobal: 50,
    declineWindowMs: 3_600_000,
    declinesPerEmail: 5,
    declinesPerAddress: 30,
  });
  const set = await loadConfig({ ...base, RATE_LIMIT_WINDOW_SECONDS: "60", DECLINE_LIMIT_PER_EMAIL: " 3 " });
  assert.equal(set.rateLimits.windowMs, 60_000);
  assert.equal(set.rateLimits.declinesPerEmail, 3);
  for (
    const [name, value] of [
      ["RATE_LIMIT_PER_ADDRESS", "0"],
      ["RATE_LIMIT_GLOBAL", "-5"],
      ["RATE_LIMIT_WINDOW_SECONDS", "86401"],
      ["DECLINE_WINDOW_SECONDS", "1h"],
      ["REGISTRATION_LIMIT_PER_ADDRESS", "1.5"],
    ]
  ) {
    await assert.rejects(
      () => loadConfig({ ...base, [name]: value }),
      (e: Error) =>
        e instanceof ConfigError && e.message.startsWith(`${name}: must be a whole number from 1 to `),
    );
  }
});
