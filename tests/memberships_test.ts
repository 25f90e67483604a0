/**
 * Membership from a gift (issue 27, item 2), on both backends, through the real payment code on a
 * clock the test sets: a one-time gift at a level makes a member (a 12-month term from the payment),
 * recorded twice but extended once; an other amount equal to a price stays a donation; an early
 * renewal extends from the end, an upgrade applies at once, a downgrade at the next renewal; grace
 * for 30 days, then lapsed, and a gift after that a new term with the same number; a monthly gift at
 * a level keeps it active charge after charge (billing's passes), in grace while a declined charge is
 * retried, lapsed when the retries end, and a cancelled gift's membership lasts to the end of its
 * paid period; erasure deletes the membership. Then the same through the API and the no-JavaScript form.
 */
import assert from "node:assert/strict";
import { terminalPayment } from "@/lib/kiosk/terminal_sales.ts";
import type { PaymentsContext } from "@/lib/donations/service.ts";
import { eraseDonorData } from "@/lib/donor_portal/erasure.ts";
import { createSandboxProvider } from "@/lib/providers/sandbox/sandbox.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { createPayment, followReturn, newDonor, payOnSandboxPage } from "@/tests/helpers/payments.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { at, DAY, quiet, world } from "@/tests/helpers/membership_world.ts";

const spans = (terms: { kind: string; levelId: number; start: string; end: string }[]) =>
  terms.map((t) => [t.kind, t.levelId, t.start, t.end]);

backendTest(
  "memberships: one-time gifts at a level, renewals, upgrades, downgrades, grace and lapse",
  async (t, open) => {
    const store = await open();
    const w = world(store);

    await t.step(
      "a gift at a level makes a member from the payment for 12 months; recorded twice, once",
      async () => {
        const dana = await w.donor("Dana@Example.org");
        const { transaction } = await w.give(dana, at(0), { amount: 100, levelId: 2 });
        const view = await w.view("dana@example.org", at(1));
        assert.ok(view, "a membership was made");
        assert.equal(view.state, "active");
        assert.equal(view.levelId, 2);
        assert.match(view.membership.number, /^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
        assert.deepEqual(spans(view.membership.terms), [[
          "join",
          2,
          at(0).toISOString(),
          "2027-03-10T09:00:00.000Z",
        ]]);
        assert.equal(view.membership.terms[0].transactionId, transaction.id);
        assert.equal(view.membership.version, 1, "written once though completed twice");
        assert.equal(view.validUntil, "2027-03-10T09:00:00.000Z");
      },
    );

    await t.step("an other amount equal to a level's price stays a donation", async () => {
      const noa = await w.donor("noa@example.org");
      await w.give(noa, at(0), { amount: 100 });
      assert.equal(await store.memberships.get("noa@example.org"), null);
    });

    await t.step("a gift at a level whose price it is not is refused, nothing started", async () => {
      const ori = await w.donor("ori@example.org");
      await assert.rejects(
        () => w.give(ori, at(0), { amount: 120, levelId: 2 }),
        (e: Error & { errors?: { path: string }[] }) =>
          e.errors?.[0].path === "levelId" && /100, not 120/.test(e.message),
      );
      await assert.rejects(
        () => w.give(ori, at(0), { amount: 5, currency: 2, levelId: 9 }),
        /no membership level 9/,
      );
      assert.equal(await store.memberships.get("ori@example.org"), null);
    });

    await t.step(
      "an early renewal extends from the end; an upgrade at once; a downgrade at the next renewal",
      async () => {
        const dana = await w.donor("dana@example.org"); // another record of the same address
        await w.give(dana, at(300), { amount: 100, levelId: 2 });
        let m = (await store.memberships.get("dana@example.org"))!;
        assert.deepEqual(spans(m.terms).at(-1), [
          "renewal",
          2,
          "2027-03-10T09:00:00.000Z",
          "2028-03-10T09:00:00.000Z",
        ]);
        // An upgrade to level 3 at day 400, inside the renewed term: a new term from then; the term it
        // interrupts ends there.
        await w.give(dana, at(400), { amount: 50, currency: 2, levelId: 3 });
        m = (await store.memberships.get("dana@example.org"))!;
        assert.deepEqual(spans(m.terms).slice(1), [
          ["renewal", 2, "2027-03-10T09:00:00.000Z", at(400).toISOString()],
          ["upgrade", 3, at(400).toISOString(), "2028-04-14T09:00:00.000Z"],
        ]);
        assert.equal((await w.view("dana@example.org", at(401)))?.levelId, 3);
        // A downgrade to level 1: after everything already paid.
        const before = m.end;
        await w.give(dana, at(410), { amount: 20, levelId: 1 });
        m = (await store.memberships.get("dana@example.org"))!;
        assert.deepEqual(spans(m.terms).at(-1)?.slice(0, 3), ["downgrade", 1, before]);
        assert.equal((await w.view("dana@example.org", at(411)))?.levelId, 3);
        assert.equal((await w.view("dana@example.org", new Date(Date.parse(before) + DAY)))?.levelId, 1);
      },
    );

    await t.step("a kiosk sale at a level makes a member too", async () => {
      const kiosk = createSandboxProvider({
        store,
        origin: "http://localhost",
        secret: "s".repeat(40),
        terminalMode: "approve",
      });
      const ctx: PaymentsContext = {
        store,
        provider: kiosk,
        log: quiet,
        origin: "http://localhost",
        maxAmount: 100_000,
        monthlyEnabled: false,
        now: () => at(3),
      };
      const ben = await w.donor("ben@example.org");
      const sale = {
        amount: 400,
        currency: 1 as const,
        userId: ben.id,
        language: "he" as const,
        shopNumber: "12",
      };
      const result = await terminalPayment(ctx, { ...sale, levelId: 4 }, "sim-12", 5_000);
      assert.equal(result.StatusCode, "000");
      const m = await store.memberships.get("ben@example.org");
      assert.deepEqual(m && spans(m.terms), [["join", 4, at(3).toISOString(), "2027-03-13T09:00:00.000Z"]]);
    });

    await t.step(
      "grace for 30 days after the end, then lapsed; a gift after that starts anew, same number",
      async () => {
        const lea = await w.donor("lea@example.org");
        await w.give(lea, at(0), { amount: 20, levelId: 1 });
        const end = Date.parse("2027-03-10T09:00:00.000Z");
        assert.equal((await w.view("lea@example.org", new Date(end - 1)))?.state, "active");
        assert.equal((await w.view("lea@example.org", new Date(end)))?.state, "grace");
        assert.equal((await w.view("lea@example.org", new Date(end + 30 * DAY - 1)))?.state, "grace");
        assert.equal((await w.view("lea@example.org", new Date(end + 30 * DAY)))?.state, "lapsed");
        const number = (await store.memberships.get("lea@example.org"))!.number;
        const back = new Date(end + 45 * DAY);
        await w.give(lea, back, { amount: 20, levelId: 1 });
        const m = (await w.view("lea@example.org", back))!;
        assert.equal(m.state, "active");
        assert.equal(m.membership.number, number);
        assert.deepEqual(spans(m.membership.terms).at(-1)?.slice(0, 3), ["join", 1, back.toISOString()]);
      },
    );
  },
);

backendTest(
  "memberships: a monthly gift at a level, charge by charge, declined, failed and cancelled",
  async (t, open) => {
    const store = await open();
    const w = world(store);
    const rina = await w.donor("rina@example.org");
    const { payment } = await w.give(rina, at(0), { amount: 100, levelId: 2, isMonthly: true });
    const subId = `sub_${payment.id}`;

    await t.step("the first payment: a month's membership, kept by the monthly gift", async () => {
      const view = (await w.view("rina@example.org", at(1)))!;
      assert.equal(view.state, "active");
      assert.equal(view.membership.subscriptionId, subId);
      assert.deepEqual(spans(view.membership.terms), [[
        "join",
        2,
        at(0).toISOString(),
        "2026-04-10T09:00:00.000Z",
      ]]);
    });

    await t.step("each successful charge keeps it active a month more, once per charge", async () => {
      for (const [due, end] of [["2026-04-10", "2026-05-10"], ["2026-05-10", "2026-06-10"]]) {
        const when = new Date(`${due}T09:01:00.000Z`);
        assert.equal((await w.billing(when)).charged, 1);
        assert.equal((await w.billing(when)).charged, 0);
        const view = (await w.view("rina@example.org", when))!;
        assert.equal(view.state, "active");
        assert.equal(view.validUntil, `${end}T09:00:00.000Z`);
      }
      const m = (await store.memberships.get("rina@example.org"))!;
      assert.deepEqual([m.terms.length, m.terms[0].charges, m.version], [1, 3, 3]);
    });

    await t.step("a declined charge: grace while billing retries; lapsed when the retries end", async () => {
      const sub = (await store.subscriptions.get(subId))!;
      await store.sandbox.transition(
        sub.token,
        "active",
        "active",
        { declineCode: "004" },
        new Date().toISOString(),
      );
      let when = new Date("2026-06-10T09:01:00.000Z");
      for (const days of [1, 3, 7]) {
        assert.equal((await w.billing(when)).failed, 1);
        assert.equal((await w.view("rina@example.org", when))?.state, "grace");
        when = new Date(when.getTime() + days * DAY);
      }
      // Eleven days on, still in grace (past 7 of the 30 days would not matter: billing decides).
      assert.equal((await w.view("rina@example.org", new Date(when.getTime() - 1)))?.state, "grace");
      assert.equal((await w.billing(when)).failed, 1);
      assert.equal((await store.subscriptions.get(subId))?.status, "failed");
      assert.equal((await w.view("rina@example.org", when))?.state, "lapsed");
      assert.equal((await store.memberships.get("rina@example.org"))?.end, "2026-06-10T09:00:00.000Z");
    });

    await t.step("a cancelled monthly gift's membership lasts to the end of its paid period", async () => {
      const avi = await w.donor("avi@example.org");
      await w.give(avi, at(0), { amount: 25, currency: 2, levelId: 2, isMonthly: true });
      assert.equal(await store.subscriptions.cancelForDonor(avi.id, at(5).toISOString()), 1);
      assert.equal((await w.view("avi@example.org", at(20)))?.state, "active");
      assert.equal((await w.view("avi@example.org", new Date("2026-04-10T09:00:00.000Z")))?.state, "lapsed");
      // Nothing charged after the cancel, nothing extended.
      assert.equal((await w.billing(new Date("2026-04-10T09:01:00.000Z"))).charged, 0);
      assert.equal((await store.memberships.get("avi@example.org"))?.version, 1);
    });

    await t.step("a monthly donation not at a level makes no member, charge after charge", async () => {
      const gil = await w.donor("gil@example.org");
      await w.give(gil, at(40), { amount: 30, isMonthly: true });
      await w.billing(at(72));
      assert.equal(await store.memberships.get("gil@example.org"), null);
    });

    await t.step("erasure at the donor's request deletes the membership and its number", async () => {
      const noa = await w.donor("noa@example.org");
      await w.give(noa, at(40), { amount: 100, levelId: 2, isMonthly: true });
      const number = (await store.memberships.get("noa@example.org"))!.number;
      const report = await eraseDonorData(store, "Noa@Example.org", "erase", at(41));
      assert.equal(report.memberships, 1);
      assert.equal(await store.memberships.get("noa@example.org"), null);
      assert.equal(await store.memberships.getByNumber(number), null);
      assert.equal(await w.view("noa@example.org", at(41)), null);
      // Its gift was cancelled first: no charge brings the membership back.
      assert.equal((await w.billing(at(72))).charged, 0);
      assert.equal(await store.memberships.get("noa@example.org"), null);
    });
  },
);

backendTest(
  "memberships: the API's levelId and the no-JavaScript form's tier make members",
  async (t, open) => {
    const app = await startTestApp({ store: await open() });
    try {
      await t.step(
        "POST /api/payment/create with a levelId: paid, returned and notified, one term",
        async () => {
          const userId = await newDonor(app, "Maya");
          const created = await createPayment(app, { amount: 50, currency: "dollars", userId, levelId: 3 });
          assert.equal(created.status, 200, JSON.stringify(created.body));
          const landed = await payOnSandboxPage(app, created.body.url);
          assert.equal(landed.pathname, "/en/success");
          const m = await app.store.memberships.get("maya@example.org");
          assert.equal(m?.terms.length, 1);
          assert.equal(m?.terms[0].levelId, 3);
          // The return again (a reload): nothing more.
          const [tx] = (await app.store.transactions.listSuccess({ page: 1, limit: 1 })).data;
          const paid = await app.store.payments.getByProviderRef("sandbox", tx.providerTransactionId!);
          assert.equal(paid?.levelId, 3);
          await followReturn(app, `${app.url}/payments/return/${paid!.id}`);
          assert.equal((await app.store.memberships.get("maya@example.org"))?.version, 1);
        },
      );

      await t.step("a wrong price for the level: 400 naming levelId, in words", async () => {
        const userId = await newDonor(app, "Tal");
        const wrong = await createPayment(app, { amount: 60, currency: "dollars", userId, levelId: 3 });
        assert.equal(wrong.status, 400);
        assert.equal(wrong.body.errors[0].path, "levelId");
        assert.match(wrong.body.message, /price of membership level 3 in dollars is 50, not 60/);
      });

      await t.step("the form without JavaScript: a tier is a gift at its level", async () => {
        const res = await fetch(`${app.url}/en/`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: app.url },
          body: new URLSearchParams({
            period: "one-time",
            choice: "tier-1",
            firstName: "Yael",
            lastName: "Cohen",
            email: "yael@example.org",
            country: "Israel",
          }),
        });
        assert.equal(res.status, 200);
        const frame = (await res.text()).match(/<iframe[^>]+src="([^"]+)"/)?.[1];
        assert.ok(frame, "the payment frame is shown");
        await payOnSandboxPage(app, frame.replaceAll("&amp;", "&"));
        const m = await app.store.memberships.get("yael@example.org");
        assert.equal(m?.terms[0].levelId, 1);
      });
    } finally {
      await app.close();
    }
  },
);
