/**
 * The membership emails (issue 27, item 3), on both backends, through the real payment code: a gift
 * at a level enqueues one `membership` message with its transaction (recorded twice, the return and
 * the notification: still one), rendered when sent as a welcome with the member card attached (a
 * PDF naming the member, the level, the number and the date); a renewal says until when the
 * membership now runs, with the card; a monthly gift's first charge is welcomed, its later charges
 * send nothing; an erased membership sends nothing.
 */
import assert from "node:assert/strict";
import { signInKey } from "@/lib/donor_portal/sign_in.ts";
import { eraseDonorData } from "@/lib/donor_portal/erasure.ts";
import { manageLinkKey } from "@/lib/donor_portal/manage_link.ts";
import { MemberCardPool } from "@/lib/memberships/card_pool.ts";
import { createRenderer } from "@/lib/outbox/templates/mod.ts";
import type { OutboxMessage, Store } from "@/lib/storage/types.ts";
import { pdfText } from "@/tests/helpers/pdf.ts";
import { at, world } from "@/tests/helpers/membership_world.ts";
import { backendTest } from "@/tests/helpers/stores.ts";

const SECRET = "membership-emails-secret-0123456789abcdef";

async function membershipMessages(store: Store): Promise<OutboxMessage[]> {
  return (await store.outbox.listRecent(100)).filter((m) => m.kind === "membership");
}

backendTest(
  "membership emails: one welcome per join, renewals, monthly charges, erasure",
  async (t, open) => {
    const store = await open();
    const w = world(store);
    const cards = new MemberCardPool({ workers: 1 });
    const render = createRenderer({
      store,
      publicUrl: "https://donate.museum.example",
      manageKey: await manageLinkKey(SECRET),
      signInKey: await signInKey(SECRET),
      now: () => at(1),
      receiptAttachment: () => Promise.resolve(null),
      memberCards: { store, appSecret: SECRET, render: cards.render },
    });
    try {
      const dana = await w.donor("dana@example.org");

      await t.step("a join, recorded twice: one message, a welcome with the card attached", async () => {
        const { transaction } = await w.give(dana, at(0), { amount: 100, levelId: 2 });
        const messages = await membershipMessages(store);
        assert.equal(messages.length, 1, "one membership message though the payment was recorded twice");
        assert.deepEqual(messages[0].data, { email: "dana@example.org", transactionId: transaction.id });
        const email = await render(messages[0]);
        assert.ok(email);
        assert.match(email.subject, /^Welcome to .*: your member card$/);
        const number = (await store.memberships.get("dana@example.org"))!.number;
        assert.match(email.text, new RegExp(`Member number: ${number}`));
        assert.match(email.text, /runs until March 10, 2027/);
        assert.equal(email.attachments.length, 1);
        assert.equal(email.attachments[0].contentType, "application/pdf");
        const text = await pdfText(email.attachments[0].content);
        for (const printed of ["Dana Levi", number, "March 10, 2027", "Member card"]) {
          assert.ok(text.includes(printed), `the card prints ${printed}: ${text}`);
        }
      });

      await t.step('a renewal: "now runs until" the new end, with the card', async () => {
        const { transaction } = await w.give(dana, at(300), { amount: 100, levelId: 2 });
        const message = (await membershipMessages(store)).find((m) =>
          (m.data as { transactionId: string }).transactionId === transaction.id
        )!;
        const email = (await render(message))!;
        assert.match(email.subject, /membership now runs until March 10, 2028$/);
        assert.equal(email.attachments.length, 1);
      });

      await t.step("a monthly gift: its first payment welcomed, its next charge sends nothing", async () => {
        const rina = await w.donor("rina@example.org");
        const ofRina = async () =>
          (await membershipMessages(store)).filter((m) =>
            (m.data as { email: string }).email === "rina@example.org"
          );
        await w.give(rina, at(0), { amount: 100, levelId: 2, isMonthly: true });
        // Sent as the outbox sends it: right away, a month before the next charge.
        const [first] = await ofRina();
        assert.match((await render(first))!.subject, /^Welcome to/);
        assert.equal((await w.billing(new Date("2026-04-10T09:01:00.000Z"))).charged, 1);
        const messages = await ofRina();
        assert.equal(messages.length, 2, "one message per transaction of the gift at a level");
        const next = messages.find((m) => m.key !== first.key)!;
        assert.equal(await render(next), null, "the charge after the first is skipped");
      });

      await t.step("an erased membership sends nothing", async () => {
        const [first] = await membershipMessages(store);
        await eraseDonorData(store, "dana@example.org", "erase", at(301));
        assert.equal(await render(first), null);
      });
    } finally {
      await cards.close();
    }
  },
);
