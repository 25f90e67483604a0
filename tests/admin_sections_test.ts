/**
 * The back office by section (issue 26), as the server and the build have it:
 *
 * - each section's roles (`lib/shared/admin_sections.ts`) are those of the API calls its page makes,
 *   read from the routes' own `roles` exports; the calls are listed here, and every API path in the
 *   JavaScript a section's page loads must be one of them (so the list cannot fall behind the code);
 * - each section's page loads its own island and the shell, no other section's island nor any other
 *   section's calls;
 * - the old addresses lead to the new ones, with their query: `/{lang}/admin/donor` to
 *   `/{lang}/admin/donors`, and the dashboard's history views (`/{lang}/admin?type=…`) to
 *   `/{lang}/admin/transactions`.
 */
import assert from "node:assert/strict";
import { currentBuild } from "@/lib/framework/assets.ts";
import { pageWeight } from "@/lib/framework/page_weight.ts";
import { ADMIN_SECTIONS, type SectionId } from "@/lib/shared/admin_sections.ts";
import type { AdminRole, RouteRoles } from "@/lib/staff/roles.ts";
import manifest from "@/manifest.gen.ts";
import { ROOT, startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { discoverRoutes } from "@/tests/reliability/fuzz_support.ts";

type Call = `${"GET" | "POST" | "PUT" | "DELETE"} /api/${string}`;

/** The API calls each section's page makes (its island and what it renders), beyond the shell's. */
const CALLS: Record<SectionId, Call[]> = {
  // "What needs me today" (issue 26, item 2): one call, answering only the role's parts; and the
  // registrations waiting for approval, for owners.
  overview: [
    "GET /api/overview",
    "GET /api/auth/admin/pending",
    "POST /api/auth/admin/{id}/approve",
    "POST /api/auth/admin/{id}/reject",
  ],
  transactions: [
    "GET /api/transaction/daily-totals",
    "GET /api/transaction/daily-totals.svg",
    "GET /api/transaction/get-all-success-transactions",
    "GET /api/transaction/get-all-error-transactions",
    "GET /api/transaction/export",
    "GET /api/transaction/{id}/receipt",
    "POST /api/transaction/{id}/resend-receipt",
    "GET /api/transaction/{id}/refunds",
    "POST /api/transaction/{id}/refund",
    "POST /api/transaction/{id}/refund-outcome",
  ],
  donors: ["GET /api/donor"],
  members: [
    "GET /api/memberships",
    "GET /api/memberships/export",
    "GET /api/memberships/{number}",
    "PUT /api/memberships/{number}/cardholders",
    "POST /api/memberships/{number}/resend-card",
    "GET /api/memberships/{number}/visits",
  ],
  // The front desk (issue 28): today's visits, and the link to the desk page.
  desk: ["GET /api/visits"],
  reports: [
    "GET /api/reports/monthly",
    "GET /api/reports/monthly.svg",
    "GET /api/reports/monthly.csv",
    "GET /api/donor/cancel-reasons",
    "GET /api/reports/memberships",
    "GET /api/visits/report",
  ],
  kiosks: [
    "GET /api/kiosk-devices",
    "POST /api/kiosk-devices",
    "POST /api/kiosk-devices/{id}/pairing-code",
    "POST /api/kiosk-devices/{id}/revoke",
  ],
  email: ["GET /api/outbox"],
  staff: [
    "GET /api/auth/admin/staff",
    "POST /api/auth/admin/{id}/role",
    "POST /api/auth/admin/{id}/deactivate",
    "GET /api/auth/admin/pending",
    "POST /api/auth/admin/{id}/approve",
    "POST /api/auth/admin/{id}/reject",
  ],
  audit: ["GET /api/audit", "GET /api/audit/actors", "GET /api/audit/export"],
  settings: [
    "GET /api/settings/flags",
    "POST /api/settings/flags",
    "GET /api/settings/museum",
    "PUT /api/settings/museum",
    // The logo and the hero image (issue 27).
    "PUT /api/settings/museum/{image}",
    "DELETE /api/settings/museum/{image}",
  ],
};

/**
 * Sections whose page shows something every role of theirs may see without a call of its own: the
 * overview's links to the sections come from the list itself.
 */
const NEEDS_NO_CALL: SectionId[] = ["overview"];

/** The shell's calls, on every back-office page: who the admin is, refreshing and ending the session. */
const SHELL_CALLS = [
  "/api/auth/admin/me",
  "/api/auth/admin/refresh",
  "/api/auth/admin/logout",
  "/api/auth/admin/login",
  "/api/auth/admin/register",
  "/api/auth/admin/two-factor/verify",
];

/** Each admin route's declared roles, by "METHOD template". */
function declaredRoles(): Map<string, readonly AdminRole[]> {
  const out = new Map<string, readonly AdminRole[]>();
  for (const route of discoverRoutes()) {
    const roles = (manifest.routes as Record<string, { roles?: RouteRoles }>)[route.file]?.roles;
    for (const [method, allowed] of Object.entries(roles ?? {})) {
      out.set(`${method} ${route.template}`, allowed);
    }
  }
  return out;
}

const sorted = (roles: Iterable<AdminRole>) => [...new Set(roles)].sort();
/** The part of a call's path before its first parameter. */
const stem = (call: string) => call.slice(call.indexOf(" ") + 1).split("{")[0];

Deno.test("each section's roles are those of the API calls its page makes (the routes' `roles`)", () => {
  const declared = declaredRoles();
  for (const section of ADMIN_SECTIONS) {
    const union = new Set<AdminRole>();
    for (const call of CALLS[section.id]) {
      const roles = declared.get(call);
      assert.ok(roles, `${section.id}: ${call} is an admin route with declared roles`);
      // Nothing on the page is for a role the section does not show it to.
      assert.ok(
        roles.some((r) => section.roles.includes(r)),
        `${section.id}: ${call} is for none of its roles`,
      );
      roles.forEach((r) => union.add(r));
    }
    if (NEEDS_NO_CALL.includes(section.id)) {
      assert.ok([...union].every((r) => section.roles.includes(r)), section.id);
    } else {
      assert.deepEqual(sorted(section.roles), sorted(union), `${section.id}: its roles are its calls' roles`);
    }
  }
});

/** The JavaScript a page loads (file names and their text), less what every page of the site loads. */
async function pageScripts(app: TestApp, path: string, base: Set<string>) {
  const build = currentBuild().manifest;
  const html = await (await fetch(`${app.url}${path}`)).text();
  const files = pageWeight(html, build).files.filter((f) => !base.has(f));
  const text = (await Promise.all(files.map((f) => Deno.readTextFile(`${ROOT}/_build/static/${f}`)))).join(
    "\n",
  );
  return { files, text };
}

const islandName = (id: string) => `Admin${id[0].toUpperCase()}${id.slice(1)}`;

Deno.test("each section's page loads its own island and the shell, nothing of another section", async () => {
  const app = await startTestApp();
  try {
    const build = currentBuild().manifest;
    const base = new Set(pageWeight(await (await fetch(`${app.url}/en/no-such-page`)).text(), build).files);
    const pages = new Map<SectionId, { files: string[]; text: string }>();
    for (const s of ADMIN_SECTIONS) {
      pages.set(s.id, await pageScripts(app, `/en/admin/${s.path}`.replace(/\/$/, ""), base));
    }
    for (const section of ADMIN_SECTIONS) {
      const { files, text } = pages.get(section.id)!;
      const own = build.islands[islandName(section.id)];
      assert.ok(own && files.includes(own), `${section.id}: its island ${islandName(section.id)} is loaded`);
      // Every API path in its JavaScript is one of its calls or the shell's.
      const known = [...CALLS[section.id].map(stem), ...SHELL_CALLS];
      for (const [path] of text.matchAll(/\/api\/[\w\-./]*/g)) {
        assert.ok(known.some((k) => k.startsWith(path)), `${section.id} calls ${path}, not in CALLS`);
      }
      for (const other of ADMIN_SECTIONS.filter((o) => o.id !== section.id)) {
        const island = build.islands[islandName(other.id)];
        assert.ok(!files.includes(island), `${section.id} loads ${islandName(other.id)}`);
        // Another section's calls (those this one does not make itself) are not in its code.
        for (const call of CALLS[other.id]) {
          const path = stem(call);
          if (known.some((k) => k.startsWith(path))) continue;
          assert.ok(!text.includes(`"${path}`) && !text.includes(`\`${path}`), `${section.id} holds ${call}`);
        }
      }
      assert.ok(!("AdminDashboard" in build.islands), "the one-page dashboard is gone");
    }
  } finally {
    await app.close();
  }
});

Deno.test("the old addresses lead to the sections, with their query", async () => {
  const app = await startTestApp();
  try {
    const cases: [string, number, string][] = [
      ["/en/admin/donor?email=ada%40example.org", 301, "/en/admin/donors?email=ada%40example.org"],
      ["/he/admin/donor", 301, "/he/admin/donors"],
      ["/en/admin?type=error&page=2", 302, "/en/admin/transactions?type=error&page=2"],
      ["/he/admin?search=levi", 302, "/he/admin/transactions?search=levi"],
      ["/ru/admin?payment=monthly", 302, "/ru/admin/transactions?payment=monthly"],
    ];
    for (const [from, status, to] of cases) {
      const res = await fetch(`${app.url}${from}`, { redirect: "manual" });
      await res.body?.cancel();
      assert.equal(res.status, status, from);
      assert.equal(res.headers.get("location"), to, from);
    }
    // The overview itself, and with a query that is not the history's, is the overview.
    for (const path of ["/en/admin", "/en/admin?utm=mail"]) {
      const res = await fetch(`${app.url}${path}`, { redirect: "manual" });
      await res.body?.cancel();
      assert.equal(res.status, 200, path);
    }
  } finally {
    await app.close();
  }
});
