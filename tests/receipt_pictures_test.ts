/**
 * Golden pictures of the receipt PDF: page 1 of each kind of receipt (a donation receipt, a credit
 * receipt) in Hebrew, English and Russian, and a receipt of a gift at a membership level (a US one in
 * English: goods or services, their value, the deductible amount; an Israeli one in Hebrew: the
 * donation share), drawn by Poppler and compared with the pictures kept in
 * `tests/golden/` (`tests/helpers/golden.ts`). Every date and number comes from fixed fixtures, so a
 * picture changes only when the layout does. `deno task golden:update` draws them anew.
 */
import type { Lang } from "@/lib/shared/languages.ts";
import { assertLooksLike, goldenTest } from "@/tests/helpers/golden.ts";
import { drawReceiptPdf, membershipReceiptFixture, receiptFixture } from "@/tests/helpers/receipts.ts";

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

goldenTest("membership receipt PDF looks as it did: a US one in en, an Israeli one in he", async () => {
  await assertLooksLike(
    await drawReceiptPdf(membershipReceiptFixture("us", { donorName: NAMES.en }), "en", {
      verifyUrl: VERIFY,
    }),
    new URL("./golden/membership-receipt-en-us.png", import.meta.url),
  );
  await assertLooksLike(
    await drawReceiptPdf(membershipReceiptFixture("il", { donorName: NAMES.he }), "he", {
      verifyUrl: VERIFY,
    }),
    new URL("./golden/membership-receipt-he.png", import.meta.url),
  );
});
