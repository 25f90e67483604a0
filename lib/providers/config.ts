/**
 * The payment settings (`PAYMENT_PROVIDER`, Pelecard's gateway and terminals, the kiosks' terminals,
 * the sandbox), read for `lib/app/config.ts`: a group of their own because the provider decides which
 * others are required.
 *
 * @module
 */
import { bool, ConfigError, type Env } from "@/lib/core/config_values.ts";

/** The payment provider and terminals, validated. */
export interface PaymentSettings {
  provider: "sandbox" | "pelecard";
  /** Largest payment in major units. */
  maxAmount: number;
  /** Kiosk shop number → terminal (PinPad) id. */
  terminals: Map<string, string>;
  /** The test terminal numbers offered while TEST_TERMINAL_PAYMENT is on. */
  testTerminals: string[];
  terminalDeadlineMs: number;
  sandboxTerminal: "manual" | "approve" | "timeout" | `decline:${string}`;
  pelecard?: {
    baseUrl: string;
    terminal: string;
    user: string;
    password: string;
    tokenTerminal?: { terminal: string; user: string; password: string };
  };
}

/** Reads the payment settings; `warn` takes the risky but allowed ones. */
export function readPayments(
  env: Env,
  production: boolean,
  warn: (setting: string, detail: string) => void,
): PaymentSettings {
  const provider = env.PAYMENT_PROVIDER?.trim() || "sandbox";
  if (provider !== "sandbox" && provider !== "pelecard") {
    throw new ConfigError("PAYMENT_PROVIDER", `must be sandbox or pelecard (got "${provider}")`);
  }
  const sandboxAllowed = bool(env, "SANDBOX_ALLOWED", false);
  if (provider === "sandbox" && production) {
    if (!sandboxAllowed) {
      throw new ConfigError(
        "PAYMENT_PROVIDER",
        "is sandbox (no real money) while DENO_ENV=production; set PAYMENT_PROVIDER=pelecard, or SANDBOX_ALLOWED=1 for a demo",
      );
    }
    warn("PAYMENT_PROVIDER", "is sandbox in production (SANDBOX_ALLOWED): donations move no money");
  }
  const rawMax = env.MAX_PAYMENT_AMOUNT?.trim() || "100000";
  if (!/^\d{1,9}$/.test(rawMax) || Number(rawMax) < 1) {
    throw new ConfigError("MAX_PAYMENT_AMOUNT", `must be a whole number of at least 1 (got "${rawMax}")`);
  }
  const terminals = new Map<string, string>();
  for (const pair of (env.TERMINALS ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
    const m = pair.match(/^([A-Za-z0-9_-]{1,32}):([A-Za-z0-9_-]{1,64})$/);
    if (!m) throw new ConfigError("TERMINALS", `"${pair}" is not shop:terminal (letters, digits, _ or -)`);
    terminals.set(m[1], m[2]);
  }
  const testTerminals = (env.TEST_TERMINALS ?? "1001,1002,1003").split(",").map((s) => s.trim()).filter(
    Boolean,
  );
  if (testTerminals.length !== 3 || testTerminals.some((t) => !/^[A-Za-z0-9_-]{1,32}$/.test(t))) {
    throw new ConfigError("TEST_TERMINALS", "must be three terminal numbers separated by commas");
  }
  const rawDeadline = env.TERMINAL_DEADLINE_SECONDS?.trim() || "60";
  if (!/^\d{1,5}$/.test(rawDeadline) || Number(rawDeadline) < 1 || Number(rawDeadline) > 3600) {
    throw new ConfigError(
      "TERMINAL_DEADLINE_SECONDS",
      `must be a whole number from 1 to 3600 (got "${rawDeadline}")`,
    );
  }
  const auto = env.SANDBOX_TERMINAL_AUTO?.trim() || "manual";
  if (!/^(manual|approve|timeout|decline:\d{3})$/.test(auto)) {
    throw new ConfigError(
      "SANDBOX_TERMINAL_AUTO",
      `must be manual, approve, timeout or decline:<3-digit code> (got "${auto}")`,
    );
  }
  let pelecard: PaymentSettings["pelecard"];
  if (provider === "pelecard") {
    const need = (name: string) => {
      const value = env[name]?.trim();
      if (!value) throw new ConfigError(name, "is required when PAYMENT_PROVIDER=pelecard");
      return value;
    };
    const baseUrl = (env.PELECARD_BASE_URL?.trim() || "https://gateway21.pelecard.biz").replace(/\/+$/, "");
    if (!/^https?:\/\/[^\s/]+$/.test(baseUrl)) {
      throw new ConfigError(
        "PELECARD_BASE_URL",
        `must be an origin such as https://gateway21.pelecard.biz (got "${baseUrl}")`,
      );
    }
    if (production && !baseUrl.startsWith("https://")) {
      throw new ConfigError("PELECARD_BASE_URL", "must be https in production");
    }
    pelecard = {
      baseUrl,
      terminal: need("PELECARD_TERMINAL"),
      user: need("PELECARD_USER"),
      password: need("PELECARD_PASSWORD"),
    };
    if (env.PELECARD_TOKEN_TERMINAL?.trim()) {
      pelecard.tokenTerminal = {
        terminal: need("PELECARD_TOKEN_TERMINAL"),
        user: need("PELECARD_TOKEN_USER"),
        password: need("PELECARD_TOKEN_PASSWORD"),
      };
    }
  }
  return {
    provider,
    maxAmount: Number(rawMax),
    terminals,
    testTerminals,
    terminalDeadlineMs: Number(rawDeadline) * 1000,
    sandboxTerminal: auto as PaymentSettings["sandboxTerminal"],
    pelecard,
  };
}
