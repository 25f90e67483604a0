import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "./config.ts";

const SECRET = "s".repeat(32);

async function tempDir(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "config-test-" });
}

Deno.test("defaults for development", async () => {
  const dataDir = await tempDir();
  const config = await loadConfig({ APP_SECRET: SECRET }, { dataDir });
  assert.equal(config.env, "development");
  assert.equal(config.port, 8000);
  assert.equal(config.kvPath, `${dataDir}/kv.sqlite3`);
  assert.equal(config.databaseUrl, undefined);
  assert.deepEqual(config.features, { MONTHLY_PAYMENT: true, TEST_TERMINAL_PAYMENT: true });
  assert.equal(config.welcomeVideoUrl, undefined);
  assert.equal(config.adminRegistration, "approval");
  assert.equal(config.signingKeys.size, 0);
  assert.equal(config.trustProxy, false);
});

Deno.test("production turns flags off by default and requires APP_SECRET", async () => {
  const dataDir = await tempDir();
  await assert.rejects(
    () => loadConfig({ DENO_ENV: "production" }, { dataDir }),
    (e) => e instanceof ConfigError && e.setting === "APP_SECRET" && /required/.test(e.message),
  );
  const prod = { DENO_ENV: "production", APP_SECRET: SECRET, PUBLIC_URL: "https://donate.museum.org" };
  const config = await loadConfig({ ...prod, SANDBOX_ALLOWED: "1" }, { dataDir });
  assert.deepEqual(config.features, { MONTHLY_PAYMENT: false, TEST_TERMINAL_PAYMENT: false });
  assert.equal(config.publicUrl, "https://donate.museum.org");
});

Deno.test("production refuses the sandbox without SANDBOX_ALLOWED, and a missing or plain-http PUBLIC_URL", async () => {
  const dataDir = await tempDir();
  const prod = { DENO_ENV: "production", APP_SECRET: SECRET, PUBLIC_URL: "https://donate.museum.org" };
  const refused = async (env: Record<string, string>, setting: string, detail: RegExp) =>
    await assert.rejects(
      () => loadConfig(env, { dataDir }),
      (e) => e instanceof ConfigError && e.setting === setting && detail.test(e.message),
    );
  await refused(prod, "PAYMENT_PROVIDER", /sandbox \(no real money\)/);
  await refused({ ...prod, PUBLIC_URL: "", SANDBOX_ALLOWED: "1" }, "PUBLIC_URL", /required/);
  await refused(
    { ...prod, PUBLIC_URL: "http://donate.museum.org", SANDBOX_ALLOWED: "1" },
    "PUBLIC_URL",
    /https/,
  );
  await refused({ ...prod, PAYMENT_PROVIDER: "pelecard" }, "PELECARD_TERMINAL", /required/);
  const pelecard = await loadConfig({
    ...prod,
    PAYMENT_PROVIDER: "pelecard",
    PELECARD_TERMINAL: "0962210",
    PELECARD_USER: "museum",
    PELECARD_PASSWORD: "secret",
  }, { dataDir });
  assert.equal(pelecard.payments.provider, "pelecard");
  assert.equal(pelecard.payments.pelecard?.baseUrl, "https://gateway21.pelecard.biz");
});

Deno.test("payment settings: defaults and bad values", async () => {
  const dataDir = await tempDir();
  const config = await loadConfig({ APP_SECRET: SECRET }, { dataDir });
  assert.equal(config.payments.provider, "sandbox");
  assert.equal(config.payments.maxAmount, 100000);
  assert.deepEqual(config.payments.testTerminals, ["1001", "1002", "1003"]);
  assert.equal(config.payments.terminalDeadlineMs, 60_000);
  assert.equal(config.payments.sandboxTerminal, "manual");
  const set = await loadConfig({
    APP_SECRET: SECRET,
    TERMINALS: "12:pp-1, 7:pp-2",
    SANDBOX_TERMINAL_AUTO: "decline:004",
  }, {
    dataDir,
  });
  assert.deepEqual([...set.payments.terminals], [["12", "pp-1"], ["7", "pp-2"]]);
  assert.equal(set.payments.sandboxTerminal, "decline:004");
  const bad: [Record<string, string>, string][] = [
    [{ PAYMENT_PROVIDER: "stripe" }, "PAYMENT_PROVIDER"],
    [{ MAX_PAYMENT_AMOUNT: "0" }, "MAX_PAYMENT_AMOUNT"],
    [{ MAX_PAYMENT_AMOUNT: "lots" }, "MAX_PAYMENT_AMOUNT"],
    [{ TERMINALS: "12" }, "TERMINALS"],
    [{ TEST_TERMINALS: "1,2" }, "TEST_TERMINALS"],
    [{ TERMINAL_DEADLINE_SECONDS: "0" }, "TERMINAL_DEADLINE_SECONDS"],
    [{ SANDBOX_TERMINAL_AUTO: "decline:x" }, "SANDBOX_TERMINAL_AUTO"],
    [{ PUBLIC_URL: "https://museum.org/donate" }, "PUBLIC_URL"],
  ];
  for (const [env, setting] of bad) {
    await assert.rejects(
      () => loadConfig({ APP_SECRET: SECRET, ...env }, { dataDir }),
      (e) => e instanceof ConfigError && e.setting === setting,
      setting,
    );
  }
});

Deno.test("development generates APP_SECRET once, keeps it under data/ and reuses it", async () => {
  const dataDir = `${await tempDir()}/nested/data`;
  const first = await loadConfig({}, { dataDir });
  assert.equal(first.appSecretSource, "generated");
  assert.match(first.appSecret, /^[0-9a-f]{64}$/);
  assert.equal((await Deno.stat(`${dataDir}/app-secret`)).mode! & 0o777, 0o600);
  const second = await loadConfig({}, { dataDir });
  assert.equal(second.appSecretSource, "file");
  assert.equal(second.appSecret, first.appSecret);
});

Deno.test("every bad setting is named in one line", async () => {
  const dataDir = await tempDir();
  const bad: [Record<string, string>, string, RegExp][] = [
    [{ PORT: "abc" }, "PORT", /integer/],
    [{ PORT: "70000" }, "PORT", /integer/],
    [{ PORT: "-1" }, "PORT", /integer/],
    [{ DENO_ENV: "staging" }, "DENO_ENV", /development, production or test/],
    [{ DATABASE_URL: "not a url" }, "DATABASE_URL", /not a valid URL/],
    [{ DATABASE_URL: "mysql://x@y/z" }, "DATABASE_URL", /postgres:\/\//],
    [{ APP_SECRET: "short" }, "APP_SECRET", /at least 32/],
    [{ FEATURE_MONTHLY_PAYMENT: "maybe" }, "FEATURE_MONTHLY_PAYMENT", /must be one of/],
    [{ FEATURE_TEST_TERMINAL_PAYMENT: "2" }, "FEATURE_TEST_TERMINAL_PAYMENT", /must be one of/],
    [{ WELCOME_VIDEO_URL: "javascript:alert(1)" }, "WELCOME_VIDEO_URL", /https/],
    [{ ADMIN_REGISTRATION: "everyone" }, "ADMIN_REGISTRATION", /approval, open or closed/],
    [{ SIGNING_KEYS: "kiosk:tooshort" }, "SIGNING_KEYS", /hex of 32 bytes/],
    [{ TRUST_PROXY: "sometimes" }, "TRUST_PROXY", /must be one of/],
  ];
  for (const [env, setting, detail] of bad) {
    await assert.rejects(
      () => loadConfig({ APP_SECRET: SECRET, ...env }, { dataDir }),
      (e) => {
        assert.ok(e instanceof ConfigError, `${setting}: a ConfigError`);
        assert.equal(e.setting, setting);
        assert.ok(e.message.startsWith(`${setting}: `), e.message);
        assert.match(e.message, detail);
        assert.ok(!e.message.includes("\n"), "one line");
        return true;
      },
    );
  }
});

Deno.test("valid settings are read", async () => {
  const config = await loadConfig({
    APP_SECRET: SECRET,
    PORT: "0",
    KV_PATH: ":memory:",
    DATABASE_URL: "postgres://u:p@localhost:5432/db",
    FEATURE_MONTHLY_PAYMENT: "off",
    FEATURE_TEST_TERMINAL_PAYMENT: "YES",
    DENO_ENV: "test",
    WELCOME_VIDEO_URL: "https://video.example.org/tour",
    ADMIN_REGISTRATION: "closed",
    SIGNING_KEYS: `kiosk-1:${"0f".repeat(32)}`,
    TRUST_PROXY: "1",
  }, { dataDir: await tempDir() });
  assert.equal(config.adminRegistration, "closed");
  assert.equal(config.signingKeys.get("kiosk-1"), "0f".repeat(32));
  assert.equal(config.trustProxy, true);
  assert.equal(config.port, 0);
  assert.equal(config.kvPath, ":memory:");
  assert.equal(config.databaseUrl, "postgres://u:p@localhost:5432/db");
  assert.deepEqual(config.features, { MONTHLY_PAYMENT: false, TEST_TERMINAL_PAYMENT: true });
  assert.equal(config.appSecretSource, "env");
  assert.equal(config.welcomeVideoUrl, "https://video.example.org/tour");
});
