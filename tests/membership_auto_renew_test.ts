/**
 * Opt-in automatic renewal of yearly memberships (issue 27, item 5), on a clock the test sets, on
 * both backends, with two instances over the same data: a gift at a level with the donor's consent
 * keeps its card token with the membership (and one without keeps nothing); the notice 7 days
 * before the end is enqueued exactly once (and the 7-day reminder is not, for that member); the
 * renewal is charged exactly once per term when both instances run the pass at once, recorded
 * with its receipt and the new term; a declined renewal leaves the membership in grace, is retried
 * like billing's and, after the last retry, auto-renewal stops; the turn-off link turns it off and
 * opens nothing else; erasure drops the kept token.
 */
import assert from "node:assert/strict";
import { createLogger } from "@/lib/core/log.ts";
import { eraseDonorData } from "@/lib/donor_portal/erasure.ts";
import {
  autoRenewOffKey,
  createAutoRenewOffToken,
  membershipState,
  runRenewalPass,
} from "@/lib/memberships/mod.ts";
import { runAutoRenewalPass } from "@/lib/monthly_gifts/auto_renewal.ts";
import { readMuseumSettings } from "@/lib/museum/mod.ts";
import { createSandboxProvider } from "@/lib/providers/sandbox/sandbox.ts";
import { ProviderError } from "@/lib/providers/mod.ts";
import type { Membership, OutboxMessage, Store } from "@/lib/storage/types.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { createPayment, newDonor, payOnSandboxPage } from "@/tests/helpers/payments.ts";
import { twoInstances } from "@/tests/helpers/stores.ts";

const DAY = 86_400_000;
const quiet = createLogger(() => {});

async function join(app: TestApp, name: string, autoRenew: boolean): Promise<Membership> {
  const userId = await newDonor(app, name);
  const { price } = (await readMuseumSettings(app.store)).levels.find((l) => l.id === 2)!;
  const created = await createPayment(
    app,
    {
      amount: price.dollars / 100,
      currency: "dollars",
      userId,
      levelId: 2,
      ...(autoRenew ? { autoRenew: true } : {}),
    } as Parameters<typeof createPayment>[1],
  );
  assert.equal(created.status, 200, JSON.stringify(created.body));
  await payOnSandboxPage(app, created.body.url);
  const donor = await app.store.donors.get(userId);
  return (await app.store.memberships.get(donor!.email))!;
}

const kinds = async (store: Store, kind: string): Promise<OutboxMessage[]> =>
  (await store.outbox.listRecent(500)).filter((m) => m.kind === kind);

for (const backend of ["kv", "postgres"] as const) {
  Deno.test(`automatic renewal: consent, notice once, charge once per term, decline to grace [${backend}]`, async (t) => {
    const { stores, dispose } = await twoInstances(backend);
    const [a] = stores;
    const app = await startTestApp({ store: a });
    const providers = stores.map((store) =>
      createSandboxProvider({ store, origin: app.url, secret: app.config.appSecret, terminalMode: "manual" })
    );
    const charge = (at: Date) =>
      Promise.all(stores.map((store, i) =>
        runAutoRenewalPass({
          store,
          provider: providers[i],
          log: quiet,
          holder: `instance-${i}`,
          now: () => at,
        })
      ));
    const remind = (at: Date) =>
      Promise.all(
        stores.map((store, i) =>
          runRenewalPass({ store, log: quiet, holder: `instance-${i}`, now: () => at })
        ),
      );
    try {
      const dana = await join(app, "Dana", true);
      const noa = await join(app, "Noa", false);

      await t.step("consent keeps the card token with the membership; no consent keeps nothing", () => {
        assert.ok(dana.autoRenew, "the consenting member's membership has auto-renewal on");
        assert.match(dana.autoRenew.token, /^tok_/);
        assert.equal(dana.autoRenew.last4, "9015");
        assert.equal(dana.autoRenew.currency, 2);
        assert.equal(noa.autoRenew, undefined);
      });

      const end = new Date(dana.end);
      await t.step("the notice 7 days before, once across two instances; no hand reminder", async () => {
        await remind(new Date(end.getTime() - 8 * DAY));
        assert.equal((await kinds(a, "membership-autorenew-notice")).length, 0);
        await remind(new Date(end.getTime() - 7 * DAY + 3_600_000));
        await remind(new Date(end.getTime() - 6 * DAY));
        const notices = await kinds(a, "membership-autorenew-notice");
        assert.deepEqual(notices.map((m) => m.to), [{ donorId: dana.donorId }]);
        const reminders = await kinds(a, "membership-reminder");
        assert.ok(reminders.every((m) => "donorId" in m.to && m.to.donorId !== dana.donorId));
        assert.ok(reminders.some((m) => "donorId" in m.to && m.to.donorId === noa.donorId));
      });

      await t.step("charged exactly once per term, two instances at once", async () => {
        await charge(new Date(end.getTime() - 60_000));
        assert.equal((await a.memberships.get(dana.email))!.end, dana.end, "nothing before the end");
        const at = new Date(end.getTime() + 60_000);
        await charge(at);
        await charge(new Date(at.getTime() + 3_600_000));
        const renewed = (await a.memberships.get(dana.email))!;
        assert.equal(renewed.terms.length, 2);
        assert.equal(renewed.terms[1].kind, "renewal");
        assert.equal(renewed.terms[1].start, dana.end);
        assert.ok(renewed.autoRenew, "still on for the next term");
        const tx = (await a.transactions.get(renewed.terms[1].transactionId))!;
        assert.equal(tx.statusCode, "000");
        assert.equal(tx.cardToken, dana.autoRenew!.token, "charged with the kept card");
        const paid = await a.transactions.listSuccess({ page: 1, limit: 50 });
        assert.equal(
          paid.data.filter((x) => x.user.email === dana.email).length,
          2,
          "the join and one renewal",
        );
        const receipts = (await kinds(a, "receipt")).filter((m) => m.key === `receipt:${tx.id}`);
        assert.equal(receipts.length, 1, "its receipt, enqueued with it");
      });

      await t.step("a decline: grace, retries after 1, 3 and 7 days, then auto-renewal stops", async () => {
        const ori = await join(app, "Ori", true);
        await a.sandbox.transition(
          ori.autoRenew!.token,
          "active",
          "active",
          { declineCode: "004" },
          "2026-01-01T00:00:00.000Z",
        );
        let at = new Date(Date.parse(ori.end) + 60_000);
        for (const [i, days] of [[1, 1], [2, 3], [3, 7]]) {
          await charge(at);
          const m = (await a.memberships.get(ori.email))!;
          assert.equal(m.end, ori.end, "not renewed");
          assert.equal(membershipState(m, at, null, 30), "grace");
          assert.equal(m.autoRenew?.failedAttempts, i);
          assert.equal(m.autoRenew?.retryAt, new Date(at.getTime() + days * DAY).toISOString());
          await charge(new Date(at.getTime() + days * DAY - 60_000));
          assert.equal(
            (await a.memberships.get(ori.email))!.autoRenew?.failedAttempts,
            i,
            "not before the retry",
          );
          at = new Date(at.getTime() + days * DAY);
        }
        await charge(at);
        const stopped = (await a.memberships.get(ori.email))!;
        assert.equal(stopped.autoRenew, undefined, "auto-renewal off, its token dropped");
        const failed = (await kinds(a, "membership-autorenew-failed"))
          .filter((m) => "donorId" in m.to && m.to.donorId === ori.donorId);
        assert.equal(failed.length, 4, "one failure email per declined attempt");
        const errors = await a.transactions.listErrors({ page: 1, limit: 50 });
        assert.equal(errors.data.filter((e) => e.user.email === ori.email).length, 4);
      });

      await t.step("an answer lost after the card was charged: looked up later, recorded once", async () => {
        const avi = await join(app, "Avi", true);
        const at = new Date(Date.parse(avi.end) + 60_000);
        // The provider charges the card, but its answer never arrives.
        const lost = {
          ...providers[0],
          chargeToken: async (request: Parameters<typeof providers[0]["chargeToken"]>[0]) => {
            await providers[0].chargeToken(request);
            throw new ProviderError("timed out", "timeout");
          },
        };
        await runAutoRenewalPass({ store: a, provider: lost, log: quiet, holder: "lost", now: () => at });
        assert.equal((await a.memberships.get(avi.email))!.end, avi.end, "unknown yet: nothing recorded");
        await charge(new Date(at.getTime() + 60_000));
        assert.equal((await a.memberships.get(avi.email))!.end, avi.end, "not charged again meanwhile");
        await charge(new Date(at.getTime() + 16 * 60_000));
        await charge(new Date(at.getTime() + 17 * 60_000));
        const renewed = (await a.memberships.get(avi.email))!;
        assert.equal(renewed.terms.length, 2, "recovered from the provider: renewed once");
        const paid = await a.transactions.listSuccess({ page: 1, limit: 100 });
        assert.equal(
          paid.data.filter((x) => x.user.email === avi.email).length,
          2,
          "the join and one renewal",
        );
      });
      await t.step(
        "the turn-off link turns it off, for that membership only, and opens nothing else",
        async () => {
          const lia = await join(app, "Lia", true);
          const key = await autoRenewOffKey(app.config.appSecret);
          const token = await createAutoRenewOffToken(key, { email: dana.email, number: dana.number });
          // Not a session, not a manage link, not a renewal link.
          const account = await fetch(`${app.url}/en/account?token=${encodeURIComponent(token)}`);
          assert.doesNotMatch(await account.text(), /dana/i);
          const page = await fetch(`${app.url}/en/membership/auto-renew?t=${encodeURIComponent(token)}`);
          assert.equal(page.status, 200);
          assert.match(await page.text(), new RegExp(dana.number));
          assert.ok((await a.memberships.get(dana.email))!.autoRenew, "opening the page changes nothing");
          const tampered = token.slice(0, -3) + (token.endsWith("A") ? "BBB" : "AAA");
          const bad = await postOff(app, tampered);
          assert.equal(bad.status, 400);
          const off = await postOff(app, token);
          assert.equal(off.status, 200);
          assert.equal((await a.memberships.get(dana.email))!.autoRenew, undefined);
          assert.ok((await a.memberships.get(lia.email))!.autoRenew, "another member's stays on");
          // Erasure at the member's request drops the kept token with the membership: nothing is charged.
          await eraseDonorData(a, lia.email, "erase");
          assert.equal(await a.memberships.get(lia.email), null);
          const before = (await a.transactions.listSuccess({ page: 1, limit: 100 })).total;
          await charge(new Date(Date.parse(lia.end) + 60_000));
          assert.equal((await a.transactions.listSuccess({ page: 1, limit: 100 })).total, before);
          const later = (await a.memberships.get(dana.email))!;
          await charge(new Date(Date.parse(later.end) + 60_000));
          assert.equal((await a.memberships.get(dana.email))!.end, later.end, "off: never charged");
        },
      );
    } finally {
      await app.close();
      await dispose();
    }
  });
}

async function postOff(app: TestApp, token: string): Promise<Response> {
  const res = await fetch(`${app.url}/en/membership/auto-renew`, {
    method: "POST",
    body: new URLSearchParams({ t: token }),
    headers: { "content-type": "application/x-www-form-urlencoded", origin: app.url },
  });
  await res.body?.cancel();
  return res;
}

Deno.test("automatic renewal without JavaScript: the form's box is the consent, for a one-time gift at a tier only", async () => {
  const app = await startTestApp();
  const post = (fields: Record<string, string>) =>
    fetch(`${app.url}/en/`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: app.url },
      body: new URLSearchParams({ firstName: "Dana", lastName: "Levi", country: "Israel", ...fields }),
    });
  const started = async (fields: Record<string, string>) => {
    const before = app.logs.filter((l) => l.msg === "payment started").length;
    const res = await post(fields);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /<iframe src="[^"]+\/sandbox\/pay\//);
    const line = app.logs.filter((l) => l.msg === "payment started")[before];
    return (await app.store.payments.get(String(line.paymentId)))!;
  };
  try {
    const ticked = await started({
      period: "one-time",
      choice: "tier-2",
      email: "a@example.org",
      autoRenew: "on",
    });
    assert.equal(ticked.autoRenew, true);
    assert.equal(ticked.levelId, 2);
    const unticked = await started({ period: "one-time", choice: "tier-2", email: "b@example.org" });
    assert.equal(unticked.autoRenew, undefined);
    const other = await started({
      choice: "other",
      otherAmount: "180",
      email: "c@example.org",
      autoRenew: "on",
    });
    assert.equal(other.autoRenew, undefined, "an other amount is a donation: nothing to renew");
    // The page opened from the portal's "turn on" link has the box ticked, at the level.
    const page = await (await fetch(`${app.url}/he/?level=2&autoRenew=1`)).text();
    assert.match(page, /name="autoRenew"[^>]*checked|checked[^>]*name="autoRenew"/);
  } finally {
    await app.close();
  }
});
