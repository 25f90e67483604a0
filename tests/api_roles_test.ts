/**
 * The back office's roles (issue 16) through the API: every protected admin route called as every
 * role (and as a pending admin), allowed exactly where its declared `roles` say; every such route
 * declares them; a viewer's lists hide personal data; an owner's role change and deactivation take
 * effect at the caller's next request, with the live tokens of a deactivated admin refused.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { AdminRole, RouteRoles } from "@/lib/staff/roles.ts";
import manifest from "@/manifest.gen.ts";
import { protectedAdminOperations } from "@/tests/helpers/admin_routes.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { tokensFor } from "@/tests/helpers/role_tokens.ts";
import { donorFixture, txFixture } from "@/tests/storage/fixtures.ts";
import { discoverRoutes } from "@/tests/reliability/fuzz_support.ts";

/** Calls any signed-in admin may make, whatever the role (pending ones too). */
const ANY_SIGNED_IN = ["/api/auth/admin/me"];

/** Each protected route's declared roles, read from its module. */
function declaredRoles(): Map<string, RouteRoles> {
  const out = new Map<string, RouteRoles>();
  for (const route of discoverRoutes()) {
    const mod = (manifest.routes as Record<string, { roles?: RouteRoles }>)[route.file];
    if (mod?.roles) out.set(route.template, mod.roles);
  }
  return out;
}

Deno.test("every protected admin route declares the roles of each of its methods", () => {
  const roles = declaredRoles();
  const missing = protectedAdminOperations()
    .filter((op) => !ANY_SIGNED_IN.includes(op.template))
    .filter((op) => !roles.get(op.template)?.[op.method as keyof RouteRoles]);
  assert.deepEqual(missing, [], "routes without declared roles");
});

backendTest("api: every admin route against every role", async (t, open) => {
  const store = await open();
  const app = await startTestApp({ store });
  try {
    const tokens = await tokensFor(app, store);
    const donor = await store.donors.create(donorFixture({ email: "ada.lovelace@example.org" }));
    await store.transactions.record(txFixture({
      donorId: donor.id,
      user: {
        firstName: "Ada",
        lastName: "Lovelace",
        email: "ada.lovelace@example.org",
      },
    }));
    const declared = declaredRoles();
    const ops = protectedAdminOperations();
    assert.ok(ops.length >= 15, `found ${ops.length} protected operations`);

    for (const op of ops) {
      await t.step(`${op.method} ${op.template}`, async () => {
        // Any id: an allowed caller gets past the role check and then 400, 404 or 409 at worst.
        const path = op.template.replace(/\{\w+\}/g, "AAAAAAAAAAAAAAAAAAAAAAAA");
        const body = op.method === "GET" ? undefined : {};
        for (const [who, token] of tokens) {
          // Raw: some answers are CSV or PDF; only a refusal's JSON is read.
          const res = await fetch(app.url + path, {
            method: op.method,
            headers: { ...bearer(token), ...(body ? { "content-type": "application/json" } : {}) },
            body: body ? JSON.stringify(body) : undefined,
          });
          const text = await res.text();
          const answer = { status: res.status, body: res.status === 403 ? JSON.parse(text) : null };
          const allowed = ANY_SIGNED_IN.includes(op.template) ||
            (who !== "pending" &&
              (declared.get(op.template)?.[op.method as keyof RouteRoles] ?? []).includes(who));
          if (allowed) {
            assert.ok(![401, 403].includes(answer.status), `${who}: answered ${answer.status}`);
          } else {
            assert.equal(answer.status, 403, `${who} must be refused`);
            assert.match(
              answer.body.message,
              who === "pending" ? /waiting for approval/ : new RegExp(`Your role \\(${who}\\)`),
            );
          }
        }
      });
    }

    await t.step("a viewer's lists show names and masked emails only", async () => {
      const list = (who: AdminRole) =>
        api(
          app.url,
          "GET",
          "/api/transaction/get-all-success-transactions",
          undefined,
          bearer(tokens.get(who)!),
        );
      const [viewer, finance] = [await list("viewer"), await list("finance")];
      assert.equal(finance.body.data[0].user.email, "ada.lovelace@example.org");
      assert.deepEqual(viewer.body.data[0].user, {
        firstName: "Ada",
        lastName: "Lovelace",
        email: "a***@example.org",
      });
      assert.equal(viewer.body.data[0].resultData.CreditCardNumber, "");
      assert.equal(viewer.body.data[0].receipt, null);
    });
  } finally {
    await app.close();
  }
});

backendTest(
  "api: owners change roles and deactivate accounts; the change holds at the next request",
  async (t, open) => {
    const store = await open();
    const app = await startTestApp({ store });
    try {
      const register = (email: string) =>
        api(app.url, "POST", "/api/auth/admin/register", { email, password: "a-long-museum-passphrase" });
      const owner = (await register("owner@museum.org")).body;
      assert.equal(owner.role, "owner", "the first admin is the owner");
      const staff = (await register("staff@museum.org")).body;
      assert.deepEqual([staff.status, staff.role], ["pending", null]);
      const asOwner = bearer(owner.accessToken);
      const asStaff = bearer(staff.accessToken);
      const EXPORT = "/api/transaction/export";

      await t.step("approval names the role; a bad role is a 400", async () => {
        const bad = await api(
          app.url,
          "POST",
          `/api/auth/admin/${staff.id}/approve`,
          { role: "root" },
          asOwner,
        );
        assert.equal(bad.status, 400);
        const ok = await api(
          app.url,
          "POST",
          `/api/auth/admin/${staff.id}/approve`,
          { role: "viewer" },
          asOwner,
        );
        assert.deepEqual([ok.status, ok.body.role], [200, "viewer"]);
        assert.equal((await api(app.url, "GET", EXPORT, undefined, asStaff)).status, 403);
      });

      await t.step("a role change applies to the same token's next request, and is audited", async () => {
        const changed = await api(
          app.url,
          "POST",
          `/api/auth/admin/${staff.id}/role`,
          { role: "finance" },
          asOwner,
        );
        assert.deepEqual([changed.status, changed.body.role], [200, "finance"]);
        const res = await fetch(`${app.url}${EXPORT}`, { headers: asStaff });
        await res.body?.cancel();
        assert.equal(res.status, 200);
        const staffList = await api(app.url, "GET", "/api/auth/admin/staff", undefined, asOwner);
        assert.deepEqual(staffList.body.map((a: { email: string; role: string }) => [a.email, a.role]), [
          ["owner@museum.org", "owner"],
          ["staff@museum.org", "finance"],
        ]);
        const log = await store.audit.list({ actorId: owner.id }, 10);
        assert.deepEqual(log.map((e) => [e.action, e.target, e.changes]), [
          ["role-changed", staff.id, { role: { from: "viewer", to: "finance" } }],
          ["admin-approved", staff.id, {
            status: { from: "pending", to: "approved" },
            role: { from: null, to: "viewer" },
          }],
        ]);
      });

      await t.step(
        "an owner cannot change their own role, nor leave the museum without an owner",
        async () => {
          const self = await api(
            app.url,
            "POST",
            `/api/auth/admin/${owner.id}/role`,
            { role: "viewer" },
            asOwner,
          );
          assert.equal(self.status, 409);
          const selfOff = await api(
            app.url,
            "POST",
            `/api/auth/admin/${owner.id}/deactivate`,
            undefined,
            asOwner,
          );
          assert.equal(selfOff.status, 409);
          const byStaff = await api(
            app.url,
            "POST",
            `/api/auth/admin/${owner.id}/deactivate`,
            undefined,
            asStaff,
          );
          assert.equal(byStaff.status, 403);
        },
      );

      await t.step(
        "deactivation refuses the admin's live access and refresh tokens, and its password",
        async () => {
          const off = await api(
            app.url,
            "POST",
            `/api/auth/admin/${staff.id}/deactivate`,
            undefined,
            asOwner,
          );
          assert.deepEqual([off.status, off.body.status], [200, "deactivated"]);
          assert.equal((await api(app.url, "GET", "/api/auth/admin/me", undefined, asStaff)).status, 401);
          const refreshed = await api(app.url, "POST", "/api/auth/admin/refresh", {
            refreshToken: staff.refreshToken,
          });
          assert.equal(refreshed.status, 401);
          const login = await api(app.url, "POST", "/api/auth/admin/login", {
            email: "staff@museum.org",
            password: "a-long-museum-passphrase",
          });
          assert.equal(login.status, 401);
          const again = await api(
            app.url,
            "POST",
            `/api/auth/admin/${staff.id}/deactivate`,
            undefined,
            asOwner,
          );
          assert.equal(again.status, 409);
          assert.equal((await store.audit.list({ action: "admin-deactivated" }, 10))[0]?.target, staff.id);
        },
      );
    } finally {
      await app.close();
    }
  },
);
