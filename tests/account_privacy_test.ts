/**
 * The donor portal's privacy (issue 15, items 2 and 4) over real HTTP, on Deno KV and PostgreSQL:
 * a year's receipts as one ZIP (only that year's, only the address's; 404 for a year without any,
 * 503 with `Retry-After` when the PDF worker is full, signed out: the sign-in form), the data export
 * (everything of the address's donor records, no ids, tokens or another donor's data), and erasure
 * (a cross-site or unconfirmed POST erases nothing; confirmed: gifts cancelled, personal fields
 * gone from donors and transactions, receipts kept, signed out on every device, queued emails skipped).
 */
import assert from "node:assert/strict";
import { unzipSync } from "fflate";
import { translator } from "@/lib/core/i18n.ts";
import { createLogger } from "@/lib/core/log.ts";
import { OutboxSender } from "@/lib/outbox/outbox_sender.ts";
import type { OutgoingMail } from "@/lib/outbox/smtp.ts";
import { ReceiptsBusyError } from "@/lib/receipts/errors.ts";
import { issueReceipt } from "@/lib/receipts/issue.ts";
import { ERASED_USER } from "@/lib/storage/records.ts";
import type { Receipt, Store, Transaction } from "@/lib/storage/types.ts";
import { formPost, mainText, signInAs as signedIn } from "@/tests/helpers/donor_portal.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { createPayment, newDonor } from "@/tests/helpers/payments.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { donorFixture, subscriptionFixture, txFixture } from "@/tests/storage/fixtures.ts";

const LEGAL = {
  RECEIPT_LEGAL_NAME: "Example Museum Association",
  RECEIPT_ADDRESS: "1 Museum Road, Jerusalem",
};
const en = translator("en");
const he = translator("he");

/** One address with two donor records, gifts over two years, receipts, a monthly gift; and a stranger. */
async function seed(app: TestApp) {
  const store = app.store;
  const suffix = crypto.randomUUID().slice(0, 8);
  const email = `tamar.${suffix}@example.org`;
  const [first, second, stranger] = [
    `pa_${suffix}_aaaaaaaaaaaa`,
    `pb_${suffix}_aaaaaaaaaaaa`,
    `px_${suffix}_a`,
  ];
  await store.donors.create(
    donorFixture({ id: first, firstName: "Tamar", lastName: "Levi", email, israeliId: "123456782" }),
  );
  await store.donors.create(donorFixture({ id: second, firstName: "Tamar", lastName: "Levi", email }));
  await store.donors.create(donorFixture({ id: stranger, email: `other.${suffix}@example.org` }));
  const user = { firstName: "Tamar", lastName: "Levi", email };
  const gifts = {
    old: txFixture({ donorId: first, user, amount: 5_000, createdAt: "2025-06-01T08:00:00.000Z" }),
    one: txFixture({ donorId: first, user, amount: 18_050, createdAt: "2026-03-01T08:00:00.000Z" }),
    monthly: txFixture({
      donorId: second,
      user,
      isMonthly: true,
      amount: 2_500,
      createdAt: "2026-04-01T08:00:00.000Z",
    }),
    declined: txFixture({ donorId: second, user, kind: "error", createdAt: "2026-04-02T08:00:00.000Z" }),
    strangers: txFixture({ donorId: stranger, amount: 77_700, createdAt: "2026-04-03T08:00:00.000Z" }),
  };
  for (const tx of Object.values(gifts)) {
    // The one-time gift's receipt email waits in the outbox (its sender is not running here).
    const messages = tx === gifts.one
      ? [{
        key: `receipt:${tx.id}`,
        kind: "receipt" as const,
        to: { donorId: first },
        language: "en",
        data: { transactionId: tx.id },
      }]
      : [];
    await store.transactions.record(tx, { messages });
  }
  const issue = (tx: Transaction, name: string, now: string) =>
    issueReceipt(store, app.config.receipts, {
      transaction: tx,
      donorName: name,
      donorTaxId: null,
      now: new Date(now),
    });
  const receipts: Record<string, Receipt> = {
    old: await issue(gifts.old, "Tamar Levi", "2025-06-01T09:00:00.000Z"),
    one: await issue(gifts.one, "Tamar Levi", "2026-03-01T09:00:00.000Z"),
    monthly: await issue(gifts.monthly, "Tamar Levi", "2026-04-01T09:00:00.000Z"),
    strangers: await issue(gifts.strangers, "Someone Else", "2026-04-03T09:00:00.000Z"),
  };
  const subscription = await store.subscriptions.create(
    subscriptionFixture({
      donorId: second,
      token: `tok_${suffix}_secret`,
      nextPaymentDate: "2026-05-01T08:00:00.000Z",
    }),
  );
  return {
    email,
    first,
    second,
    stranger,
    gifts,
    receipts,
    subscription,
    cookie: await signedIn(app, first),
  };
}

const get = (app: TestApp, path: string, cookie?: string) =>
  fetch(app.url + path, { redirect: "manual", headers: cookie ? { cookie } : {} });

backendTest("donor portal: a year's receipts at once, as one ZIP", async (t, open) => {
  const store = await open();
  const app = await startTestApp({ store, env: LEGAL });
  try {
    const s = await seed(app);

    for (const [lang, tr] of [["en", en], ["he", he]] as const) {
      await t.step(`${lang}: the account page links each year with receipts`, async () => {
        const page = await (await get(app, `/${lang}/account`, s.cookie)).text();
        const years = [...page.matchAll(/href="\/\w\w\/account\/receipts\/(\d{4})"/g)].map((m) => m[1]);
        assert.deepEqual(years, ["2026", "2025"]);
        assert.ok(mainText(page).includes(tr("portalPrivacy.receiptsOfYear", { year: 2026 })));
      });
    }

    await t.step("a year's ZIP holds that year's receipts of the address, each a PDF", async () => {
      const res = await get(app, "/he/account/receipts/2026", s.cookie);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "application/zip");
      assert.equal(res.headers.get("content-disposition"), 'attachment; filename="receipts-2026.zip"');
      assert.equal(res.headers.get("cache-control"), "no-store");
      const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
      assert.deepEqual(
        Object.keys(files).sort(),
        [s.receipts.one, s.receipts.monthly].map((r) => `receipt-${r.number}.pdf`).sort(),
        "2026's two receipts; not 2025's, not the stranger's",
      );
      for (const pdf of Object.values(files)) {
        assert.equal(new TextDecoder().decode(pdf.slice(0, 5)), "%PDF-");
      }
      const old = unzipSync(
        new Uint8Array(await (await get(app, "/en/account/receipts/2025", s.cookie)).arrayBuffer()),
      );
      assert.deepEqual(Object.keys(old), [`receipt-${s.receipts.old.number}.pdf`]);
    });

    await t.step("a year without receipts, or no year: a translated 404", async () => {
      for (const year of ["2024", "20x6", "1066"]) {
        const res = await get(app, `/he/account/receipts/${year}`, s.cookie);
        assert.equal(res.status, 404, year);
        const text = mainText(await res.text());
        assert.ok(text.includes(he("portalPrivacy.problem.noReceipts", { year })), text);
      }
    });

    await t.step("the PDF worker's queue full: 503 with Retry-After, translated", async () => {
      const render = app.services.receiptPdfs.render;
      app.services.receiptPdfs.render = () => Promise.reject(new ReceiptsBusyError(7));
      try {
        const res = await get(app, "/en/account/receipts/2026", s.cookie);
        assert.equal(res.status, 503);
        assert.equal(res.headers.get("retry-after"), "7");
        assert.ok(mainText(await res.text()).includes(en("portalPrivacy.problem.busy")));
      } finally {
        app.services.receiptPdfs.render = render;
      }
    });

    await t.step(
      "one ZIP at a time per session: a second while the first is drawn, a translated 409",
      async () => {
        const render = app.services.receiptPdfs.render;
        let release!: () => void;
        const held = new Promise<void>((resolve) => release = resolve);
        let drawing!: () => void;
        const started = new Promise<void>((resolve) => drawing = resolve);
        app.services.receiptPdfs.render = async (...args) => {
          drawing();
          await held;
          return await render(...args);
        };
        try {
          const first = get(app, "/en/account/receipts/2026", s.cookie);
          await started;
          for (const [lang, tr] of [["en", en], ["he", he]] as const) {
            const second = await get(app, `/${lang}/account/receipts/2025`, s.cookie);
            assert.equal(second.status, 409, lang);
            assert.equal(second.headers.get("cache-control"), "no-store");
            const text = mainText(await second.text());
            assert.ok(text.includes(tr("portalPrivacy.problem.inProgress")), `${lang}: ${text}`);
          }
          release();
          const done = await first;
          assert.equal(done.status, 200);
          await done.body?.cancel();
          const again = await get(app, "/en/account/receipts/2025", s.cookie);
          assert.equal(again.status, 200, "the next one, once the first is done");
          await again.body?.cancel();
        } finally {
          release();
          app.services.receiptPdfs.render = render;
        }
      },
    );

    await t.step("ZIPs are rate-limited per session: a translated 429 with Retry-After", async () => {
      let refused: Response | null = null;
      for (let i = 0; i < 50 && !refused; i++) {
        const res = await get(app, "/he/account/receipts/2025", s.cookie);
        if (res.status === 429) refused = res;
        else {
          assert.equal(res.status, 200);
          await res.body?.cancel();
        }
      }
      assert.ok(refused, "a loop of ZIP downloads is refused at some point");
      const retryAfter = Number(refused.headers.get("retry-after"));
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After ${retryAfter}`);
      const minutes = Math.max(1, Math.ceil(retryAfter / 60));
      const text = mainText(await refused.text());
      assert.ok(text.includes(he("portalPrivacy.problem.limited", { minutes })), text);
    });

    await t.step("signed out: back to the sign-in form", async () => {
      const res = await get(app, "/en/account/receipts/2026");
      await res.body?.cancel();
      assert.equal(res.status, 303);
      assert.equal(res.headers.get("location"), "/en/account");
    });
  } finally {
    await app.close();
  }
});

backendTest("donor portal: the data export is the address's data, and nothing secret", async (t, open) => {
  const store = await open();
  const app = await startTestApp({ store, env: LEGAL });
  try {
    const s = await seed(app);
    const res = await get(app, "/he/account/data", s.cookie);
    const body = await res.text();
    const data = JSON.parse(body);

    await t.step("a JSON attachment, never cached", () => {
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
      assert.match(
        res.headers.get("content-disposition") ?? "",
        /^attachment; filename="my-donor-data-\d{4}-\d\d-\d\d\.json"$/,
      );
      assert.equal(res.headers.get("cache-control"), "no-store");
    });

    await t.step("every donor record, gift, monthly gift, receipt and email of the address", () => {
      assert.equal(data.email, s.email);
      assert.equal(data.donorRecords.length, 2);
      assert.deepEqual(data.donorRecords.map((d: { israeliId: string | null }) => d.israeliId).sort(), [
        "******782",
        null,
      ]);
      assert.deepEqual(
        data.gifts.map((
          g: { date: string; amount: number | null; status: string },
        ) => [g.date, g.amount, g.status]),
        [
          [s.gifts.declined.createdAt, null, "failed"],
          [s.gifts.monthly.createdAt, 2_500, "success"],
          [s.gifts.one.createdAt, 18_050, "success"],
          [s.gifts.old.createdAt, 5_000, "success"],
        ],
      );
      assert.equal(data.gifts[2].receiptNumber, s.receipts.one.number);
      assert.equal(data.gifts[2].cardLast4, "4580");
      assert.deepEqual(
        data.receipts.map((r: { number: string }) => r.number).sort(),
        [s.receipts.old, s.receipts.one, s.receipts.monthly].map((r) => r.number).sort(),
      );
      assert.equal(data.monthlyGifts.length, 1);
      assert.equal(data.monthlyGifts[0].status, "active");
      assert.equal(data.monthlyGifts[0].nextCharge, "2026-05-01T08:00:00.000Z");
      assert.deepEqual(data.emails.map((m: { kind: string; state: string }) => [m.kind, m.state]), [
        ["receipt", "queued"],
      ]);
    });

    await t.step("no ids, tokens, full ID number, or another donor's data", async () => {
      const session = s.cookie.split("=")[1];
      for (
        const secret of [
          s.first,
          s.second,
          s.stranger,
          s.subscription.token,
          s.subscription.id,
          session,
          "123456782",
          s.gifts.one.id,
          s.gifts.strangers.id,
          s.receipts.strangers.number,
          "77700",
          "Someone Else",
        ]
      ) {
        assert.ok(!body.includes(secret), `the export holds ${secret}`);
      }
      const res = await get(app, "/en/account/data");
      await res.body?.cancel();
      assert.equal(res.status, 303, "signed out");
      assert.equal(res.headers.get("location"), "/en/account");
    });
  } finally {
    await app.close();
  }
});

/** A transport that keeps what it is given. */
function capture() {
  const sent: OutgoingMail[] = [];
  return {
    sent,
    transport: { send: (mail: OutgoingMail) => Promise.resolve(void sent.push(mail)), close() {} },
  };
}

/** What is left of the address's personal data in storage. */
async function left(store: Store, s: Awaited<ReturnType<typeof seed>>) {
  return {
    ids: await store.donors.idsByEmail(s.email, 10),
    first: await store.donors.get(s.first),
    second: await store.donors.get(s.second),
    subscription: await store.subscriptions.get(s.subscription.id),
  };
}

backendTest("donor portal: erasure at the donor's request", async (t, open) => {
  const store = await open();
  const app = await startTestApp({ store, env: LEGAL });
  try {
    const s = await seed(app);

    await t.step("the confirmation page, in Hebrew, with the form", async () => {
      const res = await get(app, "/he/account/erase", s.cookie);
      const page = await res.text();
      assert.equal(res.status, 200);
      assert.ok(mainText(page).includes(he("portalPrivacy.erase.confirmLabel")));
      assert.match(page, /<form method="post" action="\/he\/account\/erase">/);
    });

    await t.step("a cross-site POST and an unticked box erase nothing", async () => {
      const crossSite = await fetch(`${app.url}/en/account/erase`, {
        ...formPost(app, { confirm: "erase" }, s.cookie),
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: "https://evil.example",
          cookie: s.cookie,
        },
      });
      await crossSite.body?.cancel();
      assert.equal(crossSite.status, 403);
      const unticked = await fetch(`${app.url}/he/account/erase`, formPost(app, {}, s.cookie));
      assert.equal(unticked.status, 400);
      assert.ok(mainText(await unticked.text()).includes(he("portalPrivacy.erase.confirmRequired")));
      const wrong = await fetch(`${app.url}/en/account/erase`, formPost(app, { confirm: "yes" }, s.cookie));
      await wrong.body?.cancel();
      assert.equal(wrong.status, 400);
      const now = await left(store, s);
      assert.equal(now.ids.length, 2);
      assert.equal(now.subscription?.status, "active");
    });

    await t.step("confirmed: gifts cancelled, personal data gone, receipts kept, signed out", async () => {
      const otherDevice = await signedIn(app, s.second); // the same address, signed in elsewhere
      const res = await fetch(`${app.url}/en/account/erase`, formPost(app, { confirm: "erase" }, s.cookie));
      await res.body?.cancel();
      assert.equal(res.status, 303);
      assert.equal(res.headers.get("location"), "/en/account/erase?done");
      assert.match(
        res.headers.get("set-cookie") ?? "",
        /^donor_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax/,
      );
      const now = await left(store, s);
      assert.deepEqual(now.ids, [], "no donor record under the address");
      for (const donor of [now.first, now.second]) {
        assert.ok(donor?.erasedAt, "marked erased");
        assert.deepEqual([donor.firstName, donor.lastName, donor.email, donor.israeliId], ["", "", "", null]);
      }
      assert.equal(now.subscription?.status, "cancelled");
      for (const tx of [s.gifts.old, s.gifts.one, s.gifts.monthly, s.gifts.declined]) {
        const stored = await store.transactions.get(tx.id);
        assert.deepEqual(stored, { ...tx, user: ERASED_USER }, "amounts and dates kept, names gone");
      }
      assert.deepEqual(await store.transactions.get(s.gifts.strangers.id), s.gifts.strangers);
      for (const receipt of [s.receipts.old, s.receipts.one, s.receipts.monthly]) {
        const kept = { ...receipt, email: "" };
        assert.deepEqual(
          await store.receipts.get(receipt.id),
          kept,
          "kept as issued, not filed under the address",
        );
      }
      assert.deepEqual(await store.receipts.get(s.receipts.strangers.id), s.receipts.strangers);
      const page = await (await get(app, "/en/account", s.cookie)).text();
      assert.ok(page.includes('name="email"'), "the old cookie opens nothing: the sign-in form");
      const elsewhere = await (await get(app, "/en/account", otherDevice)).text();
      assert.ok(elsewhere.includes('name="email"'), "signed out on the other device too");
      // The spec's cancel link of an erased record still answers, with nothing of the donor on it.
      const cancel = await get(app, `/en/cancel-subscription?userId=${s.first}`);
      const cancelPage = await cancel.text();
      assert.ok(cancel.status < 500, `${cancel.status}`);
      assert.ok(
        !cancelPage.includes("Tamar") && !cancelPage.includes(s.email),
        "the cancel page names the donor",
      );
      const done = await get(app, "/he/account/erase?done");
      assert.ok(mainText(await done.text()).includes(he("portalPrivacy.erase.done")));
    });

    await t.step("the email that was queued is skipped, not sent", async () => {
      const { sent, transport } = capture();
      const sender = new OutboxSender({
        store,
        render: app.services.mail.render,
        transport,
        from: "donations@museum.example",
        log: createLogger(() => {}),
        holder: "test",
      });
      const report = await sender.runOnce();
      assert.equal(sent.length, 0, "nothing sent to the erased address");
      assert.ok(report.skipped >= 1);
      const message = await store.outbox.get(`receipt:${s.gifts.one.id}`);
      assert.equal(message?.state, "skipped");
      assert.equal(message?.lastError, "nothing to send");
    });

    await t.step(
      "a repeat, signed out: the sign-in form; a new gift on an erased record is refused",
      async () => {
        const again = await fetch(
          `${app.url}/en/account/erase`,
          formPost(app, { confirm: "erase" }, s.cookie),
        );
        await again.body?.cancel();
        assert.equal(again.status, 303);
        assert.equal(again.headers.get("location"), "/en/account");
        const refused = await createPayment(app, { userId: s.first, amount: 10, currency: "nis" });
        assert.equal(refused.status, 404, JSON.stringify(refused.body));
        const other = await createPayment(app, { userId: await newDonor(app), amount: 10, currency: "nis" });
        assert.equal(other.status, 200, `a donor not erased still gives: ${JSON.stringify(other.body)}`);
      },
    );
  } finally {
    await app.close();
  }
});
