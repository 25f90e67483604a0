/**
 * The `card-updated` email (`card_update.ts`) in all five languages: its subject, the new card's last
 * four with the amount and next charge carried in the message (or the sentence without digits),
 * the "not you?" line, the page's direction and the manage link.
 */
import assert from "node:assert/strict";
import { translator } from "@/lib/core/i18n.ts";
import { LANGUAGES } from "@/lib/shared/languages.ts";
import { assertDirection, assertManageLink, fixture, message } from "@/tests/helpers/mail.ts";
import { emailDate, emailMoney } from "./format.ts";

for (const lang of LANGUAGES) {
  const t = translator(lang);
  Deno.test(`card updated (${lang}): the new card's last four, amount and next charge, manage link`, async () => {
    const { store, donor, render } = await fixture();
    try {
      const data = {
        subscriptionId: "sub_1",
        last4: "9015",
        amount: 5_000,
        currency: 1 as const,
        nextPaymentDate: "2026-04-10T09:00:00Z",
      };
      const out =
        (await render(message({ kind: "card-updated", to: { donorId: donor.id }, language: lang, data })))!;
      assert.deepEqual(out.to, ["dana@example.org"]);
      assert.equal(out.subject, t("portalCard.email.subject", { museum: t("welcome.museumTitle") }));
      const amount = emailMoney(5_000, 1, lang);
      const date = emailDate("2026-04-10T09:00:00Z", lang);
      assert.ok(out.text.includes(t("portalCard.email.body", { amount, last4: "9015", date })), out.text);
      assert.ok(out.text.includes(t("portalCard.email.notYou")));
      assert.ok(out.html.includes("9015") && out.html.includes(amount));
      assertDirection(out, lang);
      await assertManageLink(out, donor, lang);

      const noDigits = (await render(message({
        kind: "card-updated",
        to: { donorId: donor.id },
        language: lang,
        data: { ...data, last4: null },
      })))!;
      assert.ok(noDigits.text.includes(t("portalCard.email.bodyNoDigits", { amount, date })));
    } finally {
      await store.close();
    }
  });
}
