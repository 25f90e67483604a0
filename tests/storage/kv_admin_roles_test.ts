/**
 * Deno KV's `admin-roles` data migration: admins stored before roles get them when the store opens
 * (the oldest approved one the owner, later approved ones `admin`, pending and rejected none), and
 * the owner count it writes keeps the last owner from being demoted.
 *
 * @module
 */

import assert from "node:assert/strict";
import { LastOwnerError } from "@/lib/storage/types.ts";
import { openKvStore } from "./backends.ts";
import { adminFixture, at } from "./fixtures.ts";

Deno.test("kv: admins written before roles get roles when the store opens; the owner stays", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/old.kv`;
    // As an older version wrote them: no `role` field.
    const legacy = (id: string, status: "approved" | "pending" | "rejected", ms: number) => {
      const { role: _, ...admin } = adminFixture({ id, status, createdAt: at(ms) });
      return admin;
    };
    const old = [legacy("b_later", "approved", 2_000), legacy("a_first", "approved", 1_000)];
    const waiting = legacy("c_pending", "pending", 3_000);
    const kv = await Deno.openKv(path);
    for (const a of [...old, waiting]) {
      await kv.set(["admins", a.id], a);
      await kv.set(["admins_by_status", a.status, a.createdAt, a.id], a);
      await kv.set(["admins_by_email", a.email], a.id);
    }
    await kv.set(["admins_approved"], 2);
    kv.close();
    const store = await openKvStore(path);
    try {
      assert.equal((await store.admins.get("a_first"))?.role, "owner");
      assert.equal((await store.admins.get("b_later"))?.role, "admin");
      assert.equal((await store.admins.get("c_pending"))?.role, null);
      assert.deepEqual((await store.admins.listByStatus("approved")).map((a) => [a.id, a.role]), [
        ["a_first", "owner"],
        ["b_later", "admin"],
      ]);
      // The count the migration wrote: the only owner cannot be demoted; a second one can be, after.
      await assert.rejects(() => store.admins.setRole("a_first", "admin", at(5_000)), LastOwnerError);
      await store.admins.setRole("b_later", "owner", at(6_000));
      assert.equal((await store.admins.setRole("a_first", "finance", at(7_000)))?.role, "finance");
    } finally {
      await store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
