import assert from "node:assert/strict";
import { randomBase64, randomHex } from "./random.ts";

Deno.test("random: hex and base64 of the asked length, never the same twice, across pool refills", () => {
  const seen = new Set<string>();
  for (let i = 0; i < 1000; i++) {
    const hex = randomHex(16), b64 = randomBase64(16);
    assert.match(hex, /^[0-9a-f]{32}$/);
    assert.match(b64, /^[A-Za-z0-9+/]{22}==$/);
    assert.ok(!seen.has(hex) && !seen.has(b64), "a value repeats");
    seen.add(hex).add(b64);
  }
  // Every byte value turns up: the bytes are not biased towards a few values.
  const bytes = new Set<string>();
  for (let i = 0; i < 2000; i++) for (const pair of randomHex(8).match(/../g)!) bytes.add(pair);
  assert.equal(bytes.size, 256);
});
