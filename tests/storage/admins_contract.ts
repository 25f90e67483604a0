/**
 * The storage contract for admins (`store.admins`): create and look up by id or normalized email,
 * a taken email refused (also under a race), the first registration approved exactly once
 * (`approveIfFirst`), and the lists by status that `setStatus()` keeps in step.
 *
 * @module
 */

import { type AdminStatus, EmailTakenError, LastOwnerError } from "@/lib/storage/types.ts";
import assert from "node:assert/strict";
import { adminFixture, at, uid } from "./fixtures.ts";
import { type ContractOptions, withStore, withTwo } from "./support.ts";

/** The contract of `store.admins`; steps that need "no approved admin yet" use fresh data. */
export async function adminsContract(
  t: Deno.TestContext,
  { open, sharedData, fresh }: ContractOptions,
): Promise<void> {
  await t.step(
    "admins: create(), get() and getByEmail() (normalized email); unknown is null",
    () =>
      withStore(open, async (store) => {
        const input = adminFixture({ email: "  Grace.Hopper@Museum.EXAMPLE " });
        const created = await store.admins.create(input);
        assert.deepEqual(created, { ...input, email: "grace.hopper@museum.example" });
        assert.deepEqual(await store.admins.get(input.id), created);
        assert.deepEqual(await store.admins.getByEmail("grace.hopper@museum.example"), created);
        assert.deepEqual(await store.admins.getByEmail(" GRACE.HOPPER@museum.example"), created);
        assert.deepEqual(await store.admins.get(uid("admin")), null);
        assert.deepEqual(await store.admins.getByEmail("nobody@museum.example"), null);
      }),
  );

  await t.step(
    "admins: a taken email (in any case) throws EmailTakenError, also under a race",
    () =>
      withTwo(fresh(), sharedData, async (a, b) => {
        const first = await a.admins.create(adminFixture({ email: "taken@museum.example" }));
        await assert.rejects(
          () => b.admins.create(adminFixture({ email: " TAKEN@Museum.Example" })),
          (error) => error instanceof EmailTakenError && error.name === "EmailTakenError",
        );
        assert.deepEqual(await a.admins.getByEmail("taken@museum.example"), first);
        assert.deepEqual((await a.admins.listByStatus("pending")).length, 1);
        // A reused id with a new email is refused too (not as a taken email).
        await assert.rejects(
          () => a.admins.create(adminFixture({ id: first.id, email: "other@museum.example" })),
          (error) => !(error instanceof EmailTakenError),
        );
        assert.deepEqual(await a.admins.getByEmail("other@museum.example"), null);

        const results = await Promise.allSettled(
          Array.from(
            { length: 5 },
            (_, i) =>
              (i % 2 ? a : b).admins.create(adminFixture({ email: "race@museum.example", createdAt: at(i) })),
          ),
        );
        assert.deepEqual(results.filter((r) => r.status === "fulfilled").length, 1);
        for (const r of results) {
          if (r.status === "rejected") assert.ok(r.reason instanceof EmailTakenError, String(r.reason));
        }
        assert.deepEqual((await a.admins.listByStatus("pending")).length, 2);
      }),
  );

  await t.step(
    "admins: approveIfFirst approves exactly one of 5 concurrent first registrations",
    () =>
      withTwo(fresh(), sharedData, async (a, b) => {
        const results = await Promise.all(
          Array.from(
            { length: 5 },
            (_, i) =>
              (i % 2 ? a : b).admins.create(adminFixture({ createdAt: at(i) }), { approveIfFirst: true }),
          ),
        );
        const approved = results.filter((admin) => admin.status === "approved");
        assert.deepEqual(approved.length, 1, `${approved.length} admins were approved`);
        assert.deepEqual(results.filter((admin) => admin.status === "pending").length, 4);
        // Approved by nobody, at registration.
        assert.deepEqual(approved[0].decidedBy, null);
        assert.deepEqual(approved[0].decidedAt, approved[0].createdAt);
        assert.deepEqual(await a.admins.listByStatus("approved"), approved);
        assert.deepEqual(await b.admins.get(approved[0].id), approved[0]);

        // Once an approved admin exists, approveIfFirst stores the admin as given.
        const later = await a.admins.create(adminFixture({ createdAt: at(10) }), { approveIfFirst: true });
        assert.deepEqual(later.status, "pending");
        const rejected = await a.admins.create(adminFixture({ status: "rejected" }), {
          approveIfFirst: true,
        });
        assert.deepEqual(rejected.status, "rejected");
        assert.deepEqual((await a.admins.listByStatus("approved")).length, 1);
      }),
  );

  await t.step(
    "admins: without approveIfFirst nothing is auto-approved; rejecting the last approved admin reopens it",
    () =>
      withStore(fresh(), async (store) => {
        const pending = await store.admins.create(adminFixture({ createdAt: at(0) }));
        assert.deepEqual(pending.status, "pending");
        // An approved admin who is not an owner (the last owner could not be rejected).
        const first = await store.admins.create(adminFixture({ createdAt: at(1), status: "approved" }));
        const notYet = await store.admins.create(adminFixture({ createdAt: at(1) }), {
          approveIfFirst: true,
        });
        assert.deepEqual(notYet.status, "pending");
        // "No approved admin exists" is decided on the current state, status changes included.
        await store.admins.setStatus(first.id, "rejected", pending.id, at(2));
        const again = await store.admins.create(adminFixture({ createdAt: at(3) }), { approveIfFirst: true });
        assert.deepEqual([again.status, again.role], ["approved", "owner"]);
        await store.admins.setStatus(pending.id, "approved", again.id, at(4));
        const notFirst = await store.admins.create(adminFixture({ createdAt: at(5) }), {
          approveIfFirst: true,
        });
        assert.deepEqual(notFirst.status, "pending");
      }),
  );

  await t.step(
    "admins: listByStatus() is oldest first; setStatus() moves an admin between lists",
    () =>
      withStore(fresh(), async (store) => {
        // Created out of order; two share an instant (then the id decides, byte order).
        const specs = [
          { id: "admin_c", createdAt: at(3_000) },
          { id: "admin_a", createdAt: at(1_000) },
          { id: "admin_e", createdAt: at(2_000) },
          { id: "admin_B", createdAt: at(2_000) },
        ];
        for (const spec of specs) await store.admins.create(adminFixture(spec));
        const ids = async (status: AdminStatus) => (await store.admins.listByStatus(status)).map((a) => a.id);
        assert.deepEqual(await ids("pending"), ["admin_a", "admin_B", "admin_e", "admin_c"]);
        assert.deepEqual(await ids("approved"), []);

        const before = await store.admins.get("admin_e");
        assert.ok(before);
        const approved = await store.admins.setStatus("admin_e", "approved", "admin_a", at(9_000));
        assert.deepEqual(approved, {
          ...before,
          status: "approved",
          role: "viewer",
          decidedBy: "admin_a",
          decidedAt: at(9_000),
        });
        assert.deepEqual(await store.admins.get("admin_e"), approved);
        assert.deepEqual(await store.admins.listByStatus("approved"), [approved]);
        assert.deepEqual(await ids("pending"), ["admin_a", "admin_B", "admin_c"]);

        await store.admins.setStatus("admin_c", "rejected", "admin_e", at(9_001));
        await store.admins.setStatus("admin_a", "rejected", "admin_e", at(9_002));
        assert.deepEqual(await ids("rejected"), ["admin_a", "admin_c"]);
        assert.deepEqual(await ids("pending"), ["admin_B"]);
        // Setting the same status again only changes who decided and when.
        const again = await store.admins.setStatus("admin_a", "rejected", "admin_B", at(9_003));
        assert.deepEqual([again?.decidedBy, again?.decidedAt], ["admin_B", at(9_003)]);
        assert.deepEqual(await ids("rejected"), ["admin_a", "admin_c"]);
        assert.deepEqual(await store.admins.setStatus("admin_unknown", "approved", "admin_e", at(1)), null);
      }),
  );

  await t.step(
    "admins: setStatus() with an expected status is conditional; of two decisions at once one wins",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const pending = await a.admins.create(adminFixture());
        assert.equal(await a.admins.setStatus(pending.id, "approved", "x", at(1), "rejected"), null);
        assert.equal((await b.admins.get(pending.id))?.status, "pending", "a refused change writes nothing");
        assert.equal(await a.admins.setStatus(uid("admin"), "approved", "x", at(1), "pending"), null);

        for (let round = 0; round < 3; round++) {
          const target = await a.admins.create(adminFixture());
          const [approve, reject] = await Promise.all([
            a.admins.setStatus(target.id, "approved", "admin_a", at(2), "pending"),
            b.admins.setStatus(target.id, "rejected", "admin_b", at(3), "pending"),
          ]);
          const winners = [approve, reject].filter((r) => r !== null);
          assert.equal(winners.length, 1, `round ${round}: exactly one decision lands`);
          const stored = await a.admins.get(target.id);
          assert.deepEqual(stored, winners[0]);
          const approvedIds = (await b.admins.listByStatus("approved")).map((x) => x.id);
          const rejectedIds = (await b.admins.listByStatus("rejected")).map((x) => x.id);
          assert.equal(approvedIds.includes(target.id), stored?.status === "approved");
          assert.equal(rejectedIds.includes(target.id), stored?.status === "rejected");
        }
      }),
  );

  await t.step(
    "admins: roles: the first auto-approved admin is the owner; approval gives a role (viewer by default)",
    () =>
      withStore(fresh(), async (store) => {
        const first = await store.admins.create(adminFixture(), { approveIfFirst: true });
        assert.deepEqual([first.status, first.role], ["approved", "owner"]);
        const second = await store.admins.create(adminFixture(), { approveIfFirst: true });
        assert.deepEqual([second.status, second.role], ["pending", null]);
        const third = await store.admins.create(adminFixture());
        const approved = await store.admins.setStatus(second.id, "approved", first.id, at(1), "pending", {
          role: "finance",
        });
        assert.equal(approved?.role, "finance");
        assert.equal((await store.admins.setStatus(third.id, "approved", first.id, at(1)))?.role, "viewer");
        const rejected = await store.admins.create(adminFixture());
        assert.equal((await store.admins.setStatus(rejected.id, "rejected", first.id, at(2)))?.role, null);
        assert.equal(await store.admins.setRole(rejected.id, "admin", at(3)), null, "only approved admins");
        assert.equal(await store.admins.setRole(uid("admin"), "admin", at(3)), null);
        await assert.rejects(() => store.admins.setRole(third.id, "root" as never, at(3)), RangeError);
        await assert.rejects(
          () => store.admins.create(adminFixture({ status: "approved", role: null })),
          RangeError,
        );
        await assert.rejects(() => store.admins.create(adminFixture({ role: "owner" })), RangeError);
        const deactivated = await store.admins.setStatus(
          third.id,
          "deactivated",
          first.id,
          at(4),
          "approved",
        );
        assert.deepEqual([deactivated?.status, deactivated?.role], ["deactivated", "viewer"]);
        assert.deepEqual((await store.admins.listByStatus("deactivated")).map((a) => a.id), [third.id]);
      }),
  );

  await t.step(
    "admins: the last owner is never demoted or deactivated, also when two owners demote each other at once",
    () =>
      withTwo(fresh(), sharedData, async (a, b) => {
        const owner = await a.admins.create(adminFixture(), { approveIfFirst: true });
        await assert.rejects(() => a.admins.setRole(owner.id, "admin", at(1)), LastOwnerError);
        await assert.rejects(
          () => a.admins.setStatus(owner.id, "deactivated", "x", at(1), "approved"),
          LastOwnerError,
        );
        assert.equal((await b.admins.get(owner.id))?.role, "owner", "a refused change writes nothing");
        for (let round = 0; round < 3; round++) {
          const other = await a.admins.create(adminFixture({ status: "approved", role: "owner" }));
          const results = await Promise.allSettled([
            a.admins.setRole(owner.id, "admin", at(2)),
            b.admins.setStatus(other.id, "deactivated", owner.id, at(2), "approved"),
          ]);
          const landed = results.filter((r) => r.status === "fulfilled");
          assert.equal(landed.length, 1, `round ${round}: exactly one lands`);
          const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
          assert.ok(refused.reason instanceof LastOwnerError);
          const owners = (await a.admins.listByStatus("approved")).filter((x) => x.role === "owner");
          assert.equal(owners.length, 1, `round ${round}: one owner left`);
          // Back to one owner named `owner` for the next round.
          if (owners[0].id !== owner.id) {
            await a.admins.setRole(owner.id, "owner", at(3));
            await a.admins.setRole(other.id, "viewer", at(3));
          }
        }
      }),
  );

  await t.step(
    "admins: a role change writes its audit entry with it, and none when refused",
    () =>
      withStore(fresh(), async (store) => {
        const owner = await store.admins.create(adminFixture(), { approveIfFirst: true });
        const staff = await store.admins.create(adminFixture({ status: "approved", role: "viewer" }));
        const entry = (target: string) => ({
          audit: [{
            action: "role-changed" as const,
            actorId: owner.id,
            actorEmail: owner.email,
            address: "203.0.113.7",
            target,
          }],
        });
        await store.admins.setRole(staff.id, "finance", at(5), entry(staff.id));
        await assert.rejects(
          () => store.admins.setRole(owner.id, "viewer", at(6), entry(owner.id)),
          LastOwnerError,
        );
        const log = await store.audit.list({ actorId: owner.id }, 10);
        assert.deepEqual(log.map((e) => [e.target, e.at]), [[staff.id, at(5)]]);
      }),
  );
}
