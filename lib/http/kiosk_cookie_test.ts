/** The kiosk device cookie: its attributes (Secure in production only) and reading it back. */
import assert from "node:assert/strict";
import { deviceCookie, readDeviceCookie } from "./kiosk_cookie.ts";

const CREDENTIAL = "ab".repeat(32);

Deno.test("deviceCookie: HttpOnly, SameSite=Strict, path /, long-lived; Secure in production only", () => {
  assert.equal(
    deviceCookie(CREDENTIAL, { env: "development" }),
    `kiosk_device=${CREDENTIAL}; Path=/; Max-Age=34560000; HttpOnly; SameSite=Strict`,
  );
  assert.equal(
    deviceCookie(CREDENTIAL, { env: "production" }),
    `kiosk_device=${CREDENTIAL}; Path=/; Max-Age=34560000; HttpOnly; SameSite=Strict; Secure`,
  );
});

Deno.test("readDeviceCookie: the cookie among others, or null", () => {
  const req = (cookie?: string) =>
    new Request("http://x/", { headers: cookie === undefined ? {} : { cookie } });
  assert.equal(readDeviceCookie(req(`lang=he; kiosk_device=${CREDENTIAL}; other=1`)), CREDENTIAL);
  assert.equal(readDeviceCookie(req(`kiosk_device_x=1; lang=he`)), null);
  assert.equal(readDeviceCookie(req("kiosk_device=")), null);
  assert.equal(readDeviceCookie(req()), null);
});
