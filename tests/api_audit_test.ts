/**
 * The audit log through the API (issue 16), on both backends: each staff action (sign-in and its
 * failures on known accounts, receipt resend, export, kiosk pairing and revocation, a flag switch) writes exactly one
 * entry with who, from which address and what changed, and a repeat that changes nothing writes
 * none; `GET /api/audit` filters (who, action, period) and pages with its cursor; the CSV export
 * holds the same entries; no route edits or deletes an entry; a flag switched on one instance is
 * seen by another on the same store within seconds.
 *
 * @module
 */

import assert from "node:assert/strict";
import { openKvStore } from "@/lib/storage/kv/mod.ts";
import { openPostgresStore } from "@/lib/storage/postgres/mod.ts";
import type { AuditEntry, AuditInput, Store } from "@/lib/storage/types.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { backendTest, IN_CI, PG_URL, postgresProblem } from "@/tests/helpers/stores.ts";
import postgres from "postgres";
import { donorFixture, txFixture } from "@/tests/storage/fixtures.ts";

const PASSWORD = "a-long-museum-passphrase";
const FROM = { "x-forwarded-for": "203.0.113.9" };

/** Every entry, oldest first. */
async function everything(store: Store): Promise<AuditEntry[]> {
  return (await store.audit.list({}, 1000)).reverse();
}

backendTest(
  "api: each staff action writes one audit entry with who, address and changes",
  async (t, open) => {
    const store = await open();
    const app = await startTestApp({ store, env: { TRUST_PROXY: "true" } });
    try {
      const owner = (await api(app.url, "POST", "/api/auth/admin/register", {
        email: "owner@museum.org",
        password: PASSWORD,
      })).body;
      const asOwner = { ...bearer(owner.accessToken), ...FROM };
      let seen = (await everything(store)).length;
      /** The entries written since the last call. */
      const fresh = async () => {
        const all = await everything(store);
        const out = all.slice(seen);
        seen = all.length;
        return out;
      };
      const login = (email: string, password: string) =>
        api(app.url, "POST", "/api/auth/admin/login", { email, password }, FROM);

      await t.step("sign-in failures and a sign-in", async () => {
        assert.equal((await login("owner@museum.org", "not-the-passphrase")).status, 401);
        assert.equal((await login("nobody@museum.org", PASSWORD)).status, 401);
        assert.equal((await login("owner@museum.org", PASSWORD)).status, 200);
        const entries = await fresh();
        // An unknown email is written with the rest of its hour, by the `sign-in summaries` job
        // (tests/login_limits_test.ts), not one entry each.
        assert.deepEqual(
          entries.map((e) => [e.action, e.actorId, e.actorEmail, e.address, e.changes]),
          [
            ["sign-in-failed", owner.id, "owner@museum.org", "203.0.113.9", { reason: "wrong-password" }],
            ["sign-in", owner.id, "owner@museum.org", "203.0.113.9", {}],
          ],
        );
      });

      await t.step("a receipt resent, once per resend (a double click writes no second entry)", async () => {
        const donor = await store.donors.create(donorFixture({ email: "dana@example.org" }));
        // Route ids are 16..64 characters.
        const tx = txFixture({ id: `tx_resend_${crypto.randomUUID().slice(0, 8)}`, donorId: donor.id });
        await store.transactions.record(tx);
        const path = `/api/transaction/${tx.id}/resend-receipt`;
        assert.equal((await api(app.url, "POST", path, undefined, asOwner)).status, 202);
        const repeat = await api(app.url, "POST", path, undefined, asOwner);
        assert.deepEqual([repeat.status, repeat.body.repeated], [202, true]);
        const entries = await fresh();
        assert.deepEqual(entries.map((e) => [e.action, e.actorId, e.address, e.target]), [
          ["receipt-resent", owner.id, "203.0.113.9", tx.id],
        ]);
        assert.equal(entries[0].changes.message, `receipt:${tx.id}:resend:1`);
      });

      await t.step("an export", async () => {
        const res = await fetch(`${app.url}/api/transaction/export?type=success&searchString=dana`, {
          headers: asOwner,
        });
        await res.body?.cancel();
        assert.equal(res.status, 200);
        const entries = await fresh();
        assert.deepEqual(entries.map((e) => [e.action, e.actorId, e.address, e.changes]), [
          ["export", owner.id, "203.0.113.9", {
            kind: "transactions",
            type: "success",
            isMonthly: null,
            searched: true,
          }],
        ]);
        assert.ok(!JSON.stringify(entries).includes("dana"), "the search text is not logged");
      });

      await t.step("kiosk pairing codes and a revocation (revoking again writes nothing)", async () => {
        const created = await api(
          app.url,
          "POST",
          "/api/kiosk-devices",
          { name: "Hall", shopNumber: "12" },
          asOwner,
        );
        assert.equal(created.status, 201);
        const id = created.body.device.id;
        assert.equal(
          (await api(app.url, "POST", `/api/kiosk-devices/${id}/pairing-code`, {}, asOwner)).status,
          200,
        );
        assert.equal(
          (await api(app.url, "POST", `/api/kiosk-devices/${id}/revoke`, undefined, asOwner)).status,
          200,
        );
        assert.equal(
          (await api(app.url, "POST", `/api/kiosk-devices/${id}/revoke`, undefined, asOwner)).status,
          200,
        );
        // A revoked device gets no code, and no entry.
        assert.equal(
          (await api(app.url, "POST", `/api/kiosk-devices/${id}/pairing-code`, {}, asOwner)).status,
          409,
        );
        const entries = await fresh();
        assert.deepEqual(entries.map((e) => [e.action, e.actorId, e.address, e.target, e.changes]), [
          ["kiosk-paired", owner.id, "203.0.113.9", id, {
            device: { name: "Hall", shopNumber: "12" },
            pairingCode: "issued",
            created: true,
          }],
          ["kiosk-paired", owner.id, "203.0.113.9", id, { pairingCode: "issued" }],
          ["kiosk-revoked", owner.id, "203.0.113.9", id, { revoked: { from: false, to: true } }],
        ]);
      });

      await t.step("a flag switch (owners only; the same value again writes nothing)", async () => {
        const before = await api(app.url, "GET", "/api/settings/flags", undefined, asOwner);
        assert.deepEqual(before.body.map((f: { flag: string; enabled: boolean }) => [f.flag, f.enabled]), [
          ["MONTHLY_PAYMENT", true],
          ["TEST_TERMINAL_PAYMENT", true],
        ]);
        const off = { flag: "MONTHLY_PAYMENT", enabled: false };
        const switched = await api(app.url, "POST", "/api/settings/flags", off, asOwner);
        assert.equal(switched.status, 200);
        assert.equal(switched.body[0].enabled, false);
        assert.equal((await api(app.url, "POST", "/api/settings/flags", off, asOwner)).status, 200);
        const flags = await api(app.url, "GET", "/api/feature-flags");
        assert.deepEqual(flags.body[0], { flag: "MONTHLY_PAYMENT", enabled: false });
        const bad = await api(
          app.url,
          "POST",
          "/api/settings/flags",
          { flag: "ROOT", enabled: true },
          asOwner,
        );
        assert.equal(bad.status, 400);
        assert.match(bad.body.message, /flag must be one of MONTHLY_PAYMENT, TEST_TERMINAL_PAYMENT/);
        const notBool = await api(app.url, "POST", "/api/settings/flags", {
          flag: "MONTHLY_PAYMENT",
          enabled: "no",
        }, asOwner);
        assert.equal(notBool.status, 400);
        const entries = await fresh();
        assert.deepEqual(entries.map((e) => [e.action, e.actorId, e.address, e.target, e.changes]), [
          ["flag-changed", owner.id, "203.0.113.9", "MONTHLY_PAYMENT", {
            MONTHLY_PAYMENT: { from: true, to: false },
          }],
        ]);
      });

      await t.step(
        "two switches at once from the same value: one lands, with one entry",
        async () => {
          const on = { flag: "TEST_TERMINAL_PAYMENT" };
          // Both saw `true`; only one conditional write lands (the other would answer 409).
          const [a, b] = await Promise.all([
            store.flags.change("TEST_TERMINAL_PAYMENT", false, true, new Date().toISOString(), {
              audit: [{
                action: "flag-changed",
                actorId: owner.id,
                actorEmail: "a",
                address: "1",
                target: on.flag,
              }],
            }),
            store.flags.change("TEST_TERMINAL_PAYMENT", false, true, new Date().toISOString(), {
              audit: [{
                action: "flag-changed",
                actorId: owner.id,
                actorEmail: "b",
                address: "2",
                target: on.flag,
              }],
            }),
          ]);
          assert.equal([a, b].filter((x) => x !== null).length, 1);
          assert.equal((await fresh()).length, 1);
        },
      );
    } finally {
      await app.close();
    }
  },
);

/** Seeds entries an hour apart from 2026-11-01T00:00Z: actors and actions in turn. */
async function seed(store: Store, n: number): Promise<void> {
  const actions = ["sign-in", "export", "role-changed"] as const;
  for (let i = 0; i < n; i++) {
    const input: AuditInput = {
      action: actions[i % 3],
      actorId: i % 2 === 0 ? "adm_even" : "adm_odd",
      actorEmail: i % 2 === 0 ? "even@museum.org" : "=odd@museum.org",
      address: "198.51.100.1",
      target: `t${i}`,
      changes: { i },
    };
    await store.audit.append([input], new Date(Date.UTC(2026, 10, 1, i)).toISOString());
  }
}

backendTest(
  "api: the audit log's filters, paging, CSV; owners and admins only; no edit or delete",
  async (t, open) => {
    const store = await open();
    const app = await startTestApp({ store });
    try {
      const register = (email: string) =>
        api(app.url, "POST", "/api/auth/admin/register", { email, password: PASSWORD });
      const owner = (await register("owner@museum.org")).body;
      const asOwner = bearer(owner.accessToken);
      await store.audit.list({}, 1).then((e) => assert.equal(e.length, 0));
      await seed(store, 30);
      const get = (query: string) => api(app.url, "GET", `/api/audit?${query}`, undefined, asOwner);
      /** Every page of `query`, following the cursors: the `i` of each entry. */
      const pages = async (query: string, limit: number) => {
        const out: number[][] = [];
        let cursor: string | null = null;
        do {
          const res: { status: number; body: { data: AuditEntry[]; nextCursor: string | null } } = await get(
            `${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`,
          );
          assert.equal(res.status, 200);
          out.push(res.body.data.map((e) => e.changes.i as number));
          cursor = res.body.nextCursor;
        } while (cursor);
        return out;
      };

      await t.step("newest first, paged with the cursor", async () => {
        const all = await pages("", 7);
        assert.deepEqual(all.map((p) => p.length), [7, 7, 7, 7, 2]);
        assert.deepEqual(all.flat(), Array.from({ length: 30 }, (_, i) => 29 - i));
      });

      await t.step("filters: who, action, period, together", async () => {
        assert.deepEqual((await pages("actor=adm_even", 50)).flat(), [
          28,
          26,
          24,
          22,
          20,
          18,
          16,
          14,
          12,
          10,
          8,
          6,
          4,
          2,
          0,
        ]);
        assert.deepEqual((await pages("action=export", 4)).flat(), [28, 25, 22, 19, 16, 13, 10, 7, 4, 1]);
        assert.deepEqual(
          (await pages("from=2026-11-01T05:00:00Z&to=2026-11-01T09:00:00Z", 3)).flat(),
          [8, 7, 6, 5],
        );
        assert.deepEqual(
          (await pages("actor=adm_odd&action=sign-in&from=2026-11-01&to=2026-11-02", 2)).flat(),
          [21, 15, 9, 3],
        );
        // A day is the museum's (Asia/Jerusalem, UTC+2 in November), as the times on the page are:
        // November 2nd starts at 22:00 UTC on the 1st, so entries 22 and 23 are the 2nd's.
        assert.deepEqual((await pages("from=2026-11-02", 50)).flat(), [29, 28, 27, 26, 25, 24, 23, 22]);
        assert.deepEqual((await pages("to=2026-11-01", 50)).flat(), []);
        assert.deepEqual((await pages("from=2026-11-01&to=2026-11-02", 50)).flat().length, 22);
      });

      await t.step("bad input: a clear 400", async () => {
        for (
          const [query, message] of [
            ["action=drop-table", /action must be one of sign-in/],
            ["from=yesterday", /from must be an ISO 8601 date/],
            ["from=2026-11-02&to=2026-11-01", /to must not be before from/],
            ["cursor=bm90LWEtY3Vyc29y", /cursor is not valid/],
            ["limit=0", /limit must be a whole number from 1 to 200/],
          ] as const
        ) {
          const res = await get(query);
          assert.equal(res.status, 400, query);
          assert.match(res.body.message, message, query);
        }
      });

      await t.step("the CSV: the filtered entries, a formula neutralised", async () => {
        const res = await fetch(`${app.url}/api/audit/export?actor=adm_odd&action=export`, {
          headers: asOwner,
        });
        assert.equal(res.status, 200);
        assert.match(
          res.headers.get("content-disposition")!,
          /^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/,
        );
        // Decoded keeping the byte order mark (`text()` drops it).
        const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer());
        assert.ok(text.startsWith("\uFEFFTime (UTC),Action,Who,Admin ID,Address,Target,Changes\r\n"));
        const rows = text.slice(1).trimEnd().split("\r\n").slice(1);
        assert.deepEqual(
          rows,
          [25, 19, 13, 7, 1].map((i) => {
            const at = new Date(Date.UTC(2026, 10, 1, i)).toISOString().replace("T", " ").slice(0, 19);
            return `${at},export,'=odd@museum.org,adm_odd,198.51.100.1,t${i},"{""i"":${i}}"`;
          }),
        );
        const all = await (await fetch(`${app.url}/api/audit/export`, { headers: asOwner })).text();
        assert.equal(all.trimEnd().split("\r\n").length, 31);
      });

      await t.step("finance and viewers may not read it; nothing edits or deletes it", async () => {
        const staff = (await register("staff@museum.org")).body;
        await api(app.url, "POST", `/api/auth/admin/${staff.id}/approve`, { role: "finance" }, asOwner);
        for (const path of ["/api/audit", "/api/audit/export"]) {
          const res = await api(app.url, "GET", path, undefined, bearer(staff.accessToken));
          assert.equal(res.status, 403);
        }
        const count = (await store.audit.list({}, 1000)).length;
        for (const method of ["PUT", "PATCH", "DELETE", "POST"]) {
          const res = await fetch(`${app.url}/api/audit`, { method, headers: asOwner });
          await res.body?.cancel();
          assert.ok([404, 405].includes(res.status), `${method} answered ${res.status}`);
        }
        assert.equal((await store.audit.list({}, 1000)).length, count);
      });
    } finally {
      await app.close();
    }
  },
);

/** Two handles on the same data: a KV file opened twice, or one PostgreSQL schema twice. */
async function twoInstances(
  backend: "kv" | "postgres",
): Promise<{ stores: [Store, Store]; dispose(): Promise<void> }> {
  if (backend === "kv") {
    const dir = await Deno.makeTempDir();
    const path = `${dir}/data.sqlite`;
    const a = await openKvStore(path);
    const b = await openKvStore(path);
    return {
      stores: [a, b],
      async dispose() {
        await a.close();
        await b.close();
        await Deno.remove(dir, { recursive: true });
      },
    };
  }
  const schema = `test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const a = await openPostgresStore(PG_URL, { schema, max: 2 });
  const b = await openPostgresStore(PG_URL, { schema, max: 2 });
  return {
    stores: [a, b],
    async dispose() {
      await a.close();
      await b.close();
      const sql = postgres(PG_URL, { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe(`drop schema if exists ${schema} cascade`);
      } finally {
        await sql.end({ timeout: 1 });
      }
    },
  };
}

for (const backend of ["kv", "postgres"] as const) {
  Deno.test({
    name: `api: a flag switched on one instance is seen by another within seconds [${backend}]`,
    ignore: backend === "postgres" && !IN_CI && (await postgresProblem()) !== null,
    async fn() {
      const { stores, dispose } = await twoInstances(backend);
      const [a, b] = [await startTestApp({ store: stores[0] }), await startTestApp({ store: stores[1] })];
      try {
        const monthlyTab = async () =>
          /name="period" value="monthly"/.test(await (await fetch(`${b.url}/en/`)).text());
        assert.equal(await monthlyTab(), true);
        const owner = (await api(a.url, "POST", "/api/auth/admin/register", {
          email: "owner@museum.org",
          password: PASSWORD,
        })).body;
        const off = await api(a.url, "POST", "/api/settings/flags", {
          flag: "MONTHLY_PAYMENT",
          enabled: false,
        }, bearer(owner.accessToken));
        assert.equal(off.status, 200);
        const started = Date.now();
        while (await monthlyTab()) {
          assert.ok(Date.now() - started < 3000, "the other instance still shows the monthly tab after 3 s");
          await new Promise((r) => setTimeout(r, 100));
        }
        const flags = await api(b.url, "GET", "/api/feature-flags");
        assert.deepEqual(flags.body[0], { flag: "MONTHLY_PAYMENT", enabled: false });
      } finally {
        await a.close();
        await b.close();
        await dispose();
      }
    },
  });
}
