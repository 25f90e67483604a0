/**
 * The storage contract, run against every backend, so routes can rely on the `Store` interface
 * alone. Each part of it lives in its own `*_contract.ts` beside this file, one per concept (flags,
 * donors, payments...), and exports a {@link Contract}: a function that registers its steps for
 * the backend described by {@link ContractOptions}. This runner runs every part, in order, on:
 *
 * - Deno KV on `:memory:` and on a temporary file (then reopened, to see the data survive);
 * - PostgreSQL on a fresh random schema per run, dropped at the end (then its schema migrations
 *   are checked). The server comes from `TEST_DATABASE_URL` (default
 *   `postgres://postgres:postgres@127.0.0.1:5432/postgres`). When it cannot be reached the
 *   PostgreSQL test fails under `CI=true` and is skipped, with one line saying why, anywhere else.
 *
 * A new part is added to {@link contracts}; tests of one backend alone (its data migrations, how
 * it opens) are in `kv_test.ts` and `postgres_test.ts`.
 *
 * @module
 */

import { admissionsContract } from "./admissions_contract.ts";
import { adminsContract } from "./admins_contract.ts";
import { openKvStore, openPostgresStore } from "./backends.ts";
import { cancelReasonsContract } from "./cancel_reasons_contract.ts";
import { cardUpdatesContract } from "./card_updates_contract.ts";
import { chargesContract } from "./charges_contract.ts";
import { donorsContract } from "./donors_contract.ts";
import { donorRecordsContract } from "./donor_records_contract.ts";
import {
  donorErasureContract,
  donorSessionsForEmailContract,
  outboxByDonorsContract,
} from "./donor_privacy_contract.ts";
import {
  donorsByEmailContract,
  donorSessionsContract,
  transactionsByDonorsContract,
} from "./donor_sessions_contract.ts";
import { flagsContract } from "./flags_contract.ts";
import { kioskDevicesContract } from "./kiosk_devices_contract.ts";
import { leasesContract } from "./leases_contract.ts";
import { membershipsContract } from "./memberships_contract.ts";
import { membershipListsContract } from "./membership_lists_contract.ts";
import { museumContract } from "./museum_contract.ts";
import { noncesContract } from "./nonces_contract.ts";
import { outboxContract } from "./outbox_contract.ts";
import { auditContract } from "./audit_contract.ts";
import { auditCausesContract } from "./audit_causes_contract.ts";
import { twoFactorContract } from "./two_factor_contract.ts";
import { paymentsContract } from "./payments_contract.ts";
import { persistenceContract } from "./persistence_contract.ts";
import { receiptsContract } from "./receipts_contract.ts";
import { reportsContract } from "./reports_contract.ts";
import { rateLimitsContract } from "./rate_limits_contract.ts";
import { refreshTokensContract } from "./refresh_tokens_contract.ts";
import { refundsContract } from "./refunds_contract.ts";
import { sandboxContract } from "./sandbox_contract.ts";
import { schemaMigrationsContract } from "./schema_migrations_contract.ts";
import { storeContract } from "./store_contract.ts";
import { subscriptionsContract } from "./subscriptions_contract.ts";
import {
  adminConnection,
  type Contract,
  type ContractOptions,
  IN_CI,
  PG_URL,
  postgresUnavailable,
  randomSchema,
} from "./support.ts";
import { throttleContract } from "./throttle_contract.ts";
import { transactionListsContract } from "./transaction_lists_contract.ts";
import { transactionRangesContract } from "./transaction_ranges_contract.ts";
import { transactionSearchContract } from "./transaction_search_contract.ts";
import { transactionsContract } from "./transactions_contract.ts";
import { visitsContract } from "./visits_contract.ts";

/**
 * Every part of the contract every backend must meet, in the order they run. Flags go first: their
 * first step checks that a new store lists no flag.
 */
const contracts: Contract[] = [
  flagsContract,
  storeContract,
  donorsContract,
  adminsContract,
  refreshTokensContract,
  throttleContract,
  noncesContract,
  rateLimitsContract,
  admissionsContract,
  transactionsContract,
  transactionListsContract,
  transactionRangesContract,
  transactionSearchContract,
  paymentsContract,
  subscriptionsContract,
  chargesContract,
  leasesContract,
  sandboxContract,
  kioskDevicesContract,
  outboxContract,
  receiptsContract,
  donorSessionsContract,
  donorsByEmailContract,
  donorRecordsContract,
  transactionsByDonorsContract,
  auditContract,
  auditCausesContract,
  cancelReasonsContract,
  donorErasureContract,
  outboxByDonorsContract,
  donorSessionsForEmailContract,
  cardUpdatesContract,
  refundsContract,
  twoFactorContract,
  reportsContract,
  museumContract,
  membershipsContract,
  membershipListsContract,
  visitsContract,
];

/** Runs every part of the contract, one after another, on the backend `options` describe. */
async function runContracts(t: Deno.TestContext, options: ContractOptions): Promise<void> {
  for (const contract of contracts) await contract(t, options);
}

Deno.test("storage contract: kv on :memory:", async (t) => {
  await runContracts(t, {
    kind: "kv",
    open: () => openKvStore(":memory:"),
    sharedData: false,
    fresh: () => () => openKvStore(":memory:"),
  });
});

Deno.test("storage contract: kv on a file", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "storage_contract_" });
  // Folders that do not exist yet: opening must create them.
  const path = `${dir}/not/yet/there/store.kv`;
  try {
    let files = 0;
    const options: ContractOptions = {
      kind: "kv",
      open: () => openKvStore(path),
      sharedData: true,
      fresh: () => {
        const freshPath = `${dir}/fresh/${++files}/store.kv`;
        return () => openKvStore(freshPath);
      },
    };
    await runContracts(t, options);
    await persistenceContract(t, options);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const pgUnavailable = await postgresUnavailable();
if (pgUnavailable && !IN_CI) console.log(`storage contract: skipping the PostgreSQL tests: ${pgUnavailable}`);

Deno.test({
  name: "storage contract: postgres on a throwaway schema",
  ignore: pgUnavailable !== "" && !IN_CI,
  async fn(t) {
    if (pgUnavailable) throw new Error(`CI is set, so PostgreSQL is required: ${pgUnavailable}`);

    const schema = randomSchema();
    const schemas = [schema];
    const admin = adminConnection();
    const options: ContractOptions = {
      kind: "postgres",
      open: () => openPostgresStore(PG_URL, { schema, max: 4 }),
      sharedData: true,
      fresh: () => {
        const own = randomSchema();
        schemas.push(own);
        return () => openPostgresStore(PG_URL, { schema: own, max: 4 });
      },
    };
    try {
      await runContracts(t, options);
      await schemaMigrationsContract(t, { ...options, schema, admin });
    } finally {
      for (const name of schemas) await admin`drop schema if exists ${admin(name)} cascade`;
      await admin.end({ timeout: 5 });
    }
  },
});
