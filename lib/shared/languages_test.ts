import assert from "node:assert/strict";
import { dirOf, isLang, LANGUAGES, unsupportedLangRedirect, withLang } from "./languages.ts";

Deno.test("five languages, Hebrew right-to-left", () => {
  assert.deepEqual([...LANGUAGES], ["en", "he", "ru", "pt", "es"]);
  assert.equal(dirOf("he"), "rtl");
  for (const l of ["en", "ru", "pt", "es"] as const) assert.equal(dirOf(l), "ltr");
  assert.equal(isLang("he"), true);
  assert.equal(isLang("fr"), false);
  assert.equal(isLang("EN"), false);
  assert.equal(isLang(undefined), false);
});

Deno.test("withLang replaces the first segment and keeps the rest and the query", () => {
  assert.equal(withLang("/en/terminal-payment/12?x=1", "he"), "/he/terminal-payment/12?x=1");
  assert.equal(withLang("/en/", "ru"), "/ru/");
  assert.equal(withLang("/en", "ru"), "/ru/");
  assert.equal(withLang("/", "pt"), "/pt/");
  assert.equal(withLang("/he/success?PelecardTransactionId=5", "es"), "/es/success?PelecardTransactionId=5");
});

Deno.test("unsupported first segments go to English, region variants to their base", () => {
  assert.equal(unsupportedLangRedirect("/fr/success", "?a=1"), "/en/success?a=1");
  assert.equal(unsupportedLangRedirect("/fr", ""), "/en/");
  assert.equal(unsupportedLangRedirect("/pt-BR/terminal-payment/3", ""), "/pt/terminal-payment/3");
  assert.equal(unsupportedLangRedirect("/HE/", ""), "/he/");
  assert.equal(unsupportedLangRedirect("/success", "?x=2"), "/en/success?x=2");
  assert.equal(
    unsupportedLangRedirect("/cancel-subscription", "?userId=u"),
    "/en/cancel-subscription?userId=u",
  );
});
