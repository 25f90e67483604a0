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
  assert.equal(config.listenHost, "0.0.0.0");
  assert.equal(config.kvPath, `${dataDir}/kv.sqlite3`);
  assert.equal(config.databaseUrl, undefined);
  assert.deepEqual(config.features, { MONTHLY_PAYMENT: true, TEST_TERMINAL_PAYMENT: true });
  assert.equal(config.welcomeVideoUrl, undefined);
  assert.equal(config.museumTimeZone, "Asia/Jerusalem");
  assert.equal(config.adminRegistration, "approval");
  assert.equal(config.signingKeys.size, 0);
  assert.equal(config.trustProxy, false);
});

/** A random-looking secret, as `openssl rand -hex 32` prints. */
const PROD_SECRET = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

/** A complete production configuration: every setting production insists on, and Pelecard. */
const PROD: Record<string, string> = {
  DENO_ENV: "production",
  APP_SECRET: PROD_SECRET,
  PUBLIC_URL: "https://donate.museum.org",
  ADMIN_REGISTRATION: "approval",
  PAYMENT_PROVIDER: "pelecard",
  PELECARD_TERMINAL: "0962210",
  PELECARD_USER: "museum",
  PELECARD_PASSWORD: "secret",
  SMTP_URL: "smtps://donations:mail-secret@smtp.museum.org:465",
  MAIL_FROM: "Museum donations <donations@museum.org>",
  RECEIPT_LEGAL_NAME: "The Museum (R.A.)",
  RECEIPT_ADDRESS: "1 Museum Road, Jerusalem",
  RECEIPT_SECTION46_NUMBER: "4567",
};

/** Asserts that `env` is refused with one line naming `setting` and matching `detail`. */
async function refused(env: Record<string, string>, setting: string, detail: RegExp): Promise<void> {
  await assert.rejects(
    () => loadConfig(env, { dataDir: "/nonexistent/config-test" }),
    (e) => {
      assert.ok(e instanceof ConfigError, `${setting}: a ConfigError, got ${e}`);
      assert.equal(e.setting, setting, e.message);
      assert.ok(e.message.startsWith(`${setting}: `), e.message);
      assert.match(e.message, detail);
      assert.ok(!e.message.includes("\n"), "one line");
      return true;
    },
  );
}

Deno.test("a complete production configuration is accepted, with no warnings", async () => {
  const config = await loadConfig({
    ...PROD,
    PORT: "8080",
    DATABASE_URL: "postgres://donations:pw@db.internal:5432/donations?sslmode=verify-full",
    SIGNING_KEYS: `crm:${"0f".repeat(32)}`,
    TRUST_PROXY: "1",
    WELCOME_VIDEO_URL: "https://video.example.org/tour",
    MUSEUM_TIME_ZONE: "America/New_York",
    FEATURE_MONTHLY_PAYMENT: "on",
    PELECARD_TOKEN_TERMINAL: "0962211",
    PELECARD_TOKEN_USER: "museum-token",
    PELECARD_TOKEN_PASSWORD: "token-secret",
    TERMINALS: "1:pp-1",
  }, { dataDir: "/nonexistent/config-test" });
  assert.equal(config.env, "production");
  assert.equal(config.appSecretSource, "env");
  assert.equal(config.publicUrl, "https://donate.museum.org");
  assert.equal(config.adminRegistration, "approval");
  assert.equal(config.payments.provider, "pelecard");
  assert.equal(config.payments.pelecard?.baseUrl, "https://gateway21.pelecard.biz");
  assert.equal(config.payments.pelecard?.tokenTerminal?.terminal, "0962211");
  assert.deepEqual(config.features, { MONTHLY_PAYMENT: true, TEST_TERMINAL_PAYMENT: false });
  assert.deepEqual(config.enforcedFeatures, { TEST_TERMINAL_PAYMENT: false });
  assert.deepEqual(config.warnings, []);
});

Deno.test("production turns both flags off by default, and test terminals off at every start", async () => {
  const config = await loadConfig(PROD, { dataDir: "/nonexistent/config-test" });
  assert.deepEqual(config.features, { MONTHLY_PAYMENT: false, TEST_TERMINAL_PAYMENT: false });
  assert.deepEqual(config.enforcedFeatures, { TEST_TERMINAL_PAYMENT: false });
  const off = await loadConfig({ ...PROD, FEATURE_TEST_TERMINAL_PAYMENT: "off" }, {
    dataDir: "/nonexistent",
  });
  assert.deepEqual(off.enforcedFeatures, { TEST_TERMINAL_PAYMENT: false });
  // Outside production the flag is only an initial value.
  const dev = await loadConfig({ APP_SECRET: SECRET }, { dataDir: await tempDir() });
  assert.deepEqual(dev.enforcedFeatures, {});
});

Deno.test("production refuses every unsafe default with one line naming the setting", async () => {
  await refused({ ...PROD, APP_SECRET: "" }, "APP_SECRET", /is required when DENO_ENV=production/);
  await refused({ ...PROD, APP_SECRET: "a1b2c3d4e5".repeat(3) }, "APP_SECRET", /at least 32 characters/);
  await refused({ ...PROD, APP_SECRET: "s".repeat(32) }, "APP_SECRET", /placeholder \(only 1 distinct/);
  await refused({ ...PROD, APP_SECRET: "changeme".repeat(4) }, "APP_SECRET", /placeholder/);
  await refused({ ...PROD, PUBLIC_URL: "" }, "PUBLIC_URL", /is required when DENO_ENV=production/);
  await refused({ ...PROD, PUBLIC_URL: "http://donate.museum.org" }, "PUBLIC_URL", /must be https/);
  await refused(
    { ...PROD, ADMIN_REGISTRATION: "" },
    "ADMIN_REGISTRATION",
    /must be set when DENO_ENV=production/,
  );
  await refused({ ...PROD, PAYMENT_PROVIDER: "" }, "PAYMENT_PROVIDER", /sandbox \(no real money\)/);
  await refused({ ...PROD, PAYMENT_PROVIDER: "sandbox" }, "PAYMENT_PROVIDER", /SANDBOX_ALLOWED=1/);
  await refused(
    { ...PROD, PAYMENT_PROVIDER: "sandbox", SANDBOX_ALLOWED: "0" },
    "PAYMENT_PROVIDER",
    /sandbox \(no real money\)/,
  );
  await refused({ ...PROD, SANDBOX_ALLOWED: "perhaps" }, "SANDBOX_ALLOWED", /must be one of/);
  await refused({ ...PROD, PELECARD_TERMINAL: "" }, "PELECARD_TERMINAL", /required/);
  await refused({ ...PROD, PELECARD_PASSWORD: "" }, "PELECARD_PASSWORD", /required/);
  await refused(
    { ...PROD, PELECARD_BASE_URL: "http://gateway21.pelecard.biz" },
    "PELECARD_BASE_URL",
    /must be https in production/,
  );
  await refused(
    { ...PROD, FEATURE_TEST_TERMINAL_PAYMENT: "on" },
    "TEST_TERMINALS",
    /required when FEATURE_TEST_TERMINAL_PAYMENT is on in production/,
  );
});

Deno.test("production allows what is asked for explicitly, with a warning where it is risky", async () => {
  const dataDir = "/nonexistent/config-test";
  const sandbox = await loadConfig({ ...PROD, PAYMENT_PROVIDER: "sandbox", SANDBOX_ALLOWED: "true" }, {
    dataDir,
  });
  assert.equal(sandbox.payments.provider, "sandbox");
  assert.deepEqual(sandbox.warnings.map((w) => w.setting), ["PAYMENT_PROVIDER"]);
  assert.match(sandbox.warnings[0].message, /^PAYMENT_PROVIDER: is sandbox in production .*no money/);

  const open = await loadConfig({ ...PROD, ADMIN_REGISTRATION: "open" }, { dataDir });
  assert.equal(open.adminRegistration, "open");
  assert.deepEqual(open.warnings.map((w) => w.setting), ["ADMIN_REGISTRATION"]);
  const closed = await loadConfig({ ...PROD, ADMIN_REGISTRATION: "closed" }, { dataDir });
  assert.deepEqual(closed.warnings, []);

  const tests = await loadConfig(
    { ...PROD, FEATURE_TEST_TERMINAL_PAYMENT: "on", TEST_TERMINALS: "501,502,503" },
    { dataDir },
  );
  assert.equal(tests.features.TEST_TERMINAL_PAYMENT, true);
  assert.deepEqual(tests.enforcedFeatures, {});
  assert.deepEqual(tests.payments.testTerminals, ["501", "502", "503"]);

  // Outside production the Pelecard simulator may be plain http, and the sandbox needs no flag.
  const dev = await loadConfig(
    { ...PROD, DENO_ENV: "development", PELECARD_BASE_URL: "http://127.0.0.1:9" },
    {
      dataDir,
    },
  );
  assert.equal(dev.payments.pelecard?.baseUrl, "http://127.0.0.1:9");
  const devSandbox = await loadConfig({ APP_SECRET: SECRET }, { dataDir: await tempDir() });
  assert.deepEqual(devSandbox.warnings, []);
});

Deno.test("production warns about a database reached without TLS, unless it is on this machine", async () => {
  const dataDir = "/nonexistent/config-test";
  const warned = async (url: string) =>
    (await loadConfig({ ...PROD, DATABASE_URL: url }, { dataDir })).warnings.map((w) => w.message);
  const plain = await warned("postgres://u:p@db.example.org:5432/donations");
  assert.equal(plain.length, 1);
  assert.match(
    plain[0],
    /^DATABASE_URL: connects to db\.example\.org without requiring TLS; add \?sslmode=verify-full/,
  );
  assert.equal((await warned("postgres://u:p@db.example.org/d?sslmode=prefer")).length, 1);
  assert.equal((await warned("postgres://u:p@db.example.org/d?sslmode=disable")).length, 1);
  for (
    const quiet of [
      "postgres://u:p@db.example.org/d?sslmode=require",
      "postgres://u:p@db.example.org/d?sslmode=verify-full",
      "postgresql://u:p@db.example.org/d?ssl=true",
      "postgres://u:p@localhost/d",
      "postgres://u:p@127.0.0.1:5432/d",
      "postgres://u:p@[::1]:5432/d",
      "postgres:///donations?host=/var/run/postgresql",
    ]
  ) assert.deepEqual(await warned(quiet), [], quiet);
  const dev = await loadConfig({ APP_SECRET: SECRET, DATABASE_URL: "postgres://u:p@db.example.org/d" }, {
    dataDir: await tempDir(),
  });
  assert.deepEqual(dev.warnings, []);
});

Deno.test("on Deno Deploy (DENO_DEPLOY set, DENO_ENV impossible) the app runs in production on the app's KV", async () => {
  const dataDir = "/nonexistent/config-test";
  const deploy: Record<string, string> = { ...PROD, DENO_DEPLOY: "true" };
  delete deploy.DENO_ENV;
  const config = await loadConfig(deploy, { dataDir });
  assert.equal(config.env, "production");
  assert.equal(config.kvPath, undefined, "Deno.openKv() without a path: the assigned KV database");
  await refused({ DENO_DEPLOY: "true", APP_SECRET: PROD_SECRET }, "ADMIN_REGISTRATION", /must be set/);
  const withPath = await loadConfig({ ...deploy, KV_PATH: ":memory:" }, { dataDir });
  assert.equal(withPath.kvPath, ":memory:");
  const development = await loadConfig({ DENO_DEPLOY: "1", DENO_ENV: "development", APP_SECRET: SECRET }, {
    dataDir: await tempDir(),
  });
  assert.equal(development.env, "development");
  assert.equal(development.kvPath, undefined);
  await refused({ DENO_DEPLOY: "sometimes", APP_SECRET: SECRET }, "DENO_DEPLOY", /must be one of/);
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
    [{ MUSEUM_TIME_ZONE: "Jerusalem" }, "MUSEUM_TIME_ZONE", /IANA time zone/],
    [{ ADMIN_REGISTRATION: "everyone" }, "ADMIN_REGISTRATION", /approval, open or closed/],
    [{ SIGNING_KEYS: "kiosk:tooshort" }, "SIGNING_KEYS", /hex of 32 bytes/],
    [{ TRUST_PROXY: "sometimes" }, "TRUST_PROXY", /must be one of/],
    [{ LISTEN_HOST: "museum.example.org" }, "LISTEN_HOST", /IP address/],
    [{ LISTEN_HOST: "300.1.1.1" }, "LISTEN_HOST", /IP address/],
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

Deno.test("a malformed SIGNING_KEYS entry is named by its position and id, never by its secret", async () => {
  const dataDir = await tempDir();
  const secret = "9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c2e4a6c8e0a2c4e6a8b0d1f3e5a7c9e1b";
  const good = `crm:${"0f".repeat(32)}`;
  const cases: [string, RegExp][] = [
    // No colon: the whole entry is the secret.
    [`${good},${secret}`, /entry 2 is not id:secret/],
    // An id that looks like a browser key's, or has other characters: the id may be secret too.
    [`v1kiosk:${secret}`, /entry 1 is not id:secret/],
    [`kiosk one:${secret}`, /entry 1 is not id:secret/],
    // A secret that is not hex (a base64 one, or one cut short).
    [`${good}, kiosk:${secret.slice(0, 40)}+/==`, /secret of entry 2 \("kiosk"\) must be hex/],
    [`kiosk:${secret.slice(0, 30)}`, /secret of entry 1 \("kiosk"\) must be hex/],
  ];
  for (const [value, detail] of cases) {
    await assert.rejects(
      () => loadConfig({ APP_SECRET: SECRET, SIGNING_KEYS: value }, { dataDir }),
      (e) => {
        assert.ok(e instanceof ConfigError);
        assert.equal(e.setting, "SIGNING_KEYS");
        assert.match(e.message, detail);
        // No run of 6 characters of the secret appears in the message.
        for (let i = 0; i + 6 <= secret.length; i++) {
          assert.ok(!e.message.includes(secret.slice(i, i + 6)), `${e.message} echoes the secret`);
        }
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
    MUSEUM_TIME_ZONE: "America/New_York",
    ADMIN_REGISTRATION: "closed",
    SIGNING_KEYS: `kiosk-1:${"0f".repeat(32)}`,
    TRUST_PROXY: "1",
    LISTEN_HOST: "127.0.0.1",
  }, { dataDir: await tempDir() });
  assert.equal(config.listenHost, "127.0.0.1");
  assert.equal(config.adminRegistration, "closed");
  assert.equal(config.signingKeys.get("kiosk-1"), "0f".repeat(32));
  assert.equal(config.trustProxy, true);
  assert.equal(config.port, 0);
  assert.equal(config.kvPath, ":memory:");
  assert.equal(config.databaseUrl, "postgres://u:p@localhost:5432/db");
  assert.deepEqual(config.features, { MONTHLY_PAYMENT: false, TEST_TERMINAL_PAYMENT: true });
  assert.equal(config.appSecretSource, "env");
  assert.equal(config.welcomeVideoUrl, "https://video.example.org/tour");
  assert.equal(config.museumTimeZone, "America/New_York");
});

Deno.test("password pool settings: defaults, valid values and refusals", async () => {
  const dataDir = await tempDir();
  const defaults = await loadConfig({ APP_SECRET: SECRET }, { dataDir });
  assert.deepEqual(defaults.passwords, {
    workers: Math.max(1, navigator.hardwareConcurrency - 1),
    maxQueue: 64,
  });
  const set = await loadConfig({ APP_SECRET: SECRET, PASSWORD_WORKERS: " 3 ", PASSWORD_QUEUE: "0" }, {
    dataDir,
  });
  assert.deepEqual(set.passwords, { workers: 3, maxQueue: 0 });
  for (
    const [env, setting] of [
      [{ PASSWORD_WORKERS: "0" }, "PASSWORD_WORKERS"],
      [{ PASSWORD_WORKERS: "65" }, "PASSWORD_WORKERS"],
      [{ PASSWORD_WORKERS: "two" }, "PASSWORD_WORKERS"],
      [{ PASSWORD_QUEUE: "-1" }, "PASSWORD_QUEUE"],
      [{ PASSWORD_QUEUE: "10001" }, "PASSWORD_QUEUE"],
      [{ PASSWORD_QUEUE: "1.5" }, "PASSWORD_QUEUE"],
    ] as const
  ) {
    await refused({ APP_SECRET: SECRET, ...env }, setting, /must be a whole number from \d+ to \d+ \(got "/);
  }
});
