/**
 * Golden pictures of the receipt PDF: page 1 of each kind of receipt (a donation receipt, a credit
 * receipt) in Hebrew, English and Russian, drawn by Poppler and compared with the pictures kept in
 * `tests/golden/` (`tests/helpers/golden.ts`). Every date and number comes from fixed fixtures, so a
 * picture changes only when the layout does. `deno task golden:update` draws them anew.
 */
import type { Lang } from "@/lib/shared/languages.ts";
import { assertLooksLike, goldenTest } from "@/tests/helpers/golden.ts";
import { drawReceiptPdf, receiptFixture } from "@/tests/helpers/receipts.ts";

const VERIFY = "https://donate.example.org/he/receipts/verify?c=q2V0bUoHx3f1k8Zr0aTQ9w_L.AbCdEfGhIjKl";
const NAMES: Record<"he" | "en" | "ru", string> = {
  he: "עדה לאבלייס",
  en: "Ada Lovelace",
  ru: "Ада Лавлейс",
};

for (const lang of ["he", "en", "ru"] as const satisfies readonly Lang[]) {
  goldenTest(`receipt PDF looks as it did: a receipt and a credit receipt in ${lang}`, async () => {
    const receipt = receiptFixture({ donorName: NAMES[lang], reportNumber: "ITA-778899" });
    await assertLooksLike(
      await drawReceiptPdf(receipt, lang, { verifyUrl: VERIFY }),
      new URL(`./golden/receipt-${lang}.png`, import.meta.url),
    );
    const credit = { number: `${receipt.number}-C1`, refundedAt: "2026-05-29T09:00:00.000Z", amount: 5_000 };
    await assertLooksLike(
      await drawReceiptPdf(receipt, lang, { verifyUrl: VERIFY, credit }),
      new URL(`./golden/credit-receipt-${lang}.png`, import.meta.url),
    );
  });
}
