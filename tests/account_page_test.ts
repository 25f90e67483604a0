/**
 * The donor portal's signed-in page (issue 15, `lib/donor_portal/history.ts`) over real HTTP, on Deno KV
 * and PostgreSQL: every gift under the session's address across its donor records (date, amount,
 * one-time or monthly, status, receipt PDF link), the active monthly gifts (amount, next charge,
 * card), nothing of another address, and the receipt link downloading the PDF.
 */
import assert from "node:assert/strict";
import { translator } from "@/lib/core/i18n.ts";
import { issueReceipt } from "@/lib/receipts/issue.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { mainText, signInAs } from "@/tests/helpers/donor_portal.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { donorFixture, subscriptionFixture, txFixture } from "@/tests/storage/fixtures.ts";

const LEGAL = {
  RECEIPT_LEGAL_NAME: "Example Museum Association",
  RECEIPT_ADDRESS: "1 Museum Road, Jerusalem",
};

backendTest("donor portal: the signed-in page lists every gift of the address", async (t, open) => {
  const store = await open();
  const app = await startTestApp({ store, env: LEGAL });
  try {
    const suffix = crypto.randomUUID().slice(0, 8);
    const email = `noa.${suffix}@example.org`;
    const [first, second] = [`p1_${suffix}_aaaaaaaaaaaa`, `p2_${suffix}_aaaaaaaaaaaa`];
    await store.donors.create(donorFixture({ id: first, email }));
    await store.donors.create(donorFixture({ id: second, email }));
    const user = { firstName: "Noa", lastName: "Cohen", email };
    const oneTime = txFixture({
      donorId: first,
      user,
      amount: 18_050,
      currency: 1,
      createdAt: "2026-05-09T08:00:00.000Z",
    });
    const monthlyCharge = txFixture({
      donorId: second,
      user,
      isMonthly: true,
      amount: 2_500,
      currency: 2,
      createdAt: "2026-06-01T08:00:00.000Z",
    });
    const declined = txFixture({
      donorId: second,
      user,
      kind: "error",
      createdAt: "2026-06-02T08:00:00.000Z",
    });
    const strangers = txFixture({ amount: 77_700, currency: 1, createdAt: "2026-06-03T08:00:00.000Z" });
    for (const tx of [oneTime, monthlyCharge, declined, strangers]) await store.transactions.record(tx);
    const receipt = await issueReceipt(store, app.config.receipts, {
      transaction: oneTime,
      donorName: "Noa Cohen",
      donorTaxId: null,
      now: new Date("2026-05-09T09:00:00.000Z"),
    });
    await store.subscriptions.create(
      subscriptionFixture({
        donorId: second,
        amount: 2_500,
        currency: 2,
        nextPaymentDate: "2026-07-01T08:00:00.000Z",
      }),
    );
    await store.subscriptions.create(subscriptionFixture({ donorId: first, status: "cancelled" }));
    const cookie = await signInAs(app, first);

    for (const lang of ["en", "he"] as const) {
      await t.step(
        `${lang}: gifts of both donor records, newest first, with the receipt; nobody else's`,
        async () => {
          const tr = translator(lang);
          const res = await fetch(`${app.url}/${lang}/account`, { headers: { cookie } });
          const page = await res.text();
          assert.equal(res.status, 200);
          assert.equal(res.headers.get("cache-control"), "no-store");
          const text = mainText(page);
          const rows = page.slice(page.indexOf("<tbody>"), page.indexOf("</tbody>")).split(/<tr\b/).slice(1);
          assert.equal(rows.length, 3, "three gifts: one-time, monthly charge, declined");
          const [declinedRow, monthlyRow, oneTimeRow] = rows.map(mainTextOf);
          assert.ok(declinedRow.includes(tr("account.statusFailed")), declinedRow);
          assert.ok(monthlyRow.includes(tr("account.monthly")) && monthlyRow.includes("25.00"), monthlyRow);
          assert.ok(oneTimeRow.includes(tr("account.oneTime")) && oneTimeRow.includes("180.50"), oneTimeRow);
          assert.ok(oneTimeRow.includes(tr("account.receiptLink", { number: receipt.number })), oneTimeRow);
          assert.ok(!text.includes("777.00"), "another address's gift is not shown");
          // The one active monthly gift (the cancelled one is not listed), with its card.
          assert.ok(text.includes(tr("account.cardLine", { brand: "Visa", last4: "4580" })), text);
          const listStart = page.indexOf('class="monthly-list"');
          const monthlyList = page.slice(listStart, page.indexOf("</ul>", listStart));
          assert.equal(monthlyList.split("<li").length - 1, 1, "one active monthly gift");
          const next = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeZone: "UTC" })
            .format(new Date("2026-07-01T08:00:00.000Z"));
          assert.ok(text.includes(next), `${next} in ${text}`);
        },
      );
    }

    await t.step("the receipt link downloads its PDF", async () => {
      const page = await (await fetch(`${app.url}/en/account`, { headers: { cookie } })).text();
      const href = page.match(/href="(\/en\/receipts\/download\?c=[^"]+)"/)?.[1];
      assert.ok(href, "a receipt link");
      const res = await fetch(app.url + href.replaceAll("&amp;", "&"));
      const body = new Uint8Array(await res.arrayBuffer());
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "application/pdf");
      assert.equal(new TextDecoder().decode(body.slice(0, 5)), "%PDF-");
    });

    await t.step("signed out, the page shows the form and none of the gifts", async () => {
      const page = await (await fetch(`${app.url}/en/account`)).text();
      assert.ok(page.includes('name="email"'));
      assert.ok(!page.includes("180.50"));
    });
  } finally {
    await app.close();
  }
});

/** A table row's text. */
function mainTextOf(row: string): string {
  return row.replace(/<[^>]*>/g, " ").replace(/&amp;/g, "&");
}
