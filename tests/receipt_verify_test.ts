/**
 * The public receipt verification page over real HTTP: a valid code shows the receipt's number,
 * date and amount and its issuer, in the page's language, and nothing about the donor; a tampered,
 * truncated, unknown or missing code gets the translated "not valid" page with 404, never a 5xx.
 */
import assert from "node:assert/strict";
import { translator } from "../lib/i18n.ts";
import { newId } from "../lib/ids.ts";
import { issueReceipt } from "../lib/receipts/issue.ts";
import { receiptCode } from "../lib/receipts/verify_code.ts";
import { startTestApp } from "./helpers/app.ts";

/** The text of a page's `<main>`: tags removed, the few entities the server writes decoded. */
async function page(url: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url);
  const html = await res.text();
  const main = html.slice(html.indexOf("<main"), html.indexOf("</main>"));
  const text = main.replace(/<[^>]*>/g, " ").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(
    /&amp;/g,
    "&",
  )
    .replace(/\s+/g, " ");
  return { status: res.status, text };
}

Deno.test("receipt verification page: valid, tampered, unknown and missing codes, in en and he", async () => {
  const app = await startTestApp({
    env: { RECEIPT_LEGAL_NAME: "Example Museum Association", RECEIPT_ADDRESS: "1 Museum Road, Jerusalem" },
  });
  try {
    const receipt = await issueReceipt(app.store, app.config.receipts, {
      transaction: {
        id: newId(),
        kind: "success",
        statusCode: "000",
        isMonthly: false,
        createdAt: "2026-05-09T08:00:00.000Z",
        donorId: newId(),
        user: { firstName: "Ada", lastName: "Lovelace", email: "ada.verify@example.com" },
        amount: 18_050,
        currency: 1,
        resultData: {
          CreditCardNumber: "458045******4580",
          CreditType: "1",
          DebitTotal: "18050",
          DebitCurrency: 1,
        },
        errorMessage: null,
        provider: "sandbox",
        providerTransactionId: newId(),
      },
      donorName: "Ada Lovelace",
      donorTaxId: "000000018",
      now: new Date("2026-05-10T08:00:00.000Z"),
    });
    const code = receiptCode(app.config.appSecret, receipt.id);

    for (
      const [lang, date, amount] of [["en", "May 10, 2026", "₪180.50"], [
        "he",
        "10 במאי 2026",
        "180.50",
      ]] as const
    ) {
      const t = translator(lang);
      const { status, text } = await page(`${app.url}/${lang}/receipts/verify?c=${encodeURIComponent(code)}`);
      assert.equal(status, 200, `${lang}: ${text}`);
      assert.ok(text.includes(t("receipt.verifyPage.valid", { issuer: "Example Museum Association" })), text);
      for (const want of [receipt.number, date, amount, t("receipt.verifyPage.privacy")]) {
        assert.ok(text.includes(want), `${lang}: missing ${want} in ${text}`);
      }
      for (const secret of ["Ada", "Lovelace", "ada.verify", "000000018", "4580"]) {
        assert.ok(!text.includes(secret), `${lang}: the page shows ${secret}`);
      }
    }

    const [id, mac] = code.split(".");
    const tampered = `${id}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`;
    const unknown = receiptCode(app.config.appSecret, newId());
    const foreign = receiptCode("another-secret-that-is-long-enough-0123456789", receipt.id);
    for (const lang of ["en", "he"] as const) {
      const invalid = translator(lang)("receipt.verifyPage.invalid");
      for (const query of [`?c=${tampered}`, `?c=${unknown}`, `?c=${foreign}`, `?c=${id}`, "", "?c=%00%ff"]) {
        const { status, text } = await page(`${app.url}/${lang}/receipts/verify${query}`);
        assert.equal(status, 404, `${lang} ${query}`);
        assert.ok(text.includes(invalid), `${lang} ${query}: ${text}`);
        assert.ok(!text.includes(receipt.number), `${lang} ${query}: shows the number`);
      }
    }
  } finally {
    await app.close();
  }
});
