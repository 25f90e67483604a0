import assert from "node:assert/strict";
import { isServerOnly } from "./build.ts";

Deno.test("isServerOnly: an island reaches islands/, lib/shared/ and browser packages only", () => {
  const island = "islands/X.tsx";
  for (
    const path of [
      "lib/shared/languages.ts",
      "lib/shared/signing.ts",
      "lib/framework/client.ts",
      "islands/Y.tsx",
    ]
  ) {
    assert.equal(isServerOnly(path, island), false, path);
  }
  for (const path of ["node_modules/.deno/preact@11.2.0/node_modules/preact/hooks/dist/hooks.mjs"]) {
    assert.equal(isServerOnly(path, island), false, path);
  }
  // What a browser package imports in turn is its own concern.
  const signals = "node_modules/.deno/@preact+signals@2.11.4/node_modules/@preact/signals/dist/signals.mjs";
  assert.equal(isServerOnly("node_modules/.deno/x@1/node_modules/x/index.js", signals), false);
  for (
    const path of [
      "lib/app/config.ts",
      "lib/storage/kv/mod.ts",
      "lib/staff/tokens.ts",
      "lib/some_new_module.ts",
      "lib/framework/server.ts",
      "components/Header.tsx",
      "routes/api/user/index.ts",
      "main.ts",
      "node_modules/.deno/postgres@3.4.9/node_modules/postgres/src/index.js",
      "node_modules/jose/dist/index.js",
    ]
  ) {
    assert.equal(isServerOnly(path, island), true, path);
  }
  // A module of lib/shared/ is held to the same rule as an island.
  assert.equal(isServerOnly("lib/app/config.ts", "lib/shared/money.ts"), true);
});
