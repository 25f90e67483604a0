/**
 * The back office names what it lists in every language, so staff never read a raw id:
 * - the outbox list, every message kind (`backofficeMail.kinds`): the kinds come from the
 *   renderers' table, which the type checker keeps complete, so a kind added later without a
 *   label fails here;
 * - the cancel reasons' count and the donor view, every reason of `CANCEL_REASONS`
 *   (`backofficeDonor.reasons`), so a reason added to the donor's form without one fails here.
 */
import assert from "node:assert/strict";
import { translator } from "@/lib/core/i18n.ts";
import { RENDERERS } from "@/lib/outbox/templates/mod.ts";
import { CANCEL_REASONS } from "@/lib/monthly_gifts/subscription_changes.ts";
import { LANGUAGES } from "@/lib/shared/languages.ts";

Deno.test("every message kind has its outbox label in every language, each language its own", () => {
  const kinds = Object.keys(RENDERERS);
  assert.ok(kinds.includes("sign-in-link") && kinds.includes("monthly-changed"), kinds.join(", "));
  for (const kind of kinds) {
    const key = `backofficeMail.kinds.${kind}`;
    const labels = LANGUAGES.map((lang) => translator(lang)(key));
    for (const [i, label] of labels.entries()) {
      assert.ok(label !== key && label.trim() !== "", `${LANGUAGES[i]}: no label for ${kind}`);
    }
    // Translated, not English copied into the others (Hebrew and Russian share no word with it).
    const en = labels[LANGUAGES.indexOf("en")];
    assert.notEqual(labels[LANGUAGES.indexOf("he")], en, `he: ${kind}`);
    assert.notEqual(labels[LANGUAGES.indexOf("ru")], en, `ru: ${kind}`);
  }
});

Deno.test("every cancel reason has its back office words in every language", () => {
  for (const reason of CANCEL_REASONS) {
    const key = `backofficeDonor.reasons.${reason}`;
    for (const lang of LANGUAGES) {
      const label = translator(lang)(key);
      assert.ok(label !== key && label.trim() !== "", `${lang}: no words for ${reason}`);
    }
  }
});
