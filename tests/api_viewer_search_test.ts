/**
 * A viewer's transaction lists (issue 23, item 6d), on Deno KV and PostgreSQL: a viewer searches
 * by name only, so a masked email address cannot be recovered by searching for it a character at a
 * time (totals and rows alike), while finance staff search emails as before; and a viewer's rows
 * carry nothing of the card but its type: no number, no expiry date.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { AdminRole } from "@/lib/staff/roles.ts";
import { createAccessToken, deriveKey } from "@/lib/staff/tokens.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { adminFixture, donorFixture, txFixture } from "@/tests/storage/fixtures.ts";

const LISTS = ["get-all-success-transactions", "get-all-error-transactions"] as const;

backendTest("api: a viewer searches names only, and sees no card details", async (t, open) => {
  const store = await open();
  const app = await startTestApp({ store });
  try {
    const key = await deriveKey(app.config.appSecret, "admin-access-token/v1");
    const tokens = new Map<AdminRole, string>();
    for (const role of ["viewer", "finance"] as const) {
      const admin = await store.admins.create(adminFixture({ status: "approved", role }));
      tokens.set(role, await createAccessToken(key, { adminId: admin.id }));
    }
    const user = { firstName: "Ada", lastName: "Byron", email: "ada.lovelace@example.org" };
    const donor = await store.donors.create(donorFixture(user));
    await store.transactions.record(txFixture({
      donorId: donor.id,
      user,
      resultData: {
        CreditCardNumber: "458045******4580",
        CreditCardExpDate: "1230",
        CreditType: "1",
        DebitTotal: "10000",
        DebitCurrency: 1,
      },
    }));
    await store.transactions.record(txFixture({ kind: "error", donorId: donor.id, user }));
    const search = async (role: AdminRole, list: typeof LISTS[number], term: string) => {
      const res = await api(
        app.url,
        "GET",
        `/api/transaction/${list}?searchString=${encodeURIComponent(term)}`,
        undefined,
        bearer(tokens.get(role)!),
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body as { total: number; data: Record<string, unknown>[] };
    };

    for (const list of LISTS) {
      await t.step(`${list}: a viewer's search by an email fragment finds nothing`, async () => {
        // The first letter is shown (a***@example.org); each further one would be a guess confirmed.
        for (
          const term of ["ada.", "ada.l", "lovelace", "@example.org", "e.org", "ada.lovelace@example.org"]
        ) {
          const page = await search("viewer", list, term);
          assert.deepEqual([page.total, page.data.length], [0, 0], `viewer searching "${term}"`);
        }
      });

      await t.step(`${list}: a viewer finds by first or last name; finance by the email too`, async () => {
        for (const term of ["ada", "BYRON", "yro"]) {
          assert.equal((await search("viewer", list, term)).total, 1, term);
        }
        for (const term of ["lovelace", "@example.org"]) {
          assert.equal((await search("finance", list, term)).total, 1, term);
        }
      });
    }

    await t.step("a viewer's rows: a masked email, no card number, no expiry date", async () => {
      for (const list of LISTS) {
        const page = await search("viewer", list, "ada");
        const row = page.data[0];
        assert.equal((row.user as { email: string }).email, "a***@example.org");
        const json = JSON.stringify(row);
        assert.ok(!json.includes("1230") && !/exp/i.test(json), json);
        assert.ok(!json.includes("4580"), json);
      }
    });
  } finally {
    await app.close();
  }
});
