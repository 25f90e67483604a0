import assert from "node:assert/strict";
import type { MessageInput } from "@/lib/storage/message_types.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import {
  assertDirection,
  assertManageLink,
  fixture,
  message,
  NOW,
  subscription,
  transaction,
} from "@/tests/helpers/mail.ts";

Deno.test("every kind in ru, pt and es: its own language's words, no placeholder left, manage link", async () => {
  const { store, donor, render } = await fixture();
  try {
    const tx = transaction(donor, { createdAt: "2025-05-05T10:00:00.000Z" });
    await store.transactions.record(tx);
    const sub = await store.subscriptions.create(subscription(donor));
    await store.admins.create({
      id: "p1",
      email: "new@museum.example",
      name: "New",
      passwordHash: "x",
      status: "pending",
      role: null,
      createdAt: NOW.toISOString(),
      decidedBy: null,
      decidedAt: null,
    });
    await store.admins.create({
      id: "a1",
      email: "boss@museum.example",
      name: "Boss",
      passwordHash: "x",
      status: "approved",
      role: "owner",
      createdAt: NOW.toISOString(),
      decidedBy: null,
      decidedAt: null,
    });
    const to = { donorId: donor.id };
    const kinds: Omit<MessageInput, "key" | "language">[] = [
      { kind: "receipt", to, data: { transactionId: tx.id } },
      { kind: "monthly-welcome", to, data: { subscriptionId: sub.id } },
      { kind: "charge-failed", to, data: { subscriptionId: sub.id, transactionId: tx.id, retryAt: null } },
      { kind: "monthly-cancelled", to, data: { at: NOW.toISOString() } },
      { kind: "yearly-statement", to, data: { year: 2025 } },
      { kind: "manage-link", to, data: {} },
      { kind: "admin-pending", to: { admins: true }, data: { adminId: "p1" } },
      ...(["amount", "pause", "skip", "resume"] as const).map((change) => ({
        kind: "monthly-changed" as const,
        to,
        data: {
          subscriptionId: sub.id,
          change,
          amount: 7_500,
          currency: 1 as const,
          nextPaymentDate: NOW.toISOString(),
        },
      })),
    ];
    for (const lang of ["ru", "pt", "es"] as const) {
      for (const input of kinds) {
        const out = await render(message({ ...input, language: lang } as MessageInput));
        assert.ok(out, `${input.kind} ${lang}`);
        const english = (await render(message({ ...input, language: "en" } as MessageInput)))!;
        assert.notEqual(out.subject, english.subject, `${input.kind} ${lang}: translated`);
        assert.ok(!/\{\{|\}\}/.test(out.text + out.html), `${input.kind} ${lang}: no placeholder left`);
        assertDirection(out, lang as Lang);
        if (input.kind !== "admin-pending") await assertManageLink(out, donor, lang as Lang);
      }
    }
  } finally {
    await store.close();
  }
});
