/**
 * The storage contract: one suite, {@link storeContract}, run against every backend, so routes can
 * rely on the {@link Store} interface alone.
 *
 * - Deno KV on `:memory:` and on a temporary file (reopened to see the data survive);
 * - PostgreSQL on a fresh random schema per run, dropped at the end. The server comes from
 *   `TEST_DATABASE_URL` (default `postgres://postgres:postgres@127.0.0.1:5432/postgres`). When it
 *   cannot be reached the PostgreSQL tests fail under `CI=true` and are skipped, with one line
 *   saying why, anywhere else.
 *
 * @module
 */

import postgres from "postgres";
import { openKvStore } from "../lib/storage/kv.ts";
import { migrations } from "../lib/storage/migrations.ts";
import { openStore } from "../lib/storage/mod.ts";
import { listsOf, searchTextOf, searchValuesOf } from "../lib/storage/queries.ts";
import { openPostgresStore } from "../lib/storage/postgres.ts";
import {
  type Admin,
  type AdminStatus,
  type Charge,
  type Donor,
  EmailTakenError,
  type FeatureFlag,
  type Page,
  type Payment,
  type RefreshToken,
  type SandboxRecord,
  type Store,
  type Subscription,
  type Transaction,
  type TransactionBatch,
  type TransactionScanQuery,
} from "../lib/storage/types.ts";
import assert from "node:assert/strict";
import { paymentFixture as sharedPaymentFixture } from "./helpers/fixtures.ts";

const PG_URL = Deno.env.get("TEST_DATABASE_URL") || "postgres://postgres:postgres@127.0.0.1:5432/postgres";
const IN_CI = !["", "0", "false"].includes((Deno.env.get("CI") ?? "").toLowerCase());

/** Exactly what `Date.prototype.toISOString` writes. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Opens a store, runs `fn`, and closes the store whatever happens. */
async function withStore<T>(open: () => Promise<Store>, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await open();
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** The flags whose name starts with `prefix`, in the order given: each step keeps to its own names. */
const under = (flags: FeatureFlag[], prefix: string) => flags.filter((f) => f.flag.startsWith(prefix));

function assertIsoInstant(value: string, what: string): void {
  assert.match(value, ISO_INSTANT, `${what}: ${JSON.stringify(value)} is not an ISO 8601 instant`);
  assert.deepEqual(new Date(value).toISOString(), value, `${what} does not round-trip through Date`);
}

interface ContractOptions {
  /** The backend `open` is expected to answer. */
  kind: Store["kind"];
  /**
   * Whether every store `open` answers sees the same data (a file, a database schema). A
   * `:memory:` KV is a new empty database each time, so cross-instance steps race within one store.
   */
  sharedData: boolean;
  /**
   * Answers an opener of new, empty data on every call (a new `:memory:` store, file or schema),
   * for steps that need whole lists to themselves: totals, pages, "no approved admin yet". The
   * stores one opener answers share their data when `sharedData` is true.
   */
  fresh: () => () => Promise<Store>;
}

/**
 * The contract every {@link Store} backend must meet. `open` opens a store on the backend under test;
 * the data must be empty on the first call. Steps run in order and share that data, so each step
 * uses its own flag names (a prefix) and filters `list()` by it.
 */
async function storeContract(
  t: Deno.TestContext,
  open: () => Promise<Store>,
  options: ContractOptions,
): Promise<void> {
  const { kind, sharedData } = options;
  await t.step("list() of a new store is empty", () =>
    withStore(open, async (store) => {
      assert.deepEqual(await store.flags.list(), []);
    }));

  await t.step(
    "set() answers the flag as stored; get() and list() agree, sorted by name",
    () =>
      withStore(open, async (store) => {
        // Case, punctuation and a non-ASCII letter: a locale collation would order these differently.
        const names = ["sort.b", "sort.B", "sort.a_b", "sort.ab", "sort.a.b", "sort.Z", "sort.é", "sort.A"];
        const stored: FeatureFlag[] = [];
        for (const [i, name] of names.entries()) {
          const flag = await store.flags.set(name, i % 2 === 0);
          assert.deepEqual(flag.flag, name);
          assert.deepEqual(flag.enabled, i % 2 === 0);
          assertIsoInstant(flag.updatedAt, "updatedAt");
          assert.deepEqual(
            await store.flags.get(name),
            flag,
            `get(${name}) differs from what set() answered`,
          );
          stored.push(flag);
        }
        const expected = [...stored].sort((a, b) => (a.flag < b.flag ? -1 : 1));
        const all = await store.flags.list();
        assert.deepEqual(under(all, "sort."), expected);
        const allNames = all.map((f) => f.flag);
        assert.deepEqual(allNames, [...allNames].sort(), "list() is not sorted by name");
      }),
  );

  await t.step("get() of an unknown flag answers null", () =>
    withStore(open, async (store) => {
      assert.deepEqual(await store.flags.get("unknown.NEVER_SET"), null);
    }));

  await t.step("set() changes an existing flag in place", () =>
    withStore(open, async (store) => {
      await store.flags.set("change.X", true);
      const changed = await store.flags.set("change.X", false);
      assert.deepEqual(changed.enabled, false);
      assert.deepEqual(await store.flags.get("change.X"), changed);
      assert.deepEqual(under(await store.flags.list(), "change."), [changed]);
    }));

  await t.step(
    "seed() inserts missing flags only and never overwrites",
    () =>
      withStore(open, async (store) => {
        const kept = await store.flags.set("seed.KEPT", false);
        await store.flags.seed({ "seed.KEPT": true, "seed.NEW_ON": true, "seed.NEW_OFF": false });
        assert.deepEqual(await store.flags.get("seed.KEPT"), kept, "seed() overwrote an existing flag");
        const on = await store.flags.get("seed.NEW_ON");
        const off = await store.flags.get("seed.NEW_OFF");
        assert.deepEqual(on?.enabled, true);
        assert.deepEqual(off?.enabled, false);
        assertIsoInstant(on!.updatedAt, "seeded updatedAt");

        // An operator turns a seeded flag off; the next start seeds again and must leave it off.
        const changed = await store.flags.set("seed.NEW_ON", false);
        await store.flags.seed({ "seed.KEPT": true, "seed.NEW_ON": true, "seed.NEW_OFF": false });
        assert.deepEqual(await store.flags.get("seed.NEW_ON"), changed);
        assert.deepEqual(await store.flags.get("seed.NEW_OFF"), off, "re-seeding touched an unchanged flag");
        await store.flags.seed({});
        assert.deepEqual(under(await store.flags.list(), "seed.").length, 3);
      }),
  );

  await t.step(
    sharedData
      ? "concurrent seeds from two stores leave one flag each, with the seeded value"
      : "concurrent seeds on one store leave one flag each, with the seeded value",
    async () => {
      const a = await open();
      const b = sharedData ? await open() : a;
      try {
        for (let round = 0; round < 3; round++) {
          const prefix = `race${round}.`;
          // An operator already turned one of them off: no racing seed may turn it back on.
          await a.flags.set(`${prefix}OPERATOR`, false);
          const defaults: Record<string, boolean> = { [`${prefix}OPERATOR`]: true };
          for (let i = 0; i < 40; i++) defaults[`${prefix}${String(i).padStart(2, "0")}`] = i % 3 !== 0;
          // The same flags in the opposite order, as another version of the app might list them.
          const reversed = Object.fromEntries(Object.entries(defaults).reverse());
          await Promise.all([
            a.flags.seed(defaults),
            b.flags.seed(reversed),
            a.flags.seed(reversed),
            b.flags.seed(defaults),
          ]);

          const flags = under(await b.flags.list(), prefix);
          assert.deepEqual(flags.length, Object.keys(defaults).length);
          assert.deepEqual(new Set(flags.map((f) => f.flag)).size, flags.length, "a flag appears twice");
          for (const flag of flags) {
            const expected = flag.flag === `${prefix}OPERATOR` ? false : defaults[flag.flag];
            assert.deepEqual(flag.enabled, expected, `${flag.flag} has the wrong value`);
          }
        }
      } finally {
        await a.close();
        await b.close();
      }
    },
  );

  await t.step(
    "updatedAt is an ISO 8601 instant that moves forward on set()",
    () =>
      withStore(open, async (store) => {
        const first = await store.flags.set("time.T", true);
        assertIsoInstant(first.updatedAt, "updatedAt");
        // Generous: the database's clock may be another machine's.
        const skew = Math.abs(Date.parse(first.updatedAt) - Date.now());
        assert.ok(skew < 60_000, `updatedAt ${first.updatedAt} is ${skew} ms away from now`);

        await sleep(20);
        const second = await store.flags.set("time.T", true);
        assertIsoInstant(second.updatedAt, "updatedAt");
        assert.ok(
          Date.parse(second.updatedAt) > Date.parse(first.updatedAt),
          `updatedAt did not move: ${first.updatedAt} then ${second.updatedAt}`,
        );
        assert.deepEqual(await store.flags.get("time.T"), second);
      }),
  );

  await t.step("ping() answers, and kind names the backend", () =>
    withStore(open, async (store) => {
      await store.ping();
      assert.deepEqual(store.kind, kind);
    }));

  await t.step("close() is idempotent, also when called concurrently", async () => {
    const store = await open();
    await store.ping();
    await Promise.all([store.close(), store.close()]);
    await store.close();
  });

  await repositoriesContract(t, open, options);
  await billingContract(t, open, options);
  await retentionContract(t, open, options);
}

// ---- fixtures for the repositories ----

let fixtureCount = 0;
/** A unique id with a readable prefix. */
const uid = (prefix: string) => `${prefix}_${++fixtureCount}_${crypto.randomUUID().slice(0, 8)}`;

const T0 = Date.parse("2025-03-01T10:00:00.000Z");
/** An ISO instant `ms` after {@link T0}. */
const at = (ms: number) => new Date(T0 + ms).toISOString();

function donorFixture(overrides: Partial<Donor> = {}): Donor {
  return {
    id: uid("donor"),
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.com",
    country: "GB",
    createdAt: at(0),
    paymentDate: null,
    nextPaymentDate: null,
    monthlyPaymentAvailable: false,
    ...overrides,
  };
}

function adminFixture(overrides: Partial<Admin> = {}): Admin {
  const id = overrides.id ?? uid("admin");
  return {
    id,
    email: `${id}@museum.example`,
    name: "Grace Hopper",
    passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
    status: "pending",
    createdAt: at(0),
    decidedBy: null,
    decidedAt: null,
    ...overrides,
  };
}

function tokenFixture(overrides: Partial<RefreshToken> = {}): RefreshToken {
  return {
    hash: uid("hash"),
    adminId: uid("admin"),
    familyId: uid("family"),
    createdAt: at(0),
    expiresAt: at(86_400_000),
    usedAt: null,
    ...overrides,
  };
}

function txFixture(overrides: Partial<Transaction> = {}): Transaction {
  const kind = overrides.kind ?? "success";
  return {
    id: uid("tx"),
    kind,
    statusCode: kind === "success" ? "000" : "033",
    isMonthly: false,
    createdAt: at(0),
    donorId: uid("donor"),
    user: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" },
    amount: kind === "success" ? 10_000 : null,
    currency: kind === "success" ? 1 : null,
    resultData: kind === "success"
      ? {
        CreditCardNumber: "458045******4580",
        CreditType: "1",
        DebitTotal: "10000",
        DebitCurrency: 1,
        VoucherId: "12345678",
        ShvaResult: "000",
        Nested: { list: [1, "two", null], flag: true },
      }
      : null,
    errorMessage: kind === "success" ? null : "Card declined",
    provider: "sandbox",
    providerTransactionId: uid("ptx"),
    ...overrides,
  };
}

/**
 * Opens one store on `openData`, or two that share the data when the backend can (a file, a
 * schema), runs `fn` with both, and closes them: concurrent steps then race across instances.
 */
async function withTwo<T>(
  openData: () => Promise<Store>,
  sharedData: boolean,
  fn: (a: Store, b: Store) => Promise<T>,
): Promise<T> {
  const a = await openData();
  try {
    const b = sharedData ? await openData() : a;
    try {
      return await fn(a, b);
    } finally {
      if (b !== a) await b.close();
    }
  } finally {
    await a.close();
  }
}

/** The ids of every page of a list, fetched one page at a time, and the page sizes. */
async function allPages(
  list: (query: { page: number; limit: number }) => Promise<Page<Transaction>>,
  limit: number,
  expectedTotal: number,
): Promise<{ ids: string[]; sizes: number[] }> {
  const ids: string[] = [];
  const sizes: number[] = [];
  const pages = Math.ceil(expectedTotal / limit);
  for (let page = 1; page <= pages + 1; page++) {
    const result = await list({ page, limit });
    assert.deepEqual(result.total, expectedTotal, `total on page ${page}`);
    sizes.push(result.data.length);
    ids.push(...result.data.map((tx) => tx.id));
  }
  return { ids, sizes };
}

/**
 * The ids of a whole list read with `transactions.scan`, batch after batch, and how many batches
 * it took; checks that no batch is larger than `limit` and no id comes twice.
 */
async function scanAll(
  store: Store,
  query: Omit<TransactionScanQuery, "before" | "limit">,
  limit: number,
): Promise<{ ids: string[]; batches: number }> {
  const ids: string[] = [];
  let before: string | null = null;
  let batches = 0;
  do {
    const batch: TransactionBatch = await store.transactions.scan({ ...query, before, limit });
    assert.ok(batch.data.length <= limit, `a batch of ${batch.data.length} > ${limit}`);
    ids.push(...batch.data.map((tx) => tx.id));
    before = batch.next;
    assert.ok(++batches < 10_000, "scan() does not end");
  } while (before !== null);
  assert.deepEqual(new Set(ids).size, ids.length, "scan() answered an id twice");
  return { ids, batches };
}

/** The contract of donors, admins, refresh tokens, throttle, nonces and transactions. */
async function repositoriesContract(
  t: Deno.TestContext,
  open: () => Promise<Store>,
  { sharedData, fresh }: ContractOptions,
): Promise<void> {
  // ---- donors ----

  await t.step(
    "donors: create() answers the donor as stored; get() agrees; unknown id is null",
    () =>
      withStore(open, async (store) => {
        const input = donorFixture({ email: "  Ada.Lovelace@Example.COM ", paymentDate: at(1000) });
        const created = await store.donors.create(input);
        assert.deepEqual(created, { ...input, email: "ada.lovelace@example.com" });
        assertIsoInstant(created.createdAt, "createdAt");
        assert.deepEqual(await store.donors.get(input.id), created);
        assert.deepEqual(await store.donors.get(uid("donor")), null);
        await assert.rejects(
          () => store.donors.create(donorFixture({ id: input.id })),
          "a reused id was accepted",
        );
        assert.deepEqual(await store.donors.get(input.id), created, "a refused create changed the donor");
      }),
  );

  await t.step(
    "donors: update() changes only the given fields; unknown id answers null",
    () =>
      withStore(open, async (store) => {
        const donor = await store.donors.create(donorFixture());
        const paid = await store.donors.update(donor.id, {
          paymentDate: at(5_000),
          nextPaymentDate: at(2_592_000_000),
          monthlyPaymentAvailable: true,
        });
        assert.deepEqual(paid, {
          ...donor,
          paymentDate: at(5_000),
          nextPaymentDate: at(2_592_000_000),
          monthlyPaymentAvailable: true,
        });
        // One field only; an explicit null clears it, the others stay.
        const cancelled = await store.donors.update(donor.id, { nextPaymentDate: null });
        assert.deepEqual(cancelled, { ...paid, nextPaymentDate: null });
        const off = await store.donors.update(donor.id, { monthlyPaymentAvailable: false });
        assert.deepEqual(off, { ...cancelled, monthlyPaymentAvailable: false });
        assert.deepEqual(await store.donors.update(donor.id, {}), off, "an empty update changed something");
        assert.deepEqual(await store.donors.get(donor.id), off);
        assert.deepEqual(await store.donors.update(uid("donor"), { paymentDate: at(1) }), null);
      }),
  );

  // ---- admins ----

  await t.step(
    "admins: create(), get() and getByEmail() (normalized email); unknown is null",
    () =>
      withStore(open, async (store) => {
        const input = adminFixture({ email: "  Grace.Hopper@Museum.EXAMPLE " });
        const created = await store.admins.create(input);
        assert.deepEqual(created, { ...input, email: "grace.hopper@museum.example" });
        assert.deepEqual(await store.admins.get(input.id), created);
        assert.deepEqual(await store.admins.getByEmail("grace.hopper@museum.example"), created);
        assert.deepEqual(await store.admins.getByEmail(" GRACE.HOPPER@museum.example"), created);
        assert.deepEqual(await store.admins.get(uid("admin")), null);
        assert.deepEqual(await store.admins.getByEmail("nobody@museum.example"), null);
      }),
  );

  await t.step(
    "admins: a taken email (in any case) throws EmailTakenError, also under a race",
    () =>
      withTwo(fresh(), sharedData, async (a, b) => {
        const first = await a.admins.create(adminFixture({ email: "taken@museum.example" }));
        await assert.rejects(
          () => b.admins.create(adminFixture({ email: " TAKEN@Museum.Example" })),
          (error) => error instanceof EmailTakenError && error.name === "EmailTakenError",
        );
        assert.deepEqual(await a.admins.getByEmail("taken@museum.example"), first);
        assert.deepEqual((await a.admins.listByStatus("pending")).length, 1);
        // A reused id with a new email is refused too (not as a taken email).
        await assert.rejects(
          () => a.admins.create(adminFixture({ id: first.id, email: "other@museum.example" })),
          (error) => !(error instanceof EmailTakenError),
        );
        assert.deepEqual(await a.admins.getByEmail("other@museum.example"), null);

        const results = await Promise.allSettled(
          Array.from(
            { length: 5 },
            (_, i) =>
              (i % 2 ? a : b).admins.create(adminFixture({ email: "race@museum.example", createdAt: at(i) })),
          ),
        );
        assert.deepEqual(results.filter((r) => r.status === "fulfilled").length, 1);
        for (const r of results) {
          if (r.status === "rejected") assert.ok(r.reason instanceof EmailTakenError, String(r.reason));
        }
        assert.deepEqual((await a.admins.listByStatus("pending")).length, 2);
      }),
  );

  await t.step(
    "admins: approveIfFirst approves exactly one of 5 concurrent first registrations",
    () =>
      withTwo(fresh(), sharedData, async (a, b) => {
        const results = await Promise.all(
          Array.from(
            { length: 5 },
            (_, i) =>
              (i % 2 ? a : b).admins.create(adminFixture({ createdAt: at(i) }), { approveIfFirst: true }),
          ),
        );
        const approved = results.filter((admin) => admin.status === "approved");
        assert.deepEqual(approved.length, 1, `${approved.length} admins were approved`);
        assert.deepEqual(results.filter((admin) => admin.status === "pending").length, 4);
        // Approved by nobody, at registration.
        assert.deepEqual(approved[0].decidedBy, null);
        assert.deepEqual(approved[0].decidedAt, approved[0].createdAt);
        assert.deepEqual(await a.admins.listByStatus("approved"), approved);
        assert.deepEqual(await b.admins.get(approved[0].id), approved[0]);

        // Once an approved admin exists, approveIfFirst stores the admin as given.
        const later = await a.admins.create(adminFixture({ createdAt: at(10) }), { approveIfFirst: true });
        assert.deepEqual(later.status, "pending");
        const rejected = await a.admins.create(adminFixture({ status: "rejected" }), {
          approveIfFirst: true,
        });
        assert.deepEqual(rejected.status, "rejected");
        assert.deepEqual((await a.admins.listByStatus("approved")).length, 1);
      }),
  );

  await t.step(
    "admins: without approveIfFirst nothing is auto-approved; rejecting the last approved admin reopens it",
    () =>
      withStore(fresh(), async (store) => {
        const pending = await store.admins.create(adminFixture({ createdAt: at(0) }));
        assert.deepEqual(pending.status, "pending");
        const first = await store.admins.create(adminFixture({ createdAt: at(1) }), { approveIfFirst: true });
        assert.deepEqual(first.status, "approved");
        // "No approved admin exists" is decided on the current state, status changes included.
        await store.admins.setStatus(first.id, "rejected", pending.id, at(2));
        const again = await store.admins.create(adminFixture({ createdAt: at(3) }), { approveIfFirst: true });
        assert.deepEqual(again.status, "approved");
        await store.admins.setStatus(pending.id, "approved", again.id, at(4));
        const notFirst = await store.admins.create(adminFixture({ createdAt: at(5) }), {
          approveIfFirst: true,
        });
        assert.deepEqual(notFirst.status, "pending");
      }),
  );

  await t.step(
    "admins: listByStatus() is oldest first; setStatus() moves an admin between lists",
    () =>
      withStore(fresh(), async (store) => {
        // Created out of order; two share an instant (then the id decides, byte order).
        const specs = [
          { id: "admin_c", createdAt: at(3_000) },
          { id: "admin_a", createdAt: at(1_000) },
          { id: "admin_e", createdAt: at(2_000) },
          { id: "admin_B", createdAt: at(2_000) },
        ];
        for (const spec of specs) await store.admins.create(adminFixture(spec));
        const ids = async (status: AdminStatus) => (await store.admins.listByStatus(status)).map((a) => a.id);
        assert.deepEqual(await ids("pending"), ["admin_a", "admin_B", "admin_e", "admin_c"]);
        assert.deepEqual(await ids("approved"), []);

        const before = await store.admins.get("admin_e");
        assert.ok(before);
        const approved = await store.admins.setStatus("admin_e", "approved", "admin_a", at(9_000));
        assert.deepEqual(approved, {
          ...before,
          status: "approved",
          decidedBy: "admin_a",
          decidedAt: at(9_000),
        });
        assert.deepEqual(await store.admins.get("admin_e"), approved);
        assert.deepEqual(await store.admins.listByStatus("approved"), [approved]);
        assert.deepEqual(await ids("pending"), ["admin_a", "admin_B", "admin_c"]);

        await store.admins.setStatus("admin_c", "rejected", "admin_e", at(9_001));
        await store.admins.setStatus("admin_a", "rejected", "admin_e", at(9_002));
        assert.deepEqual(await ids("rejected"), ["admin_a", "admin_c"]);
        assert.deepEqual(await ids("pending"), ["admin_B"]);
        // Setting the same status again only changes who decided and when.
        const again = await store.admins.setStatus("admin_a", "rejected", "admin_B", at(9_003));
        assert.deepEqual([again?.decidedBy, again?.decidedAt], ["admin_B", at(9_003)]);
        assert.deepEqual(await ids("rejected"), ["admin_a", "admin_c"]);
        assert.deepEqual(await store.admins.setStatus("admin_unknown", "approved", "admin_e", at(1)), null);
      }),
  );

  // ---- refresh tokens ----

  await t.step(
    "refreshTokens: create() then get(); unknown hash is null; a reused hash is refused",
    () =>
      withStore(open, async (store) => {
        const token = tokenFixture();
        await store.refreshTokens.create(token);
        assert.deepEqual(await store.refreshTokens.get(token.hash), token);
        assert.deepEqual(await store.refreshTokens.get(uid("hash")), null);
        await assert.rejects(() => store.refreshTokens.create(tokenFixture({ hash: token.hash })));
        assert.deepEqual(await store.refreshTokens.get(token.hash), token);
      }),
  );

  await t.step(
    "refreshTokens: markUsed() is true once, false after and for unknown hashes",
    () =>
      withStore(open, async (store) => {
        const token = tokenFixture();
        await store.refreshTokens.create(token);
        assert.deepEqual(await store.refreshTokens.markUsed(token.hash, at(60_000)), true);
        assert.deepEqual(await store.refreshTokens.get(token.hash), { ...token, usedAt: at(60_000) });
        assert.deepEqual(await store.refreshTokens.markUsed(token.hash, at(61_000)), false);
        assert.deepEqual((await store.refreshTokens.get(token.hash))?.usedAt, at(60_000), "usedAt moved");
        assert.deepEqual(await store.refreshTokens.markUsed(uid("hash"), at(1)), false);
      }),
  );

  await t.step(
    "refreshTokens: 10 concurrent markUsed() calls, exactly one true",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        for (let round = 0; round < 2; round++) {
          const token = tokenFixture();
          await a.refreshTokens.create(token);
          const results = await Promise.all(
            Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).refreshTokens.markUsed(token.hash, at(i))),
          );
          assert.deepEqual(results.filter(Boolean).length, 1, `results: ${results}`);
          assert.deepEqual((await b.refreshTokens.get(token.hash))?.usedAt, at(results.indexOf(true)));
        }
      }),
  );

  await t.step(
    "refreshTokens: revokeFamily() is idempotent and per family",
    () =>
      withStore(open, async (store) => {
        const family = uid("family");
        const other = uid("family");
        await store.refreshTokens.create(tokenFixture({ familyId: family }));
        assert.deepEqual(await store.refreshTokens.isFamilyRevoked(family), false);
        await store.refreshTokens.revokeFamily(family, at(1));
        assert.deepEqual(await store.refreshTokens.isFamilyRevoked(family), true);
        await store.refreshTokens.revokeFamily(family, at(2));
        await Promise.all([
          store.refreshTokens.revokeFamily(family, at(3)),
          store.refreshTokens.revokeFamily(family, at(4)),
        ]);
        assert.deepEqual(await store.refreshTokens.isFamilyRevoked(family), true);
        assert.deepEqual(await store.refreshTokens.isFamilyRevoked(other), false);
        // A family without stored tokens can be revoked too (a stolen token of a forgotten family).
        await store.refreshTokens.revokeFamily(other, at(5));
        assert.deepEqual(await store.refreshTokens.isFamilyRevoked(other), true);
      }),
  );

  // ---- throttle ----

  await t.step(
    "throttle: record() answers the sliding window, oldest first; recent() does not record",
    () =>
      withStore(open, async (store) => {
        const key = uid("login");
        const now = 1_700_000_000_000;
        const w = 10_000;
        assert.deepEqual(await store.throttle.recent(key, now, w), []);
        assert.deepEqual(await store.throttle.record(key, now, w), [now]);
        assert.deepEqual(await store.throttle.record(key, now + 1_000, w), [now, now + 1_000]);
        assert.deepEqual(await store.throttle.record(key, now + 5_000, w), [now, now + 1_000, now + 5_000]);
        assert.deepEqual(await store.throttle.recent(key, now + 5_000, w), [now, now + 1_000, now + 5_000]);
        assert.deepEqual(await store.throttle.recent(key, now + 5_000, w), [now, now + 1_000, now + 5_000]);
        // Exactly windowMs old is out of the window.
        assert.deepEqual(await store.throttle.recent(key, now + w, w), [now + 1_000, now + 5_000]);
        assert.deepEqual(await store.throttle.recent(key, now + 5_000, 4_500), [now + 1_000, now + 5_000]);
        assert.deepEqual(await store.throttle.record(key, now + 12_000, w), [now + 5_000, now + 12_000]);
        assert.deepEqual(await store.throttle.recent(key, now + 40_000, w), []);
        // A clock that went back: the answer is still oldest first.
        assert.deepEqual(await store.throttle.record(key, now + 11_000, w), [
          now + 5_000,
          now + 11_000,
          now + 12_000,
        ]);
      }),
  );

  await t.step(
    "throttle: keys are isolated; clear() forgets one key only",
    () =>
      withStore(open, async (store) => {
        const [k1, k2] = [uid("ip"), uid("ip")];
        const now = 1_700_000_000_000;
        await store.throttle.record(k1, now, 60_000);
        await store.throttle.record(k1, now + 1, 60_000);
        assert.deepEqual(await store.throttle.record(k2, now + 2, 60_000), [now + 2]);
        assert.deepEqual(await store.throttle.recent(k1, now + 3, 60_000), [now, now + 1]);
        await store.throttle.clear(k1);
        assert.deepEqual(await store.throttle.recent(k1, now + 3, 60_000), []);
        assert.deepEqual(await store.throttle.recent(k2, now + 3, 60_000), [now + 2]);
        await store.throttle.clear(k1);
        await store.throttle.clear(uid("never"));
        assert.deepEqual(await store.throttle.record(k1, now + 4, 60_000), [now + 4]);
      }),
  );

  await t.step(
    "throttle: a key keeps its 100 most recent events; concurrent records each count",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const key = uid("flood");
        const now = 1_700_000_000_000;
        let last: number[] = [];
        for (let i = 0; i < 105; i++) last = await a.throttle.record(key, now + i, 60_000);
        const expected = Array.from({ length: 100 }, (_, i) => now + 5 + i);
        assert.deepEqual(last, expected);
        assert.deepEqual(await b.throttle.recent(key, now + 200, 60_000), expected);

        const racing = uid("race");
        const answers = await Promise.all(
          Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).throttle.record(racing, now + i, 60_000)),
        );
        assert.deepEqual(answers.map((times) => times.length).sort((x, y) => x - y), [
          1,
          2,
          3,
          4,
          5,
          6,
          7,
          8,
          9,
          10,
        ]);
        assert.deepEqual(
          await a.throttle.recent(racing, now + 10, 60_000),
          Array.from({ length: 10 }, (_, i) => now + i),
        );
      }),
  );

  // ---- nonces ----

  await t.step(
    "nonces: claim() is true once, false while it lasts, true again after it expired",
    () =>
      withStore(open, async (store) => {
        const nonce = uid("nonce");
        const later = Date.now() + 60_000;
        assert.deepEqual(await store.nonces.claim(nonce, later), true);
        assert.deepEqual(await store.nonces.claim(nonce, later), false);
        assert.deepEqual(await store.nonces.claim(nonce, later + 60_000), false);
        assert.deepEqual(await store.nonces.claim(uid("nonce"), later), true);

        const brief = uid("nonce");
        assert.deepEqual(await store.nonces.claim(brief, Date.now() + 150), true);
        assert.deepEqual(await store.nonces.claim(brief, Date.now() + 150), false);
        await sleep(200);
        assert.deepEqual(
          await store.nonces.claim(brief, Date.now() + 60_000),
          true,
          "an expired nonce was refused",
        );
        assert.deepEqual(await store.nonces.claim(brief, Date.now() + 60_000), false);
      }),
  );

  await t.step(
    "nonces: 10 concurrent claims of one nonce, exactly one true",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        for (let round = 0; round < 3; round++) {
          const nonce = uid("nonce");
          const results = await Promise.all(
            Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).nonces.claim(nonce, Date.now() + 60_000)),
          );
          assert.deepEqual(results.filter(Boolean).length, 1, `results: ${results}`);
        }
      }),
  );

  await t.step(
    "invalid arguments reject with a RangeError and write nothing",
    () =>
      withStore(open, async (store) => {
        const key = uid("bad");
        await assert.rejects(() => store.throttle.record(key, 1_000, 0), RangeError);
        await assert.rejects(() => store.throttle.record(key, 1.5, 1_000), RangeError);
        await assert.rejects(() => store.throttle.recent(key, 1_000, -1), RangeError);
        assert.deepEqual(await store.throttle.recent(key, 1_000, 1_000), []);
        await assert.rejects(() => store.nonces.claim(key, Date.now() + 0.5), RangeError);
        assert.deepEqual(await store.nonces.claim(key, Date.now() + 60_000), true);
        const bad = txFixture({ createdAt: "yesterday" });
        await assert.rejects(() => store.transactions.record(bad), RangeError);
        await assert.rejects(() => store.transactions.record(txFixture({ amount: 1.5 })), RangeError);
        assert.deepEqual(await store.transactions.get(bad.id), null);
        const huge = txFixture({ resultData: { ...txFixture().resultData!, Blob: "x".repeat(70_000) } });
        await assert.rejects(() => store.transactions.record(huge), RangeError);
        assert.deepEqual(await store.transactions.get(huge.id), null);
        await assert.rejects(
          () => store.donors.create(donorFixture({ createdAt: "not a date" })),
          RangeError,
        );
      }),
  );

  // ---- transactions ----

  await t.step(
    "transactions: record() answers the transaction as stored; get() and getByProviderId() agree",
    () =>
      withStore(fresh(), async (store) => {
        const success = txFixture({ isMonthly: true, amount: 40_000, currency: 2 });
        const recorded = await store.transactions.record(success);
        assert.deepEqual(recorded, { created: true, transaction: success });
        const { transaction } = recorded;
        assertIsoInstant(transaction.createdAt, "createdAt");
        assert.deepEqual(typeof transaction.amount, "number");
        assert.deepEqual(typeof transaction.currency, "number");
        assert.deepEqual(await store.transactions.get(success.id), success);
        assert.deepEqual(
          await store.transactions.getByProviderId("sandbox", success.providerTransactionId!),
          success,
        );

        const error = txFixture({ kind: "error", isMonthly: false });
        assert.deepEqual(await store.transactions.record(error), { created: true, transaction: error });
        assert.deepEqual(await store.transactions.get(error.id), error);
        assert.deepEqual(
          [error.resultData, error.amount, error.currency, error.errorMessage],
          [null, null, null, "Card declined"],
        );

        assert.deepEqual(await store.transactions.get(uid("tx")), null);
        assert.deepEqual(await store.transactions.getByProviderId("sandbox", uid("ptx")), null);
        assert.deepEqual(
          await store.transactions.getByProviderId("pelecard", success.providerTransactionId!),
          null,
        );
        // A reused id (with a new provider id) is refused.
        await assert.rejects(() => store.transactions.record(txFixture({ id: success.id })));
        assert.deepEqual((await store.transactions.listSuccess({ page: 1, limit: 10 })).total, 1);
      }),
  );

  await t.step(
    "transactions: record() is idempotent per (provider, providerTransactionId)",
    () =>
      withTwo(fresh(), sharedData, async (a, b) => {
        const first = txFixture({ providerTransactionId: "PTX-1" });
        assert.deepEqual((await a.transactions.record(first)).created, true);
        // The same payment reported again (another id, another time): nothing is written.
        const again = await b.transactions.record(
          txFixture({ providerTransactionId: "PTX-1", createdAt: at(5) }),
        );
        assert.deepEqual(again, { created: false, transaction: first });
        const asError = await b.transactions.record(
          txFixture({ kind: "error", providerTransactionId: "PTX-1" }),
        );
        assert.deepEqual(asError, { created: false, transaction: first });

        // The same provider id at another provider is another payment.
        const other = txFixture({ provider: "pelecard", providerTransactionId: "PTX-1" });
        assert.deepEqual(await a.transactions.record(other), { created: true, transaction: other });
        assert.deepEqual(await b.transactions.getByProviderId("sandbox", "PTX-1"), first);
        assert.deepEqual(await b.transactions.getByProviderId("pelecard", "PTX-1"), other);

        // Without a provider id, every record creates.
        const anonymous = [
          txFixture({ providerTransactionId: null }),
          txFixture({ providerTransactionId: null }),
        ];
        for (const tx of anonymous) {
          assert.deepEqual(await a.transactions.record(tx), { created: true, transaction: tx });
        }

        // 10 racing records of one new pair: one is created, all answer it, one row is listed.
        const racing = Array.from(
          { length: 10 },
          (_, i) => txFixture({ providerTransactionId: "PTX-RACE", isMonthly: true, createdAt: at(100 + i) }),
        );
        const results = await Promise.all(racing.map((tx, i) => (i % 2 ? a : b).transactions.record(tx)));
        const created = results.filter((r) => r.created);
        assert.deepEqual(created.length, 1, `${created.length} created`);
        for (const r of results) assert.deepEqual(r.transaction, created[0].transaction);

        const all = await a.transactions.listSuccess({ page: 1, limit: 100 });
        assert.deepEqual(all.total, 5);
        assert.deepEqual(all.data.map((tx) => tx.id), [
          created[0].transaction.id,
          ...anonymous.map((tx) => tx.id).reverse(),
          other.id,
          first.id,
        ]);
        assert.deepEqual(await a.transactions.listSuccess({ page: 1, limit: 100, isMonthly: true }), {
          data: [created[0].transaction],
          total: 1,
        });
        assert.deepEqual(await a.transactions.listErrors({ page: 1, limit: 100 }), { data: [], total: 0 });
      }),
  );

  await t.step(
    "transactions: listSuccess()/listErrors() page newest first, with totals, per list",
    () =>
      withStore(fresh(), async (store) => {
        const successes: Transaction[] = [];
        const errors: Transaction[] = [];
        for (let i = 0; i < 37; i++) {
          const tx = txFixture({ isMonthly: i % 3 === 0, createdAt: at(i * 1000) });
          await store.transactions.record(tx);
          successes.push(tx);
          if (i % 3 === 1) {
            const error = txFixture({ kind: "error", isMonthly: i % 2 === 0, createdAt: at(i * 1000 + 1) });
            await store.transactions.record(error);
            errors.push(error);
          }
        }
        const newestFirst = (list: Transaction[]) => list.map((tx) => tx.id).reverse();

        const all = await allPages((q) => store.transactions.listSuccess(q), 10, 37);
        assert.deepEqual(all.sizes, [10, 10, 10, 7, 0]);
        assert.deepEqual(all.ids, newestFirst(successes));
        assert.deepEqual(await store.transactions.listSuccess({ page: 5, limit: 10 }), {
          data: [],
          total: 37,
        });
        assert.deepEqual(await store.transactions.listSuccess({ page: 99, limit: 10 }), {
          data: [],
          total: 37,
        });
        // Whole transactions, as recorded.
        assert.deepEqual(
          (await store.transactions.listSuccess({ page: 1, limit: 2 })).data,
          successes.slice(-2).reverse(),
        );

        const monthly = successes.filter((tx) => tx.isMonthly);
        const oneTime = successes.filter((tx) => !tx.isMonthly);
        assert.deepEqual([monthly.length, oneTime.length], [13, 24]);
        const m = await allPages((q) => store.transactions.listSuccess({ ...q, isMonthly: true }), 5, 13);
        assert.deepEqual(m.sizes, [5, 5, 3, 0]);
        assert.deepEqual(m.ids, newestFirst(monthly));
        const o = await allPages((q) => store.transactions.listSuccess({ ...q, isMonthly: false }), 10, 24);
        assert.deepEqual(o.sizes, [10, 10, 4, 0]);
        assert.deepEqual(o.ids, newestFirst(oneTime));

        assert.deepEqual(errors.length, 12);
        const e = await allPages((q) => store.transactions.listErrors(q), 5, 12);
        assert.deepEqual(e.sizes, [5, 5, 2, 0]);
        assert.deepEqual(e.ids, newestFirst(errors));
        // Errors have monthly and one-time lists too.
        const monthlyErrors = errors.filter((tx) => tx.isMonthly);
        const oneTimeErrors = errors.filter((tx) => !tx.isMonthly);
        assert.deepEqual([monthlyErrors.length, oneTimeErrors.length], [6, 6]);
        const em = await allPages((q) => store.transactions.listErrors({ ...q, isMonthly: true }), 4, 6);
        assert.deepEqual(em.sizes, [4, 2, 0]);
        assert.deepEqual(em.ids, newestFirst(monthlyErrors));
        const eo = await allPages((q) => store.transactions.listErrors({ ...q, isMonthly: false }), 4, 6);
        assert.deepEqual(eo.ids, newestFirst(oneTimeErrors));
        assert.deepEqual(
          (await store.transactions.listErrors({ page: 2, limit: 5, isMonthly: true })).data,
          monthlyErrors.slice(0, 1),
        );
        // A page larger than the list.
        assert.deepEqual(
          (await store.transactions.listErrors({ page: 1, limit: 50 })).data,
          [...errors].reverse(),
        );

        for (
          const bad of [{ page: 0, limit: 10 }, { page: 1, limit: 0 }, { page: 1.5, limit: 10 }, {
            page: 1,
            limit: -1,
          }]
        ) {
          await assert.rejects(() => store.transactions.listSuccess(bad), RangeError, JSON.stringify(bad));
        }
      }),
  );

  /** Every list of a store, read page by page (`limit` 7), with its total: what an admin can see. */
  const everyList = async (store: Store) => {
    const read = async (list: (q: { page: number; limit: number }) => Promise<Page<Transaction>>) => {
      const { total } = await list({ page: 1, limit: 1 });
      const { ids, sizes } = await allPages(list, 7, total);
      // Pages are consistent: full pages, then the rest, then an empty one; no id twice.
      assert.deepEqual(sizes.slice(0, -1).every((n, i, all) => n === 7 || i === all.length - 1), true);
      assert.deepEqual(new Set(ids).size, ids.length, "an id appears on two pages");
      return { total, ids };
    };
    return {
      all: await read((q) => store.transactions.listSuccess(q)),
      monthly: await read((q) => store.transactions.listSuccess({ ...q, isMonthly: true })),
      oneTime: await read((q) => store.transactions.listSuccess({ ...q, isMonthly: false })),
      errors: await read((q) => store.transactions.listErrors(q)),
      monthlyErrors: await read((q) => store.transactions.listErrors({ ...q, isMonthly: true })),
      oneTimeErrors: await read((q) => store.transactions.listErrors({ ...q, isMonthly: false })),
    };
  };

  /** `count` transactions of every kind, oldest first, one second apart from `from`. */
  const importFixtures = (count: number, from: number) =>
    Array.from({ length: count }, (_, i) =>
      txFixture({
        kind: i % 5 === 2 ? "error" : "success",
        isMonthly: i % 3 === 0,
        createdAt: at((from + i) * 1000),
        user: { firstName: `First${i}`, lastName: i % 2 ? "Levi" : "Cohen", email: `donor${i}@example.org` },
      }));

  await t.step(
    "transactions: import() of 250 with duplicates equals record() one by one; record() continues",
    async () => {
      const early = importFixtures(20, 0);
      // A provider re-sends 15 earlier payments (new ids, other times) and repeats 5 of this batch.
      // Some large ones too: on Deno KV the batch then needs several commits (800 KiB each at most).
      const fresh230 = importFixtures(230, 100).map((tx, i) =>
        i % 23 === 5 ? { ...tx, resultData: { ...txFixture().resultData!, Blob: "x".repeat(40_000) } } : tx
      );
      const resent = early.slice(0, 15).map((tx, i) =>
        txFixture({ providerTransactionId: tx.providerTransactionId, createdAt: at((400 + i) * 1000) })
      );
      const repeated = fresh230.slice(40, 45).map((tx) =>
        txFixture({ providerTransactionId: tx.providerTransactionId, kind: "error" })
      );
      const batch = [...fresh230.slice(0, 100), ...resent, ...fresh230.slice(100), ...repeated];
      assert.deepEqual(batch.length, 250);
      const later = importFixtures(3, 900);

      await withStore(fresh(), async (imported) => {
        await withStore(fresh(), async (oneByOne) => {
          for (const tx of early) {
            await imported.transactions.record(tx);
            await oneByOne.transactions.record(tx);
          }
          assert.deepEqual(await imported.transactions.import(batch), 230);
          let created = 0;
          for (const tx of batch) if ((await oneByOne.transactions.record(tx)).created) created++;
          assert.deepEqual(created, 230);

          const lists = await everyList(imported);
          assert.deepEqual(lists, await everyList(oneByOne));
          const successes = [...early, ...fresh230].filter((tx) => tx.kind === "success");
          assert.deepEqual(
            [lists.all.total, lists.monthly.total, lists.oneTime.total, lists.errors.total],
            [
              successes.length,
              successes.filter((tx) => tx.isMonthly).length,
              successes.filter((tx) => !tx.isMonthly).length,
              250 - successes.length,
            ],
          );
          // Whole transactions as recorded, newest first; the resent and repeated ones are not there.
          assert.deepEqual(
            (await imported.transactions.listSuccess({ page: 1, limit: 100 })).data,
            successes.slice(-100).reverse(),
          );
          for (const tx of [...resent, ...repeated]) {
            assert.deepEqual(await imported.transactions.get(tx.id), null);
          }
          assert.deepEqual(
            await imported.transactions.getByProviderId("sandbox", fresh230[200].providerTransactionId!),
            fresh230[200],
          );
          // The same search either way.
          const levi = { page: 2, limit: 10, search: "LEVI" };
          assert.deepEqual(
            await imported.transactions.listSuccess(levi),
            await oneByOne.transactions.listSuccess(levi),
          );

          // Importing again records nothing; record() after import() continues every sequence.
          assert.deepEqual(await imported.transactions.import(batch), 0);
          assert.deepEqual(await imported.transactions.import([]), 0);
          for (const tx of later) {
            assert.deepEqual(await imported.transactions.record(tx), { created: true, transaction: tx });
            await oneByOne.transactions.record(tx);
          }
          const after = await everyList(imported);
          assert.deepEqual(after, await everyList(oneByOne));
          assert.deepEqual(after.all.total, lists.all.total + 2);
          assert.deepEqual(after.errors.total, lists.errors.total + 1);
          assert.deepEqual(after.all.ids.slice(0, 2), [later[1].id, later[0].id]);
          assert.deepEqual(after.errors.ids[0], later[2].id);
        });
      });
    },
  );

  await t.step(
    "transactions: import() refuses bad input before writing; concurrent record() of the same pairs",
    () =>
      withTwo(fresh(), sharedData, async (a, b) => {
        const good = importFixtures(10, 0);
        await assert.rejects(() => a.transactions.import(importFixtures(1001, 0)), RangeError);
        await assert.rejects(
          () => a.transactions.import([...good, txFixture({ createdAt: "yesterday" })]),
          RangeError,
        );
        await assert.rejects(
          () => a.transactions.import([...good, txFixture({ id: good[3].id })]),
          RangeError,
          "an id given to two payments",
        );
        assert.deepEqual((await a.transactions.listSuccess({ page: 1, limit: 10 })).total, 0);
        assert.deepEqual(await a.transactions.get(good[0].id), null);
        // An id that is stored already is refused, as by record().
        await a.transactions.record(good[0]);
        await assert.rejects(() => a.transactions.import([txFixture({ id: good[0].id })]));

        // Imports on one instance race records of the same pairs on the other: each pair is
        // recorded once, and every list stays dense.
        const batch = importFixtures(300, 100);
        const results = await Promise.all([
          a.transactions.import(batch.slice(0, 150)),
          ...batch.filter((_, i) => i % 7 === 0).map(async (tx) =>
            (await b.transactions.record(txFixture({ ...tx, id: uid("tx") }))).created ? 1 : 0
          ),
          a.transactions.import(batch.slice(150)),
        ]);
        assert.deepEqual(results.reduce((sum, n) => sum + n, 0), 300);
        const lists = await everyList(b);
        assert.deepEqual(lists.all.total + lists.errors.total, 301);
        assert.deepEqual(lists.monthly.total + lists.oneTime.total, lists.all.total);
        assert.deepEqual(lists.monthlyErrors.total + lists.oneTimeErrors.total, lists.errors.total);
        for (const tx of batch) {
          assert.ok(await a.transactions.getByProviderId("sandbox", tx.providerTransactionId!), tx.id);
        }
      }),
  );

  await t.step(
    "transactions: searches matching many donors, or two fields of one, count and page each match once",
    () =>
      withStore(fresh(), async (store) => {
        // 230 donors: every email contains "bulk", every tenth first name too ("Bulky").
        const txs = Array.from({ length: 230 }, (_, i) =>
          txFixture({
            kind: i % 4 === 3 ? "error" : "success",
            isMonthly: i % 3 === 0,
            createdAt: at(i * 1000),
            user: {
              firstName: i % 10 === 0 ? "Bulky" : "Ann",
              lastName: "Smith",
              email: `bulk${i}@example.net`,
            },
          }));
        assert.deepEqual(await store.transactions.import(txs.slice(0, 200)), 200);
        for (const tx of txs.slice(200)) await store.transactions.record(tx);
        const expect = (term: string, kind: Transaction["kind"], isMonthly?: boolean) =>
          txs.filter((tx) =>
            tx.kind === kind && (isMonthly === undefined || tx.isMonthly === isMonthly) &&
            [tx.user.email, tx.user.firstName, tx.user.lastName].some((f) => f.toLowerCase().includes(term))
          ).map((tx) => tx.id).reverse();
        // "bulk": 230 distinct emails and a first name; "ulk1": 111 emails; "bulky": one first name;
        // "smith" one last name on every transaction.
        for (const term of ["bulk", "ulk1", "bulky", "smith", "k2", "@"]) {
          for (const isMonthly of [undefined, true, false]) {
            const ids = expect(term, "success", isMonthly);
            const pages = await allPages(
              (q) => store.transactions.listSuccess({ ...q, isMonthly, search: term.toUpperCase() }),
              25,
              ids.length,
            );
            assert.deepEqual(pages.ids, ids, `success ${term} ${isMonthly}`);
          }
          for (const isMonthly of [undefined, true, false]) {
            const ids = expect(term, "error", isMonthly);
            const errors = await allPages(
              (q) => store.transactions.listErrors({ ...q, isMonthly, search: term }),
              9,
              ids.length,
            );
            assert.deepEqual(errors.ids, ids, `errors ${term} ${isMonthly}`);
          }
          // scan() reads the same, in batches.
          for (const kind of ["success", "error"] as const) {
            for (const isMonthly of [undefined, true, false]) {
              const { ids } = await scanAll(store, { kind, isMonthly, search: term.toUpperCase() }, 13);
              assert.deepEqual(ids, expect(term, kind, isMonthly), `scan ${kind} ${term} ${isMonthly}`);
            }
          }
        }
      }),
  );

  await t.step(
    "transactions: search matches email, first or last name; any case, any script; % and _ literally",
    () =>
      withStore(fresh(), async (store) => {
        const people = [
          { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", isMonthly: true },
          { firstName: "דוד", lastName: "כהן", email: "david@example.org", isMonthly: false },
          { firstName: "Иван", lastName: "Петров", email: "ivan@example.ru", isMonthly: true },
          { firstName: "Per", lastName: "Cent", email: "a%b@example.com", isMonthly: false },
          { firstName: "Decoy", lastName: "Percent", email: "axxb@example.com", isMonthly: true },
          { firstName: "Under", lastName: "Score", email: "first_last@example.com", isMonthly: false },
          { firstName: "Decoy", lastName: "Underscore", email: "firstalast@example.com", isMonthly: true },
          { firstName: "Back", lastName: "Slash\\", email: "back\\slash@example.com", isMonthly: false },
        ];
        const byName: Record<string, Transaction> = {};
        for (const [i, p] of people.entries()) {
          const tx = txFixture({
            isMonthly: p.isMonthly,
            user: { firstName: p.firstName, lastName: p.lastName, email: p.email },
            createdAt: at(i),
          });
          await store.transactions.record(tx);
          byName[p.email] = tx;
        }
        const error = txFixture({
          kind: "error",
          user: { firstName: "Ada", lastName: "Byron", email: "ada@example.com" },
        });
        await store.transactions.record(error);

        const search = async (term: string, isMonthly?: boolean) => {
          const page = await store.transactions.listSuccess({ page: 1, limit: 50, search: term, isMonthly });
          assert.deepEqual(page.total, page.data.length);
          return page.data.map((tx) => tx.user.email);
        };
        assert.deepEqual(await search("LOVELACE"), ["ada@example.com"]);
        assert.deepEqual(await search("lovel"), ["ada@example.com"]);
        assert.deepEqual(await search("EXAMPLE.ORG"), ["david@example.org"]);
        assert.deepEqual(await search("דוד"), ["david@example.org"]);
        assert.deepEqual(await search("כה"), ["david@example.org"]);
        assert.deepEqual(await search("Иван"), ["ivan@example.ru"]);
        assert.deepEqual(await search("иван"), ["ivan@example.ru"]);
        assert.deepEqual(await search("ПЕТРОВ"), ["ivan@example.ru"]);
        assert.deepEqual(await search("  ivan@ "), ["ivan@example.ru"], "the term is trimmed");
        assert.deepEqual(await search("a%b"), ["a%b@example.com"]);
        assert.deepEqual(await search("%"), ["a%b@example.com"]);
        assert.deepEqual(await search("t_l"), ["first_last@example.com"]);
        assert.deepEqual(await search("_"), ["first_last@example.com"]);
        assert.deepEqual(await search("\\"), ["back\\slash@example.com"]);
        assert.deepEqual(await search("k\\s"), ["back\\slash@example.com"]);
        assert.deepEqual(await search("nobody"), []);
        assert.deepEqual(await search("decoy", true), ["firstalast@example.com", "axxb@example.com"]);
        assert.deepEqual(await search("decoy", false), []);
        assert.deepEqual(await search("a", true), [
          "firstalast@example.com",
          "axxb@example.com",
          "ivan@example.ru",
          "ada@example.com",
        ]);

        // Newest first, paged, with the total of the matches.
        const everyone = people.map((p) => p.email).reverse();
        const pages = await allPages(
          (q) => store.transactions.listSuccess({ ...q, search: "EXAMPLE" }),
          3,
          8,
        );
        assert.deepEqual(pages.sizes, [3, 3, 2, 0]);
        assert.deepEqual(pages.ids, everyone.map((email) => byName[email].id));
        assert.deepEqual(
          await store.transactions.listSuccess({ page: 3, limit: 2, search: "example", isMonthly: true }),
          { data: [], total: 4 },
        );
        assert.deepEqual(await store.transactions.listSuccess({ page: 2, limit: 2, search: "nobody" }), {
          data: [],
          total: 0,
        });
        // A blank search is no search.
        assert.deepEqual(
          (await store.transactions.listSuccess({ page: 1, limit: 1, search: "  " })).total,
          8,
        );

        assert.deepEqual(await store.transactions.listErrors({ page: 1, limit: 10, search: "BYRON" }), {
          data: [error],
          total: 1,
        });
        assert.deepEqual(await store.transactions.listErrors({ page: 1, limit: 10, search: "lovelace" }), {
          data: [],
          total: 0,
        });
        // The payment filter applies to a search of errors too (the error is one-time).
        assert.deepEqual(
          await store.transactions.listErrors({ page: 1, limit: 10, search: "byron", isMonthly: false }),
          { data: [error], total: 1 },
        );
        assert.deepEqual(
          await store.transactions.listErrors({ page: 1, limit: 10, search: "byron", isMonthly: true }),
          { data: [], total: 0 },
        );
        assert.deepEqual(await store.transactions.scan({ kind: "error", search: "BYRON", limit: 5 }), {
          data: [error],
          next: null,
        });
      }),
  );

  await t.step(
    "transactions: scan() reads each list in batches, newest first, as its pages; later records stay out",
    () =>
      withStore(fresh(), async (store) => {
        assert.deepEqual(await store.transactions.scan({ kind: "success", limit: 10 }), {
          data: [],
          next: null,
        });
        const txs = importFixtures(130, 0);
        assert.deepEqual(await store.transactions.import(txs), 130);
        const lists = await everyList(store);
        const cases: [Omit<TransactionScanQuery, "limit">, string[]][] = [
          [{ kind: "success" }, lists.all.ids],
          [{ kind: "success", isMonthly: true }, lists.monthly.ids],
          [{ kind: "success", isMonthly: false }, lists.oneTime.ids],
          [{ kind: "error" }, lists.errors.ids],
          [{ kind: "error", isMonthly: true }, lists.monthlyErrors.ids],
          [{ kind: "error", isMonthly: false }, lists.oneTimeErrors.ids],
        ];
        for (const [query, ids] of cases) {
          for (const limit of [1, 7, ids.length, 1000]) {
            const scanned = await scanAll(store, query, limit);
            assert.deepEqual(scanned.ids, ids, `${JSON.stringify(query)} by ${limit}`);
            assert.ok(scanned.batches <= Math.floor(ids.length / limit) + 1, `${scanned.batches} batches`);
          }
        }
        // Whole transactions, as recorded; the cursor continues exactly below the batch.
        const first = await store.transactions.scan({ kind: "success", limit: 3 });
        const successes = txs.filter((tx) => tx.kind === "success");
        assert.deepEqual(first.data, successes.slice(-3).reverse());
        assert.ok(first.next !== null);
        // Records after the first batch are not in the rest of the walk.
        const late = txFixture({ createdAt: at(999_000) });
        await store.transactions.record(late);
        const rest: string[] = [];
        for (let before: string | null = first.next; before !== null;) {
          const batch: TransactionBatch = await store.transactions.scan({
            kind: "success",
            before,
            limit: 50,
          });
          rest.push(...batch.data.map((tx) => tx.id));
          before = batch.next;
        }
        assert.deepEqual(rest, successes.slice(0, -3).reverse().map((tx) => tx.id));
        assert.deepEqual((await store.transactions.scan({ kind: "success", limit: 1 })).data, [late]);

        for (
          const bad of [{ limit: 0 }, { limit: 1001 }, { limit: 1.5 }, { limit: 5, before: "x" }, {
            limit: 5,
            before: "0",
          }, { limit: 5, before: "-3" }]
        ) {
          await assert.rejects(
            () => store.transactions.scan({ kind: "success", ...bad }),
            RangeError,
            JSON.stringify(bad),
          );
        }
      }),
  );

  await t.step(
    "transactions: dailyTotals() sums successes per UTC day and currency within [from, to)",
    () =>
      withStore(fresh(), async (store) => {
        const day = (d: number, h = 12) => new Date(Date.UTC(2025, 4, d, h)).toISOString();
        const success = (
          createdAt: string,
          amount: number | null,
          currency: 1 | 2 | null,
          isMonthly = false,
        ) => txFixture({ createdAt, amount, currency, isMonthly });
        const txs = [
          success(day(1, 23), 999, 1), // before the range
          success(new Date(Date.UTC(2025, 4, 2) - 1).toISOString(), 1, 2), // the last ms before it
          success(day(2, 0), 10_000, 1), // the range's first instant
          success(day(2, 13), 550, 1, true),
          success(day(2, 14), 2_500, 2),
          txFixture({ kind: "error", createdAt: day(2, 15), amount: 7_000, currency: 1 }),
          success(day(2, 16), null, null), // unknown amount: not summed
          success(day(4, 9), 40_000, 2, true),
          success(day(4, 23), 1_000, 2),
          success(new Date(Date.UTC(2025, 4, 5) - 1).toISOString(), 5, 1), // the range's last ms
          success(day(5, 0), 123, 1), // the range's end: not in it
          success(day(6), 456, 2),
        ];
        for (const tx of txs) await store.transactions.record(tx);
        const range = { from: day(2, 0), to: day(5, 0) };
        assert.deepEqual(await store.transactions.dailyTotals(range), [
          { day: "2025-05-02", currency: 1, amount: 10_550, count: 2 },
          { day: "2025-05-02", currency: 2, amount: 2_500, count: 1 },
          { day: "2025-05-04", currency: 1, amount: 5, count: 1 },
          { day: "2025-05-04", currency: 2, amount: 41_000, count: 2 },
        ]);
        // Offsets in the input are normalized; an empty range answers nothing.
        assert.deepEqual(
          await store.transactions.dailyTotals({
            from: "2025-05-04T02:00:00+02:00",
            to: "2025-05-05T00:00:00Z",
          }),
          [
            { day: "2025-05-04", currency: 1, amount: 5, count: 1 },
            { day: "2025-05-04", currency: 2, amount: 41_000, count: 2 },
          ],
        );
        assert.deepEqual(await store.transactions.dailyTotals({ from: day(3, 0), to: day(3, 0) }), []);
        assert.deepEqual(await store.transactions.dailyTotals({ from: day(20), to: day(30) }), []);
        await assert.rejects(() => store.transactions.dailyTotals({ from: day(5), to: day(4) }), RangeError);
        await assert.rejects(() => store.transactions.dailyTotals({ from: "soon", to: day(4) }), RangeError);
      }),
  );
}

// ---- payments, subscriptions, charges, leases and the sandbox ----

function paymentFixture(overrides: Partial<Payment> = {}): Payment {
  return sharedPaymentFixture({ language: "he", createdAt: at(0), updatedAt: at(0), ...overrides });
}

function subscriptionFixture(overrides: Partial<Subscription> = {}): Subscription {
  return {
    id: uid("sub"),
    donorId: uid("donor"),
    amount: 2_500,
    currency: 2,
    provider: "sandbox",
    token: uid("tok"),
    cardMasked: "458045******4580",
    language: "en",
    status: "active",
    createdAt: at(0),
    paymentDate: at(0),
    nextPaymentDate: at(30 * DAY),
    failedAttempts: 0,
    retryAt: null,
    cancelledAt: null,
    ...overrides,
  };
}

function chargeFixture(overrides: Partial<Charge> = {}): Charge {
  const c: Charge = {
    subscriptionId: uid("sub"),
    period: at(30 * DAY),
    attempt: 0,
    status: "started",
    reference: "",
    startedAt: at(30 * DAY),
    finishedAt: null,
    transactionId: null,
    ...overrides,
  };
  return { ...c, reference: c.reference || `${c.subscriptionId}:${c.period}:${c.attempt}` };
}

function sandboxFixture(overrides: Partial<SandboxRecord> = {}): SandboxRecord {
  return {
    ref: uid("sbx"),
    kind: "hosted",
    status: "open",
    reference: uid("pay"),
    terminalId: null,
    amount: 10_000,
    currency: 1,
    createdAt: at(0),
    updatedAt: at(0),
    data: { userKey: "k", returnUrl: "http://127.0.0.1/return", tokenize: false, nested: { a: [1, null] } },
    ...overrides,
  };
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Runs `count` calls of `fn` at once, alternating the two stores. */
const race = <T>(a: Store, b: Store, count: number, fn: (store: Store, i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: count }, (_, i) => fn(i % 2 === 0 ? a : b, i)));

/** The contract of payments, subscriptions, charges, leases and the sandbox. */
async function billingContract(
  t: Deno.TestContext,
  open: () => Promise<Store>,
  { sharedData, fresh }: ContractOptions,
): Promise<void> {
  // ---- payments ----

  await t.step(
    "payments: createOrReuse() stores, get() agrees; update() changes only the given fields; unknown is null",
    () =>
      withStore(open, async (store) => {
        // An instant without milliseconds is stored as toISOString writes it.
        const input = paymentFixture({ createdAt: "2025-03-01T10:00:00Z", shopNumber: "7" });
        const { created, payment } = await store.payments.createOrReuse(input, uid("key"), 60_000, T0);
        assert.deepEqual(created, true);
        assert.deepEqual(payment, { ...input, createdAt: at(0) });
        assert.deepEqual(await store.payments.get(input.id), payment);
        assert.deepEqual(await store.payments.get(uid("pay")), null);
        assert.deepEqual(await store.payments.update(uid("pay"), { status: "failed" }), null);
        await assert.rejects(
          () => store.payments.createOrReuse(paymentFixture({ id: input.id }), uid("key"), 60_000, T0),
          "a reused id was accepted",
        );

        const started = await store.payments.update(payment.id, {
          providerRef: "ref-1",
          pageUrl: "http://127.0.0.1/sandbox/pay/ref-1",
          confirmationKey: "ck",
          updatedAt: "2025-03-01T10:00:01Z",
        });
        assert.deepEqual(started, {
          ...payment,
          providerRef: "ref-1",
          pageUrl: "http://127.0.0.1/sandbox/pay/ref-1",
          confirmationKey: "ck",
          updatedAt: at(1000),
        });
        assert.deepEqual(
          await store.payments.update(payment.id, {}),
          started,
          "an empty update changed something",
        );
        const done = await store.payments.update(payment.id, { status: "succeeded", transactionId: "tx-1" });
        assert.deepEqual(done, { ...started, status: "succeeded", transactionId: "tx-1" });
        assert.deepEqual(await store.payments.get(payment.id), done);
        await assert.rejects(() =>
          store.payments.update(payment.id, { status: "lost" as Payment["status"] })
        );
        assert.deepEqual(await store.payments.get(payment.id), done);
      }),
  );

  await t.step(
    "payments: getByProviderRef() follows providerRef as create and update() set it; unknown is null",
    () =>
      withStore(open, async (store) => {
        const ref = uid("ref");
        const { payment } = await store.payments.createOrReuse(paymentFixture(), uid("key"), 60_000, T0);
        assert.deepEqual(await store.payments.getByProviderRef("sandbox", ref), null);
        const withRef = await store.payments.update(payment.id, { providerRef: ref });
        assert.deepEqual(await store.payments.getByProviderRef("sandbox", ref), withRef);
        assert.deepEqual(
          await store.payments.getByProviderRef("pelecard", ref),
          null,
          "the provider is part of it",
        );
        // Moved to another reference: the old one finds nothing.
        const moved = await store.payments.update(payment.id, { providerRef: `${ref}-2` });
        assert.deepEqual(await store.payments.getByProviderRef("sandbox", ref), null);
        assert.deepEqual(await store.payments.getByProviderRef("sandbox", `${ref}-2`), moved);
        // Other fields changing keep it findable, with the new values.
        const failed = await store.payments.update(payment.id, { status: "failed" });
        assert.deepEqual(await store.payments.getByProviderRef("sandbox", `${ref}-2`), failed);
        await store.payments.update(payment.id, { providerRef: null });
        assert.deepEqual(await store.payments.getByProviderRef("sandbox", `${ref}-2`), null);
        // A payment created with a reference is found by it.
        const terminal = paymentFixture({ channel: "terminal", providerRef: `${ref}-3`, shopNumber: "3" });
        await store.payments.createOrReuse(terminal, uid("key"), 60_000, T0);
        assert.deepEqual(await store.payments.getByProviderRef("sandbox", `${ref}-3`), terminal);
      }),
  );

  await t.step(
    "payments: createOrReuse() reuses the key's payment only while younger than the window and pending",
    () =>
      withStore(open, async (store) => {
        const key = uid("key");
        const create = (ms: number, windowMs = 60_000) => {
          const p = paymentFixture({ createdAt: at(ms), updatedAt: at(ms) });
          return store.payments.createOrReuse(p, key, windowMs, T0 + ms).then((r) => ({ ...r, input: p }));
        };
        const first = await create(0);
        assert.deepEqual(first.created, true);
        const repeat = await create(59_999);
        assert.deepEqual(repeat, { created: false, payment: first.payment, input: repeat.input });
        assert.deepEqual(
          await store.payments.get(repeat.input.id),
          null,
          "a reused request stored a payment",
        );
        // Another key is another payment.
        const other = paymentFixture();
        assert.deepEqual(
          (await store.payments.createOrReuse(other, uid("key"), 60_000, T0 + 1)).created,
          true,
        );
        // As old as the window: no longer reused; the new payment takes the key over.
        const second = await create(60_000);
        assert.deepEqual(second.created, true);
        assert.deepEqual((await create(60_001)).payment, second.payment);
        // A smaller window on the same key counts from the key's payment.
        assert.deepEqual((await create(61_000, 1_000)).created, true);
        const third = await create(62_000, 10_000);
        assert.deepEqual(third.created, false);
        // Not pending any more: not reused.
        await store.payments.update(third.payment.id, { status: "failed" });
        const fourth = await create(62_500);
        assert.deepEqual(fourth.created, true);
        await store.payments.update(fourth.payment.id, { status: "succeeded" });
        const fifth = await create(62_600);
        assert.deepEqual(fifth.created, true);
        assert.deepEqual((await create(62_700)).payment, fifth.payment);
        // Every payment created stays readable.
        for (const p of [first, second, fourth, fifth]) assert.ok(await store.payments.get(p.payment.id));
      }),
  );

  await t.step(
    "payments: concurrent createOrReuse() of one key (two instances) make one payment",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const key = uid("key");
        const inputs = Array.from({ length: 10 }, () => paymentFixture());
        const results = await race(a, b, 10, (store, i) =>
          store.payments.createOrReuse(inputs[i], key, 60_000, T0));
        assert.deepEqual(
          results.filter((r) =>
            r.created
          ).length,
          1,
        );
        const winner = results.find((r) =>
          r.created
        )!.payment;
        for (const r of results) assert.deepEqual(r.payment, winner);
        assert.deepEqual(
          (await b.payments.createOrReuse(paymentFixture(), key, 60_000, T0 + 5)).payment,
          winner,
        );
      }),
  );

  // ---- subscriptions ----

  await t.step(
    "subscriptions: create() is insert-if-absent; get() and listByDonor() (oldest first); unknown is null",
    () =>
      withStore(open, async (store) => {
        const donorId = uid("donor");
        const input = subscriptionFixture({
          donorId,
          createdAt: at(2000),
          nextPaymentDate: "2025-03-31T10:00:00Z",
        });
        const created = await store.subscriptions.create(input);
        assert.deepEqual(created, { ...input, nextPaymentDate: at(30 * DAY) });
        assert.deepEqual(await store.subscriptions.get(input.id), created);
        // The same id again: nothing is stored, the existing one is answered.
        const again = await store.subscriptions.create({ ...input, amount: 1, status: "failed" });
        assert.deepEqual(again, created);
        assert.deepEqual(await store.subscriptions.get(input.id), created);

        const older = await store.subscriptions.create(subscriptionFixture({ donorId, createdAt: at(1000) }));
        const failed = await store.subscriptions.create(
          subscriptionFixture({ donorId, createdAt: at(3000), status: "failed", retryAt: at(5000) }),
        );
        assert.deepEqual(await store.subscriptions.listByDonor(donorId), [older, created, failed]);
        assert.deepEqual(await store.subscriptions.listByDonor(uid("donor")), []);
        assert.deepEqual(await store.subscriptions.get(uid("sub")), null);
        await assert.rejects(
          () => store.subscriptions.create(subscriptionFixture({ nextPaymentDate: "soon" })),
          RangeError,
        );
      }),
  );

  await t.step(
    "subscriptions: updateIfActive() changes only the given fields, only while active; otherwise null",
    () =>
      withStore(open, async (store) => {
        const sub = await store.subscriptions.create(subscriptionFixture());
        const retrying = await store.subscriptions.updateIfActive(sub.id, {
          failedAttempts: 1,
          retryAt: "2025-04-01T10:00:00Z",
        });
        assert.deepEqual(retrying, { ...sub, failedAttempts: 1, retryAt: at(31 * DAY) });
        assert.deepEqual(await store.subscriptions.updateIfActive(sub.id, {}), retrying);
        const paid = await store.subscriptions.updateIfActive(sub.id, {
          paymentDate: at(31 * DAY),
          nextPaymentDate: at(60 * DAY),
          failedAttempts: 0,
          retryAt: null,
        });
        assert.deepEqual(paid, {
          ...sub,
          paymentDate: at(31 * DAY),
          nextPaymentDate: at(60 * DAY),
          failedAttempts: 0,
          retryAt: null,
        });
        assert.deepEqual(await store.subscriptions.get(sub.id), paid);
        // The update that ends it is answered; every one after it is null and changes nothing.
        const ended = await store.subscriptions.updateIfActive(sub.id, { status: "failed" });
        assert.deepEqual(ended, { ...paid, status: "failed" });
        assert.deepEqual(await store.subscriptions.updateIfActive(sub.id, { failedAttempts: 3 }), null);
        assert.deepEqual(await store.subscriptions.updateIfActive(sub.id, {}), null);
        assert.deepEqual(await store.subscriptions.get(sub.id), ended);
        assert.deepEqual(await store.subscriptions.updateIfActive(uid("sub"), { failedAttempts: 1 }), null);
        // A cancel wins over a later update.
        const other = await store.subscriptions.create(subscriptionFixture());
        assert.deepEqual(await store.subscriptions.cancelForDonor(other.donorId, at(DAY)), 1);
        assert.deepEqual(await store.subscriptions.updateIfActive(other.id, { failedAttempts: 1 }), null);
        assert.deepEqual((await store.subscriptions.get(other.id))?.failedAttempts, 0);
      }),
  );

  await t.step(
    "subscriptions: cancelForDonor() cancels every active one of the donor once; answers how many",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const donorId = uid("donor");
        const active = [
          await a.subscriptions.create(subscriptionFixture({ donorId, createdAt: at(1) })),
          await a.subscriptions.create(subscriptionFixture({ donorId, createdAt: at(2) })),
        ];
        const failed = await a.subscriptions.create(
          subscriptionFixture({ donorId, createdAt: at(3), status: "failed" }),
        );
        const bystander = await a.subscriptions.create(subscriptionFixture());
        assert.deepEqual(await a.subscriptions.cancelForDonor(donorId, "2025-03-02T10:00:00Z"), 2);
        assert.deepEqual(await b.subscriptions.listByDonor(donorId), [
          ...active.map((s) => ({ ...s, status: "cancelled" as const, cancelledAt: at(DAY) })),
          failed,
        ]);
        assert.deepEqual(await b.subscriptions.get(bystander.id), bystander);
        // Idempotent: nothing left to cancel, the first cancel's time stays.
        assert.deepEqual(await b.subscriptions.cancelForDonor(donorId, at(2 * DAY)), 0);
        assert.deepEqual((await a.subscriptions.get(active[0].id))?.cancelledAt, at(DAY));
        assert.deepEqual(await a.subscriptions.cancelForDonor(uid("donor"), at(DAY)), 0);

        // Racing cancels on two instances count each subscription once.
        const racer = uid("donor");
        for (let i = 0; i < 3; i++) await a.subscriptions.create(subscriptionFixture({ donorId: racer }));
        const counts = await race(a, b, 4, (store) => store.subscriptions.cancelForDonor(racer, at(DAY)));
        assert.deepEqual(counts.reduce((sum, n) => sum + n, 0), 3);
        for (const s of await a.subscriptions.listByDonor(racer)) assert.deepEqual(s.status, "cancelled");
      }),
  );

  await t.step(
    "subscriptions: listDue() answers the active ones due at now, earliest due first (ties by id), kept in step",
    () =>
      withStore(fresh(), async (store) => {
        // Due time: the later of nextPaymentDate and retryAt.
        const make = (name: string, overrides: Partial<Subscription>) =>
          store.subscriptions.create(subscriptionFixture({ id: `sub_${name}`, ...overrides }));
        const a = await make("a", { nextPaymentDate: at(-3 * HOUR) });
        const b = await make("b", { nextPaymentDate: at(-5 * HOUR), retryAt: at(-HOUR), failedAttempts: 1 });
        const c = await make("c", { nextPaymentDate: at(-2 * HOUR), retryAt: at(HOUR), failedAttempts: 1 });
        await make("d", { nextPaymentDate: at(HOUR) });
        // Exactly now, written with an offset: due.
        const e = await make("e", { nextPaymentDate: "2025-03-01T12:00:00+02:00" });
        const g = await make("g", { nextPaymentDate: at(-4 * HOUR) });
        const f = await make("f", { nextPaymentDate: at(-4 * HOUR) });
        await make("h", { nextPaymentDate: at(-10 * HOUR), status: "cancelled", cancelledAt: at(-DAY) });
        await make("i", { nextPaymentDate: at(-10 * HOUR), status: "failed" });
        const j = await make("j", { nextPaymentDate: at(-HOUR / 2), retryAt: at(-6 * HOUR) });
        const ids = (subs: Subscription[]) => subs.map((s) => s.id);

        const due = await store.subscriptions.listDue(at(0), 100);
        assert.deepEqual(ids(due), ["sub_f", "sub_g", "sub_a", "sub_b", "sub_j", "sub_e"]);
        assert.deepEqual(due, [f, g, a, b, j, e]);
        assert.deepEqual(ids(await store.subscriptions.listDue(at(0), 2)), ["sub_f", "sub_g"]);
        assert.deepEqual(ids(await store.subscriptions.listDue("2025-03-01T06:00:00Z", 100)), [
          "sub_f",
          "sub_g",
        ]);
        assert.deepEqual(await store.subscriptions.listDue(at(-11 * HOUR), 100), []);
        assert.deepEqual(ids(await store.subscriptions.listDue(at(HOUR), 100)), [
          "sub_f",
          "sub_g",
          "sub_a",
          "sub_b",
          "sub_j",
          "sub_e",
          "sub_c",
          "sub_d",
        ]);

        // Every write moves a subscription in or out.
        await store.subscriptions.updateIfActive(a.id, { nextPaymentDate: at(30 * DAY), paymentDate: at(0) });
        await store.subscriptions.updateIfActive(b.id, { retryAt: at(2 * HOUR) });
        const c2 = await store.subscriptions.updateIfActive(c.id, { retryAt: null });
        await store.subscriptions.updateIfActive(g.id, { status: "failed" });
        await store.subscriptions.cancelForDonor(e.donorId, at(0));
        const f2 = await store.subscriptions.updateIfActive(f.id, { failedAttempts: 2 });
        assert.deepEqual(await store.subscriptions.listDue(at(0), 100), [f2, c2, j]);
        await assert.rejects(() => store.subscriptions.listDue("now", 10), RangeError);
      }),
  );

  // ---- charges ----

  await t.step(
    "charges: claim() once per (subscription, period, attempt); get(); finish(); unknown is null",
    () =>
      withStore(open, async (store) => {
        const charge = chargeFixture({ startedAt: "2025-03-31T10:00:00Z" });
        assert.deepEqual(await store.charges.claim(charge), true);
        const stored = { ...charge, startedAt: at(30 * DAY) };
        assert.deepEqual(await store.charges.get(charge.subscriptionId, charge.period, 0), stored);
        // The same period written another way is the same charge.
        assert.deepEqual(
          await store.charges.get(charge.subscriptionId, "2025-03-31T12:00:00+02:00", 0),
          stored,
        );
        assert.deepEqual(await store.charges.claim({ ...charge, startedAt: at(31 * DAY) }), false);
        assert.deepEqual(await store.charges.claim({ ...charge, period: "2025-03-31T10:00:00Z" }), false);
        assert.deepEqual(await store.charges.get(charge.subscriptionId, charge.period, 0), stored);
        // The next attempt, and another period, are other charges.
        const retry = chargeFixture({ subscriptionId: charge.subscriptionId, attempt: 1 });
        assert.deepEqual(await store.charges.claim(retry), true);
        assert.deepEqual(
          await store.charges.claim(
            chargeFixture({ subscriptionId: charge.subscriptionId, period: at(60 * DAY) }),
          ),
          true,
        );

        await store.charges.finish(charge.subscriptionId, charge.period, 0, {
          status: "succeeded",
          finishedAt: "2025-03-31T10:00:05Z",
          transactionId: "tx-1",
        });
        const finished = {
          ...stored,
          status: "succeeded" as const,
          finishedAt: at(30 * DAY + 5000),
          transactionId: "tx-1",
        };
        assert.deepEqual(await store.charges.get(charge.subscriptionId, charge.period, 0), finished);
        assert.deepEqual(await store.charges.get(charge.subscriptionId, charge.period, 1), retry);
        await store.charges.finish(charge.subscriptionId, charge.period, 1, {
          status: "failed",
          finishedAt: at(30 * DAY + 1),
          transactionId: null,
        });
        assert.deepEqual(
          await store.charges.get(charge.subscriptionId, charge.period, 1),
          { ...retry, status: "failed", finishedAt: at(30 * DAY + 1) },
        );
        assert.deepEqual(await store.charges.get(charge.subscriptionId, charge.period, 2), null);
        assert.deepEqual(await store.charges.get(uid("sub"), charge.period, 0), null);
        // Finishing an unknown charge stores nothing.
        const ghost = uid("sub");
        await store.charges.finish(ghost, charge.period, 0, {
          status: "failed",
          finishedAt: at(0),
          transactionId: null,
        });
        assert.deepEqual(await store.charges.get(ghost, charge.period, 0), null);
      }),
  );

  await t.step(
    "charges: 10 concurrent claims of one charge (two instances): exactly one true",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const charge = chargeFixture();
        const results = await race(a, b, 10, (store, i) =>
          store.charges.claim({ ...charge, startedAt: at(30 * DAY + i) }));
        assert.deepEqual(results.filter(Boolean).length, 1);
        const winner = results.indexOf(true);
        assert.deepEqual(
          await b.charges.get(charge.subscriptionId, charge.period, 0),
          { ...charge, startedAt: at(30 * DAY + winner) },
        );
      }),
  );

  await t.step(
    "charges: listStale() answers the started charges begun before `before`, oldest first, at most limit",
    () =>
      withStore(fresh(), async (store) => {
        const started = (ms: number, subscriptionId = uid("sub")) =>
          chargeFixture({ subscriptionId, startedAt: at(ms), period: at(-DAY) });
        const c1 = started(-3 * HOUR);
        const c2 = started(-2 * HOUR, "sub_a");
        const c3 = started(-2 * HOUR, "sub_b");
        const c4 = started(-HOUR);
        const recent = started(0);
        const done = started(-4 * HOUR);
        for (const c of [c4, recent, c3, done, c2, c1]) assert.ok(await store.charges.claim(c));
        await store.charges.finish(done.subscriptionId, done.period, 0, {
          status: "failed",
          finishedAt: at(-4 * HOUR + 1),
          transactionId: null,
        });
        assert.deepEqual(await store.charges.listStale(at(0), 100), [c1, c2, c3, c4]);
        assert.deepEqual(await store.charges.listStale(at(0), 2), [c1, c2]);
        assert.deepEqual(await store.charges.listStale(at(-2 * HOUR), 100), [c1]);
        assert.deepEqual(await store.charges.listStale(at(-3 * HOUR), 100), []);
        await store.charges.finish(c2.subscriptionId, c2.period, 0, {
          status: "succeeded",
          finishedAt: at(0),
          transactionId: "tx",
        });
        assert.deepEqual(await store.charges.listStale(at(1), 100), [c1, c3, c4, recent]);
      }),
  );

  // ---- leases ----

  await t.step(
    "leases: acquire() when free, expired or the holder's own; release() only by the holder",
    () =>
      withStore(open, async (store) => {
        const name = uid("lease");
        assert.deepEqual(await store.leases.acquire(name, "A", T0, 1000), true);
        assert.deepEqual(await store.leases.acquire(name, "B", T0 + 500, 1000), false);
        assert.deepEqual(await store.leases.acquire(name, "A", T0 + 900, 1000), true, "renewal");
        assert.deepEqual(
          await store.leases.acquire(name, "B", T0 + 1899, 1000),
          false,
          "renewed until T0 + 1900",
        );
        assert.deepEqual(await store.leases.acquire(name, "B", T0 + 1900, 1000), true, "expired");
        assert.deepEqual(await store.leases.acquire(name, "A", T0 + 2000, 1000), false);
        // Another name is another lease.
        assert.deepEqual(await store.leases.acquire(`${name}.other`, "A", T0 + 2000, 1000), true);
        // Only the holder gives it up.
        await store.leases.release(name, "A");
        assert.deepEqual(await store.leases.acquire(name, "A", T0 + 2100, 1000), false);
        await store.leases.release(name, "B");
        assert.deepEqual(await store.leases.acquire(name, "A", T0 + 2100, 1000), true);
        await store.leases.release(uid("lease"), "A");
      }),
  );

  await t.step(
    "leases: 10 concurrent acquires by different holders (two instances): exactly one true",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const name = uid("lease");
        const results = await race(a, b, 10, (store, i) =>
          store.leases.acquire(name, `holder${i}`, T0, 60_000));
        assert.deepEqual(results.filter(Boolean).length, 1);
        const winner = `holder${results.indexOf(true)}`;
        assert.deepEqual(await a.leases.acquire(name, winner, T0 + 1, 60_000), true);
        // After it expires, again exactly one of many.
        const later = await race(a, b, 10, (store, i) =>
          store.leases.acquire(name, `late${i}`, T0 + 60_001, 60_000));
        assert.deepEqual(later.filter(Boolean).length, 1);
      }),
  );

  // ---- sandbox ----

  await t.step(
    "sandbox: create() (ref unique), get(), findByReference() (the most recent); unknown is null",
    () =>
      withStore(open, async (store) => {
        const record = sandboxFixture({ createdAt: "2025-03-01T10:00:00Z" });
        await store.sandbox.create(record);
        const stored = { ...record, createdAt: at(0) };
        assert.deepEqual(await store.sandbox.get(record.ref), stored);
        await assert.rejects(
          () => store.sandbox.create({ ...record, status: "paid" }),
          "a reused ref was accepted",
        );
        assert.deepEqual(await store.sandbox.get(record.ref), stored);
        assert.deepEqual(await store.sandbox.get(uid("sbx")), null);
        assert.deepEqual(await store.sandbox.findByReference(uid("pay")), null);

        assert.deepEqual(await store.sandbox.findByReference(record.reference), stored);
        const newer = sandboxFixture({
          reference: record.reference,
          kind: "charge",
          createdAt: at(5000),
          data: {},
        });
        const older = sandboxFixture({ reference: record.reference, createdAt: at(-5000) });
        await store.sandbox.create(newer);
        await store.sandbox.create(older);
        assert.deepEqual(await store.sandbox.findByReference(record.reference), newer);
      }),
  );

  await t.step(
    "sandbox: transition() moves from `from` only, merges data shallowly; from == to merges only",
    () =>
      withStore(open, async (store) => {
        const record = sandboxFixture();
        await store.sandbox.create(record);
        assert.deepEqual(
          await store.sandbox.transition(record.ref, "paid", "reversed", { x: 1 }, at(1)),
          false,
        );
        assert.deepEqual(await store.sandbox.transition(uid("sbx"), "open", "paid", {}, at(1)), false);
        assert.deepEqual(await store.sandbox.get(record.ref), record);

        const moved = await store.sandbox.transition(
          record.ref,
          "open",
          "paid",
          { statusCode: "000", nested: { b: 2 }, token: null, dropped: undefined },
          "2025-03-01T10:00:02Z",
        );
        assert.deepEqual(moved, true);
        const paid: SandboxRecord = {
          ...record,
          status: "paid",
          updatedAt: at(2000),
          data: { ...record.data, statusCode: "000", nested: { b: 2 }, token: null },
        };
        assert.deepEqual(await store.sandbox.get(record.ref), paid);
        assert.deepEqual(
          await store.sandbox.transition(record.ref, "open", "declined", { y: 1 }, at(3000)),
          false,
        );
        assert.deepEqual(await store.sandbox.get(record.ref), paid);
        // Same status: data merged, updatedAt set.
        assert.deepEqual(
          await store.sandbox.transition(record.ref, "paid", "paid", { note: "hi" }, at(4000)),
          true,
        );
        assert.deepEqual(await store.sandbox.get(record.ref), {
          ...paid,
          updatedAt: at(4000),
          data: { ...paid.data, note: "hi" },
        });
      }),
  );

  await t.step(
    "sandbox: concurrent transitions of one record (two instances) have exactly one winner",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const record = sandboxFixture({ kind: "terminal", status: "waiting", terminalId: uid("term") });
        await a.sandbox.create(record);
        const results = await race(a, b, 10, (store, i) =>
          store.sandbox.transition(
            record.ref,
            "waiting",
            i % 3 === 0 ? "timeout" : "paid",
            { by: i },
            at(i),
          ));
        assert.deepEqual(results.filter(Boolean).length, 1);
        const winner = results.indexOf(true);
        const after = await b.sandbox.get(record.ref);
        assert.deepEqual(after?.status, winner % 3 === 0 ? "timeout" : "paid");
        assert.deepEqual(after?.data, { ...record.data, by: winner });
        assert.deepEqual(await a.sandbox.listByTerminal(record.terminalId!, "waiting"), []);
        assert.deepEqual(await a.sandbox.listByTerminal(record.terminalId!, after!.status), [after]);
      }),
  );

  await t.step(
    "sandbox: listByTerminal() answers one terminal's sales in a status, oldest first, kept in step",
    () =>
      withStore(open, async (store) => {
        const terminalId = uid("term");
        const sale = (ms: number, overrides: Partial<SandboxRecord> = {}) =>
          sandboxFixture({
            kind: "terminal",
            status: "waiting",
            terminalId,
            createdAt: at(ms),
            data: {},
            ...overrides,
          });
        const s2 = sale(2000);
        const s1 = sale(1000);
        const s3 = sale(3000);
        const elsewhere = sale(500, { terminalId: uid("term") });
        for (const s of [s2, s1, s3, elsewhere]) await store.sandbox.create(s);
        await store.sandbox.create(sandboxFixture({ reference: s1.reference }));
        assert.deepEqual(await store.sandbox.listByTerminal(terminalId, "waiting"), [s1, s2, s3]);
        assert.deepEqual(await store.sandbox.listByTerminal(terminalId, "paid"), []);
        assert.deepEqual(await store.sandbox.listByTerminal(uid("term"), "waiting"), []);

        assert.ok(await store.sandbox.transition(s2.ref, "waiting", "paid", { statusCode: "000" }, at(4000)));
        const paid2 = { ...s2, status: "paid", updatedAt: at(4000), data: { statusCode: "000" } };
        assert.deepEqual(await store.sandbox.listByTerminal(terminalId, "waiting"), [s1, s3]);
        assert.deepEqual(await store.sandbox.listByTerminal(terminalId, "paid"), [paid2]);
        // A merge-only transition updates the listed copy too.
        assert.ok(await store.sandbox.transition(s3.ref, "waiting", "waiting", { seen: true }, at(5000)));
        assert.deepEqual(await store.sandbox.listByTerminal(terminalId, "waiting"), [
          s1,
          { ...s3, updatedAt: at(5000), data: { seen: true } },
        ]);
      }),
  );
}

// ---- retention and reconciliation ----

/**
 * The contract of the batch queries behind `lib/retention.ts` and `lib/payments/reconcile.ts`.
 * Steps that delete by time use fresh data of their own, so they cannot touch other steps'.
 */
async function retentionContract(
  t: Deno.TestContext,
  _open: () => Promise<Store>,
  { kind, sharedData, fresh }: ContractOptions,
): Promise<void> {
  await t.step(
    "payments: listPending() answers pending payments created in a range, oldest first, in batches",
    () =>
      withStore(fresh(), async (store) => {
        const create = async (ms: number, overrides: Partial<Payment> = {}) =>
          (await store.payments.createOrReuse(
            paymentFixture({ createdAt: at(ms), updatedAt: at(ms), ...overrides }),
            uid("key"),
            60_000,
            T0,
          )).payment;
        const p1 = await create(1000);
        // Two at the same instant: ordered by id, in byte order.
        const [p2, p3] = [await create(2000), await create(2000)].sort((a, b) => a.id < b.id ? -1 : 1);
        const p4 = await create(3000);
        const late = await create(5000);
        await create(1500, { status: "succeeded" });
        const range = { from: at(0), to: at(5000) };
        assert.deepEqual(await store.payments.listPending(range, 10), [p1, p2, p3, p4]);
        assert.deepEqual(await store.payments.listPending({ from: at(2000), to: at(5001) }, 10), [
          p2,
          p3,
          p4,
          late,
        ]);
        assert.deepEqual(await store.payments.listPending({ from: at(6000), to: at(9000) }, 10), []);

        // Batches: each after the last of the previous one, ties included.
        const batches: string[][] = [];
        let after: Payment | null = null;
        for (;;) {
          const batch = await store.payments.listPending(range, 2, after);
          if (batch.length === 0) break;
          batches.push(batch.map((p) => p.id));
          after = batch[batch.length - 1];
        }
        assert.deepEqual(batches, [[p1.id, p2.id], [p3.id, p4.id]]);
        assert.deepEqual(await store.payments.listPending(range, 10, p2), [p3, p4]);
        // A cursor before `from` starts at `from`.
        assert.deepEqual(await store.payments.listPending({ from: at(2500), to: at(9000) }, 10, p1), [
          p4,
          late,
        ]);

        // Finishing a payment takes it off the list; a change that keeps it pending does not.
        await store.payments.update(p1.id, { status: "succeeded", transactionId: "tx-1" });
        const touched = await store.payments.updateIfPending(p2.id, { updatedAt: at(9000) });
        assert.deepEqual(touched, { ...p2, updatedAt: at(9000) });
        assert.deepEqual(await store.payments.listPending(range, 10), [touched, p3, p4]);

        for (const limit of [0, 1001, 1.5]) {
          await assert.rejects(() => store.payments.listPending(range, limit), RangeError, `limit ${limit}`);
        }
        await assert.rejects(() => store.payments.listPending({ from: "soon", to: at(0) }, 1), RangeError);
      }),
  );

  await t.step(
    "payments: updateIfPending() changes only a pending payment; unknown is null",
    () =>
      withStore(fresh(), async (store) => {
        const { payment } = await store.payments.createOrReuse(paymentFixture(), uid("key"), 60_000, T0);
        assert.deepEqual(await store.payments.updateIfPending(uid("pay"), { status: "failed" }), null);
        const done = await store.payments.updateIfPending(payment.id, {
          status: "failed",
          updatedAt: at(10),
        });
        assert.deepEqual(done, { ...payment, status: "failed", updatedAt: at(10) });
        assert.deepEqual(await store.payments.updateIfPending(payment.id, { status: "succeeded" }), null);
        assert.deepEqual(await store.payments.get(payment.id), done);
        assert.deepEqual(await store.payments.listPending({ from: at(-1000), to: at(1000) }, 10), []);
        // An empty change answers the payment while pending, as update() does.
        const other = (await store.payments.createOrReuse(paymentFixture(), uid("key"), 60_000, T0)).payment;
        assert.deepEqual(await store.payments.updateIfPending(other.id, {}), other);
      }),
  );

  await t.step(
    "payments: updateIfPending() racing a finishing update (two instances) never overwrites it",
    () =>
      withTwo(fresh(), sharedData, async (a, b) => {
        const ids: string[] = [];
        for (let i = 0; i < 20; i++) {
          ids.push((await a.payments.createOrReuse(paymentFixture(), uid("key"), 60_000, T0)).payment.id);
        }
        await Promise.all(ids.flatMap((id, i) => [
          (i % 2 ? a : b).payments.update(id, { status: "succeeded", transactionId: `tx-${i}` }),
          (i % 2 ? b : a).payments.updateIfPending(id, { status: "failed" }),
        ]));
        for (const id of ids) {
          const payment = await b.payments.get(id);
          assert.deepEqual(payment?.status, "succeeded", id);
        }
        assert.deepEqual(await a.payments.listPending({ from: at(-1000), to: at(1000) }, 100), []);
      }),
  );

  await t.step(
    "refreshTokens: deleteExpired() deletes tokens expired before a time, used or not, a batch at a time",
    () =>
      withStore(fresh(), async (store) => {
        const token = async (ms: number, usedAt: string | null = null) => {
          const t = tokenFixture({ expiresAt: at(ms) });
          await store.refreshTokens.create(t);
          if (usedAt) assert.ok(await store.refreshTokens.markUsed(t.hash, usedAt));
          return (await store.refreshTokens.get(t.hash))!;
        };
        const unused = await token(1000);
        const used = await token(2000, at(500));
        const atCutoff = await token(3000);
        const live = await token(10_000, at(500));
        assert.deepEqual(await store.refreshTokens.deleteExpired(at(3000), 10), 2);
        assert.deepEqual(await store.refreshTokens.get(unused.hash), null);
        assert.deepEqual(await store.refreshTokens.get(used.hash), null);
        assert.deepEqual(await store.refreshTokens.markUsed(unused.hash, at(4000)), false);
        // Expiring exactly at `before` is not before it; a used token that has not expired stays.
        assert.deepEqual(await store.refreshTokens.get(atCutoff.hash), atCutoff);
        assert.deepEqual(await store.refreshTokens.get(live.hash), live);
        assert.deepEqual(await store.refreshTokens.deleteExpired(at(3000), 10), 0);

        for (let i = 0; i < 5; i++) await token(100 + i);
        const counts = [];
        for (let i = 0; i < 4; i++) counts.push(await store.refreshTokens.deleteExpired(at(3000), 2));
        assert.deepEqual(counts, [2, 2, 1, 0]);
        assert.deepEqual(await store.refreshTokens.get(atCutoff.hash), atCutoff);
        await assert.rejects(() => store.refreshTokens.deleteExpired(at(0), 0), RangeError);
        await assert.rejects(() => store.refreshTokens.deleteExpired("never", 1), RangeError);
      }),
  );

  await t.step(
    "refreshTokens: deleteRevokedBefore() deletes revoked-family markers revoked before a time",
    () =>
      withStore(fresh(), async (store) => {
        const [old, recent, other] = [uid("family"), uid("family"), uid("family")];
        await store.refreshTokens.revokeFamily(old, at(1000));
        await store.refreshTokens.revokeFamily(recent, at(5000));
        // A second revocation keeps the first time, so the marker goes by it.
        await store.refreshTokens.revokeFamily(old, at(9000));
        assert.deepEqual(await store.refreshTokens.deleteRevokedBefore(at(5000), 10), 1);
        assert.deepEqual(await store.refreshTokens.isFamilyRevoked(old), false);
        assert.deepEqual(await store.refreshTokens.isFamilyRevoked(recent), true);
        assert.deepEqual(await store.refreshTokens.isFamilyRevoked(other), false);
        // Revoked again later, it is a new marker with its own time.
        await store.refreshTokens.revokeFamily(old, at(7000));
        assert.deepEqual(await store.refreshTokens.deleteRevokedBefore(at(6000), 10), 1);
        assert.deepEqual(await store.refreshTokens.isFamilyRevoked(old), true);
        assert.deepEqual(await store.refreshTokens.isFamilyRevoked(recent), false);
      }),
  );

  await t.step(
    "refreshTokens: two instances sweeping the same expired tokens at once delete and count each once",
    () =>
      withTwo(fresh(), sharedData, async (a, b) => {
        const hashes: string[] = [];
        for (let i = 0; i < 130; i++) {
          const t = tokenFixture({ expiresAt: at(i) });
          hashes.push(t.hash);
          await a.refreshTokens.create(t);
        }
        const sweep = async (store: Store) => {
          let total = 0;
          for (;;) {
            const n = await store.refreshTokens.deleteExpired(at(1000), 40);
            total += n;
            if (n === 0) return total;
          }
        };
        const [x, y] = await Promise.all([sweep(a), sweep(b)]);
        assert.deepEqual(x + y, 130);
        for (const hash of hashes.slice(0, 5)) assert.deepEqual(await b.refreshTokens.get(hash), null);
      }),
  );

  await t.step(
    kind === "postgres"
      ? "throttle and nonces: deleteBefore() and deleteExpired() delete old events and expired claims"
      : "throttle and nonces: KV expires them itself, so the sweeps answer 0 and keep live ones",
    () =>
      withStore(fresh(), async (store) => {
        const [k1, k2] = [uid("throttle"), uid("throttle")];
        const window = 3_600_000;
        await store.throttle.record(k1, T0, window);
        await store.throttle.record(k1, T0 + 1000, window);
        await store.throttle.record(k2, T0 + 500, window);
        await store.throttle.record(k2, T0 + 2000, window);
        const now = Date.now();
        const live = uid("nonce");
        assert.ok(await store.nonces.claim(live, now + 600_000));
        const soon = uid("nonce");
        assert.ok(await store.nonces.claim(soon, now + 60_000));
        if (kind === "postgres") {
          assert.deepEqual(await store.throttle.deleteBefore(T0 + 1000, 10), 2);
          assert.deepEqual(await store.throttle.recent(k1, T0 + 2000, window), [T0 + 1000]);
          assert.deepEqual(await store.throttle.recent(k2, T0 + 2000, window), [T0 + 2000]);
          assert.deepEqual(await store.throttle.deleteBefore(T0 + 5000, 1), 1);
          assert.deepEqual(await store.throttle.deleteBefore(T0 + 5000, 10), 1);
          // Swept as if 2 minutes from now: the claim that has expired by then goes.
          assert.deepEqual(await store.nonces.deleteExpired(now + 120_000, 10), 1);
          assert.deepEqual(await store.nonces.deleteExpired(now + 120_000, 10), 0);
          assert.deepEqual(await store.nonces.claim(soon, now + 60_000), true, "claimable again");
        } else {
          assert.deepEqual(await store.throttle.deleteBefore(T0 + 5000, 10), 0);
          assert.deepEqual(await store.nonces.deleteExpired(now + 120_000, 10), 0);
          assert.deepEqual(await store.throttle.recent(k1, T0 + 2000, window), [T0, T0 + 1000]);
        }
        assert.deepEqual(await store.nonces.claim(live, now + 600_000), false, "a live claim stays");
        await assert.rejects(() => store.throttle.deleteBefore(T0, 1001), RangeError);
        await assert.rejects(() => store.nonces.deleteExpired(now, 0), RangeError);
      }),
  );

  await t.step(
    "sandbox: listUpdatedBefore() answers records by last change, oldest first, in batches",
    () =>
      withStore(fresh(), async (store) => {
        const record = async (ms: number, overrides: Partial<SandboxRecord> = {}) => {
          const r = sandboxFixture({ createdAt: at(ms), updatedAt: at(ms), ...overrides });
          await store.sandbox.create(r);
          return r;
        };
        const r1 = await record(1000);
        const r2 = await record(2000, { kind: "terminal", status: "waiting", terminalId: uid("term") });
        const r3 = await record(3000);
        const r4 = await record(9000);
        assert.deepEqual(await store.sandbox.listUpdatedBefore(at(3000), 10), [r1, r2]);
        assert.deepEqual(await store.sandbox.listUpdatedBefore(at(3000), 1), [r1]);
        assert.deepEqual(await store.sandbox.listUpdatedBefore(at(3001), 1, r1), [r2]);
        assert.deepEqual(await store.sandbox.listUpdatedBefore(at(3001), 5, r2), [r3]);
        // A transition moves the record to its new time.
        assert.ok(await store.sandbox.transition(r1.ref, "open", "paid", { statusCode: "000" }, at(8000)));
        const r1paid = (await store.sandbox.get(r1.ref))!;
        assert.deepEqual(await store.sandbox.listUpdatedBefore(at(3001), 10), [r2, r3]);
        assert.deepEqual(await store.sandbox.listUpdatedBefore(at(9000), 10), [r2, r3, r1paid]);
        assert.deepEqual(await store.sandbox.listUpdatedBefore(at(9001), 10, r1paid), [r4]);
        await assert.rejects(() => store.sandbox.listUpdatedBefore(at(0), 0), RangeError);
      }),
  );

  await t.step(
    "sandbox: deleteUnchanged() deletes records unchanged since read, with every index; changed ones stay",
    () =>
      withStore(fresh(), async (store) => {
        const terminalId = uid("term");
        const old = sandboxFixture({ updatedAt: at(1000) });
        const sale = sandboxFixture({
          kind: "terminal",
          status: "declined",
          terminalId,
          updatedAt: at(1000),
        });
        const changed = sandboxFixture({ updatedAt: at(1000) });
        for (const r of [old, sale, changed]) await store.sandbox.create(r);
        assert.ok(await store.sandbox.transition(changed.ref, "open", "paid", {}, at(5000)));
        const deleted = await store.sandbox.deleteUnchanged(
          [old, sale, changed, { ref: uid("sbx"), updatedAt: at(0) }].map((r) => ({
            ref: r.ref,
            updatedAt: r.updatedAt,
          })),
        );
        assert.deepEqual(deleted, 2);
        assert.deepEqual(await store.sandbox.get(old.ref), null);
        assert.deepEqual(await store.sandbox.get(sale.ref), null);
        assert.deepEqual(await store.sandbox.findByReference(old.reference), null);
        assert.deepEqual(await store.sandbox.listByTerminal(terminalId, "declined"), []);
        assert.deepEqual((await store.sandbox.get(changed.ref))?.status, "paid");
        assert.deepEqual(await store.sandbox.listUpdatedBefore(at(10_000), 10), [
          (await store.sandbox.get(changed.ref))!,
        ]);
        assert.deepEqual(
          await store.sandbox.deleteUnchanged([{ ref: old.ref, updatedAt: old.updatedAt }]),
          0,
        );
        assert.deepEqual(await store.sandbox.deleteUnchanged([]), 0);
        // The ref can be used again.
        await store.sandbox.create(old);
        assert.deepEqual(await store.sandbox.get(old.ref), old);
        const tooMany = Array.from({ length: 1001 }, () => ({ ref: uid("sbx"), updatedAt: at(0) }));
        await assert.rejects(() => store.sandbox.deleteUnchanged(tooMany), RangeError);
      }),
  );

  await t.step(
    "sandbox: two instances deleting the same records at once delete and count each once",
    () =>
      withTwo(fresh(), sharedData, async (a, b) => {
        const records = Array.from({ length: 120 }, (_, i) => sandboxFixture({ updatedAt: at(i) }));
        for (const r of records) await a.sandbox.create(r);
        const keys = records.map((r) => ({ ref: r.ref, updatedAt: r.updatedAt }));
        const [x, y] = await Promise.all([a.sandbox.deleteUnchanged(keys), b.sandbox.deleteUnchanged(keys)]);
        assert.deepEqual(x + y, 120);
        assert.deepEqual(await b.sandbox.listUpdatedBefore(at(1_000_000), 10), []);
      }),
  );
}

// ---- data written by an earlier version ----

/**
 * Transactions as a store written before errors had monthly and one-time lists holds them:
 * `count` of them, oldest first, a third errors (half of those monthly, some of them large), with
 * a few shared names to search for.
 */
function legacyFixtures(count: number): Transaction[] {
  return Array.from({ length: count }, (_, i) => {
    const kind = i % 3 === 1 ? "error" : "success";
    return txFixture({
      kind,
      isMonthly: i % 2 === 0,
      createdAt: at(i * 1000),
      user: {
        firstName: `F${i}`,
        lastName: i % 7 === 0 ? "Legacy" : "Other",
        email: `legacy${i}@example.org`,
      },
      // Some large errors: a copy commit then holds fewer of them.
      errorMessage: kind === "error" ? (i % 50 === 1 ? "x".repeat(30_000) : "Card declined") : null,
    });
  });
}

/** Every list of a store (ids of all pages) and a search of each error list: what an admin sees. */
async function listsSeen(store: Store) {
  const read = async (list: (q: { page: number; limit: number }) => Promise<Page<Transaction>>) => {
    const { total } = await list({ page: 1, limit: 1 });
    return { total, ids: (await allPages(list, 100, total)).ids };
  };
  const out: Record<string, { total: number; ids: string[] }> = {};
  for (const isMonthly of [undefined, true, false]) {
    for (const search of [undefined, "LEGACY"]) {
      out[`success ${isMonthly} ${search}`] = await read((q) =>
        store.transactions.listSuccess({ ...q, isMonthly, search })
      );
      out[`error ${isMonthly} ${search}`] = await read((q) =>
        store.transactions.listErrors({ ...q, isMonthly, search })
      );
    }
  }
  return out;
}

// ---- Deno KV ----

Deno.test("kv: opening a store written before errors had sub-lists fills them in, once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "kv_migration_" });
  const path = `${dir}/old.kv`;
  const txs = legacyFixtures(1_800);
  try {
    // The keys the earlier version wrote: records, idempotency keys, four lists and their counters.
    const kv = await Deno.openKv(path);
    try {
      const counts = new Map<string, number>();
      for (let i = 0; i < txs.length; i += 20) {
        const op = kv.atomic();
        for (const tx of txs.slice(i, i + 20)) {
          op.set(["transactions", tx.id], tx);
          op.set(["transactions_by_provider", tx.provider, tx.providerTransactionId!], tx.id);
          const lists = tx.kind === "error" ? ["error-all"] : listsOf(tx);
          for (const list of lists) {
            const seq = (counts.get(list) ?? 0) + 1;
            counts.set(list, seq);
            op.set(["transactions_list", list, seq], tx).set(["transactions_count", list], seq);
          }
        }
        assert.ok((await op.commit()).ok);
      }
    } finally {
      kv.close();
    }

    const expected = await withStore(() => openKvStore(":memory:"), async (store) => {
      for (let i = 0; i < txs.length; i += 1000) await store.transactions.import(txs.slice(i, i + 1000));
      return await listsSeen(store);
    });
    assert.deepEqual(expected["error true undefined"].total, 300);
    await withStore(() => openKvStore(path), async (store) => {
      assert.deepEqual(await listsSeen(store), expected);
      // Sequences continue: a new monthly error goes first in its lists.
      const late = txFixture({ kind: "error", isMonthly: true, createdAt: at(9_999_000) });
      await store.transactions.record(late);
      const page = await store.transactions.listErrors({ page: 1, limit: 1, isMonthly: true });
      assert.deepEqual(page, { data: [late], total: 301 });
    });
    // Reopening finds the migration done and changes nothing.
    await withStore(() => openKvStore(path), async (store) => {
      assert.deepEqual(
        (await store.transactions.listErrors({ page: 1, limit: 1, isMonthly: true })).total,
        301,
      );
      assert.deepEqual(
        (await store.transactions.listErrors({ page: 1, limit: 1, isMonthly: false })).total,
        300,
      );
    });
    const kv2 = await Deno.openKv(path);
    try {
      assert.deepEqual((await kv2.get(["kv_migrations", "error-sub-lists"])).value, {
        through: 600,
        done: true,
      });
    } finally {
      kv2.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("kv: opening a store written before the time indexes fills them in, once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "kv_time_indexes_" });
  const path = `${dir}/old.kv`;
  // More of each than one migration commit covers (90).
  const pending = Array.from(
    { length: 100 },
    (_, i) => paymentFixture({ createdAt: at(i), updatedAt: at(i) }),
  );
  // More finished payments than one commit reads (1,000); they need no index key.
  const finished = Array.from(
    { length: 1_100 },
    (_, i) => paymentFixture({ createdAt: at(i), status: "failed" }),
  );
  const tokens = Array.from({ length: 95 }, (_, i) => tokenFixture({ expiresAt: at(i * 1000) }));
  const families = Array.from({ length: 95 }, () => uid("family"));
  const records = Array.from({ length: 180 }, (_, i) => sandboxFixture({ updatedAt: at(i) }));
  try {
    // The keys the earlier version wrote, without the time indexes.
    const kv = await Deno.openKv(path);
    try {
      const writes: [Deno.KvKey, unknown][] = [
        ...[...pending, ...finished].map((p): [Deno.KvKey, unknown] => [["payments", p.id], p]),
        ...tokens.map((t): [Deno.KvKey, unknown] => [["refresh_tokens", t.hash], t]),
        ...families.map((f, i): [Deno.KvKey, unknown] => [["refresh_families_revoked", f], {
          revokedAt: at(i * 1000),
        }]),
        ...records.flatMap((r): [Deno.KvKey, unknown][] => [
          [["sandbox", r.ref], r],
          [["sandbox_by_reference", r.reference, r.createdAt, r.ref], r.ref],
        ]),
      ];
      for (let i = 0; i < writes.length; i += 100) {
        const op = kv.atomic();
        for (const [key, value] of writes.slice(i, i + 100)) op.set(key, value);
        assert.ok((await op.commit()).ok);
      }
    } finally {
      kv.close();
    }

    await withStore(() => openKvStore(path), async (store) => {
      const range = { from: at(-1), to: at(1_000_000) };
      assert.deepEqual(
        (await store.payments.listPending(range, 1000)).map((p) => p.id),
        pending.map((p) => p.id),
      );
      assert.deepEqual(
        (await store.sandbox.listUpdatedBefore(at(1_000_000), 1000)).map((r) => r.ref),
        records.map((r) => r.ref),
      );
      // Tokens expired before 50 s and families revoked before it: 50 of each.
      assert.deepEqual(await store.refreshTokens.deleteExpired(at(50_000), 1000), 50);
      assert.deepEqual(await store.refreshTokens.get(tokens[49].hash), null);
      assert.deepEqual(await store.refreshTokens.get(tokens[50].hash), tokens[50]);
      assert.deepEqual(await store.refreshTokens.deleteRevokedBefore(at(50_000), 1000), 50);
      assert.deepEqual(await store.refreshTokens.isFamilyRevoked(families[49]), false);
      assert.deepEqual(await store.refreshTokens.isFamilyRevoked(families[50]), true);
    });
    // Reopening finds the migration done: nothing indexed twice, nothing back.
    await withStore(() => openKvStore(path), async (store) => {
      assert.deepEqual(await store.refreshTokens.deleteExpired(at(50_000), 1000), 0);
      assert.deepEqual(
        (await store.payments.listPending({ from: at(-1), to: at(1_000_000) }, 1000)).length,
        100,
      );
    });
    const kv2 = await Deno.openKv(path);
    try {
      assert.deepEqual((await kv2.get(["kv_migrations", "time-indexes"])).value, {
        stage: 4,
        after: null,
        done: true,
      });
    } finally {
      kv2.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("storage contract: kv on :memory:", async (t) => {
  await storeContract(t, () => openKvStore(":memory:"), {
    kind: "kv",
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
    await storeContract(t, () => openKvStore(path), {
      kind: "kv",
      sharedData: true,
      fresh: () => {
        const freshPath = `${dir}/fresh/${++files}/store.kv`;
        return () => openKvStore(freshPath);
      },
    });

    await t.step("data survives closing and reopening the file", async () => {
      const written = await withStore(() => openKvStore(path), async (store) => {
        await store.flags.seed({ "persist.SEEDED": true });
        return await store.flags.set("persist.SET", true);
      });
      await withStore(() => openKvStore(path), async (store) => {
        assert.deepEqual(await store.flags.get("persist.SET"), written);
        assert.deepEqual((await store.flags.get("persist.SEEDED"))?.enabled, true);
      });
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openStore() opens KV when no databaseUrl is given (or it is empty)", async () => {
  for (const databaseUrl of [undefined, ""]) {
    await withStore(() => openStore({ databaseUrl, kvPath: ":memory:" }), async (store) => {
      assert.deepEqual(store.kind, "kv");
      await store.ping();
    });
  }
});

// ---- PostgreSQL ----

/** The URL without its password, for messages. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.href;
  } catch {
    return "(unparsable URL)";
  }
}

/** Answers why PostgreSQL cannot be used, or `null` when it can. */
async function probePostgres(url: string): Promise<string | null> {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
    return null;
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = error instanceof Error ? error.message : String(error);
    return [code, message].filter(Boolean).join(": ") || "unknown error";
  } finally {
    await sql.end({ timeout: 1 });
  }
}

const randomSchema = () => `test_storage_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;

const pgProblem = await probePostgres(PG_URL);
const pgUnavailable = pgProblem === null
  ? ""
  : `PostgreSQL at ${redact(PG_URL)} is unreachable (${pgProblem}); set TEST_DATABASE_URL, or start it: ` +
    `pg_ctlcluster 15 main start`;
if (pgUnavailable && !IN_CI) console.log(`storage contract: skipping the PostgreSQL tests: ${pgUnavailable}`);

Deno.test({
  name: "storage contract: postgres on a throwaway schema",
  ignore: pgUnavailable !== "" && !IN_CI,
  async fn(t) {
    if (pgUnavailable) throw new Error(`CI is set, so PostgreSQL is required: ${pgUnavailable}`);

    const schema = randomSchema();
    const schemas = [schema];
    // A separate connection that looks at the tables from outside the store.
    const admin = postgres(PG_URL, { max: 2, connect_timeout: 5, onnotice: () => {} });
    const migrationRows = (name: string) =>
      admin<{ version: number; name: string; applied_at: Date }[]>`
        select version, name, applied_at from ${admin(name)}.schema_migrations order by version
      `.then((rows) => [...rows]);
    const open = () => openPostgresStore(PG_URL, { schema, max: 4 });

    try {
      await storeContract(t, open, {
        kind: "postgres",
        sharedData: true,
        fresh: () => {
          const own = randomSchema();
          schemas.push(own);
          return () => openPostgresStore(PG_URL, { schema: own, max: 4 });
        },
      });

      await t.step("every migration is recorded once in schema_migrations", async () => {
        const rows = await migrationRows(schema);
        assert.deepEqual(
          rows.map(({ version, name }) => ({ version, name })),
          migrations.map(({ version, name }) => ({ version, name })),
        );
        for (const row of rows) assert.ok(row.applied_at instanceof Date, "applied_at is not a timestamp");
      });

      await t.step("reopening applies no migration again", async () => {
        const before = await migrationRows(schema);
        await withStore(open, (store) => store.ping());
        await withStore(open, (store) => store.ping());
        assert.deepEqual(await migrationRows(schema), before);
      });

      await t.step("several stores opening the same new schema at once all succeed", async () => {
        for (let round = 0; round < 3; round++) {
          const fresh = randomSchema();
          schemas.push(fresh);
          const results = await Promise.allSettled(
            Array.from({ length: 4 }, () => openPostgresStore(PG_URL, { schema: fresh, max: 1 })),
          );
          try {
            for (const result of results) {
              if (result.status === "rejected") throw result.reason;
            }
            assert.deepEqual((await migrationRows(fresh)).length, migrations.length);
            // They all work on the same tables.
            const stores = results.map((r) => (r as PromiseFulfilledResult<Store>).value);
            await stores[0].flags.set("shared.F", true);
            for (const store of stores) assert.deepEqual((await store.flags.get("shared.F"))?.enabled, true);
          } finally {
            for (const result of results) if (result.status === "fulfilled") await result.value.close();
          }
        }
      });

      await t.step("openStore() opens PostgreSQL when databaseUrl is set", async () => {
        const own = randomSchema();
        schemas.push(own);
        await admin`create schema ${admin(own)}`;
        // postgres.js passes unknown URL parameters to the server as startup parameters.
        const url = new URL(PG_URL);
        url.searchParams.set("search_path", own);
        await withStore(() => openStore({ databaseUrl: url.href, kvPath: ":memory:" }), async (store) => {
          assert.deepEqual(store.kind, "postgres");
          await store.flags.set("mod.F", true);
        });
        const [row] = await admin`select count(*)::int as n from ${admin(own)}.feature_flags`;
        assert.deepEqual(row.n, 1);
      });

      await t.step(
        "migration 9 numbers existing errors into their sub-lists and splits their search entries",
        async () => {
          const own = randomSchema();
          schemas.push(own);
          const txs = legacyFixtures(600);
          // The schema and rows as version 8 wrote them.
          await admin.begin(async (tx) => {
            await tx`create schema ${tx(own)}`;
            await tx.unsafe(`set local search_path to ${own}`);
            await tx`create table schema_migrations (version int primary key, name text not null, applied_at timestamptz not null default now())`;
            for (const m of migrations.filter((m) => m.version <= 8)) {
              await tx.unsafe(m.sql);
              await tx`insert into schema_migrations (version, name) values (${m.version}, ${m.name})`;
            }
            const counts = new Map<string, number>();
            const next = (list: string) => {
              counts.set(list, (counts.get(list) ?? 0) + 1);
              return counts.get(list)!;
            };
            for (const t of txs) {
              const seqAll = next(`${t.kind}-all`);
              const seqSub = t.kind === "success" ? next(listsOf(t)[1]) : null;
              await tx`
              insert into transactions (
                id, kind, status_code, is_monthly, created_at, donor_id, user_first_name, user_last_name,
                user_email, amount, currency, result_data, error_message, provider, provider_transaction_id,
                search_text, seq_all, seq_sub
              ) values (
                ${t.id}, ${t.kind}, ${t.statusCode}, ${t.isMonthly}, ${t.createdAt}, ${t.donorId},
                ${t.user.firstName}, ${t.user.lastName}, ${t.user.email}, ${t.amount}, ${t.currency},
                ${
                t.resultData === null ? null : tx.json(t.resultData as postgres.JSONValue)
              }, ${t.errorMessage},
                ${t.provider}, ${t.providerTransactionId}, ${searchTextOf(t.user)}, ${seqAll}, ${seqSub}
              )
            `;
              const part = t.kind === "error" ? "e" : t.isMonthly ? "m" : "o";
              for (const value of searchValuesOf(t.user)) {
                await tx`insert into search_values (value) values (${value}) on conflict do nothing`;
                await tx`insert into transaction_search (part, value, seq_all) values (${part}, ${value}, ${seqAll})`;
              }
            }
            for (
              const [list, n] of counts
            ) await tx`update transaction_counters set n = ${n} where list = ${list}`;
          });

          const expected = await withStore(() => openKvStore(":memory:"), async (store) => {
            await store.transactions.import(txs);
            return await listsSeen(store);
          });
          await withStore(() => openPostgresStore(PG_URL, { schema: own, max: 2 }), async (store) => {
            assert.deepEqual((await migrationRows(own)).length, migrations.length);
            assert.deepEqual(await listsSeen(store), expected);
            const late = txFixture({ kind: "error", isMonthly: false, createdAt: at(9_999_000) });
            await store.transactions.record(late);
            assert.deepEqual(await store.transactions.listErrors({ page: 1, limit: 1, isMonthly: false }), {
              data: [late],
              total: expected["error false undefined"].total + 1,
            });
          });
        },
      );

      await t.step("an invalid schema name is refused before connecting", async () => {
        await assert.rejects(() => openPostgresStore(PG_URL, { schema: 'x"; drop table y; --' }), TypeError);
        await assert.rejects(() => openPostgresStore(PG_URL, { schema: "Upper" }), TypeError);
      });

      await t.step("opening an unreachable server rejects", async () => {
        const url = new URL(PG_URL);
        url.hostname = "127.0.0.1";
        url.port = "1";
        await assert.rejects(() => openPostgresStore(url.href, { max: 1 }));
      });
    } finally {
      for (const name of schemas) await admin`drop schema if exists ${admin(name)} cascade`;
      await admin.end({ timeout: 5 });
    }
  },
});
