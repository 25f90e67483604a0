/**
 * Switching a feature flag from the back office: owners only, audited with from/to in the same
 * write, nothing written for the same value, a value the configuration holds refused, and a lost
 * race told rather than overwritten.
 */
import assert from "node:assert/strict";
import { RoleRefusedError } from "@/lib/staff/errors.ts";
import { openStore } from "@/lib/storage/mod.ts";
import type { Admin } from "@/lib/storage/types.ts";
import { changeFlag, FlagChangedMeanwhileError, FlagEnforcedError, flagSettings } from "./settings.ts";

const admin = (role: Admin["role"]): Admin => ({
  id: `adm_${role}_0123456789abcdef`,
  email: `${role}@museum.org`,
  name: String(role),
  passwordHash: "x",
  status: "approved",
  role,
  createdAt: "2026-11-01T00:00:00.000Z",
  decidedBy: null,
  decidedAt: null,
});

Deno.test("changeFlag: owners only, audited from/to, idempotent, held values and lost races refused", async () => {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    await store.flags.seed({ MONTHLY_PAYMENT: true, TEST_TERMINAL_PAYMENT: false });
    const owner = { admin: admin("owner"), address: "203.0.113.1" };
    const at = new Date("2026-11-24T10:00:00.000Z");
    await assert.rejects(
      changeFlag(store, { admin: admin("admin"), address: "x" }, "MONTHLY_PAYMENT", false),
      RoleRefusedError,
    );
    const after = await changeFlag(store, owner, "MONTHLY_PAYMENT", false, {}, at);
    assert.deepEqual(after.map((f) => [f.flag, f.enabled]), [["MONTHLY_PAYMENT", false], [
      "TEST_TERMINAL_PAYMENT",
      false,
    ]]);
    await changeFlag(store, owner, "MONTHLY_PAYMENT", false, {}, at); // the same value: no entry
    await assert.rejects(
      changeFlag(store, owner, "TEST_TERMINAL_PAYMENT", true, { TEST_TERMINAL_PAYMENT: false }, at),
      (e) => e instanceof FlagEnforcedError && /FEATURE_TEST_TERMINAL_PAYMENT/.test(e.message),
    );
    const log = await store.audit.list({}, 10);
    assert.deepEqual(log.map((e) => [e.action, e.at, e.actorId, e.address, e.target, e.changes]), [
      ["flag-changed", at.toISOString(), owner.admin.id, "203.0.113.1", "MONTHLY_PAYMENT", {
        MONTHLY_PAYMENT: { from: true, to: false },
      }],
    ]);
    // A change landing between the read and the write: this one is refused, nothing written.
    const racing = {
      ...store,
      flags: {
        ...store.flags,
        get: async (flag: string) => {
          const seen = await store.flags.get(flag);
          await store.flags.set(flag, !seen!.enabled);
          return seen;
        },
      },
    };
    await assert.rejects(changeFlag(racing, owner, "TEST_TERMINAL_PAYMENT", true), FlagChangedMeanwhileError);
    assert.equal((await store.audit.list({}, 10)).length, 1);
    assert.equal((await flagSettings(store))[1].enabled, true, "the other change stands");
  } finally {
    await store.close();
  }
});
