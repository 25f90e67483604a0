import assert from "node:assert/strict";
import { cardBrand } from "./history.ts";
import { isSignedToken, signInKey, signInToken, signInUrl } from "./sign_in.ts";

Deno.test("sign-in tokens: signed, deterministic per id, refused when changed or from another secret", async () => {
  const key = await signInKey("a-secret-that-is-long-enough-0123456789");
  const other = await signInKey("another-secret-that-is-long-enough-0123456789");
  const id = "AAAAAAAAAAAAAAAAAAAAAA";
  const token = await signInToken(key, id);
  assert.match(token, /^s1\.A{22}\.[A-Za-z0-9_-]{43}$/);
  assert.equal(await signInToken(key, id), token);
  assert.equal(await isSignedToken(key, token), true);
  assert.equal(await isSignedToken(other, token), false);
  assert.equal(await isSignedToken(key, token.replace("s1.A", "s1.B")), false);
  assert.equal(await isSignedToken(key, `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`), false);
  for (const bad of ["", "s1.", token + "x", token.slice(3), `s2${token.slice(2)}`]) {
    assert.equal(await isSignedToken(key, bad), false, bad);
  }
  assert.equal(
    signInUrl("https://donate.example.org", "he", token),
    `https://donate.example.org/he/account/sign-in?t=${token}`,
  );
});

Deno.test("cardBrand: Visa, Mastercard (both ranges), American Express, else unknown", () => {
  assert.equal(cardBrand("458045******4580"), "Visa");
  assert.equal(cardBrand("540000******0001"), "Mastercard");
  assert.equal(cardBrand("222100******0001"), "Mastercard");
  assert.equal(cardBrand("272099******0001"), "Mastercard");
  assert.equal(cardBrand("272100******0001"), null);
  assert.equal(cardBrand("371449*****8431"), "American Express");
  assert.equal(cardBrand("******4580"), null);
  assert.equal(cardBrand(null), null);
});
