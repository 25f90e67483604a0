import assert from "node:assert/strict";
import { clearedSessionCookie, readSessionCookie, sessionCookie } from "./donor_cookie.ts";

Deno.test("donor session cookie: HttpOnly, SameSite=Lax, Secure only in production, at most its session", () => {
  const now = new Date("2026-01-01T00:00:00Z");
  const expires = new Date(now.getTime() + 86_400_000).toISOString();
  assert.equal(
    sessionCookie("tok", expires, { env: "production" }, now),
    "donor_session=tok; Path=/; Max-Age=86400; HttpOnly; SameSite=Lax; Secure",
  );
  assert.equal(
    sessionCookie("tok", expires, { env: "development" }, now),
    "donor_session=tok; Path=/; Max-Age=86400; HttpOnly; SameSite=Lax",
  );
  assert.match(
    clearedSessionCookie({ env: "production" }),
    /^donor_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax; Secure$/,
  );
  const req = new Request("http://x/", { headers: { cookie: "lang=he; donor_session=abc" } });
  assert.equal(readSessionCookie(req), "abc");
  assert.equal(readSessionCookie(new Request("http://x/")), null);
});
