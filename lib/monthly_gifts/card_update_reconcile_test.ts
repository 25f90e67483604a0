/**
 * Card updates' reconciliation (`card_update_reconcile.ts`) on the sandbox: a card confirmed at the
 * provider whose return and notification were both lost is put on the gift by the pass, once, with
 * one email; an attempt still in its grace period is left alone; an abandoned one is closed as
 * failed past the cutoff, the old card kept; a declined one is closed as declined.
 */
import assert from "node:assert/strict";
import { DANA, GOOD, log, NOW, sandboxContext, withGift } from "@/tests/helpers/card_gift.ts";
import { startCardUpdate } from "./card_update.ts";
import {
  CARD_RECONCILE_CUTOFF_MS,
  CARD_RECONCILE_GRACE_MS,
  reconcileCardUpdates,
} from "./card_update_reconcile.ts";

const later = (ms: number) => () => new Date(NOW.getTime() + ms);

Deno.test("card update reconciliation: a lost return and notification still put the new card on, once", async () => {
  await withGift("sandbox", async (store, sub) => {
    const { ctx, provider } = sandboxContext(store);
    const { attempt } = await startCardUpdate(ctx, { subscriptionId: sub.id, email: DANA.email }, "en");
    await provider.submitCard(attempt.providerRef!, GOOD); // paid at the provider; nobody told us
    const pass = (ms: number) => reconcileCardUpdates({ store, provider, log, now: later(ms) });

    // Within the grace period the donor may still be on the page: not asked.
    assert.deepEqual(await pass(CARD_RECONCILE_GRACE_MS - 1_000), {
      applied: 0,
      declined: 0,
      pending: 0,
      abandoned: 0,
    });
    assert.equal((await store.subscriptions.get(sub.id))!.token, "tok_old");

    assert.equal((await pass(CARD_RECONCILE_GRACE_MS + 1_000)).applied, 1);
    const after = (await store.subscriptions.get(sub.id))!;
    assert.notEqual(after.token, "tok_old");
    assert.match(after.cardMasked!, /9015$/);
    assert.equal((await store.cardUpdates.get(attempt.id))!.status, "applied");
    // Once: a second pass finds nothing open, and one email was queued.
    assert.deepEqual(await pass(CARD_RECONCILE_GRACE_MS + 60_000), {
      applied: 0,
      declined: 0,
      pending: 0,
      abandoned: 0,
    });
    const emails = (await store.outbox.listRecent(50)).filter((m) => m.kind === "card-updated");
    assert.equal(emails.length, 1);
  });
});

Deno.test("card update reconciliation: declined is closed as declined; abandoned is closed past the cutoff", async () => {
  await withGift("sandbox", async (store, sub) => {
    const { ctx, provider } = sandboxContext(store);
    const start = () => startCardUpdate(ctx, { subscriptionId: sub.id, email: DANA.email }, "he");
    const declined = (await start()).attempt;
    await provider.submitCard(declined.providerRef!, { ...GOOD, cardNumber: "4000 0000 0000 0002" });
    const abandoned = (await start()).attempt; // the donor never typed a card
    const pass = (ms: number) => reconcileCardUpdates({ store, provider, log, now: later(ms) });

    const first = await pass(CARD_RECONCILE_GRACE_MS + 1_000);
    assert.deepEqual([first.declined, first.pending, first.abandoned], [1, 1, 0]);
    assert.equal((await store.cardUpdates.get(declined.id))!.status, "declined");
    assert.equal((await store.cardUpdates.get(abandoned.id))!.status, "open", "asked again next pass");

    const last = await pass(CARD_RECONCILE_CUTOFF_MS + 1_000);
    assert.deepEqual([last.abandoned, last.pending], [1, 0]);
    assert.equal((await store.cardUpdates.get(abandoned.id))!.status, "failed");
    assert.equal((await store.subscriptions.get(sub.id))!.token, "tok_old", "the old card kept");
    assert.equal(
      (await store.cardUpdates.listOpen(later(CARD_RECONCILE_CUTOFF_MS * 2)().toISOString(), 10)).length,
      0,
    );
  });
});
