/** `APP_SECRET` never reaches a browser: not in any built file, not in any page or API answer. */
import assert from "node:assert/strict";
import { currentBuild } from "@/lib/framework/assets.ts";
import { PAGE_PATHS, startTestApp } from "@/tests/helpers/app.ts";

Deno.test("APP_SECRET appears in no static file and no page", async () => {
  const secret = `secret-${crypto.randomUUID()}-${crypto.randomUUID()}`;
  const app = await startTestApp({ env: { APP_SECRET: secret } });
  try {
    const build = currentBuild();
    for (const [name, file] of build.files) {
      for (const variant of file.variants.filter((v) => v.encoding === null)) {
        assert.ok(!new TextDecoder().decode(variant.body).includes(secret), `_build/static/${name}`);
      }
    }
    const paths = [
      ...["en", "he"].flatMap((l) => PAGE_PATHS.map((p) => `/${l}/${p}`)),
      "/en/nope",
      "/api/feature-flags",
      "/api/signing-key",
      "/api/openapi.json",
      "/api/docs",
      "/health",
    ];
    for (const path of paths) {
      const res = await fetch(app.url + path);
      const body = await res.text();
      assert.ok(!body.includes(secret), path);
      assert.ok(![...res.headers.values()].some((v) => v.includes(secret)), `${path} headers`);
    }
  } finally {
    await app.close();
  }
});
