/**
 * Refunds through the API (issue 16, item 3), on both backends with the sandbox provider: a partial
 * refund recorded once with its audit entry and the donor's email queued; the same key again answers
 * the first; a refund larger than what remains refused (409) with nothing recorded; refunds pressed
 * at once by several staff never exceed what was paid; a refund the provider refuses recorded as
 * failed, counting for nothing; bad input refused (400); a monthly gift's refund leaves the gift
 * running unless asked to cancel it; the lists and the monthly report show what was refunded; a
 * refund whose answer is lost stays pending (503) until the reconciliation settles it, once, or a
 * person records what the provider's back office shows (once, and not before 15 minutes).
 *
 * @module
 */
import assert from "node:assert/strict";
import { createAccessToken, deriveKey } from "@/lib/staff/tokens.ts";
import type { MonthlyReport } from "@/lib/reports/monthly.ts";
import { createLogger } from "@/lib/core/log.ts";
import { reconcileRefunds, REFUND_RECONCILE_GRACE_MS } from "@/lib/refunds/refund_reconcile.ts";
import { createSandboxProvider } from "@/lib/providers/sandbox/sandbox.ts";
import { REFUND_DECLINED_CARD, REFUND_UNCONFIRMED_CARD } from "@/lib/providers/sandbox/refund.ts";
import type { AdminRole, Store, Transaction } from "@/lib/storage/types.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { createPayment, GOOD_CARD, newDonor, payOnSandboxPage } from "@/tests/helpers/payments.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { adminFixture, refundFixture } from "@/tests/storage/fixtures.ts";

/** A signed-in admin of `role`: its id and headers. */
async function staff(app: TestApp, role: AdminRole, email: string) {
  const key = await deriveKey(app.config.appSecret, "admin-access-token/v1");
  const admin = await app.store.admins.create(adminFixture({ email, status: "approved", role }));
  return { id: admin.id, auth: bearer(await createAccessToken(key, { adminId: admin.id })) };
}

/** Pays `amount` (major units, NIS) on the sandbox page; answers the recorded gift. */
async function gift(app: TestApp, name: string, amount: number, card = GOOD_CARD, isMonthly = false) {
  const donorId = await newDonor(app, name);
  const created = await createPayment(app, { amount, currency: "nis", userId: donorId, isMonthly });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  await payOnSandboxPage(app, created.body.url, card);
  const found = (await app.store.transactions.listSuccess({ page: 1, limit: 50 })).data
    .find((tx) => tx.donorId === donorId);
  assert.ok(found, "the gift is recorded");
  return found as Transaction;
}

const refundCount = async (store: Store, target: string) =>
  (await store.audit.list({ action: "refund" }, 100)).filter((e) => e.target === target);

backendTest("api: refunds", async (t, open) => {
  const store = await open();
  await store.flags.seed({ MONTHLY_PAYMENT: true });
  await store.flags.set("MONTHLY_PAYMENT", true);
  const app = await startTestApp({ store });
  try {
    const finance = await staff(app, "finance", "finance@museum.org");
    const other = await staff(app, "admin", "admin@museum.org");
    const viewer = await staff(app, "viewer", "viewer@museum.org");
    const owner = await staff(app, "owner", "owner@museum.org");
    const refund = (id: string, body: unknown, auth = finance.auth) =>
      api(app.url, "POST", `/api/transaction/${id}/refund`, body, auth);
    const refunds = (id: string) =>
      api(app.url, "GET", `/api/transaction/${id}/refunds`, undefined, finance.auth);
    const tx = await gift(app, "Anna", 100); // 10,000 agorot

    await t.step("a partial refund: recorded once, audited, the donor's email queued", async () => {
      const res = await refund(tx.id, {
        amount: 2500,
        reason: "requested-by-donor",
        note: " by phone ",
        key: "k-1",
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.repeated, false);
      const r = res.body.refund;
      assert.equal(r.state, "succeeded");
      assert.equal(r.amount, 2500);
      assert.equal(r.currency, 1);
      assert.equal(r.note, "by phone");
      assert.equal(r.actorEmail, "finance@museum.org");
      assert.ok(r.providerRef);
      assert.equal(r.key, undefined, "the idempotency key is not answered");
      const [entry] = await refundCount(store, tx.id);
      assert.equal(entry.actorId, finance.id);
      assert.ok(entry.address);
      assert.deepEqual(
        { amount: entry.changes.amount, state: entry.changes.state, refundId: entry.changes.refundId },
        { amount: 2500, state: "succeeded", refundId: r.id },
      );
      const message = await store.outbox.get(`refund:${r.id}`);
      assert.equal(message?.kind, "refund");
      assert.deepEqual(message?.data, { transactionId: tx.id, refundId: r.id });
      const list = await refunds(tx.id);
      assert.equal(list.status, 200);
      assert.deepEqual({ ...list.body, data: list.body.data.length }, {
        data: 1,
        paid: 10000,
        refunded: 2500,
        pending: 0,
        // The card that paid (a one-time sandbox gift: credited by its payment), never a token.
        card: { available: true, last4: "9015" },
      });
      // The accountant's report counts it in the month it was settled, as a one-time gift's refund.
      const report = await api(app.url, "GET", "/api/reports/monthly", undefined, finance.auth);
      assert.equal(report.status, 200);
      const month = (report.body as MonthlyReport).months.find((m) =>
        m.start <= r.settledAt && r.settledAt < m.end
      );
      const ils = month?.money.find((c) => c.currency === 1);
      assert.deepEqual(ils?.refunds, {
        oneTime: { amount: 2500, count: 1 },
        monthly: { amount: 0, count: 0 },
        total: { amount: 2500, count: 1 },
      });
      assert.equal(ils?.net.total, 10000 - 2500);
    });

    await t.step("the same key again answers the first refund; nothing more happens", async () => {
      const res = await refund(tx.id, { amount: 9000, reason: "duplicate", key: "k-1" });
      assert.equal(res.status, 200);
      assert.equal(res.body.repeated, true);
      assert.equal(res.body.refund.amount, 2500);
      assert.equal((await refunds(tx.id)).body.data.length, 1);
      assert.equal((await refundCount(store, tx.id)).length, 1);
    });

    await t.step("more than what remains: 409 with what remains, nothing recorded", async () => {
      const res = await refund(tx.id, { amount: 7501, reason: "mistake", key: "k-2" });
      assert.equal(res.status, 409);
      assert.match(res.body.message, /larger than what remains to refund \(₪75\.00\)/);
      assert.equal((await refunds(tx.id)).body.data.length, 1);
      assert.equal((await refundCount(store, tx.id)).length, 1);
    });

    await t.step("two staff pressing at once: never more than what was paid", async () => {
      const answers = await Promise.all(
        [0, 1, 2, 3, 4].map((i) =>
          refund(
            tx.id,
            { amount: 2000, reason: "other", key: `race-${i}` },
            i % 2 ? other.auth : finance.auth,
          )
        ),
      );
      const statuses = answers.map((a) => a.status).sort();
      assert.deepEqual(statuses, [201, 201, 201, 409, 409], JSON.stringify(answers.map((a) => a.body)));
      const after = (await refunds(tx.id)).body;
      assert.equal(after.refunded, 8500);
      assert.equal(after.pending, 0);
      assert.ok(after.refunded <= after.paid);
      // The rest, exactly: then nothing remains.
      assert.equal((await refund(tx.id, { amount: 1500, reason: "other", key: "rest" })).status, 201);
      const none = await refund(tx.id, { amount: 1, reason: "other", key: "more" });
      assert.equal(none.status, 409);
      assert.match(none.body.message, /refunded in full/);
    });

    await t.step("the success list shows what was refunded", async () => {
      const list = await api(
        app.url,
        "GET",
        "/api/transaction/get-all-success-transactions",
        undefined,
        finance.auth,
      );
      const row = list.body.data.find((item: { id: string }) => item.id === tx.id);
      assert.deepEqual(row.refund, { refunded: 10000, pending: 0 });
    });

    await t.step("the donor's page shows it too", async () => {
      const view = await api(app.url, "GET", "/api/donor?email=anna%40example.org", undefined, finance.auth);
      assert.equal(view.status, 200, JSON.stringify(view.body));
      const row = view.body.gifts.find((g: { id: string }) => g.id === tx.id);
      assert.equal(row.refunded, 10000);
    });

    await t.step("the CSV export shows it in the columns after the spec's", async () => {
      const res = await fetch(`${app.url}/api/transaction/export?type=success&lang=en`, {
        headers: finance.auth,
      });
      assert.equal(res.status, 200);
      const lines = (await res.text()).replace(/^\uFEFF/, "").trim().split(/\r?\n/);
      assert.ok(lines[0].endsWith("Transaction ID,Refunded,Refund pending"), lines[0]);
      const row = lines.find((line) => line.includes(tx.id))!;
      assert.ok(row.endsWith(`${tx.id},100.00,0.00`), row);
    });

    await t.step("a refund the provider refuses: 409, recorded failed, counting for nothing", async () => {
      const declined = await gift(app, "Boris", 50, REFUND_DECLINED_CARD);
      const res = await refund(declined.id, { amount: 5000, reason: "fraud", key: "d-1" });
      assert.equal(res.status, 409);
      assert.match(res.body.message, /refused the refund; nothing was refunded/);
      const list = (await refunds(declined.id)).body;
      assert.equal(list.refunded, 0);
      assert.equal(list.data[0].state, "failed");
      const [entry] = await refundCount(store, declined.id);
      assert.equal(entry.changes.state, "failed");
      assert.equal(await store.outbox.get(`refund:${list.data[0].id}`), null, "no email");
    });

    await t.step(
      "an unconfirmed refund: 503, kept pending and reserved; reconciliation settles it once",
      async () => {
        const lost = await gift(app, "Dov", 40, REFUND_UNCONFIRMED_CARD);
        const res = await refund(lost.id, { amount: 4000, reason: "mistake", key: "u-1" });
        assert.equal(res.status, 503, JSON.stringify(res.body));
        assert.match(res.body.message, /did not confirm the refund.*stays pending/);
        const before = (await refunds(lost.id)).body;
        assert.deepEqual([before.refunded, before.pending, before.data[0].state], [0, 4000, "pending"]);
        assert.equal((await refund(lost.id, { amount: 1, reason: "mistake", key: "u-2" })).status, 409);
        const [unconfirmed] = await refundCount(store, lost.id);
        assert.equal(unconfirmed.changes.state, "unconfirmed");
        // The provider credited it: the pass, 16 minutes on, records it with the donor's email.
        const provider = createSandboxProvider({
          store,
          origin: app.url,
          secret: app.config.appSecret,
          terminalMode: "manual",
        });
        const log = createLogger(() => {});
        const later = () => new Date(Date.now() + REFUND_RECONCILE_GRACE_MS + 60_000);
        assert.deepEqual(await reconcileRefunds({ store, provider, log, now: later }), {
          succeeded: 1,
          failed: 0,
          pending: 0,
        });
        assert.deepEqual(await reconcileRefunds({ store, provider, log, now: later }), {
          succeeded: 0,
          failed: 0,
          pending: 0,
        });
        const after = (await refunds(lost.id)).body;
        assert.deepEqual([after.refunded, after.pending, after.data[0].state], [4000, 0, "succeeded"]);
        assert.equal((await store.outbox.get(`refund:${after.data[0].id}`))?.kind, "refund");
        const entries = await refundCount(store, lost.id);
        assert.deepEqual(entries.map((e) => e.changes.state).sort(), ["succeeded", "unconfirmed"]);
      },
    );

    await t.step("a person records what the provider shows for a refund pending too long, once", async () => {
      const paid = await gift(app, "Eli", 60);
      const outcome = (body: unknown, auth = finance.auth) =>
        api(app.url, "POST", `/api/transaction/${paid.id}/refund-outcome`, body, auth);
      // Two refunds whose answers were lost 20 minutes ago (the provider cannot be asked), one just now.
      const lost = async (amount: number, minutesAgo: number) =>
        (await store.refunds.begin(
          refundFixture({
            transactionId: paid.id,
            amount,
            currency: 1,
            createdAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
          }),
          paid.amount!,
        )).refund;
      const [credited, notCredited, recent] = [
        await lost(1000, 20),
        await lost(2000, 20),
        await lost(500, 1),
      ];
      const tooRecent = await outcome({ refundId: recent.id, outcome: "failed" });
      assert.equal(tooRecent.status, 409);
      assert.match(tooRecent.body.message, /may still get the provider's own answer/);
      assert.equal((await outcome({ refundId: credited.id, outcome: "succeeded" }, viewer.auth)).status, 403);
      assert.equal((await outcome({ refundId: "nope", outcome: "succeeded" })).status, 404);
      assert.equal((await outcome({ refundId: credited.id, outcome: "maybe" })).status, 400);

      const ok = await outcome({ refundId: credited.id, outcome: "succeeded", providerRef: "PC-778812" });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.deepEqual([ok.body.state, ok.body.providerRef], ["succeeded", "PC-778812"]);
      assert.equal((await store.outbox.get(`refund:${credited.id}`))?.kind, "refund", "the donor's email");
      const again = await outcome({ refundId: credited.id, outcome: "failed" });
      assert.equal(again.status, 409, "once");

      // "It did not go through" frees its amount for another refund: one person's word is not
      // enough (issue 23). Recorded, it stays pending, reserved, until an owner, another person,
      // confirms it.
      const reported = await outcome({ refundId: notCredited.id, outcome: "failed" });
      assert.equal(reported.status, 202, JSON.stringify(reported.body));
      assert.equal(reported.body.state, "pending");
      assert.equal(reported.body.failureReport.actorEmail, "finance@museum.org");
      assert.deepEqual((await refunds(paid.id)).body.pending, 2500, "still reserved");
      const listed = (who: typeof finance) =>
        api(app.url, "GET", `/api/transaction/${paid.id}/refunds`, undefined, who.auth)
          .then((res) => res.body.data.find((r: { id: string }) => r.id === notCredited.id));
      assert.equal((await listed(finance)).failureReport.confirmable, false, "not by who recorded it");
      assert.equal((await listed(owner)).failureReport.confirmable, true);
      for (const who of [finance, other]) {
        const refused = await outcome({ refundId: notCredited.id, outcome: "failed" }, who.auth);
        assert.equal(refused.status, 409, JSON.stringify(refused.body));
        assert.match(refused.body.message, /an owner other than/);
      }
      const confirmed = await outcome({ refundId: notCredited.id, outcome: "failed" }, owner.auth);
      assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
      assert.equal(confirmed.body.state, "failed");
      assert.equal(await store.outbox.get(`refund:${notCredited.id}`), null, "no email");
      const list = (await refunds(paid.id)).body;
      assert.deepEqual([list.refunded, list.pending], [1000, 500], "the failed one's amount is free again");
      // An owner's own report waits for another owner too.
      const ownReport = await lost(300, 20);
      assert.equal((await outcome({ refundId: ownReport.id, outcome: "failed" }, owner.auth)).status, 202);
      assert.equal((await outcome({ refundId: ownReport.id, outcome: "failed" }, owner.auth)).status, 409);
      assert.equal((await store.refunds.get(paid.id, ownReport.id))?.state, "pending");
      const entries = (await refundCount(store, paid.id)).filter((e) => e.changes.recordedByStaff);
      assert.deepEqual(
        entries.map((e) => [e.actorId, e.changes.state]).sort(),
        [
          [finance.id, "failure-reported"],
          [finance.id, "succeeded"],
          [owner.id, "failed"],
          [owner.id, "failure-reported"],
        ].sort(),
      );
      const confirmation = entries.find((e) => e.changes.state === "failed")!;
      assert.equal(confirmation.changes.reportedBy, "finance@museum.org", "both people on record");
    });

    await t.step("bad input and wrong targets are refused with a clear message", async () => {
      for (
        const [body, field] of [
          [{ amount: 0, reason: "other", key: "b" }, "amount"],
          [{ amount: 1.5, reason: "other", key: "b" }, "amount"],
          [{ amount: 100, reason: "bored", key: "b" }, "reason"],
          [{ amount: 100, reason: "other" }, "key"],
          [{ amount: 100, reason: "other", key: "b", note: "x".repeat(501) }, "note"],
        ] as const
      ) {
        const res = await refund(tx.id, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.ok(res.body.errors.some((e: { path: string }) => e.path === field), JSON.stringify(res.body));
      }
      assert.equal(
        (await refund("AAAAAAAAAAAAAAAAAAAAAAAA", { amount: 1, reason: "other", key: "b" })).status,
        404,
      );
      assert.equal((await refund(tx.id, { amount: 1, reason: "other", key: "v" }, viewer.auth)).status, 403);
    });

    await t.step("a monthly gift's refund leaves the gift running unless asked", async () => {
      const monthly = await gift(app, "Chen", 30, GOOD_CARD, true);
      const active = async () =>
        (await store.subscriptions.listByDonor(monthly.donorId)).filter((s) => s.status === "active").length;
      assert.equal(await active(), 1);
      assert.equal((await refund(monthly.id, { amount: 1000, reason: "other", key: "m-1" })).status, 201);
      assert.equal(await active(), 1, "still running");
      const res = await refund(monthly.id, {
        amount: 1000,
        reason: "other",
        key: "m-2",
        cancelMonthly: true,
      });
      assert.equal(res.status, 201);
      assert.equal(res.body.refund.cancelMonthly, true);
      assert.equal(await active(), 0, "stopped as asked");
    });
  } finally {
    await app.close();
  }
});
