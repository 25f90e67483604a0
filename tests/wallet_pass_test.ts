/**
 * The member card's Apple Wallet pass (issue 27, item 3), with certificates this test makes: its
 * `pass.json` (a store card with the museum's name, the member's name, level, number and valid-until
 * date in the member's language, the brand colours), its QR code holding the card's own signed token
 * (verified with only the public key), a manifest hashing every file and a detached PKCS#7
 * signature of it by the signer; one pass per cardholder, each with its own stable serial number; a
 * signer key kept encrypted; no pass at all when the museum has set no certificates.
 */
import assert from "node:assert/strict";
import { translator } from "@/lib/core/i18n.ts";
import { changeCardholders } from "@/lib/donor_portal/mod.ts";
import {
  memberCardFile,
  MemberCardPool,
  memberCardPublicKey,
  membershipDate,
  readWallet,
  verifyMemberCardToken,
} from "@/lib/memberships/mod.ts";
import { readMuseumSettings } from "@/lib/museum/mod.ts";
import { openStore } from "@/lib/storage/mod.ts";
import { memberFixture } from "@/tests/helpers/membership_world.ts";
import {
  assertManifest,
  assertPassSignature,
  makePassCertificates,
  openPass,
} from "@/tests/helpers/wallet.ts";

const SECRET = "test-app-secret-for-wallet-passes-0123456789";
const certs = makePassCertificates();
/** A member, and what makes their cards: the card workers (one), the certificates. */
async function member() {
  const store = await openStore({ kvPath: ":memory:" });
  const { membership } = await memberFixture(store, 3);
  const cards = new MemberCardPool({ workers: 1 });
  const wallet = await readWallet(certs.env);
  const ctx = { store, appSecret: SECRET, render: cards.render, graceDays: 30, wallet };
  return { store, membership, ctx, close: () => Promise.all([cards.close(), store.close()]) };
}

const fieldsOf = (card: Record<string, { key: string; label?: string; value: unknown }[]>) =>
  Object.fromEntries(
    ["headerFields", "primaryFields", "secondaryFields", "auxiliaryFields", "backFields"]
      .flatMap((group) => card[group] ?? [])
      .map((f) => [f.key, f]),
  );

Deno.test("a member's Apple Wallet pass: its fields, the card's token, every file hashed, signed", async () => {
  const { store, membership, ctx, close } = await member();
  try {
    const file = await memberCardFile(ctx, membership, 0, "en", "pkpass");
    assert.ok(file, "a pass once the certificates are set");
    assert.equal(file.contentType, "application/vnd.apple.pkpass");
    assert.equal(file.filename, `member-card-${membership.number}-1.pkpass`);
    const { files, pass } = openPass(file.content as Uint8Array);

    const settings = await readMuseumSettings(store);
    const t = translator("en");
    assert.equal(pass.formatVersion, 1);
    assert.equal(pass.passTypeIdentifier, certs.passTypeId);
    assert.equal(pass.teamIdentifier, certs.teamId);
    assert.equal(pass.organizationName, settings.identity.name.en);
    assert.equal(pass.logoText, settings.identity.name.en);
    assert.ok(pass.storeCard, "a store card");
    const fields = fieldsOf(pass.storeCard);
    assert.deepEqual([fields.name.label, fields.name.value], [t("walletPass.member"), "Dana Levi"]);
    assert.deepEqual([fields.level.label, fields.level.value], [t("memberCard.level"), "Family"]);
    assert.deepEqual([fields.number.label, fields.number.value], [t("memberCard.number"), membership.number]);
    assert.deepEqual(
      [fields.validUntil.label, fields.validUntil.value],
      [t("memberCard.validUntil"), membershipDate(membership.terms[0].end, "en")],
    );
    assert.equal(pass.description, t("walletPass.description", { museum: settings.identity.name.en }));
    const { brand } = settings.identity.colours ?? { brand: "#1f3a5f" };
    const rgb = `rgb(${[1, 3, 5].map((i) => parseInt(brand.slice(i, i + 2), 16)).join(", ")})`;
    assert.equal(pass.backgroundColor, rgb);
    assert.equal(pass.foregroundColor, "rgb(255, 255, 255)");
    // Wallet greys the pass out when the token stops verifying: the end plus the grace days.
    assert.equal(Date.parse(pass.expirationDate), Date.parse(membership.terms[0].end) + 30 * 86_400_000);

    assert.equal(pass.barcodes.length, 1);
    assert.equal(pass.barcodes[0].format, "PKBarcodeFormatQR");
    const card = await verifyMemberCardToken(pass.barcodes[0].message, await memberCardPublicKey(SECRET));
    assert.deepEqual([card.number, card.levelId, card.holder, card.name], [
      membership.number,
      3,
      0,
      "Dana Levi",
    ]);

    for (const icon of ["icon.png", "icon@2x.png", "icon@3x.png"]) {
      assert.deepEqual([...files[icon].slice(1, 4)], [0x50, 0x4e, 0x47], `${icon} is a PNG`);
    }
    assertManifest(files);
    assertPassSignature(files, certs);
  } finally {
    await close();
  }
});

Deno.test("a household: a pass per cardholder in Hebrew, each serial stable and its own", async () => {
  const { store, ctx, close } = await member();
  try {
    const named = await changeCardholders(store, "dana@example.org", ["דנה לוי", 'Avi "the second" Levi\\']);
    const passes = [];
    for (const holder of [0, 1, 0]) {
      const file = await memberCardFile(ctx, named!, holder, "he", "pkpass");
      passes.push(openPass(file!.content as Uint8Array));
    }
    const [first, second, again] = passes.map((p) => p.pass);
    assert.equal(first.serialNumber, again.serialNumber, "the same cardholder's pass keeps its serial");
    assert.notEqual(first.serialNumber, second.serialNumber, "each cardholder has a pass of their own");
    const he = translator("he");
    const settings = await readMuseumSettings(store);
    const fields = fieldsOf(first.storeCard);
    assert.deepEqual([fields.name.label, fields.name.value], [he("walletPass.member"), "דנה לוי"]);
    assert.notEqual(he("walletPass.member"), translator("en")("walletPass.member"));
    assert.equal(fields.level.value, settings.levels.find((l) => l.id === 3)!.name.he);
    assert.equal(fields.validUntil.value, membershipDate(named!.terms[0].end, "he"));
    assert.equal(first.organizationName, settings.identity.name.he);
    assert.equal(first.description, he("walletPass.description", { museum: settings.identity.name.he }));
    assert.equal(fieldsOf(second.storeCard).name.value, 'Avi "the second" Levi\\');
    const card = await verifyMemberCardToken(second.barcodes[0].message, await memberCardPublicKey(SECRET));
    assert.deepEqual([card.holder, card.name], [1, 'Avi "the second" Levi\\']);
    for (const { files } of passes) assertManifest(files);
    assert.equal(await memberCardFile(ctx, named!, 2, "he", "pkpass"), null, "no third cardholder");
  } finally {
    await close();
  }
});

Deno.test("a signer key kept encrypted is read with its passphrase", async () => {
  const encrypted = makePassCertificates({ passphrase: "correct horse battery staple" });
  assert.match(encrypted.signerKey, /ENCRYPTED/);
  const { membership, ctx, close } = await member();
  try {
    const file = await memberCardFile(
      { ...ctx, wallet: await readWallet(encrypted.env) },
      membership,
      0,
      "ru",
      "pkpass",
    );
    const { files, pass } = openPass(file!.content as Uint8Array);
    assert.equal(fieldsOf(pass.storeCard).name.label, translator("ru")("walletPass.member"));
    assertManifest(files);
    assertPassSignature(files, encrypted);
  } finally {
    await close();
  }
});

Deno.test("no certificates set: no pass", async () => {
  const { membership, ctx, close } = await member();
  try {
    assert.equal(await readWallet({}), null);
    assert.equal(await memberCardFile({ ...ctx, wallet: null }, membership, 0, "en", "pkpass"), null);
  } finally {
    await close();
  }
});
