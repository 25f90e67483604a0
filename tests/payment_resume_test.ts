/**
 * A donation repeated after its first attempt died midway (storage went away in the middle of the
 * request), on both backends: the repeat neither waits out the dedupe window nor charges twice.
 * - online: a payment left without its page is closed once it is 20 s old, and a new one starts;
 * - kiosk: the earlier sale is looked up at the provider: approved, it is recorded and answered
 *   again (one charge); declined, timed out or never sent, a new sale starts. A payment is marked
 *   finished only after all its effects, so one interrupted after its sale stays pending and its
 *   repeat answers the same sale instead of charging again.
 */
import assert from "node:assert/strict";
import { createLogger } from "@/lib/core/log.ts";
import { createSandboxProvider } from "@/lib/providers/sandbox/sandbox.ts";
import { createOnlinePayment } from "@/lib/donations/online.ts";
import type { PaymentsContext } from "@/lib/donations/service.ts";
import { terminalPayment } from "@/lib/kiosk/terminal_sales.ts";
import { type Payment, StorageUnavailableError, type Store } from "@/lib/storage/types.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { seedDonor } from "@/tests/helpers/fixtures.ts";

/** `store`, going down (every call throws StorageUnavailableError) right after a chosen call. */
function flaky(store: Store) {
  let down = false;
  let trigger: { call: string; when: (args: unknown[]) => boolean } | null = null;
  const wrap = <T extends object>(name: string, repo: T): T =>
    new Proxy(repo, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (typeof value !== "function") return value;
        return async (...args: unknown[]) => {
          if (down) throw new StorageUnavailableError(`down (${name}.${String(prop)})`);
          const result = await value.apply(target, args);
          if (trigger?.call === `${name}.${String(prop)}` && trigger.when(args)) {
            down = true;
            trigger = null;
          }
          return result;
        };
      },
    });
  const proxied = { ...store } as Store;
  for (const name of ["donors", "payments", "transactions", "sandbox", "subscriptions"] as const) {
    (proxied as unknown as Record<string, unknown>)[name] = wrap(name, store[name]);
  }
  return {
    store: proxied,
    /** Goes down right after `call` (e.g. `payments.createOrReuse`) returns, when `when` holds. */
    downAfter(call: string, when: (args: unknown[]) => boolean = () => true) {
      trigger = { call, when };
    },
    up() {
      down = false;
    },
  };
}

async function setup(open: () => Promise<Store>) {
  const store = await open();
  const f = flaky(store);
  let now = Date.now();
  const ctx: PaymentsContext = {
    store: f.store,
    provider: createSandboxProvider({
      store: f.store,
      origin: "http://localhost",
      secret: "s".repeat(40),
      terminalMode: "approve",
      pollMs: 10,
    }),
    log: createLogger(() => {}),
    origin: "http://localhost",
    maxAmount: 100_000,
    monthlyEnabled: true,
    now: () => new Date(now),
  };
  const donor = await seedDonor(store);
  return { store, f, ctx, donor, later: (ms: number) => now += ms };
}

const sale = (userId: string) => ({
  amount: 100,
  currency: 1 as const,
  userId,
  language: "en" as const,
  shopNumber: "7",
});

backendTest("payments: a repeat after an interrupted attempt", async (t, open) => {
  await t.step(
    "online: a payment left without its page is closed after 20 s; the repeat starts anew",
    async () => {
      const { store, f, ctx, donor, later } = await setup(open);
      const input = {
        amount: 100,
        currency: 1 as const,
        userId: donor.id,
        isMonthly: false,
        language: "en" as const,
      };
      let left = "";
      f.downAfter("payments.createOrReuse", (args) => {
        left = (args[0] as Payment).id;
        return true;
      });
      await assert.rejects(() => createOnlinePayment(ctx, input), StorageUnavailableError);
      f.up();
      assert.equal((await store.payments.get(left))?.pageUrl, null, "left without its page");
      later(21_000);
      const { url, payment } = await createOnlinePayment(ctx, input);
      assert.notEqual(payment.id, left);
      assert.match(url, /\/sandbox\/pay\//);
      assert.equal((await store.payments.get(left))?.status, "failed", "the one left behind is closed");
      const again = await createOnlinePayment(ctx, input);
      assert.equal(again.payment.id, payment.id, "a repeat now answers the new one");
    },
  );

  await t.step(
    "kiosk: approved but not recorded when storage went away: recorded once, answered again",
    async () => {
      const { store, f, ctx, donor } = await setup(open);
      f.downAfter("sandbox.transition", (args) => args[2] === "paid");
      await assert.rejects(
        () => terminalPayment(ctx, sale(donor.id), "sim-7", 5_000),
        StorageUnavailableError,
      );
      f.up();
      const repeat = await terminalPayment(ctx, sale(donor.id), "sim-7", 5_000);
      assert.equal(repeat.StatusCode, "000");
      const ref = repeat.ResultData.TransactionId!;
      const tx = await store.transactions.getByProviderId("sandbox", ref);
      assert.equal(tx?.kind, "success");
      const sandbox = await store.sandbox.get(ref);
      const payment = await store.payments.get(sandbox!.reference);
      assert.equal(payment?.status, "succeeded");
      assert.equal((await store.sandbox.listByTerminal("sim-7", "paid")).length, 1, "charged once");
    },
  );

  await t.step(
    "kiosk: recorded, storage gone before the payment is marked: the repeat answers that sale",
    async () => {
      const { store, f, ctx, donor } = await setup(open);
      // Everything but the payment's own status is done when storage goes away.
      f.downAfter("donors.update");
      await assert.rejects(
        () => terminalPayment(ctx, sale(donor.id), "sim-7", 5_000),
        StorageUnavailableError,
      );
      f.up();
      const [recorded] = (await store.transactions.listSuccess({ page: 1, limit: 10 })).data;
      const repeat = await terminalPayment(ctx, sale(donor.id), "sim-7", 5_000);
      assert.equal(repeat.StatusCode, "000");
      assert.equal(repeat.ResultData.TransactionId, recorded.providerTransactionId, "the same sale");
      assert.equal((await store.sandbox.listByTerminal("sim-7", "paid")).length, 1, "charged once");
      assert.equal((await store.transactions.listSuccess({ page: 1, limit: 10 })).total, 1);
    },
  );

  await t.step(
    "kiosk: a sale left waiting past its deadline is closed as timed out; a new one starts",
    async () => {
      const { store, f, ctx, donor } = await setup(open);
      f.downAfter("sandbox.create");
      await assert.rejects(() => terminalPayment(ctx, sale(donor.id), "sim-7", 100), StorageUnavailableError);
      f.up();
      await new Promise((r) => setTimeout(r, 150));
      const repeat = await terminalPayment(ctx, sale(donor.id), "sim-7", 100);
      assert.equal(repeat.StatusCode, "000");
      assert.equal((await store.sandbox.listByTerminal("sim-7", "timeout")).length, 1);
      assert.equal((await store.sandbox.listByTerminal("sim-7", "paid")).length, 1);
      const errors = await store.transactions.listErrors({ page: 1, limit: 10 });
      assert.deepEqual(
        errors.data.map((e) => e.statusCode),
        ["512"],
        "the closed sale is recorded, uncharged",
      );
    },
  );

  await t.step(
    "kiosk: never sent: 409 while it may still be starting, a new sale once abandoned",
    async () => {
      const { store, f, ctx, donor, later } = await setup(open);
      f.downAfter("payments.createOrReuse");
      await assert.rejects(
        () => terminalPayment(ctx, sale(donor.id), "sim-7", 5_000),
        StorageUnavailableError,
      );
      f.up();
      await assert.rejects(() => terminalPayment(ctx, sale(donor.id), "sim-7", 5_000), /already waiting/);
      later(21_000);
      const repeat = await terminalPayment(ctx, sale(donor.id), "sim-7", 5_000);
      assert.equal(repeat.StatusCode, "000");
      assert.equal((await store.sandbox.listByTerminal("sim-7", "paid")).length, 1);
    },
  );
});
