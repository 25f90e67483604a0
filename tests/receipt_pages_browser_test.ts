/**
 * The receipt pages in a real browser, in English and Hebrew: the verification page (a genuine
 * receipt, and a code that is not valid) and the download page's expired-link answer have no
 * WCAG A/AA problem (axe), and the Hebrew pages are laid out right to left.
 */
import assert from "node:assert/strict";
import { newId } from "@/lib/core/ids.ts";
import { issueReceipt } from "@/lib/receipts/issue.ts";
import { receiptCode, receiptDownloadCode } from "@/lib/receipts/verify_code.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { runAxe } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser } from "@/tests/helpers/browser.ts";

browserTest("receipt pages: axe-clean in en and he, right to left in Hebrew", async () => {
  const app = await startTestApp({
    env: { RECEIPT_LEGAL_NAME: "Example Museum Association", RECEIPT_ADDRESS: "1 Museum Road, Jerusalem" },
  });
  const browser = await launchBrowser();
  try {
    const receipt = await issueReceipt(app.store, app.config.receipts, {
      transaction: {
        id: newId(),
        kind: "success",
        statusCode: "000",
        isMonthly: false,
        createdAt: "2026-05-09T08:00:00.000Z",
        donorId: newId(),
        user: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" },
        amount: 18_050,
        currency: 1,
        resultData: null,
        errorMessage: null,
        provider: "sandbox",
        providerTransactionId: newId(),
      },
      donorName: "Ada Lovelace",
      donorTaxId: null,
    });
    const code = receiptCode(app.config.appSecret, receipt.id);
    const expired = receiptDownloadCode(
      app.config.appSecret,
      receipt.id,
      new Date(Date.now() - 2 * 86_400_000),
    );
    for (const lang of ["en", "he"] as const) {
      const context = await browser.newContext({
        bypassCSP: true,
        locale: lang === "he" ? "he-IL" : "en-US",
      });
      try {
        const page = await context.newPage();
        for (
          const [path, status] of [
            [`receipts/verify?c=${code}`, 200],
            ["receipts/verify?c=not-a-code", 404],
            [`receipts/download?c=${expired}`, 410],
          ] as const
        ) {
          const res = await page.goto(`${app.url}/${lang}/${path}`);
          assert.equal(res?.status(), status, `/${lang}/${path}`);
          const audit = await runAxe(page);
          assert.ok(audit.passes > 0, `${lang} ${path}: axe ran`);
          assert.deepEqual(audit.violations, [], `${lang} ${path}`);
          assert.equal(await page.getAttribute("html", "dir"), lang === "he" ? "rtl" : "ltr");
        }
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await app.close();
  }
});
