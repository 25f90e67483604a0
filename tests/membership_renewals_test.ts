/**
 * Renewals (issue 27, item 5) on a clock the test sets, on both backends, with two instances
 * running the renewal pass over the same data: each reminder (30, 7 and 0 days before the end)
 * enqueued exactly once; none for a member who renewed meanwhile (and a reminder queued before the
 * renewal is skipped when sent); none for a member a monthly gift keeps; the lapse email when the
 * grace period ends and the win-back email 30 days later, each once. Then the emails as sent (en,
 * he right to left) carry a renewal link that opens the donation page prefilled, with and without
 * a valid token.
 */
import assert from "node:assert/strict";
import { createLogger } from "@/lib/core/log.ts";
import { newId } from "@/lib/core/ids.ts";
import { manageLinkKey } from "@/lib/donor_portal/manage_link.ts";
import { signInKey } from "@/lib/donor_portal/sign_in.ts";
import {
  addMonths,
  createRenewalToken,
  readMemberships,
  renewalKey,
  runRenewalPass,
} from "@/lib/memberships/mod.ts";
import { createRenderer } from "@/lib/outbox/templates/mod.ts";
import type { Membership, MembershipTerm, OutboxMessage, Store } from "@/lib/storage/types.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { twoInstances } from "@/tests/helpers/stores.ts";

const DAY = 86_400_000;
const END = "2027-03-10T09:00:00.000Z";
const before = (days: number, hours = 0) => new Date(Date.parse(END) - days * DAY + hours * 3_600_000);
const quiet = createLogger(() => {});
const SECRET = "renewals-test-secret-0123456789abcdefghij";

let members = 0;

async function member(store: Store, email: string, end = END, over: Partial<MembershipTerm> = {}) {
  const donor = await store.donors.create({
    id: newId(),
    firstName: "Dana",
    lastName: "Levi",
    email,
    country: "Israel",
    createdAt: "2026-03-10T09:00:00.000Z",
    paymentDate: null,
    nextPaymentDate: null,
    monthlyPaymentAvailable: false,
    israeliId: null,
  });
  const term: MembershipTerm = {
    levelId: 2,
    start: addMonths(end, -12),
    end,
    kind: "join",
    transactionId: newId(),
    subscriptionId: null,
    amount: 10000,
    currency: 1,
    charges: 1,
    ...over,
  };
  await store.memberships.change({
    email,
    apply: () => ({
      number: `TEST-${String(++members).padStart(4, "0")}`,
      donorId: donor.id,
      subscriptionId: term.subscriptionId,
      terms: [term],
    }),
  }, term.start);
  return donor;
}

async function renewalMessages(store: Store): Promise<OutboxMessage[]> {
  const all = await store.outbox.listRecent(500);
  return all.filter((m) => m.kind.startsWith("membership-")).sort((a, b) => a.key.localeCompare(b.key));
}

/** Both instances run the pass at `when`, at the same time. */
function bothRun(stores: [Store, Store], when: Date) {
  return Promise.all(
    stores.map((store, i) => runRenewalPass({ store, log: quiet, holder: `instance-${i}`, now: () => when })),
  );
}

for (const backend of ["kv", "postgres"] as const) {
  Deno.test(`renewal reminders, lapse and win-back: each once across two instances [${backend}]`, async (t) => {
    const { stores, dispose } = await twoInstances(backend);
    const [a] = stores;
    try {
      const dana = await member(a, "dana@example.org");
      const noa = await member(a, "noa@example.org");
      const monthly = await member(a, "ori@example.org", END, { subscriptionId: "sub_ori" });
      await a.subscriptions.create({
        id: "sub_ori",
        donorId: monthly.id,
        amount: 10000,
        currency: 1,
        provider: "sandbox",
        token: "tok_ori",
        cardMasked: null,
        status: "active",
        language: "he",
        createdAt: "2026-03-10T09:00:00.000Z",
        paymentDate: null,
        nextPaymentDate: END,
        failedAttempts: 0,
        retryAt: null,
        cancelledAt: null,
      });

      await t.step("nothing 31 days before the end", async () => {
        await bothRun(stores, before(31));
        assert.deepEqual(await renewalMessages(a), []);
      });

      await t.step("the 30-day reminder once, whatever runs it and how often", async () => {
        await bothRun(stores, before(30, -1));
        await bothRun(stores, before(29));
        const messages = await renewalMessages(a);
        assert.deepEqual(messages.map((m) => [m.kind, m.to]), [
          ["membership-reminder", { donorId: dana.id }],
          ["membership-reminder", { donorId: noa.id }],
        ]);
        assert.deepEqual(messages[0].data, { email: "dana@example.org", end: END, days: 30 });
      });

      await t.step("a member who renewed gets no more, and the queued one is skipped", async () => {
        const renewed = (m: Membership | null) => ({
          number: m!.number,
          donorId: m!.donorId,
          subscriptionId: null,
          terms: [...m!.terms, {
            ...m!.terms[0],
            kind: "renewal" as const,
            start: END,
            end: addMonths(END, 12),
          }],
        });
        await a.memberships.change({ email: "noa@example.org", apply: renewed }, before(20).toISOString());
        await bothRun(stores, before(7, -1));
        await bothRun(stores, before(0, -1));
        const reminders = (await renewalMessages(a)).map((m) =>
          `${m.data && "days" in m.data ? m.data.days : ""} ${
            m.to && "donorId" in m.to && m.to.donorId === dana.id ? "dana" : "noa"
          }`
        );
        assert.deepEqual(reminders.sort(), ["0 dana", "30 dana", "30 noa", "7 dana"]);
        const render = createRenderer({
          store: a,
          publicUrl: "https://donate.example",
          manageKey: await manageLinkKey(SECRET),
          signInKey: await signInKey(SECRET),
          renewalKey: await renewalKey(SECRET),
          receiptAttachment: () => Promise.resolve(null),
          now: () => before(0),
        });
        const noas = (await renewalMessages(a)).find((m) => "donorId" in m.to && m.to.donorId === noa.id)!;
        assert.equal(await render(noas), null, "renewed meanwhile: nothing to send");
        const danas = (await renewalMessages(a)).find((m) => "donorId" in m.to && m.to.donorId === dana.id)!;
        const email = await render(danas);
        assert.ok(email);
        assert.match(email.text, /\/en\/\?renew=/);
      });

      await t.step("the lapse email when grace ends, the win-back 30 days later, each once", async () => {
        const lapse = new Date(Date.parse(END) + 30 * DAY + 3_600_000);
        await bothRun(stores, new Date(Date.parse(END) + 29 * DAY));
        assert.equal((await renewalMessages(a)).filter((m) => m.kind === "membership-lapsed").length, 0);
        await bothRun(stores, lapse);
        await bothRun(stores, new Date(lapse.getTime() + DAY));
        const lapsed = (await renewalMessages(a)).filter((m) => m.kind === "membership-lapsed");
        assert.deepEqual(lapsed.map((m) => m.to), [{ donorId: dana.id }]);
        await bothRun(stores, new Date(lapse.getTime() + 29 * DAY));
        assert.equal((await renewalMessages(a)).filter((m) => m.kind === "membership-winback").length, 0);
        await bothRun(stores, new Date(lapse.getTime() + 30 * DAY));
        await bothRun(stores, new Date(lapse.getTime() + 31 * DAY));
        const winback = (await renewalMessages(a)).filter((m) => m.kind === "membership-winback");
        assert.deepEqual(winback.map((m) => m.to), [{ donorId: dana.id }]);
        // Erased at the member's request before it went out: nothing to send.
        const render = createRenderer({
          store: a,
          publicUrl: "https://donate.example",
          manageKey: await manageLinkKey(SECRET),
          signInKey: await signInKey(SECRET),
          receiptAttachment: () => Promise.resolve(null),
        });
        assert.ok(await render(winback[0]), "sent while the membership is there");
        await a.memberships.erase("dana@example.org");
        assert.equal(await render(winback[0]), null);
      });

      await t.step("a member a monthly gift keeps gets none of them", async () => {
        const ori = (await renewalMessages(a)).filter((m) =>
          "donorId" in m.to && m.to.donorId === monthly.id
        );
        assert.deepEqual(ori, []);
      });
    } finally {
      await dispose();
    }
  });
}

Deno.test("the renewal link opens the donation page at the member's level, prefilled; a bad one says so", async () => {
  const app = await startTestApp();
  try {
    await member(app.store, "dana@example.org", addMonths(new Date().toISOString(), 1));
    const key = await renewalKey(app.config.appSecret);
    const token = await createRenewalToken(key, { email: "dana@example.org", levelId: 2 });
    for (const lang of ["en", "he"]) {
      const res = await fetch(`${app.url}/${lang}/?renew=${encodeURIComponent(token)}`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("cache-control"), "no-store");
      const html = await res.text();
      assert.match(html, /name="firstName"[^>]*value="Dana"|value="Dana"[^>]*name="firstName"/);
      assert.match(html, /value="dana@example.org"/);
      assert.match(html, /value="Israel"/);
      assert.match(html, /value="tier-2"[^>]*checked|checked[^>]*value="tier-2"/);
    }
    const bad = await (await fetch(`${app.url}/en/?renew=r1.nonsense`)).text();
    assert.match(bad, /renewal link/i);
    assert.doesNotMatch(bad, /value="dana@example.org"/);
    const expired = await createRenewalToken(key, { email: "dana@example.org", levelId: 2 }, new Date(0));
    const old = await (await fetch(`${app.url}/en/?renew=${encodeURIComponent(expired)}`)).text();
    assert.match(old, /renewal link/i);
    assert.doesNotMatch(old, /value="dana@example.org"/);
    const level = await (await fetch(`${app.url}/he/?level=3`)).text();
    assert.match(level, /value="tier-3"[^>]*checked|checked[^>]*value="tier-3"/);
  } finally {
    await app.close();
  }
});

Deno.test("MEMBERSHIP_REMINDER_DAYS: 30, 7 and 0 unless set; a bad value stops start-up with a clear error", () => {
  assert.deepEqual(readMemberships({}).reminderDays, [30, 7, 0]);
  assert.deepEqual(readMemberships({ MEMBERSHIP_REMINDER_DAYS: " 1, 14 ,1" }).reminderDays, [14, 1]);
  assert.deepEqual(readMemberships({ MEMBERSHIP_REMINDER_DAYS: "none" }).reminderDays, []);
  for (const bad of ["30;7", "-1", "400", "1,2,3,4,5,6", "7,"]) {
    assert.throws(() => readMemberships({ MEMBERSHIP_REMINDER_DAYS: bad }), /MEMBERSHIP_REMINDER_DAYS/, bad);
  }
});
