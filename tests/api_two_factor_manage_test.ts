/**
 * A staff member managing their own two-factor sign-in through the API, on both backends: new
 * recovery codes for a current code from the app (the old codes stop working, the code is spent,
 * a recovery code or a wrong code refused), wrong codes counted by the login throttle, turning
 * two-factor off refused while it is required for everyone and done with a current code
 * otherwise; each change audited.
 *
 * @module
 */

import assert from "node:assert/strict";
import * as OTPAuth from "otpauth";
import { loginThrottleKeys } from "@/lib/staff/login_throttle.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { codeSequence } from "@/tests/helpers/two_factor.ts";
import { backendTest } from "@/tests/helpers/stores.ts";

const PASSWORD = "a-long-museum-passphrase";
const EMAIL = "owner@museum.org";

/** The code an authenticator app with `secret` shows `offsetSeconds` from now. */
const codeIn = (secret: string, offsetSeconds: number) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + offsetSeconds * 1000,
  });

backendTest("api: an admin's own two-factor: new recovery codes, turning it off", async (t, open) => {
  const app = await startTestApp({ store: await open() });
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    api(app.url, method, path, body, headers);
  const clearThrottle = () =>
    Promise.all(loginThrottleKeys(EMAIL, "127.0.0.1").map((key) => app.store.throttle.clear(key)));
  try {
    const owner = (await call("POST", "/api/auth/admin/register", { email: EMAIL, password: PASSWORD })).body;
    const asOwner = bearer(owner.accessToken);
    const { secret } = (await call("POST", "/api/auth/admin/two-factor/enrol", undefined, asOwner)).body;
    // Each code a later step than the last spent, and one the server still accepts when it is used,
    // however long a loaded machine takes between the steps.
    const nextCode = codeSequence(secret);
    const confirming = await nextCode();
    const confirmed = await call("POST", "/api/auth/admin/two-factor/confirm", { code: confirming }, asOwner);
    assert.equal(confirmed.status, 200);
    const oldCodes: string[] = confirmed.body.recoveryCodes;
    const newCodes = (code: string) =>
      call("POST", "/api/auth/admin/two-factor/recovery-codes", { code }, asOwner);
    const turnOff = (code: string) => call("POST", "/api/auth/admin/two-factor/disable", { code }, asOwner);

    await t.step(
      "new recovery codes: only for a current code from the app, once; the old ones stop working",
      async () => {
        const recovery = await newCodes(oldCodes[0]);
        assert.equal(recovery.status, 400, "a recovery code is not the phone");
        assert.match(recovery.body.message, /current 6-digit code/);
        assert.equal((await newCodes(codeIn(secret, 3600))).status, 400, "a code of an hour ahead");
        assert.equal((await newCodes(confirming)).status, 400, "the confirming code is spent");
        const current = await nextCode();
        const ok = await newCodes(current);
        assert.equal(ok.status, 200, JSON.stringify(ok.body));
        assert.equal(ok.headers.get("cache-control"), "no-store");
        const fresh: string[] = ok.body.recoveryCodes;
        assert.equal(fresh.length, 10);
        assert.ok(!fresh.some((c) => oldCodes.includes(c)));
        assert.equal((await newCodes(current)).status, 400, "the same code twice");
        const [entry] = await app.store.audit.list({ action: "two-factor-recovery-codes" }, 10);
        assert.deepEqual([entry.actorId, entry.target, entry.changes], [owner.id, owner.id, {
          recoveryCodes: { from: 10, to: 10 },
        }]);
        await clearThrottle();
        // Signing in: an old code no longer works, a new one does.
        const signIn = async (code: string) => {
          const { pendingToken } =
            (await call("POST", "/api/auth/admin/login", { email: EMAIL, password: PASSWORD }))
              .body;
          return await call("POST", "/api/auth/admin/two-factor/verify", { pendingToken, code });
        };
        assert.equal((await signIn(oldCodes[1])).status, 401);
        assert.equal((await signIn(fresh[0])).status, 200);
        await clearThrottle();
      },
    );

    await t.step("wrong codes count toward the login throttle", async () => {
      for (let i = 0; i < 5; i++) assert.equal((await newCodes("000000")).status, 400, `wrong code ${i + 1}`);
      // A code the server would accept (the throttle refuses before a code is checked or spent).
      const right = codeIn(secret, 0);
      const refused = await newCodes(right);
      assert.equal(refused.status, 429, "even a right code, after 5 failures");
      assert.ok(Number(refused.headers.get("retry-after")) > 0);
      assert.equal((await turnOff(right)).status, 429);
      await clearThrottle();
    });

    await t.step(
      "turning it off: refused while required for everyone, then done with a current code",
      async () => {
        const require = (required: boolean) =>
          call("POST", "/api/auth/admin/two-factor/required", { required }, asOwner);
        assert.equal((await require(true)).status, 200);
        // Refused before the code is checked, so the same code turns it off below.
        const code = await nextCode();
        const refused = await turnOff(code);
        assert.equal(refused.status, 409);
        assert.match(refused.body.message, /requires two-factor/);
        assert.equal((await require(false)).status, 200);
        assert.equal((await turnOff("123")).status, 400);
        const off = await turnOff(code);
        assert.equal(off.status, 204);
        const status = await call("GET", "/api/auth/admin/two-factor", undefined, asOwner);
        assert.deepEqual([status.body.enrolled, status.body.recoveryCodesLeft], [false, 0]);
        const [entry] = await app.store.audit.list({ action: "two-factor-disabled" }, 10);
        assert.deepEqual([entry.actorId, entry.changes], [owner.id, {
          twoFactor: { from: "set up", to: "none" },
        }]);
        // The password alone signs in again; there is nothing left to turn off or replace.
        const login = await call("POST", "/api/auth/admin/login", { email: EMAIL, password: PASSWORD });
        assert.equal(login.status, 200);
        assert.ok(login.body.accessToken, "a session, not a code step");
        assert.equal((await turnOff(codeIn(secret, 0))).status, 409);
        assert.equal((await newCodes(codeIn(secret, 0))).status, 409);
      },
    );
  } finally {
    await app.close();
  }
});
