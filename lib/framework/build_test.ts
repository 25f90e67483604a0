import assert from "node:assert/strict";
import { isServerOnly } from "./build.ts";

Deno.test("isServerOnly: lib/ is server-only unless allowed, and so are server packages", () => {
  for (const path of ["lib/languages.ts", "lib/signing.ts", "lib/framework/client.ts", "islands/X.tsx"]) {
    assert.equal(isServerOnly(path), false, path);
  }
  for (
    const path of [
      "lib/config.ts",
      "lib/storage/kv.ts",
      "lib/auth/tokens.ts",
      "lib/some_new_module.ts",
      "lib/framework/server.ts",
      "routes/api/user/index.ts",
      "main.ts",
      "node_modules/.deno/postgres@3.4.9/node_modules/postgres/src/index.js",
      "node_modules/jose/dist/index.js",
    ]
  ) {
    assert.equal(isServerOnly(path), true, path);
  }
});
