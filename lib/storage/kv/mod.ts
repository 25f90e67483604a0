/**
 * The {@link Store} on Deno KV: the default backend, for one machine (a SQLite file under `data/`)
 * and for Deno Deploy. This module opens the database, runs the data migrations and assembles the
 * store from one repository per concept; each concept module starts with its part of the key
 * design (its keys, their values, what writes them, and why).
 *
 * ## Key design
 *
 * - Each primary record kind and each secondary index owns one first key part, so
 *   `kv.list({ prefix: [part] })` reads exactly that. The module that owns a key part defines it;
 *   another that needs it imports it from there. KV has no indexes of its own, so every index key
 *   is written in the same atomic operation as its record.
 * - KV orders string key parts by their UTF-8 bytes, so `["flags"]` lists come back sorted by name
 *   in the same order as PostgreSQL's `collate "C"`, ISO 8601 instants in keys sort by time, and
 *   number parts (list sequence numbers) sort as numbers.
 * - Atomicity: every promise of the contract that something happens "atomically" or "once" is a
 *   read followed by `kv.atomic()` that checks the versionstamps it read (a key read as absent is
 *   checked as `null`) and commits only when none changed; a lost race re-reads and decides again
 *   (`untilCommitted` in `atomic.ts`). An operation failing because another handle holds the
 *   SQLite write lock writes nothing and is retried (`retryWhileLocked`).
 * - One atomic operation holds at most 100 checks, 1,000 mutations, 800 KiB of keys and values and
 *   80 KiB of keys (`KV_LIMITS`): large writes (imports, sweeps, migrations) are many bounded
 *   commits.
 * - Values stay under KV's 64 KiB: transactions are refused above 60 KB (`canonicalTransaction`),
 *   throttle keys keep at most 100 times, everything else is a few small fields.
 * - What only matters for a while (throttle keys, nonces, payment dedupe keys) is written with
 *   `expireIn`, and KV deletes it itself; what retention deletes is found through a time index
 *   written with the record, swept a bounded range at a time.
 * - `["health"]` is never written: {@link Store.ping} reads it.
 *
 * | module                 | what it keeps                           | first key parts                   |
 * |------------------------|-----------------------------------------|-----------------------------------|
 * | `atomic.ts`            | limits, commit and retry helpers        |                                   |
 * | `context.ts`           | `KvContext`: the handle and its helpers |                                   |
 * | `flags.ts`             | feature flags                           | `flags`                           |
 * | `donors.ts`            | donors                                  | `donors`                          |
 * | `admins.ts`            | back-office admins                      | `admins*`                         |
 * | `refresh_tokens.ts`    | refresh tokens, revoked families        | `refresh_*`                       |
 * | `throttle.ts`          | throttle events                         | `throttle`                        |
 * | `nonces.ts`            | claimed nonces                          | `nonces`                          |
 * | `rate_limits.ts`       | rate-limit windows, payments' origins   | `rate_limit*`                     |
 * | `transactions.ts`      | transactions: record, import, get       | `transactions`, `..._by_provider` |
 * | `transaction_lists.ts` | the lists: pages, search, scan, totals  | `transactions_count`, `..._list`  |
 * | `payments.ts`          | payments                                | `payments*`                       |
 * | `subscriptions.ts`     | monthly subscriptions                   | `subscriptions*`                  |
 * | `charges.ts`           | charge attempts                         | `charges*`                        |
 * | `leases.ts`            | leases of scheduled jobs                | `leases`                          |
 * | `sandbox.ts`           | the sandbox provider's records          | `sandbox*`                        |
 * | `kiosk_devices.ts`     | paired kiosk devices                    | `kiosk_*`                         |
 * | `outbox.ts`            | messages to send, with their state      | `outbox*`                         |
 * | `receipts.ts`          | legal receipts and their numbering      | `receipts*`, `receipt_counters`   |
 * | `donor_sessions.ts`    | donors' sign-in links and sessions      | `donor_sign_ins*`, `donor_sess*`  |
 * | `audit.ts`             | the staff's audit log (append-only)     | `audit*`                          |
 * | `two_factor.ts`        | staff's TOTP secrets, recovery codes    | `two_factor*`                     |
 * | `donor_erasure.ts`     | `donors.erase`: a donor's records       | `donors*`, `transactions*`        |
 * | `donor_recycling.ts`   | `donors.deleteUnused`: an unused record | `donors*` (reads `*_by_donor`)    |
 * | `card_updates.ts`      | card-update attempts (donor portal)     | `card_updates*`                   |
 * | `refunds.ts`           | refunds of gifts, their running totals  | `refund*`                         |
 * | `reports.ts`           | the accountant's figures (reads only)   | `..._by_time`, `..._by_created`…  |
 * | `museum.ts`            | the museum's identity and levels        | `museum_settings`                 |
 * | `memberships.ts`       | memberships, by number and by end       | `memberships*`                    |
 * | `visits.ts`            | front-desk visits, by time and member   | `visits*`                         |
 * | `migrations.ts`        | data migrations, run at open            | `kv_migrations`                   |
 *
 * What both backends store and read the same way (canonical records, list rules, windows) is in
 * `../records.ts` and `../queries.ts`; the contract is `../types.ts`.
 *
 * @module
 */

import { retryWhileLocked } from "./atomic.ts";
import { createKvContext } from "./context.ts";
import { kvAdmins } from "./admins.ts";
import { kvCharges } from "./charges.ts";
import { admittedDonors, admittedPayments } from "./admitted.ts";
import { kvDonors } from "./donors.ts";
import { eraseKvDonor } from "./donor_erasure.ts";
import { deleteUnusedKvDonor } from "./donor_recycling.ts";
import { kvDonorSessions } from "./donor_sessions.ts";
import { kvCardUpdates } from "./card_updates.ts";
import { kvFlags } from "./flags.ts";
import { kvKioskDevices } from "./kiosk_devices.ts";
import { kvLeases } from "./leases.ts";
import { migrateData } from "./migrations.ts";
import { kvNonces } from "./nonces.ts";
import { kvOutbox } from "./outbox.ts";
import { kvAudit } from "./audit.ts";
import { kvRefunds } from "./refunds.ts";
import { kvMuseum } from "./museum.ts";
import { kvMemberships } from "./memberships.ts";
import { kvVisits } from "./visits.ts";
import { kvTwoFactor } from "./two_factor.ts";
import { kvPayments } from "./payments.ts";
import { kvReceipts } from "./receipts.ts";
import { kvRefreshTokens } from "./refresh_tokens.ts";
import { kvSandbox } from "./sandbox.ts";
import { kvSubscriptions } from "./subscriptions.ts";
import { kvReports } from "./reports.ts";
import { kvThrottle } from "./throttle.ts";
import { kvRateLimits } from "./rate_limits.ts";
import { kvTransactions } from "./transactions.ts";
import type { Store } from "@/lib/storage/types.ts";

/**
 * Opens (creating when missing) a KV store at `path`: a file path, `":memory:"`, or a KV Connect
 * URL (`https://…/connect`, with `DENO_KV_ACCESS_TOKEN`). Without `path`, `Deno.openKv()`'s own
 * database: on Deno Deploy, the KV database assigned to the app.
 *
 * @example Open the embedded store of a single machine
 * ```ts
 * import { openKvStore } from "./mod.ts";
 * const store = await openKvStore("data/donations.kv");
 * await store.flags.seed({ MONTHLY_PAYMENT: true });
 * console.log(await store.flags.list());
 * await store.close();
 * ```
 */
export async function openKvStore(path?: string): Promise<Store> {
  // `Deno.openKv(path)` fails with a bare "No such file or directory" when the folder is missing.
  if (path !== undefined && path !== ":memory:" && !/^https?:\/\//.test(path)) {
    // The folder, as `node:path`'s `dirname` would answer it (not imported, as `node:path` loads the
    // Node compatibility layer: see `loadSerialize` in `atomic.ts`).
    const slash = path.lastIndexOf("/");
    const folder = slash > 0 ? path.slice(0, slash) : slash === 0 ? "/" : ".";
    await Deno.mkdir(folder, { recursive: true });
  }
  // Opening a file another process is writing can fail "database is locked" too, as any operation.
  const kv = await retryWhileLocked(() => Deno.openKv(path));
  try {
    await migrateData(kv);
  } catch (error) {
    kv.close();
    throw error;
  }
  const ctx = createKvContext(kv);
  const rateLimits = kvRateLimits(ctx);
  let closed = false;
  return {
    kind: "kv",
    flags: kvFlags(ctx),
    donors: admittedDonors({
      ...kvDonors(ctx),
      erase: (id, at) => eraseKvDonor(ctx, id, at),
      deleteUnused: (id, before) => deleteUnusedKvDonor(ctx, id, before),
    }, rateLimits),
    admins: kvAdmins(ctx),
    refreshTokens: kvRefreshTokens(ctx),
    throttle: kvThrottle(ctx),
    nonces: kvNonces(ctx),
    rateLimits,
    transactions: kvTransactions(ctx),
    payments: admittedPayments(kvPayments(ctx), rateLimits),
    subscriptions: kvSubscriptions(ctx),
    charges: kvCharges(ctx),
    leases: kvLeases(ctx),
    sandbox: kvSandbox(ctx),
    kioskDevices: kvKioskDevices(ctx),
    outbox: kvOutbox(ctx),
    audit: kvAudit(ctx),
    reports: kvReports(ctx),
    receipts: kvReceipts(ctx),
    donorSessions: kvDonorSessions(ctx),
    cardUpdates: kvCardUpdates(ctx),
    refunds: kvRefunds(ctx),
    twoFactor: kvTwoFactor(ctx),
    museum: kvMuseum(ctx),
    memberships: kvMemberships(ctx),
    visits: kvVisits(ctx),
    async ping() {
      await retryWhileLocked(() => kv.get(["health"]));
    },
    close() {
      if (!closed) {
        closed = true;
        kv.close();
      }
      return Promise.resolve();
    },
  };
}
