/**
 * `deno task seed`: fills the configured store (KV_PATH or DATABASE_URL) with an approved demo
 * admin and realistic donors and transactions, so the back office can be explored on a fresh
 * machine. Idempotent for a given SEED_RANDOM: running it twice records nothing twice.
 *
 * | variable              | default                  |
 * |-----------------------|--------------------------|
 * | `SEED_ADMIN_EMAIL`    | `admin@museum.test`      |
 * | `SEED_ADMIN_PASSWORD` | generated and printed    |
 * | `SEED_COUNT`          | `200` transactions       |
 * | `SEED_RANDOM`         | `1` (the data's seed)    |
 *
 * @module
 */
import { hashPassword, passwordProblem } from "@/lib/staff/passwords.ts";
import { loadConfigOrExit } from "@/lib/app/config.ts";
import { demoTransactions } from "@/lib/app/demo_data.ts";
import { seedFlags } from "@/lib/settings/flags.ts";
import { newId } from "@/lib/core/ids.ts";
import { openStore } from "@/lib/storage/mod.ts";

const env = Deno.env.toObject();
const config = await loadConfigOrExit();
const count = Number(env.SEED_COUNT ?? "200");
if (!Number.isInteger(count) || count < 0 || count > 10_000_000) {
  console.error("SEED_COUNT must be a whole number from 0 to 10000000");
  Deno.exit(1);
}
const seed = Number(env.SEED_RANDOM ?? "1");
const email = (env.SEED_ADMIN_EMAIL ?? "admin@museum.test").trim().toLowerCase();
const password = env.SEED_ADMIN_PASSWORD ?? `demo-${crypto.randomUUID().slice(0, 13)}`;
const problem = passwordProblem(password);
if (problem) {
  console.error(`SEED_ADMIN_PASSWORD: ${problem}`);
  Deno.exit(1);
}

const store = await openStore({ databaseUrl: config.databaseUrl, kvPath: config.kvPath });
try {
  await seedFlags(store, config.features);
  const existing = await store.admins.getByEmail(email);
  if (existing) {
    console.log(`admin ${email} exists already (status ${existing.status}); its password is unchanged`);
  } else {
    const now = new Date().toISOString();
    await store.admins.create({
      id: newId(),
      email,
      name: "Demo Admin",
      passwordHash: await hashPassword(password),
      status: "approved",
      role: "owner",
      createdAt: now,
      decidedBy: "seed",
      decidedAt: now,
    });
    console.log(`admin: ${email} / ${password} (approved)`);
  }

  let created = 0;
  const started = performance.now();
  for (const tx of demoTransactions(count, { seed })) {
    const { created: isNew } = await store.transactions.record(tx);
    if (!isNew) continue;
    created++;
    const monthly = tx.isMonthly && tx.kind === "success";
    const next = new Date(tx.createdAt);
    next.setUTCMonth(next.getUTCMonth() + 1);
    await store.donors.create({
      id: tx.donorId,
      ...tx.user,
      country: ["Israel", "United States", "Brazil", "Spain", "Portugal"][created % 5],
      createdAt: tx.createdAt,
      paymentDate: tx.kind === "success" ? tx.createdAt : null,
      nextPaymentDate: monthly ? next.toISOString() : null,
      monthlyPaymentAvailable: monthly,
      israeliId: null,
    });
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `transactions: ${created} recorded (${
      count - created
    } already there) in ${seconds} s, store: ${store.kind}`,
  );
} finally {
  await store.close();
}
