/**
 * The development mailbox: `/dev/mail` lists the outbox, shows a message as its recipient would
 * see it (rendered by the injected renderer: subject, recipients, text, the HTML framed from a
 * locked-down document of its own, attachments to download), says so when no renderer is wired or
 * there is nothing to send, and answers 404 for an unknown key and for everything in production.
 */
import assert from "node:assert/strict";
import type { RenderMessage } from "@/lib/outbox/outbox_sender.ts";
import type { MessageInput } from "@/lib/storage/types.ts";
import { startTestApp } from "@/tests/helpers/app.ts";

const PDF = new TextEncoder().encode("%PDF-1.4 receipt");
const render: RenderMessage = (m) =>
  Promise.resolve(
    "donorId" in m.to && m.to.donorId === "erased" ? null : {
      to: ["dana@example.org"],
      subject: "קבלה על תרומתך",
      text: "תודה רבה",
      html: '<html dir="rtl"><body><p style="color: red">תודה רבה</p><script>alert(1)</script></body></html>',
      attachments: [{ filename: "קבלה-1.pdf", contentType: "application/pdf", content: PDF }],
      dir: "rtl",
      language: "he",
    },
  );

const message = (key: string, donorId = "d1"): MessageInput => ({
  key,
  kind: "receipt",
  to: { donorId },
  language: "he",
  data: { transactionId: key },
});

const get = (base: string, path: string) => fetch(`${base}${path}`);

Deno.test("dev mailbox: the outbox as its recipients would see it", async (t) => {
  const app = await startTestApp({ render });
  try {
    await app.store.outbox.enqueue(
      [message("receipt:t1"), message("receipt:gone", "erased")],
      new Date().toISOString(),
    );

    await t.step("the list: newest first, with state and recipient", async () => {
      const res = await get(app.url, "/dev/mail?lng=en");
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.match(html, /Development mailbox/);
      assert.ok(html.includes(`href="/dev/mail?key=receipt%3At1"`), html);
      assert.match(html, /queued/);
      assert.match(html, /donor d1/);
    });

    await t.step("one message: subject, recipients, text, framed HTML, attachment", async () => {
      const res = await get(app.url, "/dev/mail?key=receipt%3At1&lng=en");
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.ok(
        html.includes("קבלה על תרומתך") && html.includes("dana@example.org") && html.includes("תודה רבה"),
      );
      assert.match(html, /<section lang="he" dir="rtl">/);
      assert.match(html, /<iframe src="\/dev\/mail\/html\?key=receipt%3At1" sandbox=""/);
      assert.ok(html.includes(`href="/dev/mail/attachment?key=receipt%3At1&amp;n=0"`), html);
    });

    await t.step("the HTML on its own: as rendered, no scripts, sandboxed, framed only by us", async () => {
      const res = await get(app.url, "/dev/mail/html?key=receipt%3At1");
      assert.equal(res.status, 200);
      assert.match(await res.text(), /<p style="color: red">תודה רבה<\/p>/);
      const csp = res.headers.get("content-security-policy") ?? "";
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /sandbox/);
      assert.doesNotMatch(csp, /script-src/);
      assert.match(csp, /frame-ancestors 'self'/);
      assert.equal(res.headers.get("x-frame-options"), "SAMEORIGIN");
    });

    await t.step("the attachment downloads as sent", async () => {
      const res = await get(app.url, "/dev/mail/attachment?key=receipt%3At1&n=0");
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "application/pdf");
      assert.match(res.headers.get("content-disposition") ?? "", /filename\*=UTF-8''%D7%A7/);
      assert.deepEqual(new Uint8Array(await res.arrayBuffer()), PDF);
      assert.equal((await get(app.url, "/dev/mail/attachment?key=receipt%3At1&n=1")).status, 404);
      await (await get(app.url, "/dev/mail/attachment?key=receipt%3At1&n=1")).body?.cancel();
    });

    await t.step("nothing to send, and an unknown key", async () => {
      const gone = await get(app.url, "/dev/mail?key=receipt%3Agone&lng=en");
      assert.equal(gone.status, 200);
      assert.match(await gone.text(), /Nothing to send/);
      const unknown = await get(app.url, "/dev/mail?key=nope&lng=he");
      assert.equal(unknown.status, 404);
      assert.match(await unknown.text(), /אין הודעה עם המפתח הזה/);
      const html = await get(app.url, "/dev/mail/html?key=nope");
      assert.equal(html.status, 404);
      await html.body?.cancel();
    });
  } finally {
    await app.close();
  }
});

Deno.test("dev mailbox: a message with nothing to send (its transaction unknown): the stored message and why", async () => {
  const app = await startTestApp();
  try {
    await app.store.outbox.enqueue([message("receipt:t2")], new Date().toISOString());
    const res = await get(app.url, "/dev/mail?key=receipt%3At2&lng=en");
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /Nothing to send/);
    assert.match(html, /&quot;transactionId&quot;: &quot;receipt:t2&quot;|"transactionId": "receipt:t2"/);
  } finally {
    await app.close();
  }
});

Deno.test("dev mailbox: 404 in production", async () => {
  const app = await startTestApp({
    render,
    env: {
      DENO_ENV: "production",
      PUBLIC_URL: "https://donate.museum.org",
      ADMIN_REGISTRATION: "approval",
      SANDBOX_ALLOWED: "1",
      SMTP_URL: "smtp://127.0.0.1:9",
      MAIL_FROM: "donations@museum.org",
    },
  });
  try {
    await app.services.mail.sender?.stop();
    await app.store.outbox.enqueue([message("receipt:t3")], new Date().toISOString());
    for (const path of ["/dev/mail", "/dev/mail?key=receipt%3At3", "/dev/mail/html?key=receipt%3At3"]) {
      const res = await get(app.url, path);
      assert.equal(res.status, 404, path);
      await res.body?.cancel();
    }
    const res = await get(app.url, "/dev/mail/attachment?key=receipt%3At3&n=0");
    assert.equal(res.status, 404);
    await res.body?.cancel();
  } finally {
    await app.close();
  }
});
