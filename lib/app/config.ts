/**
 * Configuration: read once, from the environment, in this one module. A bad or missing required
 * setting stops start-up with one clear line naming the setting ({@link ConfigError}); a risky but
 * allowed one is answered in {@link Config.warnings}, which the server logs at start.
 *
 * Every variable read here is documented in the configuration table of `docs/configuration.md`, and
 * `tests/docs_test.ts` fails when one of them is missing there (or the table lists one that is
 * not read).
 *
 * In production (`DENO_ENV=production`, or on Deno Deploy, where `DENO_*` names cannot be set and
 * `DENO_DEPLOY` is set by the platform) nothing unsafe is defaulted: `APP_SECRET` (32+ characters,
 * not a placeholder), `PUBLIC_URL` (https) and `ADMIN_REGISTRATION` must be given; the sandbox
 * provider, which moves no money, needs `SANDBOX_ALLOWED`; the Pelecard gateway must be https;
 * test-terminal payments are on only when `FEATURE_TEST_TERMINAL_PAYMENT` says so, at every start,
 * and then with the museum's own `TEST_TERMINALS`; `SMTP_URL` and `MAIL_FROM` must be given.
 *
 * @module
 */
import { defaultPasswordWorkers } from "@/lib/staff/password_pool.ts";
import { spareCores } from "@/lib/core/worker_pool.ts";
import { DEFAULT_TIME_ZONE, isTimeZone } from "@/lib/core/zoned_time.ts";
import { type MailSettings, readMail } from "@/lib/outbox/config.ts";
import { type PaymentSettings, readPayments } from "@/lib/providers/config.ts";
import { bool, ConfigError, type Env, wholeNumber } from "@/lib/core/config_values.ts";
import { readReceipts, type ReceiptSettings } from "@/lib/receipts/config.ts";
import { type MembershipSettings, readMemberships } from "@/lib/memberships/config.ts";
import { readWallet, type WalletSettings } from "@/lib/memberships/config_wallet.ts";
import { parseSigningKeys } from "@/lib/signing/signature_check.ts";

export { ConfigError };
export type { MailSettings, PaymentSettings, ReceiptSettings };

/** The app's settings, validated. */
export interface Config {
  env: "development" | "production" | "test";
  port: number;
  /** The address the server listens on: `0.0.0.0` (every IPv4 interface) unless `LISTEN_HOST` says. */
  listenHost: string;
  /**
   * The Deno KV file, `:memory:`, or a KV Connect URL; unset only on Deno Deploy without
   * `KV_PATH`, where `Deno.openKv()` opens the KV database assigned to the app.
   */
  kvPath?: string;
  databaseUrl?: string;
  appSecret: string;
  /** Where `appSecret` came from; `generated` means this start created it under `data/`. */
  appSecretSource: "env" | "file" | "generated";
  /** Initial flag values, used only to seed flags that do not exist yet. */
  features: { MONTHLY_PAYMENT: boolean; TEST_TERMINAL_PAYMENT: boolean };
  /**
   * Flag values applied at every start, whatever storage holds: in production,
   * `TEST_TERMINAL_PAYMENT: false` unless `FEATURE_TEST_TERMINAL_PAYMENT` turns it on (a store
   * used for a demo must not keep test payments on in production).
   */
  enforcedFeatures: Partial<{ MONTHLY_PAYMENT: boolean; TEST_TERMINAL_PAYMENT: boolean }>;
  /** The museum's video behind the hero's 'Watch Video' link; the link is hidden when unset. */
  welcomeVideoUrl?: string;
  /**
   * The museum's IANA time zone (`MUSEUM_TIME_ZONE`, `Asia/Jerusalem` by default): the days of the
   * back office's chart, overview, reports and CSV are counted in it (`lib/core/zoned_time.ts`).
   */
  museumTimeZone: string;
  /**
   * Who may become an admin: `approval` (the first admin at once, later ones once an approved
   * admin approves them), `open` (everyone who registers; for a closed network only) or `closed`.
   */
  adminRegistration: "approval" | "open" | "closed";
  /** Server-to-server signing keys by id (hex secrets). */
  signingKeys: Map<string, string>;
  /** Whether a reverse proxy in front sets X-Forwarded-For (the client address for throttling). */
  trustProxy: boolean;
  /** The origin donors reach the site at (return addresses for the provider); derived from requests when unset. */
  publicUrl?: string;
  /** The payment provider, kiosk terminals and the sandbox (`lib/providers/config.ts`). */
  payments: PaymentSettings;
  /**
   * The password pool (`lib/staff/password_pool.ts`): `workers` hash at once, off the event loop;
   * up to `maxQueue` more wait, and sign-ins beyond that are answered 503 with Retry-After.
   */
  passwords: { workers: number; maxQueue: number };
  /** Receipt PDF workers (`lib/receipts/pdf_pool.ts`), each drawing one receipt at a time. */
  receiptWorkers: number;
  /** The outbox's SMTP server and sender (`lib/outbox/config.ts`). */
  mail: MailSettings;
  /** Donor, payment and registration limits, and decline caps (`lib/rate_limits/rate_limits.ts`). */
  rateLimits: import("@/lib/rate_limits/rate_limits.ts").RateLimitSettings;
  /** Who issues legal receipts, with which legal details (`lib/receipts/config.ts`). */
  receipts: ReceiptSettings;
  /** The memberships' grace days (`lib/memberships/config.ts`). */
  memberships: MembershipSettings;
  /** The museum's Apple Wallet pass certificates; null: no passes (`lib/memberships/config_wallet.ts`). */
  wallet: WalletSettings | null;
  /** Allowed but risky settings, one line each in the {@link ConfigError} style; logged at start. */
  warnings: ConfigWarning[];
}

/** A setting that is allowed but deserves a look; `message` is one line starting with the setting. */
export interface ConfigWarning {
  setting: string;
  message: string;
}

/**
 * Reads and validates the configuration. In development, a missing `APP_SECRET` is generated once
 * and kept in `${dataDir}/app-secret` (mode 0600), so sessions and signed keys survive restarts.
 *
 * @example
 * ```ts
 * const config = await loadConfig(Deno.env.toObject());
 * config.port; // 8000
 * ```
 */
export async function loadConfig(env: Env, options: { dataDir?: string } = {}): Promise<Config> {
  const dataDir = options.dataDir ?? "data";
  const warnings: ConfigWarning[] = [];
  const warn = (setting: string, detail: string) =>
    warnings.push({ setting, message: `${setting}: ${detail}` });
  // Deno Deploy sets DENO_DEPLOY and refuses variables named DENO_*: there, DENO_ENV cannot be
  // given, and the app runs in production.
  const onDenoDeploy = bool(env, "DENO_DEPLOY", false);
  const rawEnv = env.DENO_ENV?.trim() || (onDenoDeploy ? "production" : "development");
  if (rawEnv !== "development" && rawEnv !== "production" && rawEnv !== "test") {
    throw new ConfigError("DENO_ENV", `must be development, production or test (got "${rawEnv}")`);
  }
  const mode = rawEnv;
  const production = mode === "production";

  const rawPort = env.PORT?.trim() || "8000";
  if (!/^\d{1,5}$/.test(rawPort) || Number(rawPort) > 65535) {
    throw new ConfigError("PORT", `must be an integer from 0 to 65535 (got "${env.PORT}")`);
  }

  const listenHost = env.LISTEN_HOST?.trim() || "0.0.0.0";
  if (!isListenAddress(listenHost)) {
    throw new ConfigError(
      "LISTEN_HOST",
      `must be an IP address such as 127.0.0.1, 0.0.0.0 or ::, or localhost (got "${listenHost}")`,
    );
  }

  // On Deno Deploy the default is the KV database assigned to the app (`Deno.openKv()`): a file
  // there would live on one instance's disk and vanish with it.
  const kvPath = env.KV_PATH?.trim() || (onDenoDeploy ? undefined : `${dataDir}/kv.sqlite3`);

  let databaseUrl: string | undefined = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl) {
    let url: URL;
    try {
      url = new URL(databaseUrl);
    } catch {
      throw new ConfigError(
        "DATABASE_URL",
        "is not a valid URL (expected postgres://user:password@host:5432/db)",
      );
    }
    if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
      throw new ConfigError(
        "DATABASE_URL",
        `must start with postgres:// or postgresql:// (got "${url.protocol}//")`,
      );
    }
    if (production && !isLocalDatabase(url) && !requiresTls(url)) {
      warn(
        "DATABASE_URL",
        `connects to ${url.hostname} without requiring TLS; add ?sslmode=verify-full (or require) unless the network is private`,
      );
    }
  } else databaseUrl = undefined;

  let appSecret = env.APP_SECRET?.trim() ?? "";
  let appSecretSource: Config["appSecretSource"] = "env";
  if (appSecret === "") {
    if (production) {
      throw new ConfigError("APP_SECRET", "is required when DENO_ENV=production (32+ random characters)");
    }
    const file = `${dataDir}/app-secret`;
    const existing = await Deno.readTextFile(file).then((s) => s.trim()).catch(() => "");
    if (existing.length >= 32) {
      appSecret = existing;
      appSecretSource = "file";
    } else {
      const bytes = crypto.getRandomValues(new Uint8Array(32));
      appSecret = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
      await Deno.mkdir(dataDir, { recursive: true });
      await Deno.writeTextFile(file, appSecret + "\n", { mode: 0o600 });
      appSecretSource = "generated";
    }
  } else if (appSecret.length < 32) {
    throw new ConfigError("APP_SECRET", `must be at least 32 characters (got ${appSecret.length})`);
  } else if (production && new Set(appSecret).size < MIN_SECRET_DISTINCT) {
    // 32 random hex digits have fewer than 8 distinct ones about 4 times in 100 million.
    throw new ConfigError(
      "APP_SECRET",
      `looks like a placeholder (only ${
        new Set(appSecret).size
      } distinct characters); use random bytes, e.g. openssl rand -hex 32`,
    );
  }

  const welcomeVideoUrl = env.WELCOME_VIDEO_URL?.trim() || undefined;
  if (welcomeVideoUrl && !/^https:\/\/[^\s/]+\.[^\s]+$/.test(welcomeVideoUrl)) {
    throw new ConfigError("WELCOME_VIDEO_URL", `must be an https:// address (got "${welcomeVideoUrl}")`);
  }

  const museumTimeZone = env.MUSEUM_TIME_ZONE?.trim() || DEFAULT_TIME_ZONE;
  if (!isTimeZone(museumTimeZone)) {
    throw new ConfigError(
      "MUSEUM_TIME_ZONE",
      `must be an IANA time zone such as Asia/Jerusalem or America/New_York (got "${museumTimeZone}")`,
    );
  }

  const rawRegistration = env.ADMIN_REGISTRATION?.trim() || "";
  if (rawRegistration === "" && production) {
    throw new ConfigError(
      "ADMIN_REGISTRATION",
      "must be set when DENO_ENV=production: approval (the first admin to register is approved at once), closed, or open (closed networks only)",
    );
  }
  const adminRegistration = rawRegistration || "approval";
  if (adminRegistration !== "approval" && adminRegistration !== "open" && adminRegistration !== "closed") {
    throw new ConfigError(
      "ADMIN_REGISTRATION",
      `must be approval, open or closed (got "${adminRegistration}")`,
    );
  }
  if (production && adminRegistration === "open") {
    warn("ADMIN_REGISTRATION", "is open: everyone who registers becomes an approved admin and sees donors");
  }

  let signingKeys: Map<string, string>;
  try {
    signingKeys = parseSigningKeys(env.SIGNING_KEYS);
  } catch (e) {
    throw new ConfigError("SIGNING_KEYS", (e as Error).message);
  }

  const payments = readPayments(env, production, warn);
  let publicUrl = env.PUBLIC_URL?.trim().replace(/\/+$/, "") || undefined;
  if (publicUrl) {
    let url: URL | null = null;
    try {
      url = new URL(publicUrl);
    } catch { /* reported below */ }
    if (
      !url || (url.protocol !== "https:" && url.protocol !== "http:") || url.pathname !== "/" || url.search
    ) {
      throw new ConfigError(
        "PUBLIC_URL",
        `must be an origin such as https://donate.museum.org (got "${publicUrl}")`,
      );
    }
    if (production && url.protocol !== "https:") {
      throw new ConfigError("PUBLIC_URL", "must be https in production");
    }
    publicUrl = url.origin;
  } else if (production) {
    throw new ConfigError(
      "PUBLIC_URL",
      "is required when DENO_ENV=production (e.g. https://donate.museum.org)",
    );
  }

  // Test-terminal payments (1 NIS through the real provider, buttons on the kiosk page) are on in
  // production only when asked for, at every start, and then only for the museum's own numbers.
  const testTerminalPayment = bool(env, "FEATURE_TEST_TERMINAL_PAYMENT", !production);
  const enforcedFeatures: Config["enforcedFeatures"] = {};
  if (production) {
    if (!testTerminalPayment) enforcedFeatures.TEST_TERMINAL_PAYMENT = false;
    else if (!env.TEST_TERMINALS?.trim()) {
      throw new ConfigError(
        "TEST_TERMINALS",
        "is required when FEATURE_TEST_TERMINAL_PAYMENT is on in production (the museum's three test terminal numbers)",
      );
    }
  }

  return {
    env: mode,
    port: Number(rawPort),
    listenHost,
    kvPath,
    databaseUrl,
    appSecret,
    appSecretSource,
    features: {
      MONTHLY_PAYMENT: bool(env, "FEATURE_MONTHLY_PAYMENT", !production),
      TEST_TERMINAL_PAYMENT: testTerminalPayment,
    },
    enforcedFeatures,
    welcomeVideoUrl,
    museumTimeZone,
    adminRegistration,
    signingKeys,
    trustProxy: bool(env, "TRUST_PROXY", false),
    publicUrl,
    payments,
    passwords: {
      workers: wholeNumber("PASSWORD_WORKERS", env.PASSWORD_WORKERS, defaultPasswordWorkers(), 1, 64),
      maxQueue: wholeNumber("PASSWORD_QUEUE", env.PASSWORD_QUEUE, 64, 0, 10_000),
    },
    receiptWorkers: wholeNumber("RECEIPT_WORKERS", env.RECEIPT_WORKERS, spareCores(), 1, 64),
    rateLimits: readRateLimits(env),
    mail: readMail(env, production),
    receipts: readReceipts(env, production, warn),
    memberships: readMemberships(env),
    wallet: await readWallet(env, warn),
    warnings,
  };
}

/** Fewer distinct characters than this in a production `APP_SECRET` is a placeholder, not a secret. */
const MIN_SECRET_DISTINCT = 8;

/** Whether `host` is something `Deno.serve` can listen on: an IPv4 or IPv6 address, or localhost. */
function isListenAddress(host: string): boolean {
  if (host === "localhost") return true;
  const v4 = host.match(/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/);
  if (v4) return v4.slice(1).every((part) => Number(part) <= 255);
  return host.includes(":") && /^[0-9A-Fa-f:.]{2,45}$/.test(host);
}

/** Whether a database URL reaches this machine only (loopback, or a Unix socket via `?host=/…`). */
function isLocalDatabase(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (host === "" || host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host)) return true;
  return url.searchParams.get("host")?.startsWith("/") ?? false;
}

/** Whether postgres.js will insist on TLS for this URL (`sslmode` or `ssl`; `prefer` may fall back). */
function requiresTls(url: URL): boolean {
  const mode = (url.searchParams.get("sslmode") ?? url.searchParams.get("ssl") ?? "").toLowerCase();
  return ["require", "verify-ca", "verify-full", "true"].includes(mode);
}

/** The rate limits (`lib/rate_limits/rate_limits.ts`); `docs/configuration.md` explains the defaults. */
function readRateLimits(env: Env): Config["rateLimits"] {
  const whole = (name: string, raw: string | undefined, fallback: number, max = 100_000_000) => {
    const value = raw?.trim() || String(fallback);
    if (/^\d{1,9}$/.test(value) && Number(value) >= 1 && Number(value) <= max) return Number(value);
    throw new ConfigError(name, `must be a whole number from 1 to ${max} (got "${value}")`);
  };
  return {
    windowMs: whole("RATE_LIMIT_WINDOW_SECONDS", env.RATE_LIMIT_WINDOW_SECONDS, 600, 86_400) * 1000,
    perAddress: whole("RATE_LIMIT_PER_ADDRESS", env.RATE_LIMIT_PER_ADDRESS, 120),
    global: whole("RATE_LIMIT_GLOBAL", env.RATE_LIMIT_GLOBAL, 1200),
    registrationsPerAddress: whole("REGISTRATION_LIMIT_PER_ADDRESS", env.REGISTRATION_LIMIT_PER_ADDRESS, 10),
    registrationsGlobal: whole("REGISTRATION_LIMIT_GLOBAL", env.REGISTRATION_LIMIT_GLOBAL, 50),
    declineWindowMs: whole("DECLINE_WINDOW_SECONDS", env.DECLINE_WINDOW_SECONDS, 3600, 604_800) * 1000,
    declinesPerEmail: whole("DECLINE_LIMIT_PER_EMAIL", env.DECLINE_LIMIT_PER_EMAIL, 5),
    declinesPerAddress: whole("DECLINE_LIMIT_PER_ADDRESS", env.DECLINE_LIMIT_PER_ADDRESS, 30),
  };
}

/**
 * Reads the configuration of this process, or stops it with one line naming the bad setting:
 * what every entry point (the server, `seed`, `billing:run`) does first.
 *
 * @example
 * ```ts
 * const config = await loadConfigOrExit();
 * ```
 */
export async function loadConfigOrExit(): Promise<Config> {
  try {
    return await loadConfig(Deno.env.toObject());
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`Configuration error: ${e.message}`);
      Deno.exit(1);
    }
    throw e;
  }
}
