import assert from "node:assert/strict";
import { refusalOf } from "./payment_refusals.ts";

const tx = (key: string) => `[${key}]`;

Deno.test("refusalOf: a kiosk's refusal says why and how to pair, and links to the pairing page", () => {
  for (const reason of ["not-paired", "revoked", "wrong-shop"]) {
    const body = { message: "English for the API", errors: [{ path: "kioskDevice", message: reason }] };
    assert.deepEqual(refusalOf({ status: 403, body, retryAfter: null }, tx), {
      message: `[payment.errorPrefix][kiosk.refused.${reason}] [kiosk.pairHint]`,
      pairLink: true,
    });
  }
});

Deno.test("refusalOf: other refusals in the page's language, without the pairing link", () => {
  const answer = (status: number, body: unknown, retryAfter: string | null = null) =>
    refusalOf({ status, body: body as never, retryAfter }, tx);
  assert.deepEqual(answer(503, { message: "down" }), {
    message: "[payment.errorPrefix][payment.serviceUnavailable]",
    pairLink: false,
  });
  assert.equal(answer(429, null, "61").message, "[payment.errorPrefix][rateLimit.tooMany]");
  assert.deepEqual(
    answer(409, { message: "busy", errors: [{ path: "terminal", message: "in-use" }] }),
    { message: "[payment.errorPrefix][kiosk.terminalRefused.in-use]", pairLink: false },
  );
  // A 403 that is not about the device (test payments switched off) says the server's message.
  assert.deepEqual(answer(403, { message: "Test terminal payments are switched off" }), {
    message: "[payment.errorPrefix]Test terminal payments are switched off",
    pairLink: false,
  });
  assert.equal(answer(500, null).message, "[payment.errorPrefix][payment.defaultError]");
});

Deno.test("refusalOf: a 429's wait in whole minutes, 10 without Retry-After", () => {
  const minutes = (retryAfter: string | null) =>
    refusalOf({ status: 429, body: null, retryAfter }, (k) => k === "rateLimit.tooMany" ? "{{minutes}}" : "")
      .message;
  assert.equal(minutes("61"), "2");
  assert.equal(minutes("1"), "1");
  assert.equal(minutes(null), "10");
  assert.equal(minutes("soon"), "10");
});
