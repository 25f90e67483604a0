/**
 * The Apple Wallet settings (`WALLET_*`, issue 27 item 3): none set, no passes; all set, read (PEM
 * as it is, with `\n` written for its line ends, or base64 of the file); some set but not all, or one
 * that cannot be used (a team id of the wrong shape, a key that is not the certificate's, a wrong
 * passphrase), refuses to start with one line naming the setting.
 */
import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "@/lib/app/config.ts";
import { makePassCertificates } from "@/tests/helpers/wallet.ts";

const certs = makePassCertificates();
const BASE = {
  DENO_ENV: "test",
  APP_SECRET: "test-secret-that-is-long-enough-0123456789",
  KV_PATH: ":memory:",
};
const load = (env: Record<string, string>) => loadConfig({ ...BASE, ...env });
const refused = async (env: Record<string, string>, setting: string, detail: RegExp) => {
  const error = await load(env).then(() => null, (e) => e);
  assert.ok(error instanceof ConfigError, `refused: ${JSON.stringify(Object.keys(env))}`);
  assert.equal(error.setting, setting);
  assert.match(error.message, detail);
};

Deno.test("wallet settings: none set, no passes; all set, read as given", async () => {
  assert.equal((await load({})).wallet, null);
  const wallet = (await load(certs.env)).wallet!;
  assert.equal(wallet.passTypeId, certs.passTypeId);
  assert.equal(wallet.teamId, certs.teamId);
  const lf = (pem: string) => pem.replaceAll("\r\n", "\n").trim();
  assert.equal(lf(wallet.signerCert), lf(certs.signerCert));
  assert.equal(lf(wallet.wwdr), lf(certs.wwdr));
  const oneLine = (pem: string) => pem.trim().replaceAll("\r\n", "\\n").replaceAll("\n", "\\n");
  const base64 = (pem: string) => btoa(pem);
  for (const spell of [oneLine, base64]) {
    const spelt = (await load({
      ...certs.env,
      WALLET_SIGNER_CERT: spell(certs.signerCert),
      WALLET_SIGNER_KEY: spell(certs.signerKey),
      WALLET_WWDR_CERT: spell(certs.wwdr),
    })).wallet!;
    assert.match(spelt.signerCert, /^-----BEGIN CERTIFICATE-----\n/);
    assert.match(spelt.signerKey, /^-----BEGIN RSA PRIVATE KEY-----\n/);
    assert.match(spelt.wwdr, /-----END CERTIFICATE-----\n?$/);
  }
});

Deno.test("wallet settings: some set but not all, or unusable, refuse to start naming the setting", async () => {
  const { WALLET_TEAM_ID: _, ...noTeam } = certs.env;
  await refused(noTeam, "WALLET_TEAM_ID", /required/);
  await refused({ WALLET_WWDR_CERT: certs.wwdr }, "WALLET_PASS_TYPE_ID", /required/);
  await refused({ ...certs.env, WALLET_TEAM_ID: "team" }, "WALLET_TEAM_ID", /10 capital letters or digits/);
  await refused({ ...certs.env, WALLET_PASS_TYPE_ID: "org.museum" }, "WALLET_PASS_TYPE_ID", /pass\./);
  await refused({ ...certs.env, WALLET_WWDR_CERT: "not a certificate" }, "WALLET_WWDR_CERT", /PEM/);
  await refused({ ...certs.env, WALLET_WWDR_CERT: certs.signerKey }, "WALLET_WWDR_CERT", /certificate/);
  const other = makePassCertificates();
  await refused({ ...certs.env, WALLET_SIGNER_KEY: other.signerKey }, "WALLET_SIGNER_KEY", /not the key of/);
  const locked = makePassCertificates({ passphrase: "right" });
  assert.ok((await load(locked.env)).wallet, "the encrypted key with its passphrase");
  await refused({ ...locked.env, WALLET_SIGNER_KEY_PASSPHRASE: "wrong" }, "WALLET_SIGNER_KEY", /passphrase/);
  const { WALLET_SIGNER_KEY_PASSPHRASE: __, ...noPassphrase } = locked.env;
  await refused(noPassphrase, "WALLET_SIGNER_KEY", /encrypted: set WALLET_SIGNER_KEY_PASSPHRASE/);
});
