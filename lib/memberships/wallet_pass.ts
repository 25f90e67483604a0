/**
 * A member card as an Apple Wallet pass (issue 27, item 3), made with `passkit-generator` when the
 * museum has set its pass certificates (`config_wallet.ts`): a store card with the museum's name,
 * the cardholder's name, the level, the member number and the valid-until date, in the card's
 * language, in the brand colours, and a QR code holding the card's own signed token
 * (`card.ts`, `card_token.ts`), so the door checks a pass exactly as it checks a printed card.
 *
 * One pass per cardholder; its serial number is the member number and the cardholder's place, so
 * adding it again (a renewal, a new name) updates the pass in Wallet instead of adding a second.
 * It expires when its token does (the end plus the grace days), and Wallet then shows it as such.
 * The texts are written in `pass.json` in the card's language (no `.lproj`): the member chose it (and
 * `passkit-generator` 3.6.1 writes `pass.strings` without escaping `"`, common in Hebrew, ת"א).
 *
 * Made by the card workers (`card_worker.ts`, loaded there with the first pass: the library brings
 * `joi` and `node-forge`), since signing (RSA in JavaScript) and drawing the icons take the time of a
 * card's drawing.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { PKPass } from "passkit-generator";
import { translator } from "@/lib/core/i18n.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import type { BrandColours } from "@/lib/shared/museum.ts";
import type { MemberCardFace } from "./card_face.ts";
import type { WalletSettings } from "./config_wallet.ts";
import { ICON_SIZES, walletIcon } from "./wallet_icon.ts";

/** What a card's pass is made of beyond its face: the certificates, whose card, until when, colours. */
export interface WalletPassOrder {
  kind: "pkpass";
  wallet: WalletSettings;
  /** The cardholder's place, 0 for the first. */
  holder: number;
  /** When the card's token stops verifying (ISO 8601): the pass's expiry. */
  expiresAt: string;
  colours: BrandColours;
}

/** `#rrggbb` as Wallet writes colours. */
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;

/** What `pass.json` says of a card. */
function passJson(face: MemberCardFace, input: WalletPassOrder) {
  const { wallet } = input;
  const t = translator(face.lang as Lang);
  return {
    formatVersion: 1,
    passTypeIdentifier: wallet.passTypeId,
    teamIdentifier: wallet.teamId,
    serialNumber: `member-${face.number}-${input.holder + 1}`,
    organizationName: face.museum,
    description: t("walletPass.description", { museum: face.museum }),
    logoText: face.museum,
    backgroundColor: rgb(input.colours.brand),
    foregroundColor: "rgb(255, 255, 255)",
    labelColor: "rgb(255, 255, 255)",
    sharingProhibited: true,
    storeCard: {
      headerFields: [{ key: "number", label: face.numberLabel, value: face.number }],
      primaryFields: [{ key: "name", label: t("walletPass.member"), value: face.name }],
      secondaryFields: [
        { key: "level", label: t("memberCard.level"), value: face.level },
        { key: "validUntil", label: face.validLabel, value: face.validUntil },
      ],
      backFields: [{ key: "about", label: face.title, value: t("walletPass.back") }],
    },
  };
}

/**
 * The signed `.pkpass` of a card (a ZIP).
 *
 * @example
 * ```ts
 * const bytes = walletPass(face, { kind: "pkpass", wallet: config.wallet, holder: 0, expiresAt, colours });
 * ```
 */
export function walletPass(face: MemberCardFace, input: WalletPassOrder): Uint8Array {
  const { wallet } = input;
  // Buffers, not Uint8Arrays: the library hashes a file with `toString("binary")`, which only a
  // Buffer answers with its bytes (a Uint8Array would give "137,80,…" and a manifest Wallet refuses).
  const files: Record<string, Buffer> = { "pass.json": Buffer.from(JSON.stringify(passJson(face, input))) };
  for (const [name, size] of Object.entries(ICON_SIZES)) {
    files[name] = Buffer.from(walletIcon(size, input.colours.brand, input.colours.accent));
  }
  const pass = new PKPass(files, {
    wwdr: wallet.wwdr,
    signerCert: wallet.signerCert,
    signerKey: wallet.signerKey,
    signerKeyPassphrase: wallet.signerKeyPassphrase,
  });
  pass.setExpirationDate(new Date(input.expiresAt));
  pass.setBarcodes({
    format: "PKBarcodeFormatQR",
    message: face.token,
    messageEncoding: "iso-8859-1",
    altText: face.number,
  });
  return new Uint8Array(pass.getAsBuffer());
}
