/**
 * An address with 400 donor records (issue 23, item 2), over real HTTP, on Deno KV and PostgreSQL.
 * Anyone may create donor records under someone else's address (`POST /api/user` needs no payment);
 * here 400 of them sort before the victim's own record, the one with the gift, the receipt and the
 * monthly gift. The victim's portal must still see and act on every record of the address: the
 * account page lists the gift, the card and cancel forms work, the data export and the year's
 * receipts hold the victim's, the back office's donor page shows the gift, and erasure erases every
 * record, the victim's real one included, before it says done; records created while it runs are
 * erased too, and when they keep coming it says it is not finished (409) instead of done.
 */
import assert from "node:assert/strict";
import { unzipSync } from "fflate";
import { translator } from "@/lib/core/i18n.ts";
import { issueReceipt } from "@/lib/receipts/issue.ts";
import { formatMoney } from "@/lib/shared/money.ts";
import type { Store } from "@/lib/storage/types.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { formPost, send, signInAs } from "@/tests/helpers/donor_portal.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { donorFixture, subscriptionFixture, txFixture } from "@/tests/storage/fixtures.ts";

/** Records an attacker made under the victim's address. */
const FLOOD = 400;

const LEGAL = {
  RECEIPT_LEGAL_NAME: "Example Museum Association",
  RECEIPT_ADDRESS: "1 Museum Road, Jerusalem",
};

/**
 * The victim's record (its id sorts after every other), with a gift of ₪180.50, its receipt and an
 * active monthly gift on the sandbox; and {@link FLOOD} records of the same address before it.
 */
async function seed(app: TestApp) {
  const store = app.store;
  const suffix = crypto.randomUUID().slice(0, 8);
  const email = `victim.${suffix}@example.org`;
  const victim = `zz_${suffix}_victim_record`;
  await store.donors.create(donorFixture({ id: victim, firstName: "Tamar", lastName: "Levi", email }));
  const flood = Array.from({ length: FLOOD }, (_, i) => `aa_${suffix}_${String(i).padStart(4, "0")}_flood`);
  for (let i = 0; i < flood.length; i += 50) {
    await Promise.all(
      flood.slice(i, i + 50).map((id) =>
        store.donors.create(
          donorFixture({ id, firstName: "Mallory", lastName: "Flood", email: email.toUpperCase() }),
        )
      ),
    );
  }
  const gift = txFixture({
    donorId: victim,
    user: { firstName: "Tamar", lastName: "Levi", email },
    amount: 18_050,
    createdAt: new Date(Date.now() - 86_400_000).toISOString(),
  });
  await store.transactions.record(gift);
  const receipt = await issueReceipt(store, app.config.receipts, {
    transaction: gift,
    donorName: "Tamar Levi",
    donorTaxId: null,
    now: new Date(),
  });
  const monthly = await store.subscriptions.create(subscriptionFixture({
    donorId: victim,
    provider: "sandbox",
    amount: 5_000,
    currency: 1,
    nextPaymentDate: "2099-01-10T09:00:00.000Z",
  }));
  return { email, victim, flood, gift, receipt, monthly, cookie: await signInAs(app, victim) };
}

const get = (app: TestApp, path: string, cookie: string) =>
  fetch(app.url + path, { redirect: "manual", headers: { cookie } });

backendTest(
  `donor portal: an address with ${FLOOD} more donor records still sees and erases its own`,
  async (t, open) => {
    const store: Store = await open();
    const app = await startTestApp({ store, env: LEGAL });
    try {
      const s = await seed(app);

      await t.step("the account page lists the victim's gift and monthly gift", async () => {
        const page = await send(app, "/en/account", { headers: { cookie: s.cookie } });
        assert.equal(page.res.status, 200);
        assert.ok(page.text.includes(formatMoney(18_050, 1, "en")), "the gift is listed");
        assert.ok(page.page.includes(`action="/en/account/gifts/${s.monthly.id}/cancel"`), "its cancel form");
        assert.ok(page.page.includes(`action="/en/account/card/${s.monthly.id}"`), "its card form");
      });

      await t.step("the card form sends the victim to the provider's page", async () => {
        const res = await fetch(`${app.url}/en/account/card/${s.monthly.id}`, formPost(app, {}, s.cookie));
        await res.body?.cancel();
        assert.equal(res.status, 303);
        assert.match(res.headers.get("location") ?? "", /\/sandbox\/pay\//);
      });

      await t.step("the data export holds every record and the victim's gift", async () => {
        const res = await get(app, "/en/account/data", s.cookie);
        assert.equal(res.status, 200);
        const data = await res.json();
        assert.equal(data.donorRecords.length, FLOOD + 1);
        assert.ok(data.donorRecords.some((d: { firstName: string }) => d.firstName === "Tamar"));
        assert.deepEqual(data.gifts.map((g: { amount: number }) => g.amount), [18_050]);
        assert.equal(data.monthlyGifts.length, 1);
        assert.deepEqual(data.receipts.map((r: { number: string }) => r.number), [s.receipt.number]);
      });

      await t.step("the year's receipts hold the victim's", async () => {
        const year = Number(s.receipt.series.slice(-4));
        const res = await get(app, `/en/account/receipts/${year}`, s.cookie);
        assert.equal(res.status, 200);
        const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
        assert.deepEqual(Object.keys(files), [`receipt-${s.receipt.number}.pdf`]);
      });

      await t.step("the back office's donor page shows the victim's gift", async () => {
        const admin = await api(app.url, "POST", "/api/auth/admin/register", {
          email: "curator@museum.org",
          password: "a-long-museum-passphrase",
        });
        const res = await api(
          app.url,
          "GET",
          `/api/donor?email=${encodeURIComponent(s.email)}`,
          undefined,
          bearer(admin.body.accessToken),
        );
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.deepEqual(res.body.totals.map((x: { amount: number }) => x.amount), [18_050]);
        assert.equal(res.body.monthly.length, 1);
      });

      await t.step("the cancel form cancels the victim's monthly gift", async () => {
        const got = await send(
          app,
          `/en/account/gifts/${s.monthly.id}/cancel`,
          formPost(app, { reason: "" }, s.cookie),
        );
        assert.equal(got.res.status, 303, got.text.slice(0, 300));
        assert.equal(got.res.headers.get("location"), "/en/account?done=cancel");
        assert.equal((await store.subscriptions.get(s.monthly.id))?.status, "cancelled");
      });

      await t.step(
        "erasure erases every record, the victim's real one included, then says done",
        async () => {
          const res = await fetch(
            `${app.url}/en/account/erase`,
            formPost(app, { confirm: "erase" }, s.cookie),
          );
          await res.body?.cancel();
          assert.equal(res.status, 303);
          assert.equal(res.headers.get("location"), "/en/account/erase?done");
          const victim = await store.donors.get(s.victim);
          assert.ok(victim?.erasedAt, "the victim's record is erased");
          assert.deepEqual([victim.firstName, victim.lastName, victim.email], ["", "", ""]);
          assert.equal((await store.transactions.get(s.gift.id))?.user.firstName, "", "its gift's copy too");
          for (const id of [s.flood[0], s.flood[FLOOD - 1]]) {
            assert.equal((await store.donors.get(id))?.firstName, "", id);
          }
          assert.deepEqual(
            await store.donors.idsByEmail(s.email, 10),
            [],
            "no record left under the address",
          );
        },
      );
    } finally {
      await app.close();
    }
  },
);

/**
 * `store`, with someone creating a record under `email` after each erasure of one (at most `budget()`
 * times, while it answers more than zero): records appearing while the erasure runs.
 */
function racing(store: Store, email: string, budget: () => number): Store {
  let made = 0;
  const donors = {
    ...store.donors,
    erase: async (id: string, at: string) => {
      const erased = await store.donors.erase(id, at);
      if (made < budget()) {
        made++;
        await store.donors.create(donorFixture({ firstName: "Mallory", email }));
      }
      return erased;
    },
  };
  return Object.create(store, { donors: { value: donors } });
}

backendTest(
  "donor portal: erasure sweeps until no record is left, and says when it cannot",
  async (t, open) => {
    const base: Store = await open();
    const suffix = crypto.randomUUID().slice(0, 8);
    const email = `racing.${suffix}@example.org`;
    let budget = 3;
    const app = await startTestApp({ store: racing(base, email, () => budget) });
    try {
      const own = await base.donors.create(donorFixture({ firstName: "Tamar", email }));
      for (let i = 0; i < 150; i++) await base.donors.create(donorFixture({ firstName: "Mallory", email }));
      const cookie = await signInAs(app, own.id);

      await t.step("records created meanwhile are erased too before it says done", async () => {
        const res = await fetch(`${app.url}/en/account/erase`, formPost(app, { confirm: "erase" }, cookie));
        await res.body?.cancel();
        assert.equal(res.status, 303);
        assert.equal(res.headers.get("location"), "/en/account/erase?done");
        assert.deepEqual(await base.donors.idsByEmail(email, 10), []);
        assert.equal((await base.donors.get(own.id))?.firstName, "");
      });

      await t.step(
        "records that keep coming: a translated 'not finished' (409), still signed in",
        async () => {
          const again = await base.donors.create(donorFixture({ firstName: "Tamar", email }));
          const session = await signInAs(app, again.id);
          budget = Number.MAX_SAFE_INTEGER;
          for (const lang of ["en", "he"] as const) {
            const got = await send(
              app,
              `/${lang}/account/erase`,
              formPost(app, { confirm: "erase" }, session),
            );
            assert.equal(got.res.status, 409);
            assert.ok(got.text.includes(translator(lang)("portalPrivacy.erase.unfinished")), got.text);
          }
          assert.equal((await base.donors.get(again.id))?.firstName, "", "what was there is erased");
          budget = 0; // the flood stops: pressing again finishes
          const done = await fetch(
            `${app.url}/en/account/erase`,
            formPost(app, { confirm: "erase" }, session),
          );
          await done.body?.cancel();
          assert.equal(done.headers.get("location"), "/en/account/erase?done");
          assert.deepEqual(await base.donors.idsByEmail(email, 10), []);
        },
      );
    } finally {
      await app.close();
    }
  },
);
