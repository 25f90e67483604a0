import assert from "node:assert/strict";
import { DEFAULT_ERROR_KEY, errorMessageKey, SPEC_ERROR_CODES } from "./error_codes.ts";
import { LANGUAGES } from "@/lib/shared/languages.ts";

type Tree = { [key: string]: string | Tree };

const LOCALES: Record<string, Tree> = Object.fromEntries(
  await Promise.all(
    LANGUAGES.map(async (lang) => [
      lang,
      JSON.parse(await Deno.readTextFile(new URL(`../../locales/${lang}.json`, import.meta.url))) as Tree,
    ]),
  ),
);

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split(".")) {
    if (!node || typeof node !== "object") return undefined;
    node = node[part];
  }
  return typeof node === "string" ? node : undefined;
}

Deno.test("the catalogue holds the spec's codes and ours, sorted and unique", () => {
  assert.deepEqual([...SPEC_ERROR_CODES].sort(), SPEC_ERROR_CODES);
  assert.equal(new Set(SPEC_ERROR_CODES).size, SPEC_ERROR_CODES.length);
  for (const code of ["003", "025", "032", "034", "077", "099", "106", "180", "306", "404", "503", "999"]) {
    assert.ok(SPEC_ERROR_CODES.includes(code), code);
  }
  for (const code of ["301", "512", "555", "MISMATCH"]) assert.ok(SPEC_ERROR_CODES.includes(code), code);
  for (const code of ["000", "033x", "078", "504", "181"]) assert.ok(!SPEC_ERROR_CODES.includes(code), code);
  assert.equal(SPEC_ERROR_CODES.length, 156);
});

Deno.test("every code has a message in every language", () => {
  for (const lang of LANGUAGES) {
    for (const code of SPEC_ERROR_CODES) {
      const key = errorMessageKey(code);
      assert.equal(key, `transactionError.errors.${code}`);
      const message = lookup(LOCALES[lang], key);
      assert.ok(typeof message === "string" && message.trim() !== "", `${lang}:${key} is missing`);
      assert.notEqual(message, key, `${lang}:${key}`);
      assert.notEqual(message, code, `${lang}:${key}`);
      assert.doesNotMatch(message, /\b\d{3}\b/, `${lang}:${key} shows a code`);
    }
    assert.ok(lookup(LOCALES[lang], DEFAULT_ERROR_KEY)?.trim(), `${lang}: no default message`);
  }
});

Deno.test("messages are written in their language's script", () => {
  for (const code of SPEC_ERROR_CODES) {
    const key = errorMessageKey(code);
    assert.match(lookup(LOCALES.he, key)!, /[\u05D0-\u05EA]/, `he:${code}`);
    assert.match(lookup(LOCALES.ru, key)!, /[\u0400-\u04FF]/, `ru:${code}`);
    assert.notEqual(lookup(LOCALES.pt, key), lookup(LOCALES.en, key), `pt:${code} is English`);
    assert.notEqual(lookup(LOCALES.es, key), lookup(LOCALES.en, key), `es:${code} is English`);
  }
});

Deno.test("unknown or empty codes map to the default message", () => {
  for (const code of [null, undefined, "", "   ", "000", "3", "03", "0036", "36", "abc", "mismatch", "1e2"]) {
    assert.equal(errorMessageKey(code), DEFAULT_ERROR_KEY, String(code));
  }
  assert.equal(DEFAULT_ERROR_KEY, "transactionError.default");
});

Deno.test("codes are trimmed, otherwise matched exactly", () => {
  assert.equal(errorMessageKey(" 036\n"), "transactionError.errors.036");
  assert.equal(errorMessageKey("MISMATCH"), "transactionError.errors.MISMATCH");
  assert.equal(errorMessageKey("555"), "transactionError.errors.555");
});
