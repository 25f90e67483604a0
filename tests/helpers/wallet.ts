/**
 * Apple Wallet passes in tests (issue 27, item 3): certificates made at test time (a root, a
 * WWDR-like intermediate it issues, and a pass signer the intermediate issues, as Apple's chain
 * is), the settings that name them, and a pass opened and checked the way Wallet does: every file
 * hashed in `manifest.json`, and `signature` a PKCS#7 detached signature of the manifest by the
 * signer, checked here with the signer certificate's public key (not by the library that made it).
 *
 * @module
 */
import assert from "node:assert/strict";
import { createHash, verify, X509Certificate } from "node:crypto";
import forge from "node-forge";
import { unzipSync } from "fflate";

/** The test certificates (PEM) and the `WALLET_*` settings that use them. */
export interface TestPassCertificates {
  root: string;
  wwdr: string;
  signerCert: string;
  signerKey: string;
  passTypeId: string;
  teamId: string;
  /** The settings of `lib/memberships/config_wallet.ts`. */
  env: Record<string, string>;
}

const DAY = 86_400_000;

function certificate(
  subject: forge.pki.CertificateField[],
  keys: forge.pki.rsa.KeyPair,
  issuer: { subject: forge.pki.CertificateField[]; key: forge.pki.rsa.PrivateKey } | null,
  ca: boolean,
  serial: string,
): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serial;
  cert.validity.notBefore = new Date(Date.now() - DAY);
  cert.validity.notAfter = new Date(Date.now() + 30 * DAY);
  cert.setSubject(subject);
  cert.setIssuer(issuer?.subject ?? subject);
  cert.setExtensions([
    { name: "basicConstraints", cA: ca },
    { name: "keyUsage", keyCertSign: ca, cRLSign: ca, digitalSignature: !ca },
  ]);
  cert.sign(issuer?.key ?? keys.privateKey, forge.md.sha256.create());
  return cert;
}

const generate = () => forge.pki.rsa.generateKeyPair({ bits: 2048, e: 0x10001 });

/**
 * Makes a root, a WWDR-like intermediate and a pass signer certificate (RSA 2048), with the signer's
 * key in PEM, encrypted with `passphrase` when given.
 */
export function makePassCertificates(options: { passphrase?: string } = {}): TestPassCertificates {
  const passTypeId = "pass.org.example.museum.member";
  const teamId = "TEST123456";
  const rootKeys = generate();
  const rootSubject = [{ name: "commonName", value: "Test Root CA" }];
  const root = certificate(rootSubject, rootKeys, null, true, "01");
  const wwdrKeys = generate();
  const wwdrSubject = [
    { name: "commonName", value: "Test Worldwide Developer Relations" },
    { name: "organizationalUnitName", value: "G4" },
  ];
  const wwdr = certificate(
    wwdrSubject,
    wwdrKeys,
    { subject: rootSubject, key: rootKeys.privateKey },
    true,
    "02",
  );
  const signerKeys = generate();
  const signer = certificate(
    [
      { type: "0.9.2342.19200300.100.1.1", value: passTypeId },
      { name: "commonName", value: `Pass Type ID: ${passTypeId}` },
      { name: "organizationalUnitName", value: teamId },
    ],
    signerKeys,
    { subject: wwdrSubject, key: wwdrKeys.privateKey },
    false,
    "03",
  );
  const signerKey = options.passphrase
    ? forge.pki.encryptRsaPrivateKey(signerKeys.privateKey, options.passphrase, { algorithm: "aes256" })
    : forge.pki.privateKeyToPem(signerKeys.privateKey);
  const pems = {
    root: forge.pki.certificateToPem(root),
    wwdr: forge.pki.certificateToPem(wwdr),
    signerCert: forge.pki.certificateToPem(signer),
    signerKey,
  };
  return {
    ...pems,
    passTypeId,
    teamId,
    env: {
      WALLET_PASS_TYPE_ID: passTypeId,
      WALLET_TEAM_ID: teamId,
      WALLET_SIGNER_CERT: pems.signerCert,
      WALLET_SIGNER_KEY: signerKey,
      ...(options.passphrase ? { WALLET_SIGNER_KEY_PASSPHRASE: options.passphrase } : {}),
      WALLET_WWDR_CERT: pems.wwdr,
    },
  };
}

/** A pass's files by name, and its `pass.json` parsed. */
export interface OpenedPass {
  files: Record<string, Uint8Array>;
  // deno-lint-ignore no-explicit-any
  pass: any;
}

/** Unzips a `.pkpass`. */
export function openPass(bytes: Uint8Array): OpenedPass {
  const files = unzipSync(bytes);
  assert.ok(files["pass.json"], "the pass has a pass.json");
  return { files, pass: JSON.parse(new TextDecoder().decode(files["pass.json"])) };
}

const sha1 = (bytes: Uint8Array) => createHash("sha1").update(bytes).digest("hex");
const binary = (bytes: Uint8Array) => String.fromCharCode(...bytes);
const bytesOf = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

/**
 * Checks that `manifest.json` lists every other file of the pass (all but itself and `signature`)
 * with its SHA-1, and nothing else.
 */
export function assertManifest(files: Record<string, Uint8Array>): void {
  const manifest = JSON.parse(new TextDecoder().decode(files["manifest.json"]));
  const hashed = Object.keys(files).filter((name) => name !== "manifest.json" && name !== "signature").sort();
  assert.deepEqual(Object.keys(manifest).sort(), hashed, "the manifest names every file");
  for (const name of hashed) {
    assert.equal(manifest[name], sha1(files[name]), `the manifest's hash of ${name}`);
  }
}

const OID = {
  signedData: "1.2.840.113549.1.7.2",
  data: "1.2.840.113549.1.7.1",
  sha1: "1.3.14.3.2.26",
  messageDigest: "1.2.840.113549.1.9.4",
  signingTime: "1.2.840.113549.1.9.5",
};

/**
 * Checks `signature` as Wallet does: a PKCS#7 signedData with no content (detached), whose one
 * signer's signed attributes hold the SHA-1 of `manifest.json` and a signing time, signed (RSA,
 * SHA-1) with the key of `signerCert`; it carries `signerCert` and the WWDR certificate, and the
 * chain signer → WWDR → root holds.
 */
export function assertPassSignature(files: Record<string, Uint8Array>, certs: TestPassCertificates): void {
  const { asn1 } = forge;
  const info = asn1.fromDer(forge.util.createBuffer(binary(files["signature"])));
  const [type, wrapped] = info.value as forge.asn1.Asn1[];
  assert.equal(asn1.derToOid(type.value as string), OID.signedData);
  const signedData = (wrapped.value as forge.asn1.Asn1[])[0].value as forge.asn1.Asn1[];
  const content = signedData[2].value as forge.asn1.Asn1[];
  assert.equal(asn1.derToOid(content[0].value as string), OID.data);
  assert.equal(content.length, 1, "detached: the manifest is not inside the signature");
  const carried = (signedData.find((n) => n.tagClass === asn1.Class.CONTEXT_SPECIFIC && n.type === 0)!
    .value as forge.asn1.Asn1[]).map((c) => forge.pki.certificateToPem(forge.pki.certificateFromAsn1(c)));
  const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256;
  assert.deepEqual(
    carried.map(fingerprint).sort(),
    [certs.wwdr, certs.signerCert].map(fingerprint).sort(),
    "the signature carries the WWDR and signer certificates",
  );
  const signers = signedData[signedData.length - 1].value as forge.asn1.Asn1[];
  assert.equal(signers.length, 1);
  const signer = signers[0].value as forge.asn1.Asn1[];
  const digestAlgorithm = (signer[2].value as forge.asn1.Asn1[])[0];
  assert.equal(asn1.derToOid(digestAlgorithm.value as string), OID.sha1);
  const attributes = signer.find((n) => n.tagClass === asn1.Class.CONTEXT_SPECIFIC && n.type === 0)!;
  const byOid = new Map(
    (attributes.value as forge.asn1.Asn1[]).map((a) => {
      const [oid, values] = a.value as forge.asn1.Asn1[];
      return [asn1.derToOid(oid.value as string), (values.value as forge.asn1.Asn1[])[0]];
    }),
  );
  assert.ok(byOid.has(OID.signingTime), "a signing time, which Wallet requires");
  const digest = bytesOf(byOid.get(OID.messageDigest)!.value as string);
  assert.equal(
    Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join(""),
    sha1(files["manifest.json"]),
    "the signed digest is the manifest's",
  );
  // What is signed: the attributes, DER-encoded as a SET (RFC 5652, 5.4).
  const signedBytes = bytesOf(
    asn1.toDer(asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, attributes.value as forge.asn1.Asn1[]))
      .getBytes(),
  );
  const signatureValue = bytesOf(signer[signer.length - 1].value as string);
  const signerCert = new X509Certificate(certs.signerCert);
  assert.ok(verify("sha1", signedBytes, signerCert.publicKey, signatureValue), "signed by the signer's key");
  const wwdr = new X509Certificate(certs.wwdr);
  assert.ok(signerCert.verify(wwdr.publicKey), "the signer is issued by the WWDR certificate");
  assert.ok(wwdr.verify(new X509Certificate(certs.root).publicKey), "the WWDR certificate by the root");
}
