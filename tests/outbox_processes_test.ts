/**
 * Two app instances (processes of their own, `tests/helpers/outbox_process.ts`, built as `main.ts`
 * builds the app's services) working one outbox on one PostgreSQL database, against a real SMTP
 * server: every message enqueued arrives exactly once, whichever instance sends it.
 */
import assert from "node:assert/strict";
import { openPostgresStore } from "@/lib/storage/postgres/mod.ts";
import type { MessageInput } from "@/lib/storage/types.ts";
import { startSmtp } from "@/tests/helpers/smtp.ts";
import {
  freshDatabase,
  requirePostgres,
  spawnScript,
  TEST_SECRET,
} from "@/tests/reliability/process_support.ts";

const receipt = (id: string): MessageInput => ({
  key: `receipt:${id}`,
  kind: "receipt",
  to: { donorId: `donor-${id}` },
  language: "en",
  data: { transactionId: id },
});

Deno.test({
  name: "outbox: two app processes on one PostgreSQL send each message once",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    if (!await requirePostgres("outbox across processes")) return;
    const db = await freshDatabase("outbox");
    const smtp = await startSmtp();
    const env = {
      DENO_ENV: "test",
      APP_SECRET: TEST_SECRET,
      DATABASE_URL: db.url,
      SMTP_URL: smtp.url,
      MAIL_FROM: "donations@museum.example",
    };
    const workers = ["A", "B"].map((name) => {
      let ready: () => void;
      const started = new Promise<void>((resolve) => ready = resolve);
      const child = spawnScript("tests/helpers/outbox_process.ts", { ...env, OUTBOX_HOLDER: name }, {
        label: `outbox ${name}`,
        onLine: (line) => line.includes('"msg":"outbox process ready"') && ready(),
      });
      return { child, started };
    });
    const store = await openPostgresStore(db.url, { max: 2 }).catch(async (e) => {
      await Promise.all(workers.map((w) => w.child.status));
      throw e;
    });
    try {
      await Promise.all(workers.map(({ child, started }) =>
        Promise.race([
          started,
          child.status.then((s) => {
            throw new Error(`${child.label} exited with ${s.code}:\n${child.tail().join("\n")}`);
          }),
        ])
      ));
      // Three bursts, while both instances poll the outbox.
      const keys: string[] = [];
      for (let burst = 0; burst < 3; burst++) {
        const messages = Array.from({ length: 40 }, (_, i) => receipt(`${burst}-${i}`));
        keys.push(...messages.map((m) => m.key));
        await store.outbox.enqueue(messages, new Date().toISOString());
        await new Promise((r) => setTimeout(r, 300));
      }
      await smtp.waitFor(keys.length, 30_000);
      // Time for a duplicate to show up, were there one.
      await new Promise((r) => setTimeout(r, 6_000));
      const subjects = smtp.received.map((m) => m.subject ?? "");
      assert.equal(subjects.length, keys.length, "each message once");
      assert.deepEqual(subjects.sort(), keys.map((k) => `Message ${k}`).sort());
      const stored = await Promise.all(keys.map((k) => store.outbox.get(k)));
      assert.ok(stored.every((m) => m?.state === "sent"), "all recorded as sent");
      const byHolder = Object.groupBy(stored, (m) => m!.claimedBy ?? "none");
      assert.deepEqual(Object.keys(byHolder).filter((h) => h !== "A" && h !== "B"), []);
      console.log(`sent by A: ${byHolder.A?.length ?? 0}, by B: ${byHolder.B?.length ?? 0}`);
    } finally {
      for (const { child } of workers) child.kill("SIGTERM");
      await Promise.all(workers.map((w) => w.child.status));
      await store.close();
      await smtp.stop();
      await db.drop();
    }
  },
});
