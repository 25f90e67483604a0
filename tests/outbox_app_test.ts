/**
 * The app's own sender, as `createServices` starts it with `SMTP_URL` and a renderer: a donation's
 * receipt reaches a real SMTP server once, right after the payment (woken by the enqueue, well
 * before the sender's next poll), on both backends; stopping the app stops the sender.
 */
import assert from "node:assert/strict";
import type { RenderMessage } from "@/lib/outbox/outbox_sender.ts";
import { POLL_MS } from "@/lib/outbox/outbox_sender.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { createPayment, newDonor, payOnSandboxPage } from "@/tests/helpers/payments.ts";
import { startSmtp } from "@/tests/helpers/smtp.ts";
import { backendTest } from "@/tests/helpers/stores.ts";

const render: RenderMessage = (m) =>
  Promise.resolve({
    to: ["donor@example.org"],
    subject: `${m.kind} ${JSON.stringify(m.data)}`,
    text: "Thank you",
    html: "<p>Thank you</p>",
    attachments: [],
    dir: "ltr",
    language: m.language,
  });

backendTest("outbox: the app sends a donation's receipt once, right after the payment", async (_t, open) => {
  const smtp = await startSmtp();
  const app = await startTestApp({
    store: await open(),
    render,
    env: { SMTP_URL: smtp.url, MAIL_FROM: "donations@museum.example" },
  });
  try {
    assert.ok(app.services.mail.sender, "the sender runs");
    const userId = await newDonor(app, "Mail");
    const created = await createPayment(app, { amount: 25, currency: "nis", userId });
    const started = Date.now();
    await payOnSandboxPage(app, created.body.url);
    const [tx] = (await app.store.transactions.listSuccess({ page: 1, limit: 1 })).data;
    const [mail] = await smtp.waitFor(1, POLL_MS);
    // The sender's last pass ran at start, its next poll is POLL_MS after: only the wake is this quick.
    assert.ok(Date.now() - started < 2_000, "woken by the enqueue, not by the poll");
    assert.equal(mail.subject, `receipt {"transactionId":"${tx.id}"}`);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(smtp.received.length, 1);
    assert.equal((await app.store.outbox.get(`receipt:${tx.id}`))?.state, "sent");
  } finally {
    await app.close();
    await smtp.stop();
  }
});
