import assert from "node:assert/strict";
import en from "@/locales/en.json" with { type: "json" };
import he from "@/locales/he.json" with { type: "json" };
import { translator as serverTranslator } from "@/lib/core/i18n.ts";
import { messageText, translator } from "./texts.ts";

const TEXTS = {
  "apiErrors.network": "Network error. Please check your connection",
  "apiErrors.unexpected": "An unexpected error occurred",
  "apiErrors.tooManyAttempts": "Too many failed attempts. Please wait {{minutes}} min and try again.",
  "transactions.pageOf": "Page {{page}} of {{pages}}",
  "spaced": "{{ n }} and {{n}} and {{  n  }}",
};

Deno.test("translator: a key's text; a missing key answers the key itself", () => {
  const t = translator(TEXTS);
  assert.equal(t("apiErrors.network"), "Network error. Please check your connection");
  assert.equal(t("apiErrors.nope"), "apiErrors.nope");
  assert.equal(translator({})("login.submit"), "login.submit");
});

Deno.test("translator: fills {{params}}, every occurrence, spaces inside the braces allowed", () => {
  const t = translator(TEXTS);
  assert.equal(t("transactions.pageOf", { page: 2, pages: 7 }), "Page 2 of 7");
  assert.equal(t("spaced", { n: "x" }), "x and x and x");
  // Zero and the empty string are values, not gaps.
  assert.equal(t("transactions.pageOf", { page: 0, pages: "" }), "Page 0 of ");
});

Deno.test("translator: a param not given leaves its placeholder; no params leaves the text untouched", () => {
  const t = translator(TEXTS);
  assert.equal(t("transactions.pageOf", { page: 3 }), "Page 3 of {{pages}}");
  assert.equal(t("transactions.pageOf"), "Page {{page}} of {{pages}}");
  // A value is inserted as is, never read as a placeholder or pattern.
  assert.equal(t("transactions.pageOf", { page: "{{pages}}", pages: "$&" }), "Page {{pages}} of $&");
});

Deno.test("translator agrees with i18next on the pages' own texts, in English and Hebrew", () => {
  const flat = (obj: Record<string, unknown>, prefix = ""): [string, string][] =>
    Object.entries(obj).flatMap(([k, v]) =>
      typeof v === "string"
        ? [[`${prefix}${k}`, v] as [string, string]]
        : flat(v as Record<string, unknown>, `${prefix}${k}.`)
    );
  for (const [lang, resources] of [["en", en], ["he", he]] as const) {
    const texts = Object.fromEntries(flat(resources));
    const ours = translator(texts);
    const theirs = serverTranslator(lang);
    for (
      const key of ["apiErrors.tooManyAttempts", "login.passwordMinLength", "register.passwordsDoNotMatch"]
    ) {
      assert.equal(ours(key, { minutes: 15 }), theirs(key, { minutes: 15 }), `${lang}:${key}`);
    }
  }
  assert.equal(
    translator({ "apiErrors.tooManyAttempts": he.apiErrors.tooManyAttempts })("apiErrors.tooManyAttempts", {
      minutes: 4,
    }),
    "יותר מדי ניסיונות כושלים. יש להמתין 4 דק' ולנסות שוב.",
  );
});

Deno.test("messageText: the server's own words win; else the key with its params", () => {
  const t = translator(TEXTS);
  assert.equal(messageText(t, { text: "Slow down", key: "apiErrors.network" }), "Slow down");
  assert.equal(messageText(t, { key: "apiErrors.network" }), "Network error. Please check your connection");
  assert.equal(
    messageText(t, { key: "apiErrors.tooManyAttempts", params: { minutes: 2 } }),
    "Too many failed attempts. Please wait 2 min and try again.",
  );
  // Neither: the unexpected-error text.
  assert.equal(messageText(t, {}), "An unexpected error occurred");
});
