/**
 * `main.ts` as a real process: start-up refuses a bad setting with one clear line, and with good
 * settings it serves the site on a fresh KV file, seeding the flags.
 */
import assert from "node:assert/strict";
import { ensureTestBuild, ROOT } from "@/tests/helpers/app.ts";

function run(env: Record<string, string>): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}/main.ts`],
    env: { ...env, NO_COLOR: "1" },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

Deno.test("a bad setting stops start-up with one line naming it", async () => {
  await ensureTestBuild();
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: "eighty" }, /^Configuration error: PORT: must be an integer/],
    [
      { DENO_ENV: "production", APP_SECRET: "" },
      /^Configuration error: APP_SECRET: is required when DENO_ENV=production/,
    ],
    [{ DATABASE_URL: "mysql://x" }, /^Configuration error: DATABASE_URL: must start with postgres:\/\//],
    [
      {
        DENO_ENV: "production",
        PUBLIC_URL: "https://donate.museum.org",
        APP_SECRET: "0123456789abcdef".repeat(4),
      },
      /^Configuration error: ADMIN_REGISTRATION: must be set when DENO_ENV=production/,
    ],
  ];
  for (const [env, line] of cases) {
    const out = await run({ KV_PATH: ":memory:", APP_SECRET: "x".repeat(40), ...env }).output();
    const stderr = new TextDecoder().decode(out.stderr).trim();
    assert.equal(out.code, 1, stderr);
    assert.equal(stderr.split("\n").length, 1, stderr);
    assert.match(stderr, line);
  }
});

Deno.test("start-up serves /en/ and the flags from a new KV file", async () => {
  await ensureTestBuild();
  const dir = await Deno.makeTempDir();
  const child = run({
    PORT: "0",
    KV_PATH: `${dir}/nested/kv.sqlite3`,
    APP_SECRET: "x".repeat(40),
    FEATURE_TEST_TERMINAL_PAYMENT: "off",
  });
  try {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    let url = "";
    while (!url) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`exited before listening: ${buffer}`);
      buffer += value;
      url = buffer.match(/"url":"(http:\/\/[^"]+)"/)?.[1] ?? "";
    }
    reader.releaseLock();
    const page = await fetch(`${url}en/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<html lang="en" dir="ltr">/);
    const flags = await (await fetch(`${url}api/feature-flags`)).json();
    assert.deepEqual(flags, [
      { flag: "MONTHLY_PAYMENT", enabled: true },
      { flag: "TEST_TERMINAL_PAYMENT", enabled: false },
    ]);
    assert.ok((await Deno.stat(`${dir}/nested/kv.sqlite3`)).isFile, "the KV folder was created");
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await child.stdout.cancel().catch(() => {});
    await child.stderr.cancel();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("production start-up logs risky settings and switches test-terminal payments off", async () => {
  await ensureTestBuild();
  const dir = await Deno.makeTempDir();
  const kvPath = `${dir}/kv.sqlite3`;
  // A store an earlier run (a demo, development) left with test-terminal payments on.
  const { openKvStore } = await import("@/lib/storage/kv/mod.ts");
  const earlier = await openKvStore(kvPath);
  await earlier.flags.seed({ MONTHLY_PAYMENT: true, TEST_TERMINAL_PAYMENT: true });
  await earlier.close();
  const child = run({
    DENO_ENV: "production",
    PORT: "0",
    LISTEN_HOST: "127.0.0.1",
    KV_PATH: kvPath,
    APP_SECRET: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    PUBLIC_URL: "https://donate.museum.org",
    ADMIN_REGISTRATION: "approval",
    PAYMENT_PROVIDER: "sandbox",
    SANDBOX_ALLOWED: "1",
    // Never connected to: nothing is sent in this test.
    SMTP_URL: "smtp://127.0.0.1:9",
    MAIL_FROM: "donations@museum.org",
  });
  try {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    let url = "";
    while (!url) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`exited before listening: ${buffer}`);
      buffer += value;
      url = buffer.match(/"url":"(http:\/\/[^"]+)"/)?.[1] ?? "";
    }
    reader.releaseLock();
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    const lines = buffer.trim().split("\n").map((line) => JSON.parse(line));
    assert.ok(
      lines.some((l) => l.level === "warn" && l.setting === "PAYMENT_PROVIDER" && /no money/.test(l.msg)),
      buffer,
    );
    assert.ok(
      lines.some((l) => l.level === "warn" && l.flag === "TEST_TERMINAL_PAYMENT" && l.enabled === false),
      buffer,
    );
    const flags = await (await fetch(`${url}api/feature-flags`)).json();
    assert.deepEqual(flags, [
      { flag: "MONTHLY_PAYMENT", enabled: true },
      { flag: "TEST_TERMINAL_PAYMENT", enabled: false },
    ]);
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await child.stdout.cancel().catch(() => {});
    await child.stderr.cancel();
    await Deno.remove(dir, { recursive: true });
  }
});
