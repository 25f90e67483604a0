import assert from "node:assert/strict";
import { RESOURCES, translator } from "./i18n.ts";
import { LANGUAGES } from "@/lib/shared/languages.ts";

function keys(obj: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(obj).flatMap(([k, v]) =>
    v && typeof v === "object" ? keys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`]
  ).sort();
}

Deno.test("every language has exactly the keys of English, none empty", () => {
  const en = keys(RESOURCES.en);
  for (const lang of LANGUAGES) {
    const have = keys(RESOURCES[lang]);
    assert.deepEqual(have.filter((k) => !en.includes(k)), [], `${lang} has keys English lacks`);
    assert.deepEqual(en.filter((k) => !have.includes(k)), [], `${lang} lacks keys`);
    for (const key of have) {
      const value = translator(lang)(key);
      assert.ok(typeof value === "string" && value.trim() !== "" && value !== key, `${lang}:${key} is empty`);
    }
  }
});

Deno.test("interpolation placeholders match English in every language", () => {
  const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
  for (const key of keys(RESOURCES.en)) {
    const want = placeholders(translator("en")(key));
    for (const lang of LANGUAGES) {
      assert.deepEqual(placeholders(translator(lang)(key)), want, `${lang}:${key}`);
    }
  }
});

Deno.test("translations come from the language asked for", () => {
  assert.equal(translator("ru")("scrollToTop.label"), "Наверх");
  assert.equal(translator("en")("notFound.goHome"), "Go to Home Page");
  assert.equal(translator("he")("languageName"), "עברית");
});

Deno.test("Hebrew: no prefix letter fused to the museum's name (its default, המוזיאון, would read להמוזיאון)", () => {
  const t = translator("he");
  const fused = keys(RESOURCES.he).filter((key) => /[לבכ]\{\{\s*museum\s*\}\}/.test(t(key)));
  assert.deepEqual(fused, [], "write '{{museum}}: …' or name it another way");
});
