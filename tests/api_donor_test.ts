/**
 * The back office's donor API on both backends (issue 15): `GET /api/donor?email` shows every gift
 * of every donor record of one address (and nobody else's), the lifetime total per currency of the
 * successful gifts, the first and last gift and each monthly gift's state; `GET
 * /api/donor/cancel-reasons` counts the cancellations per reason made through the donor's own
 * cancel (`cancelGift`). Approved admins only; a bad address is a 400, an unknown one a 404.
 */
import assert from "node:assert/strict";
import { translator } from "@/lib/core/i18n.ts";
import { cancelGift } from "@/lib/monthly_gifts/subscription_changes.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { days, NOW, seedDonorView } from "@/tests/helpers/donor_view.ts";
import { donorFixture, subscriptionFixture, uid } from "@/tests/storage/fixtures.ts";

const DONOR = "/api/donor";
const REASONS = "/api/donor/cancel-reasons";

backendTest("api: the back office donor view and the cancel reasons", async (t, open) => {
  const app = await startTestApp({ store: await open() });
  try {
    const store = app.store;
    const data = await seedDonorView(store);
    const ctx = { store, maxAmount: 100_000, now: () => NOW };

    const admin = await api(app.url, "POST", "/api/auth/admin/register", {
      email: "curator@museum.org",
      password: "a-long-museum-passphrase",
    });
    const pending = await api(app.url, "POST", "/api/auth/admin/register", {
      email: "guide@museum.org",
      password: "a-long-museum-passphrase",
    });
    const auth = bearer(admin.body.accessToken);
    const get = (path: string, headers: Record<string, string> = auth) =>
      api(app.url, "GET", path, undefined, headers);

    await t.step("without a token 401, for a pending admin 403", async () => {
      for (const path of [`${DONOR}?email=ada.levi@example.org`, REASONS]) {
        assert.equal((await get(path, {})).status, 401, path);
        const waiting = await get(path, bearer(pending.body.accessToken));
        assert.equal(waiting.status, 403, path);
        assert.match(waiting.body.message, /waiting for approval/);
      }
    });

    await t.step(
      "a missing or malformed address is a 400 naming the field; an unknown one a 404",
      async () => {
        for (const query of ["", "?email=", "?email=not-an-address", `?email=${"a".repeat(300)}@x.org`]) {
          const res = await get(`${DONOR}${query}`);
          assert.equal(res.status, 400, query);
          assert.equal(res.body.statusCode, 400);
          assert.equal(res.body.errors[0].path, "email", query);
        }
        const twice = await get(`${DONOR}?email=a@x.org&email=b@x.org`);
        assert.equal(twice.status, 400);
        const unknown = await get(`${DONOR}?email=nobody@example.org`);
        assert.equal(unknown.status, 404);
        assert.equal(unknown.body.message, "No donor with this email address");
      },
    );

    await t.step("every gift of the address's donor records, newest first, and no one else's", async () => {
      const res = await get(`${DONOR}?email=${encodeURIComponent(" Ada.Levi@Example.ORG ")}`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("cache-control"), "no-store");
      const view = res.body;
      assert.equal(view.email, "ada.levi@example.org");
      assert.deepEqual(
        view.donors.map((d: { lastName: string; country: string }) => [d.lastName, d.country]),
        [
          ["Levi", "Israel"],
          ["Levi-Cohen", "United States"],
        ],
      );
      const mine = data.txs.slice(0, 6).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      assert.deepEqual(view.gifts.map((g: { id: string }) => g.id), mine.map((tx) => tx.id));
      const failed = view.gifts.find((g: { status: string }) => g.status === "failed");
      assert.deepEqual(
        [failed.statusCode, failed.errorMessage, failed.card, failed.receiptNumber],
        ["033", "Declined", null, null],
      );
      // The catalogue's text for the code (English by default), the successes none (issue 26).
      assert.equal(failed.statusText, translator("en")("transactionError.errors.033"));
      assert.ok(
        view.gifts.every((g: { status: string; statusText: string | null }) =>
          (g.status === "success") === (g.statusText === null)
        ),
      );
      const he = (await get(`${DONOR}?email=ada.levi@example.org&lang=he`)).body;
      const heFailed = he.gifts.find((g: { status: string }) => g.status === "failed");
      assert.equal(heFailed.statusText, translator("he")("transactionError.errors.033"));
      assert.match(heFailed.statusText, /[\u05D0-\u05EA]/);
      assert.equal(heFailed.errorMessage, "Declined", "the provider's own message, unchanged");
      assert.equal((await get(`${DONOR}?email=ada.levi@example.org&lang=xx`)).status, 400);
      assert.ok(view.gifts.every((g: { refunded: number }) => g.refunded === 0), "nothing refunded yet");
      assert.equal(view.gifts[0].card, null);
      assert.equal(view.gifts[1].card, "458045******4580");
      assert.equal(view.complete, true);
      // Never a donor id or a card token.
      const text = JSON.stringify(view);
      for (const secret of [data.first.id, data.second.id, data.active.token, data.paused.token]) {
        assert.ok(!text.includes(secret), "no donor id or card token");
      }
    });

    await t.step("totals per currency count successes only; first and last gift", async () => {
      const view = (await get(`${DONOR}?email=ada.levi@example.org`)).body;
      assert.deepEqual(view.totals, [
        { currency: 1, amount: 12_500, count: 2 },
        { currency: 2, amount: 12_550, count: 2 },
      ]);
      assert.equal(view.firstGift, "2024-01-05T10:01:00.000Z");
      assert.equal(view.lastGift, "2026-01-01T10:01:00.000Z");
    });

    await t.step("each monthly gift with its state: going on first, by next charge; then ended", async () => {
      const view = (await get(`${DONOR}?email=ada.levi@example.org`)).body;
      const rows = view.monthly.map((m: Record<string, unknown>) => [
        m.state,
        m.amount,
        m.nextCharge,
        m.failedAttempts,
        m.retryAt,
        m.cancelReason,
      ]);
      const storedPause = (await store.subscriptions.get(data.paused.id))!;
      assert.equal(storedPause.pausedFrom, days(20), "paused from its next charge, for two months");
      assert.ok(
        storedPause.nextPaymentDate > days(40),
        `resumes two periods later: ${storedPause.nextPaymentDate}`,
      );
      assert.deepEqual(rows, [
        ["failing", 1_800, days(-9), 1, days(1), null],
        ["active", 2_500, days(26), 0, null, null],
        ["paused", 5_000, storedPause.nextPaymentDate, 0, null, null],
        ["cancelled", 3_000, null, 0, null, "moved-away"],
        ["failed", 900, null, 0, null, null],
      ]);
      assert.equal(view.monthly[3].cancelledAt, NOW.toISOString());
    });

    await t.step(
      "the cancel reasons: each reason counted, 0 when none; no reason counts nothing",
      async () => {
        const before = await get(REASONS);
        assert.equal(before.status, 200);
        assert.deepEqual(before.body, {
          reasons: [
            { reason: "too-expensive", count: 0 },
            { reason: "financial-change", count: 0 },
            { reason: "prefer-one-time", count: 0 },
            { reason: "moved-away", count: 1 },
            { reason: "unhappy", count: 0 },
            { reason: "other", count: 0 },
          ],
          total: 1,
        });
        // More donors cancel: with reasons, twice the same (idempotent), and without one.
        for (const reason of ["too-expensive", "too-expensive", "other", null]) {
          const donor = await store.donors.create(donorFixture({ email: `${uid("d").toLowerCase()}@x.org` }));
          const sub = await store.subscriptions.create(subscriptionFixture({ donorId: donor.id }));
          const ref = { subscriptionId: sub.id, email: donor.email };
          await cancelGift(ctx, ref, reason);
          await cancelGift(ctx, ref, reason);
        }
        await store.subscriptions.cancelForDonor(data.first.id, NOW.toISOString());
        const after = (await get(REASONS)).body;
        const counts = Object.fromEntries(
          after.reasons.map((r: { reason: string; count: number }) => [r.reason, r.count]),
        );
        assert.deepEqual(counts, {
          "too-expensive": 2,
          "financial-change": 0,
          "prefer-one-time": 0,
          "moved-away": 1,
          unhappy: 0,
          other: 1,
        });
        assert.equal(after.total, 4);
      },
    );
  } finally {
    await app.close();
  }
});
