/**
 * Every page that goes through the page cache keeps its own cache key short (a route names its
 * inputs, a version for the museum's settings, rather than holding them): a route whose key took over
 * half the limit would render for every visitor once a URL or its data grew (issue 27's levels
 * made the donation page's key 5 KB, and `/{lang}/` rendered on every request). The framework tells
 * the app (`longPageKey`), which logs it; here no page may be told, in any language.
 */
import assert from "node:assert/strict";
import { PAGE_PATHS, startTestApp } from "@/tests/helpers/app.ts";
import { LANGUAGES } from "@/lib/shared/languages.ts";

Deno.test("page cache keys: no page's own key is too long, in any language", async () => {
  const app = await startTestApp({
    env: { FEATURE_MONTHLY_PAYMENT: "1", FEATURE_TEST_TERMINAL_PAYMENT: "1" },
  });
  try {
    for (const lang of LANGUAGES) {
      for (const path of PAGE_PATHS) {
        const res = await fetch(`${app.url}/${lang}/${path}`, { redirect: "manual" });
        await res.body?.cancel();
      }
    }
    const told = app.logs.filter((l) => l.msg === "page cache key too long");
    assert.deepEqual(told, []);
  } finally {
    await app.close();
  }
});
