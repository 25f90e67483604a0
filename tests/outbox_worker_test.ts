/**
 * The outbox's sender on a thread of its own (`lib/app/mail_sender_thread.ts`, issue 24): with
 * PostgreSQL each instance's sender runs in a worker with its own store, renderer and receipt PDFs,
 * and every donation's receipt (the real templates, the PDF attached, the receipt numbered) arrives
 * exactly once, with two instances working one outbox; on a Deno KV file the same from the event
 * loops (a worker there only with `OUTBOX_WORKER=1`). Where a worker cannot run (it cannot be made,
 * it fails at its start, Deno KV in memory, `OUTBOX_WORKER=0`) the sender runs on the event loop,
 * and still sends.
 */
import assert from "node:assert/strict";
import { openKvStore } from "@/lib/storage/kv/mod.ts";
import { openPostgresStore } from "@/lib/storage/postgres/mod.ts";
import type { Store } from "@/lib/storage/types.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { createPayment, newDonor, payOnSandboxPage } from "@/tests/helpers/payments.ts";
import { startSmtp, type TestSmtp } from "@/tests/helpers/smtp.ts";
import { freshDatabase, requirePostgres } from "@/tests/reliability/process_support.ts";

const MAIL = { MAIL_FROM: "donations@museum.example" };

/** A gift by a new donor `name` (their address `name@example.org`) through `app`. */
async function donate(app: TestApp, name: string): Promise<void> {
  const userId = await newDonor(app, name);
  const created = await createPayment(app, { amount: 40, currency: "nis", userId });
  await payOnSandboxPage(app, created.body.url);
}

/** Waits for `count` messages, then a while for a duplicate to show up, were there one. */
async function receiptsOf(smtp: TestSmtp, count: number) {
  await smtp.waitFor(count, 60_000);
  await new Promise((r) => setTimeout(r, 1_500));
  return smtp.received.map((mail) => ({
    to: mail.to && !Array.isArray(mail.to) ? mail.to.text : "",
    pdfs: mail.attachments.map((a) => a.filename ?? ""),
  }));
}

/**
 * Two app instances on one database (`env` names it, `open` opens a handle of it), each sending from
 * `thread` (its worker, or its event loop).
 */
async function twoInstancesSendOnce(
  env: Record<string, string>,
  open: () => Promise<Store>,
  thread: "worker" | "main",
) {
  const smtp = await startSmtp();
  const stores = [await open(), await open()];
  const apps: TestApp[] = [];
  try {
    for (const store of stores) {
      apps.push(await startTestApp({ store, env: { ...env, ...MAIL, SMTP_URL: smtp.url } }));
    }
    for (const app of apps) {
      const warnings = JSON.stringify(app.logs.filter((l) => l.level !== "info"));
      assert.equal(await app.services.mail.sender!.thread, thread, warnings);
    }
    const names = Array.from({ length: 8 }, (_, i) => `worker${i}`);
    await Promise.all(names.map((name, i) => donate(apps[i % 2], name)));
    const received = await receiptsOf(smtp, names.length);
    assert.deepEqual(received.map((r) => r.to).sort(), names.map((n) => `${n}@example.org`).sort());
    // Every receipt carries its PDF, numbered once: eight numbers, none twice.
    const numbers = received.map((r) => r.pdfs.find((f) => /^receipt-IL-\d{4}-\d+\.pdf$/.test(f)));
    assert.ok(numbers.every(Boolean), `a PDF on each: ${JSON.stringify(received)}`);
    assert.equal(new Set(numbers).size, names.length);
    const stored = await stores[0].outbox.listRecent(50);
    assert.deepEqual(stored.map((m) => m.state), names.map(() => "sent"));
    // Stopped, the workers are gone at once: a message enqueued now stays queued, sent by none.
    const stopping = Date.now();
    for (const app of apps) await app.services.mail.sender!.stop();
    assert.ok(Date.now() - stopping < 5_000, `stopped in ${Date.now() - stopping} ms`);
    const key = "manage-link:after-stop";
    await stores[0].outbox.enqueue(
      [{ key, kind: "manage-link", to: { donorId: "after-stop" }, language: "en", data: {} }],
      new Date().toISOString(),
    );
    await new Promise((r) => setTimeout(r, 1_500));
    assert.equal(smtp.received.length, names.length);
    assert.equal((await stores[0].outbox.listRecent(50)).find((m) => m.key === key)?.state, "queued");
  } finally {
    for (const app of apps) await app.close();
    for (const store of stores) await store.close();
    await smtp.stop();
  }
}

Deno.test({
  name: "outbox worker: Deno KV on a file, two instances: each receipt sent once, from the event loops",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "outbox-worker-" });
    try {
      const kvPath = `${dir}/kv.sqlite3`;
      // OUTBOX_WORKER unset: on KV the sender stays on the event loop (lib/app/mail_sender_thread.ts).
      await twoInstancesSendOnce({ KV_PATH: kvPath }, () => openKvStore(kvPath), "main");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "outbox worker: PostgreSQL, two instances: each receipt sent once, from workers",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    if (!await requirePostgres("outbox worker on PostgreSQL")) return;
    const db = await freshDatabase("outbox_worker");
    try {
      await twoInstancesSendOnce(
        { DATABASE_URL: db.url },
        () => openPostgresStore(db.url, { max: 4 }),
        "worker",
      );
    } finally {
      await db.drop();
    }
  },
});

/** One app on a KV file whose sender's worker is made by `createSenderWorker`; a gift's receipt. */
async function sentFromEventLoop(
  env: Record<string, string>,
  createSenderWorker?: () => Worker,
): Promise<TestApp["logs"]> {
  const dir = await Deno.makeTempDir({ prefix: "outbox-worker-" });
  const smtp = await startSmtp();
  const kvPath = env.KV_PATH ?? `${dir}/kv.sqlite3`;
  const store = await openKvStore(kvPath);
  const app = await startTestApp({
    store,
    env: { KV_PATH: kvPath, ...env, ...MAIL, SMTP_URL: smtp.url },
    createSenderWorker,
  });
  try {
    assert.equal(await app.services.mail.sender!.thread, "main");
    await donate(app, "fallback");
    const received = await receiptsOf(smtp, 1);
    assert.equal(received.length, 1);
    assert.equal(received[0].to, "fallback@example.org");
    assert.ok(received[0].pdfs.some((f) => f.endsWith(".pdf")), "the PDF drawn by the app's receipt workers");
    return app.logs;
  } finally {
    await app.close();
    await store.close();
    await smtp.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: "outbox worker: where no worker can be made, the event loop sends",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const logs = await sentFromEventLoop({ OUTBOX_WORKER: "1" }, () => {
      throw new Error("Workers are not supported here");
    });
    const warning = logs.find((l) =>
      l.msg === "outbox sender worker unavailable: sending from the event loop"
    );
    assert.equal(warning?.level, "warn");
    assert.equal(warning?.error, "Workers are not supported here");
  },
});

Deno.test({
  name: "outbox worker: a worker that fails at its start leaves the sending to the event loop",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const broken = `data:application/javascript,${encodeURIComponent('throw new Error("cannot load");')}`;
    const logs = await sentFromEventLoop(
      { OUTBOX_WORKER: "1" },
      () => new Worker(broken, { type: "module" }),
    );
    assert.ok(logs.some((l) => l.msg === "outbox sender worker failed: sending from the event loop"));
  },
});

Deno.test({
  name: "outbox worker: Deno KV in memory, or OUTBOX_WORKER=0: the event loop sends",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await sentFromEventLoop({ OUTBOX_WORKER: "0" });
    const smtp = await startSmtp();
    const app = await startTestApp({ env: { ...MAIL, SMTP_URL: smtp.url } }); // KV in memory
    try {
      assert.equal(await app.services.mail.sender!.thread, "main");
    } finally {
      await app.close();
      await smtp.stop();
    }
  },
});
