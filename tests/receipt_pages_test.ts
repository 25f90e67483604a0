/**
 * The receipt pages over real HTTP.
 * - Verification: a valid code shows the receipt's number, date and amount and its issuer, in the
 *   page's language, and nothing about the donor; a tampered, truncated, unknown or missing code
 *   gets the translated "not valid" page with 404, never a 5xx.
 * - Download: a valid download code answers the PDF in the page's language; a tampered one a
 *   translated 404 page, an expired one a translated 410 page. The PDF is drawn by the app's
 *   receipt workers (their queue full: a translated 503 with `Retry-After`), and downloads are
 *   limited per client address (429 with `Retry-After` and a translated page, in five languages).
 */
import assert from "node:assert/strict";
import { translator } from "@/lib/core/i18n.ts";
import { newId } from "@/lib/core/ids.ts";
import { receiptLinks } from "@/lib/receipts/download.ts";
import { issueReceipt } from "@/lib/receipts/issue.ts";
import { ReceiptsBusyError } from "@/lib/receipts/errors.ts";
import { receiptCode, receiptDownloadCode } from "@/lib/receipts/verify_code.ts";
import { LANGUAGES } from "@/lib/shared/languages.ts";
import type { Transaction } from "@/lib/storage/types.ts";
import { pdfText } from "@/tests/helpers/pdf.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { mainText } from "@/tests/helpers/donor_portal.ts";

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

/** A successful gift of 180.50 NIS. */
const gift = (): Transaction => ({
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
});

const LEGAL = {
  RECEIPT_LEGAL_NAME: "Example Museum Association",
  RECEIPT_ADDRESS: "1 Museum Road, Jerusalem",
};

/** The app, and a receipt issued in it with its download code. */
async function appWithReceipt(donorName: string, donorTaxId: string | null) {
  const app = await startTestApp({ env: LEGAL });
  const receipt = await issueReceipt(app.store, app.config.receipts, {
    transaction: gift(),
    donorName,
    donorTaxId,
  });
  return { app, receipt, code: receiptDownloadCode(app.config.appSecret, receipt.id) };
}

Deno.test("receipt verification page: valid, tampered, unknown and missing codes, in en and he", async () => {
  const app = await startTestApp({ env: LEGAL });
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

Deno.test("receipt download: the PDF for a valid code, a translated 404 when tampered, 410 when expired", async () => {
  const { app, receipt, code } = await appWithReceipt("עדה לאבלייס", "000000018");
  try {
    const res = await fetch(`${app.url}/he/receipts/download?c=${code}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/pdf");
    assert.equal(
      res.headers.get("content-disposition"),
      `attachment; filename="receipt-${receipt.number}.pdf"`,
    );
    assert.equal(res.headers.get("cache-control"), "no-store");
    const text = await pdfText(new Uint8Array(await res.arrayBuffer()));
    for (const want of ["קבלה על תרומה", receipt.number, "עדה לאבלייס", "000000018"]) {
      assert.ok(text.includes(want), `missing ${want} in ${text}`);
    }

    const [id, expiry, mac] = code.split(".");
    const expired = receiptDownloadCode(
      app.config.appSecret,
      receipt.id,
      new Date(Date.now() - 2 * 86_400_000),
    );
    for (const lang of ["en", "he"] as const) {
      const t = translator(lang);
      for (
        const [query, status, key] of [
          [`${id}.${expiry}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`, 404, "invalid"],
          [receiptCode(app.config.appSecret, receipt.id), 404, "invalid"],
          ["", 404, "invalid"],
          [expired, 410, "expired"],
        ] as const
      ) {
        const got = await page(`${app.url}/${lang}/receipts/download?c=${query}`);
        assert.equal(got.status, status, `${lang} ${query}`);
        assert.ok(got.text.includes(t(`receipt.downloadPage.${key}`)), `${lang} ${query}: ${got.text}`);
      }
    }
  } finally {
    await app.close();
  }
});

Deno.test("receiptLinks: the donor's receipts newest first, each link downloading its own PDF", async () => {
  const app = await startTestApp({ env: LEGAL });
  try {
    const tx = gift();
    const second = { ...gift(), donorId: tx.donorId };
    const a = await issueReceipt(app.store, app.config.receipts, {
      transaction: tx,
      donorName: "Ada",
      donorTaxId: null,
      now: new Date("2026-05-10T08:00:00.000Z"),
    });
    const b = await issueReceipt(app.store, app.config.receipts, {
      transaction: second,
      donorName: "Ada",
      donorTaxId: null,
      now: new Date("2026-06-10T08:00:00.000Z"),
    });
    const links = await receiptLinks(app.store, app.config.appSecret, [tx.donorId], "ru");
    assert.deepEqual(links.map((l) => l.number), [b.number, a.number]);
    assert.deepEqual(await receiptLinks(app.store, app.config.appSecret, [newId()], "ru"), []);
    for (const [i, link] of links.entries()) {
      assert.match(link.href, /^\/ru\/receipts\/download\?c=/);
      const res = await fetch(app.url + link.href);
      assert.equal(res.status, 200);
      assert.equal(
        res.headers.get("content-disposition"),
        `attachment; filename="receipt-${[b, a][i].number}.pdf"`,
      );
      await res.body?.cancel();
    }
  } finally {
    await app.close();
  }
});

Deno.test("receipt download: drawn by the app's receipt workers; their queue full, a translated 503", async () => {
  const { app, code } = await appWithReceipt("Ada Lovelace", null);
  const render = app.services.receiptPdfs.render;
  try {
    let drawn = 0;
    app.services.receiptPdfs.render = (...args) => (drawn++, render(...args));
    const res = await fetch(`${app.url}/en/receipts/download?c=${code}`);
    assert.equal(res.status, 200);
    await res.body?.cancel();
    assert.equal(drawn, 1, "the download went through the app's pool");

    app.services.receiptPdfs.render = () => Promise.reject(new ReceiptsBusyError(9));
    for (const lang of ["en", "he"] as const) {
      const busy = await fetch(`${app.url}/${lang}/receipts/download?c=${code}`);
      assert.equal(busy.status, 503);
      assert.equal(busy.headers.get("retry-after"), "9");
      const text = mainText(await busy.text());
      assert.ok(text.includes(translator(lang)("receipt.downloadPage.busy")), `${lang}: ${text}`);
    }
  } finally {
    app.services.receiptPdfs.render = render;
    await app.close();
  }
});

Deno.test("receipt download: limited per client address, a translated 429 with Retry-After", async () => {
  const { app, code } = await appWithReceipt("Ada Lovelace", null);
  try {
    let admitted = 0;
    let refused: Response | null = null;
    for (let i = 0; i < 200 && !refused; i++) {
      const res = await fetch(`${app.url}/en/receipts/download?c=${code}`);
      if (res.status === 429) refused = res;
      else (assert.equal(res.status, 200), admitted++);
      await res.body?.cancel();
    }
    assert.ok(refused, "a loop of one link is refused at some point");
    assert.ok(admitted >= 10 && admitted <= 100, `${admitted} downloads before the limit`);
    const retryAfter = Number(refused.headers.get("retry-after"));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After ${retryAfter}`);
    for (const lang of LANGUAGES) {
      const res = await fetch(`${app.url}/${lang}/receipts/download?c=${code}`);
      assert.equal(res.status, 429, lang);
      assert.equal(res.headers.get("cache-control"), "no-store");
      const minutes = Math.max(1, Math.ceil(Number(res.headers.get("retry-after")) / 60));
      const text = mainText(await res.text());
      const want = translator(lang)("receipt.downloadPage.limited", { minutes });
      assert.ok(text.includes(want), `${lang}: missing ${want} in ${text}`);
    }
  } finally {
    await app.close();
  }
});
