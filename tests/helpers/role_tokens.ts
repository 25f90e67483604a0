/**
 * Signed-in admins of every role for API tests: an access token for each, made directly (no sign-in).
 *
 * @module
 */
import { ADMIN_ROLES, type AdminRole } from "@/lib/staff/roles.ts";
import { createAccessToken, deriveKey } from "@/lib/staff/tokens.ts";
import type { Store } from "@/lib/storage/types.ts";
import { adminFixture } from "@/tests/storage/fixtures.ts";
import type { TestApp } from "./app.ts";

/** A token for a new admin of each role, and for one still waiting for approval. */
export async function tokensFor(app: TestApp, store: Store): Promise<Map<AdminRole | "pending", string>> {
  const key = await deriveKey(app.config.appSecret, "admin-access-token/v1");
  const tokens = new Map<AdminRole | "pending", string>();
  for (const role of [...ADMIN_ROLES, "pending"] as const) {
    const admin = await store.admins.create(
      role === "pending" ? adminFixture() : adminFixture({ status: "approved", role }),
    );
    tokens.set(role, await createAccessToken(key, { adminId: admin.id }));
  }
  return tokens;
}
