/**
 * Fixtures of the card-update tests (`lib/monthly_gifts/card_update*_test.ts`): a store with one donor's
 * active monthly gift, and a card-update context on the sandbox provider, at a fixed clock.
 *
 * @module
 */
import { createLogger } from "@/lib/core/log.ts";
import type { CardUpdateContext } from "@/lib/monthly_gifts/card_update.ts";
import { createSandboxProvider } from "@/lib/providers/sandbox/sandbox.ts";
import { openStore } from "@/lib/storage/mod.ts";
import type { Store, Subscription } from "@/lib/storage/types.ts";
import { donorFixture, subscriptionFixture } from "@/tests/storage/fixtures.ts";
import type { TestApp } from "./app.ts";
import assert from "node:assert/strict";

/** The monthly donor of the gift tests. */
export const DANA = { firstName: "Dana", lastName: "Levi", email: "dana@example.org", country: "Israel" };

export const NOW = new Date("2026-03-12T09:00:00.000Z");
export const ORIGIN = "http://museum.test";
export const log = createLogger(() => {});
/** The donor session and client the card-update tests start checks as. */
export const CLIENT = { session: "test-session-hash", address: "192.0.2.10", email: DANA.email };
export const GOOD = { cardNumber: "4580 1234 5678 9015", expiry: "12/30", cvv: "123", idNumber: "123456789" };

/** A store with one donor and their active monthly gift on `provider`, charged to card ...4580. */
export async function withGift(
  provider: string,
  fn: (store: Store, sub: Subscription, donorId: string) => Promise<void>,
  overrides: Partial<Subscription> = {},
) {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    const donorId = `donor_${crypto.randomUUID()}`;
    await store.donors.create(donorFixture({
      id: donorId,
      ...DANA,
      createdAt: "2026-01-10T09:00:00.000Z",
      paymentDate: "2026-02-10T09:00:00.000Z",
      nextPaymentDate: "2026-04-10T09:00:00.000Z",
      monthlyPaymentAvailable: true,
    }));
    const sub = await store.subscriptions.create({
      id: `sub_${crypto.randomUUID()}`,
      donorId,
      amount: 5_000,
      currency: 1,
      provider,
      token: "tok_old",
      cardMasked: "458045******4580",
      language: "he",
      status: "active",
      createdAt: "2026-01-10T09:00:00.000Z",
      paymentDate: "2026-02-10T09:00:00.000Z",
      nextPaymentDate: "2026-04-10T09:00:00.000Z",
      failedAttempts: 0,
      retryAt: null,
      cancelledAt: null,
      ...overrides,
    });
    await fn(store, sub, donorId);
  } finally {
    await store.close();
  }
}

export function sandboxContext(store: Store, notified: unknown[] = []) {
  const provider = createSandboxProvider({
    store,
    origin: ORIGIN,
    secret: "sandbox-secret",
    terminalMode: "manual",
    notify: (_url, body) => {
      notified.push(body);
      return Promise.resolve();
    },
  });
  const ctx: CardUpdateContext = { store, provider, log, origin: ORIGIN, client: CLIENT, now: () => NOW };
  return { ctx, provider };
}

/**
 * A donor of `email` with an active monthly gift on the sandbox (50.00 NIS, charged to card
 * ...4580), stored in `store`: what the portal's card-update tests press "Update card" on.
 */
export async function portalGift(store: Store, email: string): Promise<Subscription> {
  const donor = donorFixture({ email });
  await store.donors.create(donor);
  return await store.subscriptions.create(subscriptionFixture({
    donorId: donor.id,
    provider: "sandbox",
    token: `tok_old_${crypto.randomUUID()}`,
    cardMasked: "458045******4580",
    amount: 5_000,
    currency: 1,
    nextPaymentDate: "2099-01-10T09:00:00.000Z",
  }));
}

/** Presses "Update card" of `subscriptionId` as a same-origin form post. */
export function pressUpdate(
  app: TestApp,
  lang: string,
  subscriptionId: string,
  cookie: string | null,
  origin = app.url,
  extra: Record<string, string> = {},
) {
  const headers: Record<string, string> = {
    origin,
    "content-type": "application/x-www-form-urlencoded",
    ...extra,
  };
  if (cookie) headers.cookie = cookie;
  return fetch(`${app.url}/${lang}/account/card/${encodeURIComponent(subscriptionId)}`, {
    method: "POST",
    headers,
    body: "",
    redirect: "manual",
  });
}

/** Presses "Update card" and answers the sandbox page it sends the browser to. */
export async function startUpdate(
  app: TestApp,
  lang: string,
  sub: Subscription,
  cookie: string,
): Promise<string> {
  const res = await pressUpdate(app, lang, sub.id, cookie);
  await res.body?.cancel();
  assert.equal(res.status, 303);
  const location = res.headers.get("location")!;
  assert.match(location, new RegExp(`^${app.url}/sandbox/pay/[A-Za-z0-9_-]{16,64}$`));
  return location;
}
