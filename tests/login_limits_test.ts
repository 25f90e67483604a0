/**
 * The back office's sign-in throttle (issue 23, item 6a), on Deno KV and PostgreSQL: failures are
 * counted per client address bucket (IPv6 by its /64, as the donation limits count), attempts on
 * email addresses no account has are checked within a global budget an hour (beyond it they are
 * answered alike without a password hash), and they are written to the audit log as one entry per
 * hour with their count, not one each.
 */
import assert from "node:assert/strict";
import { type AccountsContext, login } from "@/lib/staff/accounts.ts";
import type { Argon2Runner } from "@/lib/staff/password_pool.ts";
import { hashPassword } from "@/lib/staff/passwords.ts";
import { createLogger } from "@/lib/core/log.ts";
import { createJobs } from "@/lib/app/scheduled_jobs.ts";
import { createSandboxProvider } from "@/lib/providers/sandbox/sandbox.ts";
import type { AuditEntry, Store } from "@/lib/storage/types.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api } from "@/tests/helpers/http.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { adminFixture } from "@/tests/storage/fixtures.ts";

const PASSWORD = "a-long-museum-passphrase";
/** Attempts on unknown addresses checked per hour (`lib/staff/login_throttle.ts`). */
const BUDGET = 100;
const HOUR = 3_600_000;

backendTest("login throttle: failures from one IPv6 /64 count together, as one client", async (t, open) => {
  const app = await startTestApp({ store: await open(), env: { TRUST_PROXY: "1" } });
  try {
    const registered = await api(app.url, "POST", "/api/auth/admin/register", {
      email: "keeper@museum.org",
      password: PASSWORD,
    });
    assert.equal(registered.status, 201);
    const login = (email: string, password: string, address: string) =>
      api(app.url, "POST", "/api/auth/admin/login", { email, password }, { "x-forwarded-for": address });

    await t.step("five failures from five addresses of one /64: the sixth address is refused", async () => {
      for (let i = 1; i <= 5; i++) {
        assert.equal((await login(`nobody${i}@museum.org`, PASSWORD, `2001:db8:9:9::${i}`)).status, 401);
      }
      const refused = await login("keeper@museum.org", PASSWORD, "2001:db8:9:9:abcd::1");
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get("retry-after")) > 0);
    });

    await t.step("another /64 signs in", async () => {
      assert.equal((await login("keeper@museum.org", PASSWORD, "2001:db8:9:a::1")).status, 200);
    });
  } finally {
    await app.close();
  }
});

/** A password runner that counts its hashes and answers at once (the hash is never right). */
function countingRunner() {
  const runner = {
    hashes: 0,
    argon2id(params: { hashLength: number }) {
      runner.hashes++;
      return Promise.resolve(new Uint8Array(params.hashLength));
    },
  };
  return runner as Argon2Runner & { hashes: number };
}

const unknownEntries = async (store: Store): Promise<AuditEntry[]> =>
  (await store.audit.list({ action: "sign-in-failed" }, 1000)).filter((e) =>
    e.changes.reason === "unknown-email"
  );

backendTest(
  "login: attempts on unknown emails are checked within a global budget an hour and audited as one entry",
  async (t, open) => {
    const store = await open();
    const passwords = countingRunner();
    // A fixed hour, minutes in: every attempt falls in the same one.
    const start = Date.parse("2026-05-04T10:07:00.000Z");
    let now = start;
    const ctx: AccountsContext = {
      store,
      accessKey: new Uint8Array(32),
      policy: "approval",
      passwords,
      appSecret: "login-limits-test-secret-0123456789",
      now: () => new Date(now),
    };
    const keeper = adminFixture({
      email: "keeper@museum.org",
      status: "approved",
      role: "owner",
      passwordHash: await hashPassword(PASSWORD),
    });
    await store.admins.create(keeper);
    // Each address may fail five times in 15 minutes: the attempts come from many.
    const attempt = (i: number, email = `nobody${i}@museum.org`) =>
      login(ctx, { email, password: "guess-guess" }, `198.51.${Math.floor(i / 5)}.${i % 5}`);

    await t.step(`${BUDGET} attempts on unknown emails are checked (a hash each), and refused`, async () => {
      for (let i = 0; i < BUDGET; i++) {
        now = start + i * 1000;
        await assert.rejects(() => attempt(i), /Invalid credentials/);
      }
      assert.equal(passwords.hashes, BUDGET);
    });

    await t.step("beyond the budget: answered alike (401), without a hash", async () => {
      for (let i = BUDGET; i < BUDGET + 20; i++) {
        now = start + i * 1000;
        await assert.rejects(() => attempt(i), /Invalid credentials/);
      }
      assert.equal(passwords.hashes, BUDGET);
    });

    await t.step("a known email is still checked, and signs in", async () => {
      const hashes = passwords.hashes;
      await assert.rejects(() => attempt(999, "keeper@museum.org"), /Invalid credentials/);
      assert.equal(passwords.hashes, hashes + 1, "a wrong password on a known email is hashed");
    });

    await t.step("no audit entry per attempt on an unknown email", async () => {
      assert.deepEqual(await unknownEntries(store), []);
      const failed = await store.audit.list({ action: "sign-in-failed" }, 1000);
      assert.deepEqual(failed.map((e) => [e.actorEmail, e.changes.reason]), [[
        "keeper@museum.org",
        "wrong-password",
      ]]);
    });

    await t.step(
      "the next hour's job writes one entry with the hour's count; again, nothing more",
      async () => {
        const log = createLogger(() => {});
        const provider = createSandboxProvider({
          store,
          origin: "http://x",
          secret: "s",
          terminalMode: "manual",
        });
        const later = () => new Date(start + HOUR);
        const jobs = createJobs({ store, provider, log, holder: "a", now: later });
        const other = createJobs({ store, provider, log, holder: "b", now: later });
        const job = "sign-in summaries" as keyof typeof jobs;
        await Promise.all([jobs[job](), other[job]()]);
        await jobs[job]();
        const entries = await unknownEntries(store);
        assert.equal(entries.length, 1, JSON.stringify(entries));
        assert.deepEqual(
          [entries[0].actorId, entries[0].actorEmail, entries[0].address, entries[0].changes],
          [null, "", "", {
            reason: "unknown-email",
            attempts: BUDGET + 20,
            checked: BUDGET,
            from: "2026-05-04T10:00:00.000Z",
            to: "2026-05-04T11:00:00.000Z",
          }],
        );
      },
    );
  },
);
