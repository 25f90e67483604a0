/**
 * The back office's outbox list names every message kind in every language: a kind without its
 * `backofficeMail.kinds` label would show as its raw id (`sign-in-link`) to the museum's staff.
 * The kinds come from the renderers' table, which the type checker keeps complete, so a kind added
 * later without a label fails here.
 */
import assert from "node:assert/strict";
import { translator } from "@/lib/i18n.ts";
import { RENDERERS } from "@/lib/mail/templates/mod.ts";
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
