/**
 * Memberships' tests share this: the real payment code on the sandbox, at a time the test sets
 * (gifts completed twice, as the return and the notification do; billing's passes; the view).
 *
 * @module
 */
import assert from "node:assert/strict";
import { createLogger } from "@/lib/core/log.ts";
import { completePayment } from "@/lib/donations/completion.ts";
import { createOnlinePayment } from "@/lib/donations/online.ts";
import type { PaymentsContext } from "@/lib/donations/service.ts";
import { readMembership } from "@/lib/memberships/mod.ts";
import { runBillingPass } from "@/lib/monthly_gifts/billing.ts";
import { createSandboxProvider } from "@/lib/providers/sandbox/sandbox.ts";
import type { Donor, Store } from "@/lib/storage/types.ts";
import { GOOD_CARD } from "./payments.ts";
import { newId } from "@/lib/core/ids.ts";
import { newMemberNumber } from "@/lib/memberships/mod.ts";

export const DAY = 86_400_000;
export const T0 = Date.parse("2026-03-10T09:00:00.000Z");
export const at = (days: number) => new Date(T0 + days * DAY);
export const quiet = createLogger(() => {});
const CARD = { expiry: "12/30", cvv: "123", idNumber: "123456789" };

/** The payment code on the sandbox, at a time the test sets. */
export function world(store: Store) {
  let now = at(0);
  const provider = createSandboxProvider({
    store,
    origin: "http://localhost",
    secret: "s".repeat(40),
    terminalMode: "manual",
    notify: () => Promise.resolve(),
  });
  const payments: PaymentsContext = {
    store,
    provider,
    log: quiet,
    origin: "http://localhost",
    maxAmount: 100_000,
    monthlyEnabled: true,
    now: () => now,
  };
  let donors = 0;
  return {
    provider,
    setNow: (when: Date) => now = when,
    async donor(email: string): Promise<Donor> {
      return await store.donors.create({
        id: `donor_${++donors}_${crypto.randomUUID().slice(0, 8)}`,
        firstName: "Dana",
        lastName: "Levi",
        email,
        country: "Israel",
        createdAt: now.toISOString(),
        paymentDate: null,
        nextPaymentDate: null,
        monthlyPaymentAvailable: false,
        israeliId: null,
      });
    },
    /** A gift paid at `when` (major units), completed twice, as the return and the notification do. */
    async give(
      donor: Donor,
      when: Date,
      gift: {
        amount: number;
        currency?: 1 | 2;
        levelId?: number;
        isMonthly?: boolean;
        /** A gift membership for someone else (issue 28). */
        gift?: {
          name: string;
          email: string;
          deliverOn: string;
          message: string;
          reminders: string;
          language: string;
        };
      },
    ) {
      now = when;
      const { payment } = await createOnlinePayment(payments, {
        amount: gift.amount,
        currency: gift.currency ?? 1,
        userId: donor.id,
        isMonthly: gift.isMonthly ?? false,
        language: "en",
        levelId: gift.levelId,
        gift: gift.gift && {
          giftName: gift.gift.name,
          giftEmail: gift.gift.email,
          giftDate: gift.gift.deliverOn,
          giftMessage: gift.gift.message,
          giftReminders: gift.gift.reminders,
          giftLanguage: gift.gift.language,
        },
      });
      const done = await provider.submitCard(payment.providerRef!, { cardNumber: GOOD_CARD, ...CARD });
      assert.equal(done.status, "done");
      const first = await completePayment(payments, payment);
      assert.equal(first.outcome, "succeeded");
      const again = await completePayment(payments, (await store.payments.get(payment.id))!);
      assert.equal(again.transaction?.id, first.transaction?.id);
      return { payment, transaction: first.transaction! };
    },
    billing: (when: Date) => runBillingPass({ store, provider, log: quiet, holder: "test", now: () => when }),
    view: (email: string, when: Date) => readMembership({ store }, email, when),
  };
}

const YEAR = 365 * 86_400_000;

/** A member now: Dana Levi of dana@example.org (or `who`), joined a second ago at `levelId` for a year. */
export async function memberFixture(
  store: Store,
  levelId: number,
  who = { firstName: "Dana", lastName: "Levi", email: "dana@example.org" },
) {
  const now = Date.now();
  const donor = await store.donors.create({
    id: newId(),
    ...who,
    country: "Israel",
    createdAt: new Date(now).toISOString(),
    paymentDate: null,
    nextPaymentDate: null,
    monthlyPaymentAvailable: false,
    israeliId: null,
  });
  const membership = await store.memberships.change({
    email: donor.email,
    apply: () => ({
      number: newMemberNumber(),
      donorId: donor.id,
      subscriptionId: null,
      terms: [{
        levelId,
        start: new Date(now - 1000).toISOString(),
        end: new Date(now + YEAR).toISOString(),
        kind: "join",
        transactionId: "tx_join",
        subscriptionId: null,
        amount: 25_000,
        currency: 1,
        charges: 1,
      }],
    }),
  }, new Date(now).toISOString());
  return { donor, membership: membership! };
}
