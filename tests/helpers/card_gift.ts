/**
 * Fixtures of the card-update tests (`lib/payments/card_update*_test.ts`): a store with one donor's
 * active monthly gift, and a card-update context on the sandbox provider, at a fixed clock.
 *
 * @module
 */
import { createLogger } from "../../lib/log.ts";
import type { CardUpdateContext } from "../../lib/payments/card_update.ts";
import { createSandboxProvider } from "../../lib/payments/sandbox.ts";
import { openStore } from "../../lib/storage/mod.ts";
import type { Store, Subscription } from "../../lib/storage/types.ts";
import { donorFixture } from "../storage/fixtures.ts";

/** The monthly donor of the gift tests. */
export const DANA = { firstName: "Dana", lastName: "Levi", email: "dana@example.org", country: "Israel" };

export const NOW = new Date("2026-03-12T09:00:00.000Z");
export const ORIGIN = "http://museum.test";
export const log = createLogger(() => {});
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
  const ctx: CardUpdateContext = { store, provider, log, origin: ORIGIN, now: () => NOW };
  return { ctx, provider };
}
