/**
 * Configuration: read once, from the environment, in this one module. A bad or missing required
 * setting stops start-up with one clear line naming the setting ({@link ConfigError}).
 *
 * | variable                        | default                      | meaning                                      |
 * |---------------------------------|------------------------------|----------------------------------------------|
 * | `DENO_ENV`                      | `development`                | `development`, `production` or `test`        |
 * | `PORT`                          | `8000`                       | HTTP port (0 picks a free one)               |
 * | `KV_PATH`                       | `data/kv.sqlite3`            | Deno KV file, or `:memory:`                  |
 * | `DATABASE_URL`                  | unset                        | PostgreSQL; when set, it is the store        |
 * | `APP_SECRET`                    | generated in development     | 32+ characters; required in production      |
 * | `FEATURE_MONTHLY_PAYMENT`       | on in development            | initial value of the MONTHLY_PAYMENT flag    |
 * | `FEATURE_TEST_TERMINAL_PAYMENT` | on in development            | initial value of TEST_TERMINAL_PAYMENT       |
 * | `WELCOME_VIDEO_URL`             | unset (link hidden)          | https address of the hero's 'Watch Video'    |
 * | `ADMIN_REGISTRATION`            | `approval`                   | `approval`, `open` or `closed`               |
 * | `SIGNING_KEYS`                  | none                         | `id:hexsecret,…` server-to-server keys       |
 * | `TRUST_PROXY`                   | off                          | take the client address from X-Forwarded-For |
 *
 * @module
 */
import { parseSigningKeys } from "./signature_check.ts";

/** The app's settings, validated. */
export interface Config {
  env: "development" | "production" | "test";
  port: number;
  kvPath: string;
  databaseUrl?: string;
  appSecret: string;
  /** Where `appSecret` came from; `generated` means this start created it under `data/`. */
  appSecretSource: "env" | "file" | "generated";
  /** Initial flag values, used only to seed flags that do not exist yet. */
  features: { MONTHLY_PAYMENT: boolean; TEST_TERMINAL_PAYMENT: boolean };
  /** The museum's video behind the hero's 'Watch Video' link; the link is hidden when unset. */
  welcomeVideoUrl?: string;
  /**
   * Who may become an admin: `approval` (the first admin at once, later ones once an approved
   * admin approves them), `open` (everyone who registers; for a closed network only) or `closed`.
   */
  adminRegistration: "approval" | "open" | "closed";
  /** Server-to-server signing keys by id (hex secrets). */
  signingKeys: Map<string, string>;
  /** Whether a reverse proxy in front sets X-Forwarded-For (the client address for throttling). */
  trustProxy: boolean;
}

/** A setting is missing or invalid; the message is one line and names it. */
export class ConfigError extends Error {
  constructor(readonly setting: string, detail: string) {
    super(`${setting}: ${detail}`);
  }
}

type Env = Record<string, string | undefined>;

const TRUE = new Set(["1", "true", "on", "yes"]);
const FALSE = new Set(["0", "false", "off", "no"]);

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "") return fallback;
  if (TRUE.has(raw)) return true;
  if (FALSE.has(raw)) return false;
  throw new ConfigError(name, `must be one of 1, 0, true, false, on, off, yes, no (got "${env[name]}")`);
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
  const rawEnv = env.DENO_ENV?.trim() || "development";
  if (rawEnv !== "development" && rawEnv !== "production" && rawEnv !== "test") {
    throw new ConfigError("DENO_ENV", `must be development, production or test (got "${rawEnv}")`);
  }
  const mode = rawEnv;
  const production = mode === "production";

  const rawPort = env.PORT?.trim() || "8000";
  if (!/^\d{1,5}$/.test(rawPort) || Number(rawPort) > 65535) {
    throw new ConfigError("PORT", `must be an integer from 0 to 65535 (got "${env.PORT}")`);
  }

  const kvPath = env.KV_PATH?.trim() || `${dataDir}/kv.sqlite3`;

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
  }

  const welcomeVideoUrl = env.WELCOME_VIDEO_URL?.trim() || undefined;
  if (welcomeVideoUrl && !/^https:\/\/[^\s/]+\.[^\s]+$/.test(welcomeVideoUrl)) {
    throw new ConfigError("WELCOME_VIDEO_URL", `must be an https:// address (got "${welcomeVideoUrl}")`);
  }

  const adminRegistration = env.ADMIN_REGISTRATION?.trim() || "approval";
  if (adminRegistration !== "approval" && adminRegistration !== "open" && adminRegistration !== "closed") {
    throw new ConfigError(
      "ADMIN_REGISTRATION",
      `must be approval, open or closed (got "${adminRegistration}")`,
    );
  }

  let signingKeys: Map<string, string>;
  try {
    signingKeys = parseSigningKeys(env.SIGNING_KEYS);
  } catch (e) {
    throw new ConfigError("SIGNING_KEYS", (e as Error).message);
  }

  return {
    env: mode,
    port: Number(rawPort),
    kvPath,
    databaseUrl,
    appSecret,
    appSecretSource,
    features: {
      MONTHLY_PAYMENT: bool(env, "FEATURE_MONTHLY_PAYMENT", !production),
      TEST_TERMINAL_PAYMENT: bool(env, "FEATURE_TEST_TERMINAL_PAYMENT", !production),
    },
    welcomeVideoUrl,
    adminRegistration,
    signingKeys,
    trustProxy: bool(env, "TRUST_PROXY", false),
  };
}
