/**
 * Two-factor sign-in for the staff (issue 16) through the API, on both backends: enrolment with a
 * QR code and a first code (computed here with `otpauth`, as an authenticator app would), sign-in
 * in two steps, a code refused the second time in its window, recovery codes good once, wrong codes
 * counted by the login throttle with wrong passwords, the requirement for everyone leading an
 * account without two-factor to its enrolment (and nowhere else), an owner's reset; each change in
 * the audit log.
 *
 * @module
 */

import assert from "node:assert/strict";
import * as OTPAuth from "otpauth";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { backendTest } from "@/tests/helpers/stores.ts";

const PASSWORD = "a-long-museum-passphrase";
const LIST = "/api/transaction/get-all-success-transactions";

/** The code an authenticator app with `secret` shows `offsetSeconds` from now. */
const codeAt = (secret: string, offsetSeconds = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + offsetSeconds * 1000,
  });

backendTest("api: two-factor sign-in with TOTP and recovery codes", async (t, open) => {
  const app = await startTestApp({ store: await open(), env: { TRUST_PROXY: "1" } });
  // Each step signs in from its own address, so only its own attempts count for the address.
  let n = 0;
  const from = () => ({ "x-forwarded-for": `198.51.100.${++n}` });
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    api(app.url, method, path, body, headers);
  try {
    const owner =
      (await call("POST", "/api/auth/admin/register", { email: "owner@museum.org", password: PASSWORD }))
        .body;
    assert.equal(owner.role, "owner");
    const asOwner = bearer(owner.accessToken);
    let secret = "";
    let recoveryCodes: string[] = [];

    await t.step(
      "enrolment: a QR code and a secret, a wrong first code refused, a right one confirms",
      async () => {
        const before = await call("GET", "/api/auth/admin/two-factor", undefined, asOwner);
        assert.deepEqual(before.body, {
          enrolled: false,
          required: false,
          enrolmentDue: false,
          recoveryCodesLeft: 0,
        });
        const first = await call("POST", "/api/auth/admin/two-factor/enrol", undefined, asOwner);
        const enrol = await call("POST", "/api/auth/admin/two-factor/enrol", undefined, asOwner);
        assert.equal(enrol.status, 200);
        assert.notEqual(enrol.body.secret, first.body.secret, "a new start replaces the unconfirmed one");
        secret = enrol.body.secret;
        assert.match(secret, /^[A-Z2-7]{32}$/);
        assert.match(enrol.body.otpauthUri, /^otpauth:\/\/totp\/.*owner%40museum\.org\?.*secret=/);
        assert.match(enrol.body.qrSvg, /^<svg[^>]*>.*<\/svg>\s*$/s);
        assert.equal(enrol.headers.get("cache-control"), "no-store");

        const stale = await call("POST", "/api/auth/admin/two-factor/confirm", {
          code: codeAt(first.body.secret),
        }, asOwner);
        assert.equal(stale.status, 400, "the replaced secret's code does not confirm");
        assert.match(stale.body.message, /does not match/);
        const bad = await call("POST", "/api/auth/admin/two-factor/confirm", { code: "12" }, asOwner);
        assert.equal(bad.status, 400);
        const ok = await call(
          "POST",
          "/api/auth/admin/two-factor/confirm",
          { code: codeAt(secret) },
          asOwner,
        );
        assert.equal(ok.status, 200);
        recoveryCodes = ok.body.recoveryCodes;
        assert.equal(recoveryCodes.length, 10);
        assert.equal(new Set(recoveryCodes).size, 10);
        for (const c of recoveryCodes) assert.match(c, /^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);

        const again = await call(
          "POST",
          "/api/auth/admin/two-factor/confirm",
          { code: codeAt(secret) },
          asOwner,
        );
        assert.equal(again.status, 409);
        assert.equal(
          (await call("POST", "/api/auth/admin/two-factor/enrol", undefined, asOwner)).status,
          409,
        );
        const after = await call("GET", "/api/auth/admin/two-factor", undefined, asOwner);
        assert.deepEqual(after.body, {
          enrolled: true,
          required: false,
          enrolmentDue: false,
          recoveryCodesLeft: 10,
        });
        const [entry] = await app.store.audit.list({ action: "two-factor-enrolled" }, 10);
        assert.deepEqual([entry.actorId, entry.target, entry.changes], [owner.id, owner.id, {
          enrolled: { from: false, to: true },
        }]);
        const stored = await app.store.twoFactor.get(owner.id);
        assert.ok(stored && !stored.sealedSecret.includes(secret), "the secret is not stored in clear");
        assert.ok(!stored.recoveryHashes.some((h) => recoveryCodes.some((c) => h.includes(c))));
      },
    );

    const passwordStep = async (headers: Record<string, string>) => {
      const res = await call("POST", "/api/auth/admin/login", {
        email: "owner@museum.org",
        password: PASSWORD,
      }, headers);
      assert.equal(res.status, 200);
      return res.body;
    };

    await t.step(
      "sign-in: the password answers no session but a pending token; a code trades it",
      async () => {
        const address = from();
        const challenge = await passwordStep(address);
        assert.deepEqual(Object.keys(challenge).sort(), ["expiresAt", "pendingToken", "secondFactor"]);
        assert.equal(challenge.secondFactor, "totp");
        const verify = (code: string, pendingToken = challenge.pendingToken) =>
          call("POST", "/api/auth/admin/two-factor/verify", { pendingToken, code }, address);
        const replay = await verify(codeAt(secret));
        assert.equal(replay.status, 401, "the code that confirmed the enrolment is spent");
        assert.match(replay.body.message, /code is not valid/);
        const next = codeAt(secret, 30);
        const session = await verify(next);
        assert.equal(session.status, 200);
        assert.equal(session.body.email, "owner@museum.org");
        assert.equal((await call("GET", LIST, undefined, bearer(session.body.accessToken))).status, 200);
        assert.equal((await verify(next)).status, 401, "the same code twice in its window");
        const forged = await verify(next, owner.accessToken);
        assert.equal(forged.status, 401, "an access token is no pending token");
        assert.match(forged.body.message, /sign in again/);
        assert.equal((await verify(codeAt(secret, 60), challenge.pendingToken + "x")).status, 401);
      },
    );

    await t.step("a recovery code signs in once, in any case and with or without its dash", async () => {
      const address = from();
      const { pendingToken } = await passwordStep(address);
      const code = recoveryCodes[0].toLowerCase().replace("-", "");
      const ok = await call("POST", "/api/auth/admin/two-factor/verify", { pendingToken, code }, address);
      assert.equal(ok.status, 200);
      const twice = await call("POST", "/api/auth/admin/two-factor/verify", {
        pendingToken,
        code: recoveryCodes[0],
      }, address);
      assert.equal(twice.status, 401);
      const status = await call("GET", "/api/auth/admin/two-factor", undefined, bearer(ok.body.accessToken));
      assert.equal(status.body.recoveryCodesLeft, 9);
    });

    await t.step("wrong codes count toward the login throttle, with wrong passwords", async () => {
      // The spent recovery code above counted for the email: start from none.
      await app.store.throttle.clear("login:email:owner@museum.org");
      const address = from();
      const { pendingToken } = await passwordStep(address);
      const wrong = await call("POST", "/api/auth/admin/login", {
        email: "OWNER@museum.org",
        password: "wrong-pass",
      }, address);
      assert.equal(wrong.status, 401);
      // A code of an hour ahead: outside the window, so wrong.
      for (let i = 0; i < 4; i++) {
        const res = await call("POST", "/api/auth/admin/two-factor/verify", {
          pendingToken,
          code: codeAt(secret, 3600),
        }, address);
        assert.equal(res.status, 401, `wrong code ${i + 1}`);
      }
      const refused = await call("POST", "/api/auth/admin/two-factor/verify", {
        pendingToken,
        code: recoveryCodes[1],
      }, address);
      assert.equal(refused.status, 429, "even a right code, after 5 failures");
      assert.ok(Number(refused.headers.get("retry-after")) > 0);
      const elsewhere = await call("POST", "/api/auth/admin/login", {
        email: "owner@museum.org",
        password: PASSWORD,
      }, from());
      assert.equal(elsewhere.status, 429, "the email's failures count from any address");
      await app.store.throttle.clear("login:email:owner@museum.org");
    });
  } finally {
    await app.close();
  }
});

backendTest(
  "api: two-factor required for everyone, enrolment at the next request; an owner's reset",
  async (t, open) => {
    const app = await startTestApp({ store: await open() });
    const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      api(app.url, method, path, body, headers);
    try {
      const register = (email: string) =>
        call("POST", "/api/auth/admin/register", { email, password: PASSWORD });
      const owner = (await register("owner@museum.org")).body;
      const asOwner = bearer(owner.accessToken);
      const staff = (await register("staff@museum.org")).body;
      assert.equal(
        (await call("POST", `/api/auth/admin/${staff.id}/approve`, { role: "finance" }, asOwner)).status,
        200,
      );
      const asStaff = bearer(staff.accessToken);
      assert.equal((await call("GET", LIST, undefined, asStaff)).status, 200);

      await t.step("an owner requires it (audited once); a finance admin may not", async () => {
        const { secret } = (await call("POST", "/api/auth/admin/two-factor/enrol", undefined, asOwner)).body;
        await call("POST", "/api/auth/admin/two-factor/confirm", { code: codeAt(secret) }, asOwner);
        const refused = await call(
          "POST",
          "/api/auth/admin/two-factor/required",
          { required: true },
          asStaff,
        );
        assert.equal(refused.status, 403);
        const bad = await call("POST", "/api/auth/admin/two-factor/required", { required: "yes" }, asOwner);
        assert.equal(bad.status, 400);
        for (let i = 0; i < 2; i++) {
          const res = await call("POST", "/api/auth/admin/two-factor/required", { required: true }, asOwner);
          assert.deepEqual([res.status, res.body], [200, { required: true }]);
        }
        const entries = await app.store.audit.list({ action: "two-factor-required" }, 10);
        assert.deepEqual(entries.map((e) => [e.actorId, e.changes]), [[owner.id, {
          required: { from: false, to: true },
        }]]);
      });

      await t.step("an account without two-factor: its live token opens only enrolment", async () => {
        const refused = await call("GET", LIST, undefined, asStaff);
        assert.equal(refused.status, 403);
        assert.match(refused.body.message, /Two-factor sign-in is required/);
        assert.equal((await call("GET", LIST, undefined, asOwner)).status, 200, "the owner has two-factor");
        assert.equal((await call("GET", "/api/auth/admin/me", undefined, asStaff)).status, 200);
        const status = await call("GET", "/api/auth/admin/two-factor", undefined, asStaff);
        assert.deepEqual(status.body, {
          enrolled: false,
          required: true,
          enrolmentDue: true,
          recoveryCodesLeft: 0,
        });
        const login = await call("POST", "/api/auth/admin/login", {
          email: "staff@museum.org",
          password: PASSWORD,
        });
        assert.equal(login.status, 200);
        assert.equal(login.body.twoFactorEnrolmentDue, true, "the sign-in says enrolment is due");
        const fresh = bearer(login.body.accessToken);
        assert.equal((await call("GET", LIST, undefined, fresh)).status, 403);
        const { secret } = (await call("POST", "/api/auth/admin/two-factor/enrol", undefined, fresh)).body;
        const confirmed = await call(
          "POST",
          "/api/auth/admin/two-factor/confirm",
          { code: codeAt(secret) },
          fresh,
        );
        assert.equal(confirmed.status, 200);
        assert.equal(
          (await call("GET", LIST, undefined, fresh)).status,
          200,
          "enrolled: the session opens everything",
        );
        const next = await call("POST", "/api/auth/admin/login", {
          email: "staff@museum.org",
          password: PASSWORD,
        });
        assert.equal(next.body.secondFactor, "totp", "and the next sign-in asks for a code");
      });

      await t.step(
        "an owner resets an admin's two-factor (audited); the admin must enrol again",
        async () => {
          assert.equal(
            (await call("POST", `/api/auth/admin/${staff.id}/two-factor-reset`, undefined, asStaff)).status,
            403,
          );
          const ok = await call("POST", `/api/auth/admin/${staff.id}/two-factor-reset`, undefined, asOwner);
          assert.equal(ok.status, 204);
          const twice = await call(
            "POST",
            `/api/auth/admin/${staff.id}/two-factor-reset`,
            undefined,
            asOwner,
          );
          assert.equal(twice.status, 409);
          const unknown = await call(
            "POST",
            `/api/auth/admin/AAAAAAAAAAAAAAAAAAAAAAAA/two-factor-reset`,
            undefined,
            asOwner,
          );
          assert.equal(unknown.status, 404);
          const [entry] = await app.store.audit.list({ action: "two-factor-reset" }, 10);
          assert.deepEqual([entry.actorId, entry.target], [owner.id, staff.id]);
          const login = await call("POST", "/api/auth/admin/login", {
            email: "staff@museum.org",
            password: PASSWORD,
          });
          assert.equal(login.body.twoFactorEnrolmentDue, true);
          assert.equal((await call("GET", LIST, undefined, bearer(login.body.accessToken))).status, 403);
          const off = await call("POST", "/api/auth/admin/two-factor/required", { required: false }, asOwner);
          assert.deepEqual(off.body, { required: false });
          assert.equal((await call("GET", LIST, undefined, bearer(login.body.accessToken))).status, 200);
        },
      );
    } finally {
      await app.close();
    }
  },
);
