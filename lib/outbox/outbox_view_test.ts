/**
 * The back office's view of the outbox: an error's addresses are masked, an item names neither the
 * message's key nor its recipient, pages follow the cursor to the end, and a cursor made with
 * another APP_SECRET (or edited) is refused.
 */
import assert from "node:assert/strict";
import { openStore } from "@/lib/storage/mod.ts";
import { maskAddresses, OutboxCursorError, outboxPage } from "./outbox_view.ts";

const SECRET = "outbox-view-test-secret-0123456789abcdef";

Deno.test("maskAddresses: every word with an @ is masked, the rest stays", () => {
  assert.equal(
    maskAddresses("550 5.1.1 <ada@example.org>: Recipient address rejected (bob@x.io)"),
    "550 5.1.1 ***@*** Recipient address rejected ***@***",
  );
  assert.equal(maskAddresses("connect ECONNREFUSED 127.0.0.1:25"), "connect ECONNREFUSED 127.0.0.1:25");
});

Deno.test("outboxPage: no key or donor id; pages to the end; a foreign or edited cursor is refused", async () => {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    const donorId = "donor_0123456789abcdef";
    await store.outbox.enqueue(
      [1, 2, 3].map((n) => ({
        key: `cancelled:${donorId}:${n}`,
        kind: "monthly-cancelled" as const,
        to: { donorId },
        language: "he",
        data: { at: `2026-11-0${n}T10:00:00.000Z` },
      })),
      "2026-11-24T10:00:00.000Z",
    );
    const first = await outboxPage(store, SECRET, null, 2);
    assert.equal(first.data.length, 2);
    assert.ok(first.nextCursor);
    assert.ok(!JSON.stringify(first).includes(donorId));
    assert.deepEqual(
      [first.data[0].kind, first.data[0].recipient, first.data[0].state, first.data[0].nextAttemptAt],
      ["monthly-cancelled", "donor", "queued", "2026-11-24T10:00:00.000Z"],
    );
    const second = await outboxPage(store, SECRET, first.nextCursor, 2);
    assert.equal(second.data.length, 1);
    assert.equal(second.nextCursor, null);
    assert.equal(new Set([...first.data, ...second.data].map((d) => d.id)).size, 3);
    await assert.rejects(outboxPage(store, `${SECRET}-other`, first.nextCursor, 2), OutboxCursorError);
    const edited = first.nextCursor.slice(0, -2) + (first.nextCursor.endsWith("AA") ? "BB" : "AA");
    await assert.rejects(outboxPage(store, SECRET, edited, 2), OutboxCursorError);
    await assert.rejects(outboxPage(store, SECRET, "not a cursor", 2), OutboxCursorError);
  } finally {
    await store.close();
  }
});
