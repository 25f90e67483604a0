/**
 * Monthly billing in the reliability tests: due subscriptions seeded straight into storage, and a
 * check, in PostgreSQL, that each was charged exactly once (at the sandbox "bank" and in our
 * books) and moved on to its next month.
 *
 * @module
 */
import type postgres from "postgres";
import { newId } from "@/lib/core/ids.ts";
import type { Store, Subscription } from "@/lib/storage/types.ts";

/** `count` active subscriptions due at `due`, each with a sandbox card token. */
export async function seedDueSubscriptions(store: Store, count: number, due: Date): Promise<Subscription[]> {
  const subs: Subscription[] = [];
  const one = async (i: number) => {
    const donorId = newId();
    await store.donors.create({
      id: donorId,
      firstName: "Monthly",
      lastName: String(i),
      email: `monthly${i}@example.org`,
      country: "Israel",
      createdAt: due.toISOString(),
      paymentDate: null,
      nextPaymentDate: due.toISOString(),
      monthlyPaymentAvailable: true,
      israeliId: null,
    });
    const token = `tok_${newId()}`;
    await store.sandbox.create({
      ref: token,
      kind: "token",
      status: "active",
      reference: donorId,
      terminalId: null,
      amount: 2000,
      currency: 1,
      createdAt: due.toISOString(),
      updatedAt: due.toISOString(),
      data: { card: "4580123456789015", cardMasked: "458012******9015" },
    });
    subs.push(
      await store.subscriptions.create({
        id: `sub_${newId()}`,
        donorId,
        amount: 2000,
        currency: 1,
        provider: "sandbox",
        token,
        cardMasked: "458012******9015",
        language: "en",
        status: "active",
        // Started a month before `due`, on the same day and time: due again a month after it.
        createdAt: new Date(
          Date.UTC(due.getUTCFullYear(), due.getUTCMonth() - 1, due.getUTCDate(), due.getUTCHours()),
        ).toISOString(),
        paymentDate: null,
        nextPaymentDate: due.toISOString(),
        failedAttempts: 0,
        retryAt: null,
        cancelledAt: null,
      }),
    );
  };
  for (let i = 0; i < count; i += 20) {
    await Promise.all(Array.from({ length: Math.min(20, count - i) }, (_, k) => one(i + k)));
  }
  return subs;
}

/** How many token charges the sandbox has made so far. */
export async function sandboxCharges(sql: postgres.Sql): Promise<number> {
  const [{ n }] = await sql<{ n: string }[]>`select count(*) as n from sandbox_records where kind = 'charge'`;
  return Number(n);
}

/**
 * Checks that every subscription of `subs` (all due once) was charged exactly once: one approved
 * sandbox charge, one successful monthly transaction for it, the subscription moved past the
 * period with no failed attempt, and no claim left unfinished. Answers the problems found.
 */
export async function billedExactlyOnce(sql: postgres.Sql, subs: Subscription[]): Promise<string[]> {
  const problems: string[] = [];
  const charges = await sql<{ ref: string; reference: string; status: string }[]>`
    select ref, reference, status from sandbox_records where kind = 'charge'
  `;
  const txs = await sql<{ provider_transaction_id: string; kind: string; is_monthly: boolean }[]>`
    select provider_transaction_id, kind, is_monthly from transactions
  `;
  const rows = await sql<{ id: string; status: string; next_payment_date: Date; failed_attempts: number }[]>`
    select id, status, next_payment_date, failed_attempts from subscriptions
  `;
  const [{ started }] = await sql<{ started: string }[]>`
    select count(*) as started from charges where status = 'started'
  `;
  if (Number(started) !== 0) problems.push(`${started} charge claims were left started`);
  const chargesOf = new Map<string, { ref: string; status: string }[]>();
  for (const c of charges) {
    const id = c.reference.split(":")[0];
    chargesOf.set(id, [...chargesOf.get(id) ?? [], c]);
  }
  const txCount = new Map<string, number>();
  for (const tx of txs) {
    if (tx.kind === "success" && tx.is_monthly) {
      txCount.set(tx.provider_transaction_id, (txCount.get(tx.provider_transaction_id) ?? 0) + 1);
    }
  }
  const state = new Map(rows.map((r) => [r.id, r]));
  for (const sub of subs) {
    const paid = (chargesOf.get(sub.id) ?? []).filter((c) => c.status === "paid");
    if (paid.length !== 1) {
      problems.push(`${sub.id} was charged ${paid.length} times`);
      continue;
    }
    const recorded = txCount.get(paid[0].ref) ?? 0;
    if (recorded !== 1) problems.push(`${sub.id}'s charge is recorded ${recorded} times`);
    const row = state.get(sub.id);
    if (!row || row.status !== "active" || row.failed_attempts !== 0) {
      problems.push(`${sub.id} ended ${row?.status} with ${row?.failed_attempts} failed attempts`);
    } else if (row.next_payment_date.getTime() <= new Date(sub.nextPaymentDate).getTime()) {
      problems.push(`${sub.id} was not moved to its next month`);
    }
  }
  return problems;
}
