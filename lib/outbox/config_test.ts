import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "@/lib/app/config.ts";

const DEV_SECRET = "s".repeat(32);

/** A complete production configuration, with mail. */
const PROD: Record<string, string> = {
  DENO_ENV: "production",
  APP_SECRET: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  PUBLIC_URL: "https://donate.museum.org",
  ADMIN_REGISTRATION: "approval",
  PAYMENT_PROVIDER: "sandbox",
  SANDBOX_ALLOWED: "1",
  SMTP_URL: "smtps://donations:mail-secret@smtp.museum.org:465",
  MAIL_FROM: "Museum donations <donations@museum.org>",
};

/** Asserts that `env` is refused with one line naming `setting` and matching `detail`. */
async function refused(env: Record<string, string>, setting: string, detail: RegExp): Promise<void> {
  await assert.rejects(() => loadConfig(env, { dataDir: "/nonexistent/config-test" }), (e) => {
    assert.ok(e instanceof ConfigError, `${setting}: a ConfigError, got ${e}`);
    assert.equal(e.setting, setting, e.message);
    assert.match(e.message, detail);
    assert.ok(!e.message.includes("\n") && !e.message.includes("\r"), "one line");
    return true;
  });
}

Deno.test("mail settings: required in production, checked everywhere, none in development", async () => {
  const dataDir = await Deno.makeTempDir();
  try {
    const config = await loadConfig(PROD, { dataDir });
    assert.deepEqual(config.mail, { smtpUrl: PROD.SMTP_URL, from: PROD.MAIL_FROM, senderWorker: "auto" });
    assert.deepEqual(config.warnings.filter((w) => /SMTP|MAIL/.test(w.setting)), []);
    await refused({ ...PROD, SMTP_URL: "" }, "SMTP_URL", /is required when DENO_ENV=production/);
    await refused({ ...PROD, MAIL_FROM: "" }, "MAIL_FROM", /is required when DENO_ENV=production/);
    await refused(
      { ...PROD, SMTP_URL: "https://smtp.museum.org" },
      "SMTP_URL",
      /must be smtp:\/\/.* or smtps:\/\//,
    );
    await refused({ ...PROD, SMTP_URL: "smtp.museum.org:587" }, "SMTP_URL", /must be smtp:\/\//);
    await refused(
      { ...PROD, MAIL_FROM: "Museum <donations@museum.org>\r\nBcc: x@y.z" },
      "MAIL_FROM",
      /must be an address/,
    );
    await refused({ ...PROD, MAIL_FROM: "not an address" }, "MAIL_FROM", /must be an address/);
    // The sender's thread chosen by the store unless told; a word that is no yes or no is refused.
    assert.equal((await loadConfig({ ...PROD, OUTBOX_WORKER: "0" }, { dataDir })).mail.senderWorker, "off");
    assert.equal((await loadConfig({ ...PROD, OUTBOX_WORKER: "1" }, { dataDir })).mail.senderWorker, "on");
    await refused({ ...PROD, OUTBOX_WORKER: "sometimes" }, "OUTBOX_WORKER", /must be one of 1, 0/);
    // Development: no transport unless asked, a sender of its own; a bare address is fine.
    const dev = await loadConfig({ APP_SECRET: DEV_SECRET }, { dataDir });
    assert.deepEqual(dev.mail, {
      smtpUrl: undefined,
      from: "Museum donations <donations@localhost>",
      senderWorker: "auto",
    });
    const env = { APP_SECRET: DEV_SECRET, SMTP_URL: "smtp://127.0.0.1:2525", MAIL_FROM: "a@b.org" };
    assert.deepEqual((await loadConfig(env, { dataDir })).mail, {
      smtpUrl: "smtp://127.0.0.1:2525",
      from: "a@b.org",
      senderWorker: "auto",
    });
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
