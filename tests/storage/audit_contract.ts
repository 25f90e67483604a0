/**
 * The storage contract for the audit log (`store.audit`): entries stored canonical, listed newest
 * first under every filter (actor, action, both, a period) a page at a time, bad input refused,
 * nothing but append and list on the repository, and a cause's entry written in its own atomic
 * step (an approval's, only when the approval lands).
 *
 * @module
 */

import assert from "node:assert/strict";
import type { AuditEntry, AuditInput } from "@/lib/storage/types.ts";
import { adminFixture, at, uid } from "./fixtures.ts";
import { type ContractOptions, withStore, withTwo } from "./support.ts";

const entry = (o: Partial<AuditInput> = {}): AuditInput => ({
  action: "export",
  actorId: uid("admin"),
  actorEmail: "staff@museum.example",
  address: "203.0.113.7",
  ...o,
});

/** Pages through `list` `size` at a time until it ends; answers every entry. */
async function allPages(
  list: (before: AuditEntry | null) => Promise<AuditEntry[]>,
  size: number,
): Promise<AuditEntry[]> {
  const out: AuditEntry[] = [];
  for (let before: AuditEntry | null = null;;) {
    const page = await list(before);
    out.push(...page);
    if (page.length < size) return out;
    before = page[page.length - 1];
  }
}

/** The contract of `store.audit`. */
export async function auditContract(
  t: Deno.TestContext,
  { open, sharedData }: ContractOptions,
): Promise<void> {
  await t.step(
    "audit: append() stores canonical entries; bad input refused, nothing written",
    () =>
      withStore(open, async (store) => {
        const actorId = uid("admin");
        const [stored] = await store.audit.append([
          entry({ actorId, target: "tx_1", changes: { amount: { from: 100, to: 50 } } }),
        ], "2025-03-01T10:00:00Z");
        assert.deepEqual(stored, {
          id: stored.id,
          at: "2025-03-01T10:00:00.000Z",
          action: "export",
          actorId,
          actorEmail: "staff@museum.example",
          address: "203.0.113.7",
          target: "tx_1",
          changes: { amount: { from: 100, to: 50 } },
        });
        assert.deepEqual(await store.audit.list({ actorId }, 10), [stored]);
        const bad: Partial<AuditInput>[] = [
          { action: "delete-everything" as never },
          { address: "x".repeat(101) },
          { actorId: "" },
          { changes: { big: "x".repeat(4_001) } },
          { changes: [] as never },
        ];
        for (const o of bad) {
          await assert.rejects(() => store.audit.append([entry({ actorId, ...o })], at(0)), RangeError);
        }
        await assert.rejects(() => store.audit.append([entry({ actorId })], "yesterday"), RangeError);
        await assert.rejects(() => store.audit.list({ actorId, from: at(10), to: at(0) }, 10), RangeError);
        await assert.rejects(() => store.audit.list({ actorId }, 0), RangeError);
        assert.equal((await store.audit.list({ actorId }, 10)).length, 1, "refused calls wrote nothing");
      }),
  );

  await t.step(
    "audit: list() newest first under each filter and period, a page at a time",
    () =>
      withStore(open, async (store) => {
        const [ada, bob] = [uid("ada"), uid("bob")];
        const actions = ["refund", "export", "refund", "role-changed"] as const;
        const written: AuditEntry[] = [];
        for (let i = 0; i < 24; i++) {
          const actorId = i % 2 === 0 ? ada : bob;
          // Two entries per instant: the id orders them.
          written.push(...await store.audit.append([entry({ actorId, action: actions[i % 4] })], at(i >> 1)));
        }
        const newestFirst = (list: AuditEntry[]) =>
          [...list].sort((a, b) => a.at === b.at ? (a.id < b.id ? 1 : -1) : (a.at < b.at ? 1 : -1));
        const mine = written.filter((e) => e.actorId === ada || e.actorId === bob);
        const cases = [
          { filter: { actorId: ada }, expect: (e: AuditEntry) => e.actorId === ada },
          {
            filter: { actorId: bob, action: "export" as const },
            expect: (e: AuditEntry) => e.actorId === bob && e.action === "export",
          },
          {
            filter: { actorId: ada, from: at(3), to: at(9) },
            expect: (e: AuditEntry) => e.actorId === ada && e.at >= at(3) && e.at < at(9),
          },
        ];
        for (const { filter, expect } of cases) {
          const expected = newestFirst(mine.filter(expect));
          assert.ok(expected.length > 0);
          assert.deepEqual(await store.audit.list(filter, 1_000), expected, JSON.stringify(filter));
          assert.deepEqual(
            await allPages((before) => store.audit.list(filter, 5, before), 5),
            expected,
            `paged: ${JSON.stringify(filter)}`,
          );
        }
        // By action alone and unfiltered (other steps' entries too): ours are in order among them.
        const refunds = await store.audit.list({ action: "refund", from: at(0), to: at(12) }, 1_000);
        assert.ok(refunds.every((e) => e.action === "refund"));
        assert.deepEqual(
          refunds.filter((e) => e.actorId === ada || e.actorId === bob),
          newestFirst(mine.filter((e) => e.action === "refund")),
        );
        const all = await allPages((before) => store.audit.list({ from: at(0), to: at(12) }, 7, before), 7);
        assert.deepEqual(all.filter((e) => e.actorId === ada || e.actorId === bob), newestFirst(mine));
      }),
  );

  await t.step(
    "audit: append-only: the repository has no way to change or remove an entry",
    () =>
      withStore(open, (store) => {
        assert.deepEqual(Object.keys(store.audit).sort(), ["append", "list"]);
        return Promise.resolve();
      }),
  );

  await t.step(
    "audit: an approval's entry is written with it, and not when another decision won",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const approver = await a.admins.create(adminFixture({ status: "approved" }));
        const pending = await a.admins.create(adminFixture({ status: "pending" }));
        const decision = (status: "approved" | "rejected") => ({
          audit: [entry({
            actorId: approver.id,
            action: status === "approved" ? "admin-approved" as const : "admin-rejected" as const,
            target: pending.id,
          })],
        });
        // Two decisions at once (on two instances where the data is shared): one lands, with its entry.
        const results = await Promise.all([
          a.admins.setStatus(pending.id, "approved", approver.id, at(5), "pending", decision("approved")),
          b.admins.setStatus(pending.id, "rejected", approver.id, at(5), "pending", decision("rejected")),
        ]);
        const landed = results.filter((r) => r !== null);
        assert.equal(landed.length, 1);
        const entries = await a.audit.list({ actorId: approver.id }, 10);
        assert.equal(entries.length, 1);
        assert.equal(
          entries[0].action,
          landed[0]!.status === "approved" ? "admin-approved" : "admin-rejected",
        );
        assert.equal(entries[0].at, at(5));
        assert.equal(entries[0].target, pending.id);
      }),
  );
}
