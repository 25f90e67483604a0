import assert from "node:assert/strict";
import { createHash, createHmac } from "node:crypto";
import { hmacSha256Hex, sha256 } from "./sha256.ts";

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

Deno.test("sha256: known vectors", () => {
  const enc = new TextEncoder();
  assert.equal(
    hex(sha256(enc.encode(""))),
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  );
  assert.equal(
    hex(sha256(enc.encode("abc"))),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
  assert.equal(
    hmacSha256Hex("key", "The quick brown fox jumps over the lazy dog"),
    "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8",
  );
});

Deno.test("sha256: agrees with node:crypto on every length up to 300 and long keys", () => {
  for (let n = 0; n <= 300; n++) {
    const data = crypto.getRandomValues(new Uint8Array(n));
    assert.equal(hex(sha256(data)), createHash("sha256").update(data).digest("hex"), `length ${n}`);
    const key = crypto.getRandomValues(new Uint8Array(n % 150));
    assert.equal(hmacSha256Hex(key, data), createHmac("sha256", key).update(data).digest("hex"), `hmac ${n}`);
  }
  const secret = "bench-start-secret-0123456789abcdefghijklmnop-ünïcode";
  assert.equal(hmacSha256Hex(secret, "k1.abc"), createHmac("sha256", secret).update("k1.abc").digest("hex"));
});

Deno.test("hmacSha256: a key's kept states give the same answer, also once more keys pushed it out", () => {
  for (let round = 0; round < 3; round++) {
    for (let k = 0; k < 12; k++) {
      const key = `key-${k}-${"x".repeat(k * 7)}`;
      const message = `v1.${Date.now()}.${k}`;
      assert.equal(hmacSha256Hex(key, message), createHmac("sha256", key).update(message).digest("hex"));
    }
  }
});
