import assert from "node:assert/strict";
import { equalSecrets, timingSafeEqual } from "./constant_time.ts";

Deno.test("timingSafeEqual compares contents and lengths", () => {
  assert.equal(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3])), true);
  assert.equal(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4])), false);
  assert.equal(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2])), false);
  assert.equal(timingSafeEqual(new Uint8Array(0), new Uint8Array(0)), true);
});

Deno.test("equalSecrets: equal strings only, whichever character differs, in any script", () => {
  const mac = "s1.AAAAAAAAAAAAAAAAAAAAAA.3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
  assert.equal(equalSecrets(mac, `${mac}`), true);
  for (let i = 0; i < mac.length; i++) {
    const changed = mac.slice(0, i) + (mac[i] === "A" ? "B" : "A") + mac.slice(i + 1);
    assert.equal(equalSecrets(mac, changed), false, `a change at ${i}`);
  }
  assert.equal(equalSecrets(mac, mac.slice(0, -1)), false);
  assert.equal(equalSecrets(mac, `${mac}A`), false);
  assert.equal(equalSecrets("", ""), true);
  assert.equal(equalSecrets("שלום", "שלום"), true);
  assert.equal(equalSecrets("é", "e\u0301"), false, "compared as given, never normalized");
});
