/**
 * Gift memberships (issue 28, item 3), through the real payment code on both backends: a giver pays
 * a level for someone else; the transaction and receipt are the giver's, the membership the
 * recipient's (by their address), the giver is told the gift is scheduled, and the recipient's
 * welcome with the card goes out on the delivery date, exactly once though two instances send; the
 * renewal reminders go to whom the giver chose; erasure of either person; the API's refusals.
 */
import assert from "node:assert/strict";
import { eraseDonorData } from "@/lib/donor_portal/erasure.ts";
import { manageLinkKey } from "@/lib/donor_portal/manage_link.ts";
import { signInKey } from "@/lib/donor_portal/sign_in.ts";
import { runRenewalPass } from "@/lib/memberships/mod.ts";
import { MemberCardPool } from "@/lib/memberships/card_pool.ts";
import { OutboxSender } from "@/lib/outbox/outbox_sender.ts";
import type { OutgoingMail } from "@/lib/outbox/smtp.ts";
import { createRenderer } from "@/lib/outbox/templates/mod.ts";
import type { OutboxMessage, Store } from "@/lib/storage/types.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { pdfText } from "@/tests/helpers/pdf.ts";
import { createPayment, newDonor } from "@/tests/helpers/payments.ts";
import { at, quiet, world } from "@/tests/helpers/membership_world.ts";
import { backendTest, twoInstances } from "@/tests/helpers/stores.ts";

const SECRET = "gift-memberships-secret-0123456789abcdef";
const GIFT = {
  name: "Noa Cohen",
  email: " Noa@Example.org ",
  deliverOn: "2026-04-01",
  message: "Happy birthday, Noa! Enjoy the museum.",
  reminders: "both" as const,
  language: "he" as const,
};

async function renderer(store: Store, cards: MemberCardPool, now: () => Date) {
  return createRenderer({
    store,
    publicUrl: "https://donate.museum.example",
    manageKey: await manageLinkKey(SECRET),
    signInKey: await signInKey(SECRET),
    now,
    receiptAttachment: () => Promise.resolve(null),
    memberCards: { store, appSecret: SECRET, render: cards.render },
  });
}

const byKind = async (store: Store, kind: string): Promise<OutboxMessage[]> =>
  (await store.outbox.listRecent(100)).filter((m) => m.kind === kind);

for (const backend of ["kv", "postgres"] as const) {
  Deno.test(`gift membership: the giver's receipt, the recipient's card on its date, once across two instances [${backend}]`, async (t) => {
    const { stores, dispose } = await twoInstances(backend);
    const [a] = stores;
    const cards = new MemberCardPool({ workers: 1 });
    let now = at(0);
    const sent: OutgoingMail[] = [];
    const senders = await Promise.all(stores.map(async (store, i) =>
      new OutboxSender({
        store,
        render: await renderer(store, cards, () => now),
        transport: { send: (mail) => Promise.resolve(void sent.push(mail)), close() {} },
        from: "museum@museum.example",
        log: quiet,
        holder: `instance-${i}`,
        now: () => now,
      })
    ));
    const sendBoth = () => Promise.all(senders.map((s) => s.runOnce()));
    try {
      const w = world(a);
      const dana = await w.donor("dana@example.org");
      const { transaction } = await w.give(dana, at(0), { amount: 100, levelId: 2, gift: GIFT });

      await t.step("the transaction is the giver's, the membership the recipient's", async () => {
        assert.equal(transaction.donorId, dana.id);
        assert.equal(transaction.user.email, "dana@example.org");
        assert.equal(await a.memberships.get("dana@example.org"), null, "the giver is not made a member");
        const noa = await a.memberships.get("noa@example.org");
        assert.ok(noa, "the recipient's membership, by the normalized address");
        assert.equal(noa.terms.length, 1);
        assert.equal(noa.terms[0].kind, "join");
        assert.equal(noa.terms[0].start, at(0).toISOString(), "the term starts at payment");
        assert.deepEqual(noa.terms[0].gift, {
          giverDonorId: dana.id,
          reminders: "both",
          deliverAt: "2026-04-01T00:00:00.000Z",
          message: GIFT.message,
        });
        const recipient = await a.donors.get(noa.donorId);
        assert.equal(`${recipient?.firstName} ${recipient?.lastName}`.trim(), "Noa Cohen");
      });

      await t.step("the delivery is queued for its date, in the recipient's language", async () => {
        const [delivery] = await byKind(a, "gift-membership-delivery");
        assert.ok(delivery, "a gift-membership-delivery message");
        assert.equal(delivery.language, "he");
        assert.equal(delivery.dueAt, "2026-04-01T00:00:00.000Z");
        assert.deepEqual(delivery.data, { email: "noa@example.org", transactionId: transaction.id });
      });

      await t.step(
        "today: the giver's receipt and 'your gift is scheduled', nothing to the recipient",
        async () => {
          await sendBoth();
          const toGiver = sent.filter((m) => m.to.includes("dana@example.org"));
          assert.equal(sent.length, toGiver.length, JSON.stringify(sent.map((m) => [m.to, m.subject])));
          const scheduled = toGiver.find((m) => /Noa Cohen/.test(m.subject));
          assert.ok(scheduled, `the giver's confirmation: ${toGiver.map((m) => m.subject)}`);
          assert.match(scheduled.text, /April 1, 2026/);
          assert.equal(scheduled.attachments.length, 0, "the card is the recipient's, not the giver's");
        },
      );

      await t.step("the day before delivery: still nothing to the recipient", async () => {
        now = new Date("2026-03-31T23:59:00.000Z");
        await sendBoth();
        assert.equal(sent.filter((m) => m.to.includes("noa@example.org")).length, 0);
      });

      await t.step("on the date: the welcome with the card, once, though both instances send", async () => {
        now = new Date("2026-04-01T00:00:01.000Z");
        await sendBoth();
        await sendBoth();
        const toNoa = sent.filter((m) => m.to.includes("noa@example.org"));
        assert.equal(toNoa.length, 1, "delivered exactly once");
        const [mail] = toNoa;
        assert.equal(mail.dir, "rtl");
        assert.equal(mail.language, "he");
        assert.ok(mail.text.includes("Happy birthday, Noa! Enjoy the museum."), mail.text);
        assert.ok(mail.text.includes("Dana Levi"), "the giver's name");
        assert.equal(mail.attachments.length, 1);
        const card = await pdfText(mail.attachments[0].content);
        assert.ok(card.includes("Noa Cohen"), `the card names the recipient: ${card}`);
      });
    } finally {
      await Promise.all(senders.map((s) => s.stop()));
      await cards.close();
      await dispose();
    }
  });
}

backendTest("gift membership: reminders go to the giver, the recipient or both", async (t, open) => {
  const store = await open();
  const w = world(store);
  const giver = await w.donor("giver@example.org");
  const reminded = async (email: string) => {
    const end = (await store.memberships.get(email))!.end;
    const when = new Date(Date.parse(end) - 30 * 86_400_000);
    await runRenewalPass({ store, log: quiet, holder: "test", now: () => when });
    return (await byKind(store, "membership-reminder"))
      .filter((m) => (m.data as { email: string }).email === email)
      .map((m) => (m.to as { donorId: string }).donorId)
      .sort();
  };
  for (
    const [reminders, email] of [["giver", "g@example.org"], ["recipient", "r@example.org"], [
      "both",
      "b@example.org",
    ]] as const
  ) {
    await t.step(reminders, async () => {
      await w.give(giver, at(0), { amount: 100, levelId: 2, gift: { ...GIFT, email, reminders } });
      const recipient = (await store.memberships.get(email))!.donorId;
      const expected =
        { giver: [giver.id], recipient: [recipient], both: [giver.id, recipient].sort() }[reminders];
      assert.deepEqual(await reminded(email), expected);
    });
  }
});

backendTest(
  "gift membership: erasing the giver removes their name; erasing the recipient, the membership",
  async (t, open) => {
    const store = await open();
    const w = world(store);
    const cards = new MemberCardPool({ workers: 1 });
    try {
      const render = await renderer(store, cards, () => new Date("2026-04-01T00:00:01.000Z"));
      const dana = await w.donor("dana@example.org");
      const { transaction } = await w.give(dana, at(0), {
        amount: 100,
        levelId: 2,
        gift: { ...GIFT, language: "en" },
      });
      const delivery = (await byKind(store, "gift-membership-delivery"))[0];

      await t.step("the giver erased: the card still goes, without the giver's name", async () => {
        await eraseDonorData(store, "dana@example.org", "erase", at(1));
        const mail = await render(delivery);
        assert.ok(mail, "the recipient still gets the gift");
        assert.ok(!mail.text.includes("Dana"), mail.text);
        assert.ok(!mail.text.includes("Happy birthday"), "the giver's words go with the giver");
        assert.equal(
          (await store.memberships.get("noa@example.org"))?.terms[0].transactionId,
          transaction.id,
        );
      });

      await t.step("the recipient erased: the membership goes, nothing is delivered", async () => {
        await eraseDonorData(store, "noa@example.org", "erase", at(2));
        assert.equal(await store.memberships.get("noa@example.org"), null);
        assert.equal(await render(delivery), null);
      });
    } finally {
      await cards.close();
    }
  },
);

backendTest(
  "gift membership: POST /api/payment/create refuses a bad gift with a clear error",
  async (t, open) => {
    const app = await startTestApp({ store: await open() });
    try {
      const userId = await newDonor(app);
      const base = { amount: 100, currency: "nis" as const, userId, levelId: 2 };
      const gift = {
        giftName: "Noa Cohen",
        giftEmail: "noa@example.org",
        giftDate: new Date().toISOString().slice(0, 10),
        giftReminders: "both",
      };
      const cases: [string, Record<string, string | number | boolean>, RegExp][] = [
        ["not at a level", { ...base, levelId: undefined as unknown as number, ...gift }, /level/],
        ["monthly", { ...base, isMonthly: true, ...gift }, /one-time/],
        ["no name", { ...base, ...gift, giftName: " " }, /giftName/],
        ["a bad address", { ...base, ...gift, giftEmail: "noa@" }, /giftEmail/],
        ["a past date", { ...base, ...gift, giftDate: "2020-01-01" }, /giftDate/],
        ["too far ahead", { ...base, ...gift, giftDate: "2099-01-01" }, /giftDate/],
        ["not a date", { ...base, ...gift, giftDate: "soon" }, /giftDate/],
        ["a long message", { ...base, ...gift, giftMessage: "x".repeat(501) }, /giftMessage/],
        ["reminders to nobody", { ...base, ...gift, giftReminders: "nobody" }, /giftReminders/],
        ["a gift field alone", { ...base, giftMessage: "hello" }, /giftEmail|giftName/],
        // The giver's card is not kept to renew someone else's membership every year.
        ["renewed automatically", { ...base, ...gift, autoRenew: true }, /autoRenew/],
      ];
      for (const [name, body, pattern] of cases) {
        await t.step(name, async () => {
          for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
          const res = await createPayment(app, body as never);
          assert.ok(res.status === 400 || res.status === 422, `${res.status} ${JSON.stringify(res.body)}`);
          assert.equal(res.body.statusCode, res.status);
          assert.match(JSON.stringify(res.body), pattern);
        });
      }
      await t.step("a good gift starts a payment", async () => {
        const res = await createPayment(app, { ...base, ...gift } as never);
        assert.equal(res.status, 200, JSON.stringify(res.body));
      });
    } finally {
      await app.close();
    }
  },
);
