import assert from "node:assert/strict";
import { wakeOnMessages } from "./outbox_sender.ts";
import { openStore } from "@/lib/storage/mod.ts";
import type { MessageInput } from "@/lib/storage/types.ts";

const message = (key: string): MessageInput => ({
  key,
  kind: "sign-in-link",
  to: { donorId: "d1" },
  language: "en",
  data: { signInId: key },
});

const link = (hash: string) => ({
  hash,
  email: "ada@example.org",
  createdAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + 60_000).toISOString(),
  usedAt: null,
});

Deno.test("wakeOnMessages: the sender wakes after each cause that wrote messages, and only then", async () => {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    let wakes = 0;
    const woken = wakeOnMessages(store, () => wakes++);
    await woken.donorSessions.createSignIn(link("a".repeat(64)));
    assert.equal(wakes, 0, "no messages, no wake");
    await woken.donorSessions.createSignIn(link("b".repeat(64)), { messages: [message("k1")] });
    assert.equal(wakes, 1, "a sign-in link's email wakes the sender");
    await woken.outbox.enqueue([message("k2")], new Date().toISOString());
    assert.equal(wakes, 2);
    assert.equal(
      await woken.subscriptions.updateIfVersion("none", 1, {}, { messages: [message("k3")] }),
      null,
    );
    assert.equal(wakes, 3, "a gift change with its email wakes the sender");
    const at = new Date().toISOString();
    await woken.refunds.settle("tx", "r1", { state: "failed", error: "declined", at });
    assert.equal(wakes, 3);
    await woken.refunds.settle("tx", "r1", { state: "succeeded", providerRef: "c1", at }, {
      messages: [message("k4")],
    });
    assert.equal(wakes, 4, "a refund's email wakes the sender (it waited for the next poll)");
    assert.equal(typeof woken.donors.get, "function", "other repositories pass through");
  } finally {
    store.close();
  }
});
