/**
 * The outbox's sender against a real SMTP server (`smtp-server`, read back with `mailparser`), on
 * both backends: a message arrives once, as rendered, with its attachment and a Message-ID from its
 * key; a render with nothing to send skips it; a server that refuses (4xx, then 5xx) or is gone for
 * a while loses nothing and sends nothing twice once it is back; the last retry fails for good
 * with its reason; a holder that dies after claiming leaves the message to the next claim after
 * the lease (same Message-ID); two instances working one outbox send each message once.
 */
import assert from "node:assert/strict";
import { createLogger } from "@/lib/core/log.ts";
import type { Attachment } from "@/lib/storage/message_types.ts";
import { messageIdOf, OutboxSender, type RenderMessage } from "@/lib/outbox/outbox_sender.ts";
import { smtpTransport } from "@/lib/outbox/smtp.ts";
import type { MessageInput, Store } from "@/lib/storage/types.ts";
import { capturedLog } from "@/tests/helpers/fixtures.ts";
import { startSmtp, type TestSmtp } from "@/tests/helpers/smtp.ts";
import { backendTest } from "@/tests/helpers/stores.ts";

const FROM = "Museum donations <donations@museum.example>";
const quiet = createLogger(() => {});
const PDF: Attachment = {
  filename: "receipt.pdf",
  contentType: "application/pdf",
  content: new TextEncoder().encode("%PDF-1.4 a receipt"),
};

/**
 * The test's own renderer: a receipt to `<donorId>@donors.example`, with a PDF; "erased" donors:
 * none; "broken" ones: it throws (as a renderer whose storage read failed).
 */
const render: RenderMessage = (m) => {
  if ("donorId" in m.to && m.to.donorId === "broken") return Promise.reject(new Error("storage read failed"));
  return Promise.resolve(
    "donorId" in m.to && m.to.donorId.startsWith("erased") ? null : {
      to: ["donorId" in m.to ? `${m.to.donorId}@donors.example` : "admins@museum.example"],
      subject: `Receipt ${m.key}`,
      text: `Thank you (${m.language})`,
      html: `<p dir="${m.language === "he" ? "rtl" : "ltr"}">Thank you</p>`,
      attachments: [PDF],
      dir: m.language === "he" ? "rtl" : "ltr",
      language: m.language,
    },
  );
};

const receipt = (id: string, donorId = `donor-${id}`): MessageInput => ({
  key: `receipt:${id}`,
  kind: "receipt",
  to: { donorId },
  language: "he",
  data: { transactionId: id },
});

/** A controllable clock. */
function clock(start = Date.now()) {
  let now = start;
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

function sender(
  store: Store,
  smtp: TestSmtp,
  now: () => Date,
  holder = "test",
  retryScheduleMs = [1_000, 5_000],
  log = quiet,
) {
  return new OutboxSender({
    store,
    render,
    transport: smtpTransport(smtp.url, FROM),
    from: FROM,
    log,
    holder,
    now,
    retryScheduleMs,
  });
}

const subjects = (smtp: TestSmtp) => smtp.received.map((m) => m.subject).sort();

backendTest("outbox sender: delivered once through SMTP, as rendered", async (t, open) => {
  const store = await open();
  const smtp = await startSmtp();
  const time = clock();
  const s = sender(store, smtp, time.now);
  try {
    await t.step("a message arrives once, with its attachment and a Message-ID from its key", async () => {
      await store.outbox.enqueue([receipt("one")], time.now().toISOString());
      assert.deepEqual(await s.runOnce(), { sent: 1, retried: 0, failed: 0, skipped: 0 });
      const [mail] = await smtp.waitFor(1);
      assert.equal(mail.subject, "Receipt receipt:one");
      assert.equal(mail.text?.trim(), "Thank you (he)");
      assert.match(String(mail.html), /<p dir="rtl">Thank you<\/p>/);
      assert.equal(mail.from?.text, '"Museum donations" <donations@museum.example>');
      assert.deepEqual(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((a) => a.address) : [], [
        "donor-one@donors.example",
      ]);
      assert.equal(mail.messageId, messageIdOf("receipt:one", FROM));
      assert.match(mail.messageId!, /^<outbox\.[0-9a-f]{32}@museum\.example>$/);
      assert.equal(mail.headers.get("content-language"), "he");
      assert.equal(mail.attachments.length, 1);
      assert.equal(mail.attachments[0].filename, "receipt.pdf");
      assert.equal(mail.attachments[0].contentType, "application/pdf");
      assert.deepEqual(new Uint8Array(mail.attachments[0].content), PDF.content);
      const stored = await store.outbox.get("receipt:one");
      assert.deepEqual([stored?.state, stored?.attempts, stored?.settledAt], [
        "sent",
        1,
        time.now().toISOString(),
      ]);
      assert.deepEqual(await s.runOnce(), { sent: 0, retried: 0, failed: 0, skipped: 0 });
      assert.equal(smtp.received.length, 1);
    });

    await t.step("a render with nothing to send: skipped, nothing arrives", async () => {
      await store.outbox.enqueue([receipt("gone", "erased-donor")], time.now().toISOString());
      assert.deepEqual(await s.runOnce(), { sent: 0, retried: 0, failed: 0, skipped: 1 });
      const stored = await store.outbox.get("receipt:gone");
      assert.deepEqual([stored?.state, stored?.lastError], ["skipped", "nothing to send"]);
      assert.equal(smtp.received.length, 1);
    });

    await t.step("a render that fails: retried later like a refused send, with the reason", async () => {
      await store.outbox.enqueue([receipt("broken", "broken")], time.now().toISOString());
      assert.deepEqual(await s.runOnce(), { sent: 0, retried: 1, failed: 0, skipped: 0 });
      const stored = await store.outbox.get("receipt:broken");
      assert.deepEqual([stored?.state, stored?.lastError], ["queued", "render: storage read failed"]);
      assert.equal(stored?.dueAt, new Date(time.now().getTime() + 1_000).toISOString());
      assert.equal(smtp.received.length, 1);
    });
  } finally {
    await s.stop();
    await smtp.stop();
    await store.close();
  }
});

backendTest(
  "outbox sender: a server refusing or gone loses nothing and sends nothing twice",
  async (t, open) => {
    const store = await open();
    const smtp = await startSmtp();
    const time = clock();
    // Retries after 1, 5 and 10 seconds (of the test's clock), then failed for good.
    const { lines, log } = capturedLog();
    const s = sender(store, smtp, time.now, "test", [1_000, 5_000, 10_000], log);
    const keys = Array.from({ length: 12 }, (_, i) => `m${i}`);
    try {
      await store.outbox.enqueue(keys.map((k) => receipt(k)), time.now().toISOString());

      await t.step("451 (try later): every message waits for its retry, with the reason", async () => {
        smtp.refuse(451);
        assert.deepEqual(await s.runOnce(), { sent: 0, retried: 12, failed: 0, skipped: 0 });
        const m = await store.outbox.get("receipt:m0");
        assert.deepEqual([m?.state, m?.attempts], ["queued", 1]);
        assert.match(m!.lastError!, /451/);
        assert.equal(smtp.received.length, 0);
        // Not before the retry is due.
        assert.deepEqual(await s.runOnce(), { sent: 0, retried: 0, failed: 0, skipped: 0 });
      });

      await t.step("550 (refused) on the retry: still kept for the next one", async () => {
        smtp.refuse(550);
        time.advance(1_000);
        assert.deepEqual(await s.runOnce(), { sent: 0, retried: 12, failed: 0, skipped: 0 });
        assert.match((await store.outbox.get("receipt:m0"))!.lastError!, /550/);
      });

      await t.step("the server is gone: connection refused, kept for the next retry", async () => {
        await smtp.stop();
        time.advance(5_000);
        assert.deepEqual(await s.runOnce(), { sent: 0, retried: 12, failed: 0, skipped: 0 });
        const m = await store.outbox.get("receipt:m0");
        assert.deepEqual([m?.attempts, m?.state], [3, "queued"]);
        assert.match(m!.lastError!, /ECONNREFUSED|connect|Connection/i);
      });

      await t.step("back again: each message arrives exactly once", async () => {
        await smtp.listen();
        smtp.refuse(null);
        time.advance(10_000);
        assert.deepEqual(await s.runOnce(), { sent: 12, retried: 0, failed: 0, skipped: 0 });
        await smtp.waitFor(12);
        time.advance(60 * 60_000);
        assert.deepEqual(await s.runOnce(), { sent: 0, retried: 0, failed: 0, skipped: 0 });
        await new Promise((r) => setTimeout(r, 100));
        assert.deepEqual(subjects(smtp), keys.map((k) => `Receipt receipt:${k}`).sort());
        assert.equal(new Set(smtp.received.map((m) => m.messageId)).size, 12);
        assert.ok(smtp.refused >= 24, `the server refused ${smtp.refused} times`);
      });

      await t.step("after the last retry: failed for good, with the last reason", async () => {
        smtp.refuse(550);
        await store.outbox.enqueue([receipt("doomed")], time.now().toISOString());
        for (const wait of [0, 1_000, 5_000, 10_000]) {
          time.advance(wait);
          await s.runOnce();
        }
        const m = await store.outbox.get("receipt:doomed");
        assert.deepEqual([m?.state, m?.attempts, m?.dueAt], ["failed", 4, null]);
        assert.match(m!.lastError!, /550/);
        time.advance(24 * 60 * 60_000);
        assert.deepEqual(await s.runOnce(), { sent: 0, retried: 0, failed: 0, skipped: 0 });
        assert.equal(smtp.received.length, 12);
      });

      await t.step(
        "the log names messages by Message-ID and the server's codes, never a key or address",
        () => {
          const text = JSON.stringify(lines);
          assert.doesNotMatch(text, /receipt:|donor-|donors\.example/);
          const failed = lines.find((l) => l.msg === "outbox message failed for good")!;
          assert.deepEqual([failed.messageId, failed.responseCode], [
            messageIdOf("receipt:doomed", FROM),
            550,
          ]);
          assert.ok(
            lines.some((l) => l.msg === "outbox message not sent; retrying" && l.responseCode === 451),
          );
          assert.equal(lines.filter((l) => l.msg === "outbox message sent").length, 12);
        },
      );
    } finally {
      await s.stop();
      await smtp.stop();
      await store.close();
    }
  },
);

backendTest("outbox sender: a holder that dies after claiming; two instances at once", async (t, open) => {
  const store = await open();
  const smtp = await startSmtp();
  const time = clock();
  try {
    await t.step("claimed by a holder that died: sent by the next claim after the lease, once", async () => {
      await store.outbox.enqueue([receipt("orphan")], time.now().toISOString());
      const [claimed] = await store.outbox.claim("dead", time.now().toISOString(), 120_000, 10);
      assert.equal(claimed.key, "receipt:orphan");
      const s = sender(store, smtp, time.now, "alive");
      try {
        assert.deepEqual(await s.runOnce(), { sent: 0, retried: 0, failed: 0, skipped: 0 }, "still leased");
        time.advance(120_000);
        assert.deepEqual(await s.runOnce(), { sent: 1, retried: 0, failed: 0, skipped: 0 });
        const [mail] = await smtp.waitFor(1);
        assert.equal(mail.messageId, messageIdOf("receipt:orphan", FROM));
        const stored = await store.outbox.get("receipt:orphan");
        assert.deepEqual([stored?.state, stored?.attempts, stored?.claimedBy], ["sent", 2, "alive"]);
        // The dead holder's late word changes nothing.
        const late = { state: "queued", retryAt: time.now().toISOString(), reason: "late" } as const;
        assert.equal(await store.outbox.settle(claimed, late), false);
      } finally {
        await s.stop();
      }
    });

    await t.step("two instances working one outbox at once: 40 messages, each arrives once", async () => {
      // Two senders, each with its own transport (pool of connections), on one store: their claims
      // race through storage (two store handles racing is the contract suite's, two processes is
      // outbox_processes_test.ts).
      const [a, b] = [sender(store, smtp, time.now, "a"), sender(store, smtp, time.now, "b")];
      try {
        const keys = Array.from({ length: 40 }, (_, i) => `pair${i}`);
        await store.outbox.enqueue(keys.map((k) => receipt(k)), time.now().toISOString());
        const [ra, rb] = await Promise.all([a.runOnce(), b.runOnce()]);
        assert.equal(ra.sent + rb.sent, 40);
        await smtp.waitFor(41);
        await new Promise((r) => setTimeout(r, 100));
        const got = smtp.received.map((m) => m.subject).filter((s) => s?.includes("pair")).sort();
        assert.deepEqual(got, keys.map((k) => `Receipt receipt:${k}`).sort());
      } finally {
        await a.stop();
        await b.stop();
      }
    });
  } finally {
    await smtp.stop();
    await store.close();
  }
});

backendTest("outbox sender: a message slow to render holds up none enqueued after it", async (_t, open) => {
  const store = await open();
  const smtp = await startSmtp();
  // The first receipt's render waits until the end (a receipt number waiting for storage, say).
  let release = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  let slowStarted = () => {};
  const slowRendering = new Promise<void>((resolve) => slowStarted = resolve);
  const s = new OutboxSender({
    store,
    render: async (m) => {
      if (m.key === "receipt:slow") {
        slowStarted();
        await held;
      }
      return await render(m);
    },
    transport: smtpTransport(smtp.url, FROM),
    from: FROM,
    log: quiet,
    holder: "test",
  });
  try {
    await store.outbox.enqueue([receipt("slow")], new Date().toISOString());
    s.start();
    await slowRendering;
    // Enqueued while the slow one renders, and the sender woken, as the app does after an enqueue.
    await store.outbox.enqueue([receipt("quick-1"), receipt("quick-2")], new Date().toISOString());
    s.wake();
    await smtp.waitFor(2, 3_000);
    assert.deepEqual(subjects(smtp), ["Receipt receipt:quick-1", "Receipt receipt:quick-2"]);
    release();
    await smtp.waitFor(3, 3_000);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(subjects(smtp), [
      "Receipt receipt:quick-1",
      "Receipt receipt:quick-2",
      "Receipt receipt:slow",
    ]);
  } finally {
    release();
    await s.stop();
    await smtp.stop();
  }
});
