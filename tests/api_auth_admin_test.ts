/**
 * `/api/auth/admin/*` and the auth matrix of every admin endpoint (every admin route of the route
 * manifest but the public calls, `helpers/admin_routes.ts`), on both backends: registration policy,
 * login, throttling, refresh rotation and reuse detection, logout, approvals.
 */
import assert from "node:assert/strict";
import { createAccessToken, deriveKey } from "@/lib/staff/tokens.ts";
import { protectedAdminOperations } from "@/tests/helpers/admin_routes.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { backendTest } from "@/tests/helpers/stores.ts";

const PASSWORD = "a-long-museum-passphrase";
const SUCCESS = "/api/transaction/get-all-success-transactions";
const ERRORS = "/api/transaction/get-all-error-transactions";

function registerAs(app: TestApp, email: string, name?: string) {
  return api(app.url, "POST", "/api/auth/admin/register", {
    email,
    password: PASSWORD,
    ...(name ? { name } : {}),
  });
}

backendTest("api: admin registration, approval and the auth matrix", async (t, open) => {
  const app = await startTestApp({ store: await open() });
  try {
    const first = await registerAs(app, "Curator@Museum.org", "Ana Curator");
    const second = await registerAs(app, "guide@museum.org");

    await t.step("register answers the profile and both tokens; the first admin is approved", () => {
      assert.equal(first.status, 201);
      assert.deepEqual(Object.keys(first.body).sort(), [
        "accessToken",
        "createdAt",
        "email",
        "id",
        "name",
        "refreshToken",
        "role",
        "status",
      ]);
      assert.equal(first.body.email, "curator@museum.org");
      assert.equal(first.body.role, "owner");
      assert.equal(first.body.name, "Ana Curator");
      assert.equal(first.body.status, "approved");
      assert.match(first.body.accessToken, /^[\w-]+\.[\w-]+\.[\w-]+$/);
      assert.match(first.body.refreshToken, /^[\w-]{43}$/);
      assert.ok(!("passwordHash" in first.body));
    });

    await t.step("later admins are pending, named from their email when no name is sent", () => {
      assert.equal(second.status, 201);
      assert.equal(second.body.status, "pending");
      assert.equal(second.body.name, "guide");
    });

    await t.step("registration refuses a taken email, weak passwords and bad input", async () => {
      const taken = await registerAs(app, "CURATOR@museum.org");
      assert.equal(taken.status, 409);
      assert.match(taken.body.message, /already exists/);
      const common = await api(app.url, "POST", "/api/auth/admin/register", {
        email: "x@m.org",
        password: "password",
      });
      assert.equal(common.status, 400);
      assert.match(common.body.message, /most common passwords/);
      const short = await api(app.url, "POST", "/api/auth/admin/register", {
        email: "x@m.org",
        password: "a1b2c",
      });
      assert.equal(short.status, 400);
      assert.match(short.body.message, /at least 6 characters/);
      const badName = await api(app.url, "POST", "/api/auth/admin/register", {
        email: "x@m.org",
        password: PASSWORD,
        name: "A",
      });
      assert.equal(badName.status, 400);
      assert.match(badName.body.message, /name must be at least 2/);
      const badEmail = await api(app.url, "POST", "/api/auth/admin/register", {
        email: "nope",
        password: PASSWORD,
      });
      assert.equal(badEmail.status, 400);
    });

    const firstToken = first.body.accessToken as string;
    const pendingToken = second.body.accessToken as string;

    await t.step("a pending admin can sign in and see itself, but gets 403 on admin data", async () => {
      const login = await api(app.url, "POST", "/api/auth/admin/login", {
        email: "guide@museum.org",
        password: PASSWORD,
      });
      assert.equal(login.status, 200);
      assert.equal(login.body.status, "pending");
      const me = await api(app.url, "GET", "/api/auth/admin/me", undefined, bearer(pendingToken));
      assert.equal(me.status, 200);
      assert.equal(me.body.status, "pending");
      for (const path of [SUCCESS, ERRORS, "/api/auth/admin/pending", "/api/kiosk-devices"]) {
        const res = await api(app.url, "GET", path, undefined, bearer(pendingToken));
        assert.equal(res.status, 403, path);
        assert.match(res.body.message, /waiting for approval/);
      }
      const approveSelf = await api(
        app.url,
        "POST",
        `/api/auth/admin/${first.body.id}/approve`,
        undefined,
        bearer(pendingToken),
      );
      assert.equal(approveSelf.status, 403);
      // A pending admin cannot create a kiosk that could start card sales.
      const kiosk = await api(app.url, "POST", "/api/kiosk-devices", {
        name: "Hall",
        shopNumber: "12",
      }, bearer(pendingToken));
      assert.equal(kiosk.status, 403);
      assert.deepEqual(await app.store.kioskDevices.list(), []);
    });

    await t.step(
      "the auth matrix: every admin route of the manifest but the public ones × no token, garbage, expired, " +
        "forged, alg none, refresh token → 401",
      async () => {
        const key = await deriveKey(app.config.appSecret, "admin-access-token/v1");
        const expired = await createAccessToken(
          key,
          { adminId: first.body.id },
          new Date(Date.now() - 3600_000),
        );
        const forged = await createAccessToken(
          await deriveKey("another-secret-0123456789abcdef0123", "admin-access-token/v1"),
          {
            adminId: first.body.id,
          },
        );
        const b64 = (o: unknown) =>
          btoa(JSON.stringify(o)).replaceAll("=", "").replaceAll("+", "-").replaceAll("/", "_");
        const now = Math.floor(Date.now() / 1000);
        const none = `${b64({ alg: "none", typ: "at+jwt" })}.${
          b64({
            sub: first.body.id,
            iss: "museum-donations",
            aud: "museum-donations/admin-api",
            iat: now,
            exp: now + 600,
          })
        }.`;
        const headers: [string, Record<string, string>][] = [
          ["none", {}],
          ["garbage", bearer("not-a-token")],
          ["basic", { authorization: "Basic YTpi" }],
          ["expired", bearer(expired)],
          ["forged", bearer(forged)],
          ["alg none", bearer(none)],
          ["refresh token", bearer(first.body.refreshToken)],
        ];
        // From the route manifest, so a new admin route without protection fails here.
        const endpoints: [string, string][] = protectedAdminOperations().map((o) => [
          o.method,
          o.template.replace("{id}", second.body.id),
        ]);
        for (
          const listed of [
            ["GET", SUCCESS],
            ["GET", ERRORS],
            ["GET", "/api/auth/admin/pending"],
            ["GET", "/api/auth/admin/me"],
            ["POST", `/api/auth/admin/${second.body.id}/approve`],
            ["POST", `/api/auth/admin/${second.body.id}/reject`],
            ["GET", "/api/kiosk-devices"],
            ["POST", "/api/kiosk-devices"],
            ["POST", `/api/kiosk-devices/${second.body.id}/pairing-code`],
            ["POST", `/api/kiosk-devices/${second.body.id}/revoke`],
            ["GET", `/api/transaction/${second.body.id}/receipt`],
            ["POST", `/api/transaction/${second.body.id}/resend-receipt`],
            ["GET", "/api/outbox"],
            ["GET", "/api/donor"],
            ["GET", "/api/donor/cancel-reasons"],
          ]
        ) {
          assert.ok(
            endpoints.some(([m, p]) => m === listed[0] && p === listed[1]),
            `${listed.join(" ")} is covered`,
          );
        }
        for (const [method, path] of endpoints) {
          for (const [label, h] of headers) {
            const res = await api(app.url, method, path, undefined, h);
            assert.equal(res.status, 401, `${method} ${path} with ${label}`);
            assert.equal(res.body.statusCode, 401);
          }
          // The token itself is good: the same call (a GET of no one record; `me` for the others)
          // answers it. Read as bytes: the CSV export is not JSON.
          // (The donor view needs an email address, the front desk's look-ups a card, number or
          // search: `me` too.) A path still holding a placeholder (`{number}`) names one record too.
          const listing = method === "GET" && !path.includes(second.body.id) && !path.includes("{") &&
            !["/api/donor", "/api/visits/member", "/api/visits/search"].includes(path);
          const ok = await fetch(app.url + (listing ? path : "/api/auth/admin/me"), {
            headers: bearer(firstToken),
          });
          await ok.body?.cancel();
          assert.equal(ok.status, 200, `${path} with a valid token`);
        }
      },
    );

    await t.step("an approved admin lists, approves and rejects pending admins", async () => {
      const third = await registerAs(app, "intern@museum.org");
      const pending = await api(app.url, "GET", "/api/auth/admin/pending", undefined, bearer(firstToken));
      assert.equal(pending.status, 200);
      assert.deepEqual(pending.body.map((a: { email: string }) => a.email), [
        "guide@museum.org",
        "intern@museum.org",
      ]);
      const approved = await api(
        app.url,
        "POST",
        `/api/auth/admin/${second.body.id}/approve`,
        undefined,
        bearer(firstToken),
      );
      assert.equal(approved.status, 200);
      assert.equal(approved.body.status, "approved");
      const again = await api(
        app.url,
        "POST",
        `/api/auth/admin/${second.body.id}/reject`,
        undefined,
        bearer(firstToken),
      );
      assert.equal(again.status, 409);
      const self = await api(
        app.url,
        "POST",
        `/api/auth/admin/${first.body.id}/approve`,
        undefined,
        bearer(firstToken),
      );
      assert.equal(self.status, 409);
      const unknown = await api(
        app.url,
        "POST",
        "/api/auth/admin/AAAAAAAAAAAAAAAAAAAAAAAA/approve",
        undefined,
        bearer(firstToken),
      );
      assert.equal(unknown.status, 404);
      const rejected = await api(
        app.url,
        "POST",
        `/api/auth/admin/${third.body.id}/reject`,
        undefined,
        bearer(firstToken),
      );
      assert.equal(rejected.body.status, "rejected");
      // Each decision that landed is in the audit log (the refused ones are not), newest first.
      // (The admin's other actions, an export among them, are in it too: only the decisions here.)
      const log = (await app.services.store.audit.list({ actorId: first.body.id }, 10))
        .filter((e) => e.action.startsWith("admin-"));
      assert.deepEqual(log.map((e) => [e.action, e.target, e.actorEmail]), [
        ["admin-rejected", third.body.id, "curator@museum.org"],
        ["admin-approved", second.body.id, "curator@museum.org"],
      ]);
      assert.ok(log.every((e) => e.address !== ""), "with the client's address");
      // Now approved, the second admin sees data; the rejected one can no longer sign in.
      assert.equal((await api(app.url, "GET", SUCCESS, undefined, bearer(pendingToken))).status, 200);
      const login = await api(app.url, "POST", "/api/auth/admin/login", {
        email: "intern@museum.org",
        password: PASSWORD,
      });
      assert.equal(login.status, 403);
      assert.equal(
        (await api(app.url, "GET", "/api/auth/admin/me", undefined, bearer(third.body.accessToken))).status,
        401,
      );
    });
  } finally {
    await app.close();
  }
});

backendTest("api: admin login, throttling, refresh rotation and logout", async (t, open) => {
  // Behind a trusted proxy, X-Forwarded-For tells the client address, so steps can differ in it.
  const app = await startTestApp({ store: await open(), env: { TRUST_PROXY: "1" } });
  try {
    await registerAs(app, "keeper@museum.org", "Keeper");
    const login = (email: string, password: string, address = "198.51.100.1") =>
      api(app.url, "POST", "/api/auth/admin/login", { email, password }, {
        "x-forwarded-for": `10.0.0.1, ${address}`,
      });

    await t.step("login answers the profile and tokens; wrong passwords and unknown emails 401", async () => {
      const ok = await login("KEEPER@museum.org ", PASSWORD);
      assert.equal(ok.status, 200);
      assert.equal(ok.body.email, "keeper@museum.org");
      assert.ok(ok.body.accessToken && ok.body.refreshToken);
      for (
        const [email, password] of [["keeper@museum.org", "wrong-password"], ["nobody@museum.org", PASSWORD]]
      ) {
        const res = await login(email, password);
        assert.equal(res.status, 401);
        assert.deepEqual(res.body, { message: "Invalid credentials", statusCode: 401 });
      }
      assert.equal((await login("", "")).status, 400);
    });

    await t.step("refresh rotates; a spent token used again revokes the whole family", async () => {
      const session = await login("keeper@museum.org", PASSWORD);
      const r1 = await api(app.url, "POST", "/api/auth/admin/refresh", {
        refreshToken: session.body.refreshToken,
      });
      assert.equal(r1.status, 200);
      assert.deepEqual(Object.keys(r1.body), ["data"]);
      assert.notEqual(r1.body.data.refreshToken, session.body.refreshToken);
      assert.equal(
        (await api(app.url, "GET", "/api/auth/admin/me", undefined, bearer(r1.body.data.accessToken))).status,
        200,
      );
      const reuse = await api(app.url, "POST", "/api/auth/admin/refresh", {
        refreshToken: session.body.refreshToken,
      });
      assert.equal(reuse.status, 401);
      assert.match(reuse.body.message, /already used/);
      const afterTheft = await api(app.url, "POST", "/api/auth/admin/refresh", {
        refreshToken: r1.body.data.refreshToken,
      });
      assert.equal(afterTheft.status, 401, "the newer token of the family is revoked too");
      const unknown = await api(app.url, "POST", "/api/auth/admin/refresh", { refreshToken: "x".repeat(43) });
      assert.equal(unknown.status, 401);
      assert.equal((await api(app.url, "POST", "/api/auth/admin/refresh", {})).status, 400);
    });

    await t.step("logout revokes the session; repeating it is fine", async () => {
      const session = await login("keeper@museum.org", PASSWORD);
      const out = await api(app.url, "POST", "/api/auth/admin/logout", {
        refreshToken: session.body.refreshToken,
      });
      assert.equal(out.status, 204);
      assert.equal(
        (await api(app.url, "POST", "/api/auth/admin/logout", { refreshToken: session.body.refreshToken }))
          .status,
        204,
      );
      const refresh = await api(app.url, "POST", "/api/auth/admin/refresh", {
        refreshToken: session.body.refreshToken,
      });
      assert.equal(refresh.status, 401);
    });

    await t.step(
      "past 5 failures in 15 minutes per email: 429 with Retry-After, even with the right password",
      async () => {
        await registerAs(app, "target@museum.org");
        for (let i = 0; i < 5; i++) {
          assert.equal(
            (await login("target@museum.org", `wrong-${i}-password`, `203.0.113.${i}`)).status,
            401,
          );
        }
        const blocked = await login("target@museum.org", PASSWORD, "203.0.113.99");
        assert.equal(blocked.status, 429);
        assert.match(blocked.body.message, /Too many failed sign-in attempts/);
        const retry = Number(blocked.headers.get("retry-after"));
        assert.ok(retry > 800 && retry <= 900, `Retry-After ${retry}`);
      },
    );

    await t.step("failures are counted per client address across emails", async () => {
      for (let i = 0; i < 5; i++) {
        assert.equal((await login(`nobody${i}@museum.org`, PASSWORD, "192.0.2.50")).status, 401);
      }
      const res = await login("keeper@museum.org", PASSWORD, "192.0.2.50");
      assert.equal(res.status, 429);
      assert.ok(Number(res.headers.get("retry-after")) > 0);
      assert.equal(
        (await login("keeper@museum.org", PASSWORD, "192.0.2.51")).status,
        200,
        "other addresses are fine",
      );
    });
  } finally {
    await app.close();
  }
});

backendTest("api: registration policy open and closed", async (t, open) => {
  for (const policy of ["open", "closed"] as const) {
    await t.step(policy, async () => {
      const app = await startTestApp({ store: await open(), env: { ADMIN_REGISTRATION: policy } });
      try {
        const a = await registerAs(app, "one@museum.org");
        const b = await registerAs(app, "two@museum.org");
        if (policy === "open") {
          assert.deepEqual([a.status, a.body.status, b.status, b.body.status], [
            201,
            "approved",
            201,
            "approved",
          ]);
        } else {
          assert.deepEqual([a.status, b.status], [403, 403]);
          assert.match(a.body.message, /Registration is closed/);
        }
      } finally {
        await app.close();
      }
    });
  }
});
