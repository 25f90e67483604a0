/**
 * The back office's list of sections: each has its page (a route file) and its own island, a name in
 * every language, and the roles the navigation shows it to. What each section's page calls, against
 * the routes' `roles`, is `tests/admin_sections_test.ts`.
 */
import assert from "node:assert/strict";
import { RESOURCES } from "@/lib/core/i18n.ts";
import { ADMIN_ROLES } from "./admin_roles.ts";
import { ADMIN_SECTIONS, maySee, sectionHref, sectionsFor } from "./admin_sections.ts";
import { LANGUAGES } from "./languages.ts";

const ROOT = new URL("../../", import.meta.url);
const exists = (path: string) => Deno.stat(new URL(path, ROOT)).then(() => true, () => false);
const islandOf = (id: string) => `islands/Admin${id[0].toUpperCase()}${id.slice(1)}.tsx`;

Deno.test("each section: its own page and its own island, a unique path", async () => {
  assert.equal(new Set(ADMIN_SECTIONS.map((s) => s.path)).size, ADMIN_SECTIONS.length);
  assert.equal(new Set(ADMIN_SECTIONS.map((s) => s.id)).size, ADMIN_SECTIONS.length);
  for (const s of ADMIN_SECTIONS) {
    const route = `routes/[lang]/admin/${s.path || "index"}.tsx`;
    assert.ok(await exists(route), `${s.id}: ${route}`);
    assert.ok(await exists(islandOf(s.id)), `${s.id}: ${islandOf(s.id)}`);
  }
  // The dashboard that held them all is gone.
  assert.equal(await exists("islands/AdminDashboard.tsx"), false);
});

Deno.test("each section's name, in every language (not English copies)", () => {
  for (const s of ADMIN_SECTIONS) {
    const english = s.label.split(".").reduce<unknown>((n, k) => (n as never)?.[k], RESOURCES.en);
    for (const lang of LANGUAGES) {
      const text = s.label.split(".").reduce<unknown>((n, k) => (n as never)?.[k], RESOURCES[lang]);
      assert.equal(typeof text, "string", `${lang}: ${s.label}`);
      if (lang !== "en") assert.notEqual(text, english, `${lang}: ${s.label} is translated`);
    }
  }
});

Deno.test("who sees what: the contract's table (issue 26)", () => {
  const seen = Object.fromEntries(ADMIN_ROLES.map((r) => [r, sectionsFor(r).map((s) => s.id)]));
  assert.deepEqual(seen, {
    owner: [
      "overview",
      "transactions",
      "donors",
      "members",
      "desk",
      "reports",
      "kiosks",
      "email",
      "staff",
      "audit",
      "settings",
    ],
    admin: ["overview", "transactions", "donors", "members", "desk", "reports", "kiosks", "email", "audit"],
    finance: ["overview", "transactions", "donors", "members", "reports"],
    viewer: ["overview", "transactions", "reports"],
    // The front desk (issue 28) sees its own section and nothing else.
    desk: ["desk"],
  });
  // Pending (no role yet) and a role the list does not know: nothing.
  assert.deepEqual(sectionsFor(null), []);
  assert.equal(maySee(null, "overview"), false);
  assert.equal(sectionHref("he", "overview"), "/he/admin");
  assert.equal(sectionHref("en", "email"), "/en/admin/email");
});
