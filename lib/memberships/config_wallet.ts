/**
 * The Apple Wallet settings (issue 27, item 3): the museum's pass certificates, read by
 * `lib/app/config.ts` beside the other groups and listed in `docs/configuration.md`. Without them
 * there are no passes and nothing about the wallet shows; with some but not all, or one that
 * cannot be used, the app does not start (one line naming the setting), so a museum never learns
 * of a broken pass from a member at the door.
 *
 * A certificate or key is given as its PEM text, with real line ends or `\n` written for them (one
 * line, for an environment file), or as the base64 of the PEM file (`base64 -w0 signer.pem`).
 * Checked here with `node-forge`, which signs the passes (`passkit-generator`), so what starts is
 * what signs: the certificates parse (RSA, as Apple's are), the key opens with the passphrase, and
 * it is the signer certificate's key. (Deno's `node:crypto` refuses some keys forge and OpenSSL
 * read, e.g. PKCS#8 encrypted with the default PBKDF2 hash, so it is not the judge.) `node-forge`
 * is loaded only when the settings are given.
 *
 * @module
 */
import type forgeModule from "node-forge";
import { ConfigError, type Env } from "@/lib/core/config_values.ts";

type Forge = typeof forgeModule;

/** The museum's pass certificates (`WALLET_*`). */
export interface WalletSettings {
  /** The pass type identifier registered with Apple (`pass.org.museum.member`). */
  passTypeId: string;
  /** The Apple team identifier (10 capital letters or digits). */
  teamId: string;
  /** The pass signing certificate, PEM. */
  signerCert: string;
  /** Its private key (RSA), PEM, encrypted when {@link signerKeyPassphrase} is set. */
  signerKey: string;
  signerKeyPassphrase?: string;
  /** Apple's Worldwide Developer Relations certificate (the one that issued the signer), PEM. */
  wwdr: string;
}

/** What starts a PEM text; anything else given is taken as base64 of one. */
const PEM_START = "-----BEGIN ";

function pemOf(setting: string, raw: string): string {
  let text = raw.trim().replaceAll("\\n", "\n");
  if (!text.startsWith(PEM_START)) {
    try {
      // atob, not node:buffer: the configuration is read at every start, and loading Node's Buffer
      // costs it tens of ms (issue 29). URL-safe base64 is read too, as Buffer read it.
      const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
      text = new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))
        .trim();
    } catch { /* reported below */ }
  }
  if (!text.startsWith(PEM_START)) {
    throw new ConfigError(setting, "must be PEM text (-----BEGIN …) or the base64 of a PEM file");
  }
  return text.replaceAll("\r\n", "\n") + "\n";
}

function certificateOf(forge: Forge, setting: string, pem: string): forgeModule.pki.Certificate {
  try {
    return forge.pki.certificateFromPem(pem);
  } catch {
    throw new ConfigError(setting, "is not a readable X.509 certificate with an RSA key (PEM)");
  }
}

function keyOf(forge: Forge, pem: string, passphrase: string | undefined): forgeModule.pki.rsa.PrivateKey {
  let key: forgeModule.pki.rsa.PrivateKey | null = null;
  try {
    key = forge.pki.decryptRsaPrivateKey(pem, passphrase ?? "");
  } catch { /* reported below */ }
  if (key) return key;
  throw new ConfigError(
    "WALLET_SIGNER_KEY",
    passphrase === undefined && pem.includes("ENCRYPTED")
      ? "is encrypted: set WALLET_SIGNER_KEY_PASSPHRASE"
      : "cannot be read as an RSA private key (PEM) with the passphrase given (WALLET_SIGNER_KEY_PASSPHRASE)",
  );
}

const REQUIRED = [
  "WALLET_PASS_TYPE_ID",
  "WALLET_TEAM_ID",
  "WALLET_SIGNER_CERT",
  "WALLET_SIGNER_KEY",
  "WALLET_WWDR_CERT",
] as const;

/**
 * Reads the Apple Wallet settings: null when none is set. `warn` hears of a signer certificate
 * past its end (passes signed with it are refused by Wallet).
 *
 * @example
 * ```ts
 * await readWallet({}); // null: no passes
 * (await readWallet(Deno.env.toObject()))?.passTypeId; // "pass.org.museum.member"
 * ```
 */
export async function readWallet(
  env: Env,
  warn: (setting: string, detail: string) => void = () => {},
): Promise<WalletSettings | null> {
  const given = {
    WALLET_PASS_TYPE_ID: env.WALLET_PASS_TYPE_ID?.trim() ?? "",
    WALLET_TEAM_ID: env.WALLET_TEAM_ID?.trim() ?? "",
    WALLET_SIGNER_CERT: env.WALLET_SIGNER_CERT?.trim() ?? "",
    WALLET_SIGNER_KEY: env.WALLET_SIGNER_KEY?.trim() ?? "",
    WALLET_WWDR_CERT: env.WALLET_WWDR_CERT?.trim() ?? "",
  };
  const passphrase = env.WALLET_SIGNER_KEY_PASSPHRASE || undefined;
  if (REQUIRED.every((name) => given[name] === "") && passphrase === undefined) return null;
  const missing = REQUIRED.find((name) => given[name] === "");
  if (missing) {
    throw new ConfigError(missing, `is required for Apple Wallet passes, with ${REQUIRED.join(", ")}`);
  }
  if (!/^pass\.[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/.test(given.WALLET_PASS_TYPE_ID)) {
    throw new ConfigError(
      "WALLET_PASS_TYPE_ID",
      `must be a pass type identifier such as pass.org.museum.member (got "${given.WALLET_PASS_TYPE_ID}")`,
    );
  }
  if (!/^[A-Z0-9]{10}$/.test(given.WALLET_TEAM_ID)) {
    throw new ConfigError(
      "WALLET_TEAM_ID",
      `must be Apple's team identifier, 10 capital letters or digits (got "${given.WALLET_TEAM_ID}")`,
    );
  }
  const signerCert = pemOf("WALLET_SIGNER_CERT", given.WALLET_SIGNER_CERT);
  const signerKey = pemOf("WALLET_SIGNER_KEY", given.WALLET_SIGNER_KEY);
  const wwdr = pemOf("WALLET_WWDR_CERT", given.WALLET_WWDR_CERT);
  const forge = (await import("node-forge")).default;
  const signer = certificateOf(forge, "WALLET_SIGNER_CERT", signerCert);
  certificateOf(forge, "WALLET_WWDR_CERT", wwdr);
  const key = keyOf(forge, signerKey, passphrase);
  const publicKey = signer.publicKey as forgeModule.pki.rsa.PublicKey;
  if (!publicKey.n.equals(key.n) || !publicKey.e.equals(key.e)) {
    throw new ConfigError("WALLET_SIGNER_KEY", "is not the key of WALLET_SIGNER_CERT");
  }
  const end = signer.validity.notAfter;
  if (end.getTime() < Date.now()) {
    warn("WALLET_SIGNER_CERT", `ended on ${end.toISOString()}: Wallet refuses passes signed with it`);
  }
  return {
    passTypeId: given.WALLET_PASS_TYPE_ID,
    teamId: given.WALLET_TEAM_ID,
    signerCert,
    signerKey,
    ...(passphrase === undefined ? {} : { signerKeyPassphrase: passphrase }),
    wwdr,
  };
}
