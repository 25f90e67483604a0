/**
 * The billing test for a donor's changes to monthly gifts (issue 15), on Deno KV (a file
 * two store instances share) and PostgreSQL (one schema, two pools): 1,000 subscriptions, random
 * amount changes, pauses, skips and resumes applied while two billing runners work, each on its own
 * store instance, over about four months of a fake clock. At the end:
 * - no period of any gift was charged twice;
 * - every charge was at the amount in force when the charge was marked (the last amount change
 *   before it, in the order the subscription's versions give);
 * - every period up to the gift's next charge date was either charged once or left out by a pause
 *   or skip the donor asked for (and not given back by a resume), never both, never neither.
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import { createLogger } from "@/lib/core/log.ts";
import { runBillingPass } from "@/lib/monthly_gifts/billing.ts";
import { nextMonth } from "@/lib/monthly_gifts/billing_dates.ts";
import type { PaymentProvider } from "@/lib/providers/provider.ts";
import {
  changeAmount,
  GiftChangeError,
  type GiftChangeResult,
  pauseGift,
  resumeGift,
  skipNextCharge,
} from "@/lib/monthly_gifts/subscription_changes.ts";
import { openKvStore } from "@/lib/storage/kv/mod.ts";
import { openPostgresStore } from "@/lib/storage/postgres/mod.ts";
import type { Store, Subscription } from "@/lib/storage/types.ts";
import { PG_URL, postgresProblem } from "@/tests/helpers/stores.ts";

const GIFTS = 1_000;
const DAY = 86_400_000;
const CREATED = "2026-01-10T09:00:00.000Z";
const FIRST_DUE = "2026-02-10T09:00:00.000Z";
/** The simulation: a tick every 4 days from just before the first due date, 32 ticks (~4 months). */
const START = Date.parse(FIRST_DUE) - 2 * DAY;
const TICKS = 32;
const CHANGES_PER_TICK = 60;

/** A small seeded generator (mulberry32): the same run every time. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One approved charge, with the subscription as stored when the provider was called. */
interface Charged {
  reference: string;
  amount: number;
  at: Subscription;
}

/** A provider that approves every charge after a short wait (so changes interleave) and logs it. */
function recordingProvider(store: Store, log: Charged[]): PaymentProvider {
  return {
    id: "sandbox",
    async chargeToken(request: { reference: string; amount: number; currency: 1 | 2 }) {
      const subscriptionId = request.reference.split(":")[0];
      const at = (await store.subscriptions.get(subscriptionId))!;
      await new Promise((resolve) => setTimeout(resolve, Math.random() < 0.1 ? 2 : 0));
      log.push({ reference: request.reference, amount: request.amount, at });
      return {
        providerRef: `ch_${log.length}_${crypto.randomUUID()}`,
        statusCode: "000",
        errorMessage: null,
        amount: request.amount,
        currency: request.currency,
        reference: request.reference,
        token: null,
        resultData: null,
      };
    },
  } as unknown as PaymentProvider;
}

/**
 * `store` as a billing runner sees it on a busy day: now and then, right after billing reads a
 * subscription (and before it marks the charge), the donor changes that gift (`race`), as a change
 * landing in that moment would in production.
 */
function racing(store: Store, race: (id: string) => Promise<void>): Store {
  const subscriptions: Store["subscriptions"] = {
    ...store.subscriptions,
    async get(id: string) {
      const read = await store.subscriptions.get(id);
      if (Math.random() < 0.08) await race(id);
      return read;
    },
  };
  return Object.create(store, { subscriptions: { value: subscriptions } });
}

async function seed(store: Store): Promise<Subscription[]> {
  const subs: Subscription[] = [];
  for (let i = 0; i < GIFTS; i += 50) {
    subs.push(
      ...await Promise.all(Array.from({ length: Math.min(50, GIFTS - i) }, async (_, k) => {
        const donorId = `donor_${i + k}_${crypto.randomUUID()}`;
        await store.donors.create({
          id: donorId,
          firstName: "Monthly",
          lastName: String(i + k),
          email: `monthly${i + k}@example.org`,
          country: "Israel",
          createdAt: CREATED,
          paymentDate: CREATED,
          nextPaymentDate: FIRST_DUE,
          monthlyPaymentAvailable: true,
          israeliId: null,
        });
        return await store.subscriptions.create({
          id: `sub_${String(i + k).padStart(4, "0")}_${crypto.randomUUID().slice(0, 8)}`,
          donorId,
          amount: 2_000,
          currency: 1,
          provider: "sandbox",
          token: `tok_${i + k}`,
          cardMasked: null,
          language: "en",
          status: "active",
          createdAt: CREATED,
          paymentDate: CREATED,
          nextPaymentDate: FIRST_DUE,
          failedAttempts: 0,
          retryAt: null,
          cancelledAt: null,
        });
      })),
    );
  }
  return subs;
}

type Applied = { kind: "amount" | "pause" | "skip" | "resume"; result: Subscription };

async function simulate(a: Store, b: Store) {
  const subs = await seed(a);
  const next = random(15);
  const charged: Charged[] = [];
  const applied = new Map<string, Applied[]>(subs.map((s) => [s.id, []]));
  let refused = 0;
  let now = START;
  const clock = () => new Date(now);
  const quiet = createLogger(() => {});
  const billUntilDone = async () => {
    // Each runner passes in small batches until neither finds anything due.
    for (let round = 0; round < 200; round++) {
      const reports = await Promise.all(
        runners.map((r) => runBillingPass({ ...r, log: quiet, now: clock }, { batch: 50, maxCharges: 60 })),
      );
      if (
        reports.every((r) => r.ran ? r.charged + r.failed + r.skipped === 0 : true) &&
        reports.some((r) => r.ran)
      ) {
        return;
      }
    }
    throw new Error("billing did not settle");
  };
  const byId = new Map(subs.map((s) => [s.id, s]));
  const changeOne = async (store: Store, id?: string) => {
    const sub = id ? byId.get(id)! : subs[Math.floor(next() * subs.length)];
    const ctx = { store, maxAmount: 100_000, now: clock };
    const ref = { subscriptionId: sub.id, email: (await store.donors.get(sub.donorId))!.email };
    const roll = next();
    const kind = roll < 0.35 ? "amount" : roll < 0.6 ? "pause" : roll < 0.8 ? "skip" : "resume";
    const amount = 10 + Math.floor(next() * 490);
    const months = 1 + Math.floor(next() * 3);
    try {
      let result: GiftChangeResult;
      if (kind === "amount") result = await changeAmount(ctx, ref, amount);
      else if (kind === "pause") result = await pauseGift(ctx, ref, months);
      else if (kind === "resume") result = await resumeGift(ctx, ref);
      else {
        const shown = (await store.subscriptions.get(sub.id))!.nextPaymentDate;
        result = await skipNextCharge(ctx, ref, shown);
      }
      if (result.changed) applied.get(sub.id)!.push({ kind, result: result.subscription });
    } catch (e) {
      // Refused in a race (a charge marked, the next charge moved on): nothing changed.
      if (!(e instanceof GiftChangeError)) throw e;
      refused++;
    }
  };
  const runners = [
    {
      store: racing(a, (id) => changeOne(b, id)),
      provider: recordingProvider(a, charged),
      holder: "runner-a",
    },
    {
      store: racing(b, (id) => changeOne(a, id)),
      provider: recordingProvider(b, charged),
      holder: "runner-b",
    },
  ];
  for (let tick = 0; tick < TICKS; tick++) {
    now = START + tick * 4 * DAY;
    // Changes and both runners at the same time.
    await Promise.all([
      billUntilDone(),
      ...Array.from({ length: CHANGES_PER_TICK }, (_, i) => changeOne(i % 2 === 0 ? a : b)),
    ]);
  }
  await billUntilDone();
  return { subs, charged, applied, refused, end: now };
}

/** Checks the simulation's outcome; answers the problems found (at most a few per kind). */
async function verify(store: Store, run: Awaited<ReturnType<typeof simulate>>): Promise<string[]> {
  const problems: string[] = [];
  const byRef = new Map<string, Charged[]>();
  for (const c of run.charged) byRef.set(c.reference, [...(byRef.get(c.reference) ?? []), c]);
  const periodsCharged = new Map<string, string[]>();
  for (const c of run.charged) {
    const [id, ...rest] = c.reference.split(":");
    const period = rest.slice(0, -1).join(":");
    periodsCharged.set(id, [...(periodsCharged.get(id) ?? []), period]);
  }
  for (const sub of run.subs) {
    const changes = run.applied.get(sub.id)!.sort((x, y) => x.result.version - y.result.version);
    const charges = run.charged.filter((c) => c.reference.startsWith(`${sub.id}:`));
    // The amount in force at each charge: the last amount change before its mark.
    for (const c of charges) {
      const inForce = changes.filter((ch) => ch.kind === "amount" && ch.result.version < c.at.version).at(-1)
        ?.result.amount ?? sub.amount;
      if (c.amount !== inForce || c.at.charging !== c.reference) {
        problems.push(`${c.reference}: charged ${c.amount}, in force ${inForce} (mark ${c.at.charging})`);
      }
    }
    // The periods the donor left out, in version order: a pause or skip leaves out [from, to) and
    // gives back any later period; a resume gives back every period from its next charge on.
    const left = new Set<string>();
    for (const ch of changes) {
      const cut = ch.kind === "resume" ? ch.result.nextPaymentDate : ch.result.pausedFrom;
      if (ch.kind === "amount" || cut === null) continue;
      for (const p of [...left]) if (p >= cut) left.delete(p);
      if (ch.kind === "resume") continue;
      for (let p = cut; p < ch.result.nextPaymentDate; p = nextMonth(p, sub.createdAt)) left.add(p);
    }
    const final = (await store.subscriptions.get(sub.id))!;
    const paid = periodsCharged.get(sub.id) ?? [];
    if (new Set(paid).size !== paid.length) problems.push(`${sub.id}: a period charged twice: ${paid}`);
    if (final.charging !== null || final.nextPaymentDate <= new Date(run.end).toISOString()) {
      problems.push(`${sub.id}: not settled: ${JSON.stringify(final)}`);
    }
    for (let p = FIRST_DUE; p < final.nextPaymentDate; p = nextMonth(p, sub.createdAt)) {
      const isPaid = paid.includes(p), isLeft = left.has(p);
      if (isPaid === isLeft) problems.push(`${sub.id}: period ${p} paid ${isPaid}, left out ${isLeft}`);
    }
    for (const p of paid) if (p >= final.nextPaymentDate) problems.push(`${sub.id}: ${p} charged early`);
  }
  for (const [reference, list] of byRef) if (list.length > 1) problems.push(`${reference} charged twice`);
  return problems;
}

async function check(a: Store, b: Store) {
  const run = await simulate(a, b);
  const problems = await verify(a, run);
  assert.deepEqual(problems.slice(0, 20), [], `${problems.length} problems`);
  // The run did what it claims: many charges, many changes of every kind, some refused in races.
  assert.ok(run.charged.length > GIFTS * 2, `charges: ${run.charged.length}`);
  const kinds = [...run.applied.values()].flat().map((x) => x.kind);
  for (const kind of ["amount", "pause", "skip", "resume"]) {
    assert.ok(
      kinds.filter((k) => k === kind).length > 50,
      `${kind}: ${kinds.filter((k) => k === kind).length}`,
    );
  }
}

Deno.test("gift changes while two billing runners work: every period charged once at its amount [kv]", async () => {
  const dir = await Deno.makeTempDir();
  const a = await openKvStore(`${dir}/store.kv`);
  const b = await openKvStore(`${dir}/store.kv`);
  try {
    await check(a, b);
  } finally {
    await a.close();
    await b.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("gift changes while two billing runners work: every period charged once at its amount [postgres]", async () => {
  const why = await postgresProblem();
  if (why) throw new Error(`PostgreSQL is required: ${why}`);
  const schema = `test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const a = await openPostgresStore(PG_URL, { schema, max: 6 });
  const b = await openPostgresStore(PG_URL, { schema, max: 6 });
  try {
    await check(a, b);
  } finally {
    await a.close();
    await b.close();
    const sql = postgres(PG_URL, { max: 1, onnotice: () => {} });
    await sql.unsafe(`drop schema if exists ${schema} cascade`);
    await sql.end({ timeout: 1 });
  }
});
