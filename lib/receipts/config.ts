/**
 * The legal receipts' settings (issue 14): who issues a receipt, with which legal details. Read by
 * `lib/app/config.ts` beside the other groups; every variable is in the configuration table of
 * `docs/configuration.md`.
 *
 * The museum issues receipts for ILS gifts (Israeli receipts, Section 46), and for USD gifts too
 * unless the museum has a US "Friends of" organisation, which then issues them (with its EIN). A
 * receipt is a legal document, so a museum without its legal name and address issues none: in
 * development a clearly fake example museum stands in, so every flow can be followed on a fresh
 * machine; in production the missing setting is warned about at start and no receipt is issued.
 *
 * @module
 */

import { ConfigError, type Env } from "@/lib/core/config_values.ts";
import { isDay as isDayShape, isDigits } from "@/lib/storage/receipt_records.ts";

/** The museum: the Israeli non-profit that receives the gifts. */
export interface MuseumLegalDetails {
  legalName: string;
  address: string;
  /** The amuta / malkar number (9 digits), or null when not given. */
  nonprofitNumber: string | null;
  /** The Section 46 approval number, or null (the receipt then says nothing about Section 46). */
  section46Approval: string | null;
  /** The approval's last valid day (`YYYY-MM-DD`), or null. */
  section46ValidUntil: string | null;
}

/** A US "Friends of" organisation that receives USD gifts. */
export interface FriendsLegalDetails {
  legalName: string;
  address: string;
  /** The US employer identification number, `NN-NNNNNNN`. */
  ein: string;
}

/** Who issues receipts; `museum` null: receipts are not issued (production without the settings). */
export interface ReceiptSettings {
  museum: MuseumLegalDetails | null;
  friends: FriendsLegalDetails | null;
}

/** The development stand-in: plainly an example, so it can never pass for a real receipt. */
const EXAMPLE_MUSEUM: MuseumLegalDetails = {
  legalName: "Example Museum (development; set RECEIPT_LEGAL_NAME)",
  address: "1 Example Street, Jerusalem, Israel",
  nonprofitNumber: null,
  section46Approval: null,
  section46ValidUntil: null,
};

/**
 * Reads the receipt settings; `warn` gets the allowed but risky ones.
 *
 * @example
 * ```ts
 * const receipts = readReceipts({ RECEIPT_LEGAL_NAME: "The Museum" }, false, () => {});
 * ```
 */
export function readReceipts(
  env: Env,
  production: boolean,
  warn: (setting: string, detail: string) => void,
): ReceiptSettings {
  const legalName = env.RECEIPT_LEGAL_NAME?.trim() || "";
  const address = env.RECEIPT_ADDRESS?.trim() || "";
  const nonprofitNumber = env.RECEIPT_NONPROFIT_NUMBER?.trim() || null;
  if (nonprofitNumber !== null && !isDigits(nonprofitNumber, 9)) {
    throw new ConfigError("RECEIPT_NONPROFIT_NUMBER", `must be 9 digits (got "${nonprofitNumber}")`);
  }
  const section46Approval = env.RECEIPT_SECTION46_NUMBER?.trim() || null;
  if (section46Approval !== null && !isApprovalNumber(section46Approval)) {
    throw new ConfigError(
      "RECEIPT_SECTION46_NUMBER",
      `must be the approval's number (got "${section46Approval}")`,
    );
  }
  const section46ValidUntil = env.RECEIPT_SECTION46_VALID_UNTIL?.trim() || null;
  if (section46ValidUntil !== null && !isDay(section46ValidUntil)) {
    throw new ConfigError(
      "RECEIPT_SECTION46_VALID_UNTIL",
      `must be a date such as 2026-12-31 (got "${section46ValidUntil}")`,
    );
  }
  if ((legalName === "") !== (address === "")) {
    throw new ConfigError(
      legalName === "" ? "RECEIPT_LEGAL_NAME" : "RECEIPT_ADDRESS",
      "is required with RECEIPT_LEGAL_NAME and RECEIPT_ADDRESS: a receipt prints both",
    );
  }
  let museum: MuseumLegalDetails | null = null;
  if (legalName !== "") {
    museum = { legalName, address, nonprofitNumber, section46Approval, section46ValidUntil };
  } else if (!production) museum = EXAMPLE_MUSEUM;
  else warn("RECEIPT_LEGAL_NAME", "is not set: no receipt is issued or attached to donors' emails");

  if (production && museum !== null) {
    if (section46Approval === null) {
      warn("RECEIPT_SECTION46_NUMBER", "is not set: receipts carry no Section 46 approval (no tax credit)");
    } else if (section46ValidUntil !== null && section46ValidUntil < new Date().toISOString().slice(0, 10)) {
      warn("RECEIPT_SECTION46_VALID_UNTIL", `has passed (${section46ValidUntil}): renew the approval`);
    }
  }
  return { museum, friends: readFriends(env) };
}

/** The "Friends of" organisation: all three settings, or none. */
function readFriends(env: Env): FriendsLegalDetails | null {
  const legalName = env.RECEIPT_FRIENDS_LEGAL_NAME?.trim() || "";
  const address = env.RECEIPT_FRIENDS_ADDRESS?.trim() || "";
  const ein = env.RECEIPT_FRIENDS_EIN?.trim() || "";
  if (legalName === "" && address === "" && ein === "") return null;
  if (legalName === "") {
    throw new ConfigError("RECEIPT_FRIENDS_LEGAL_NAME", "is required with RECEIPT_FRIENDS_ADDRESS and _EIN");
  }
  if (address === "") {
    throw new ConfigError("RECEIPT_FRIENDS_ADDRESS", "is required with RECEIPT_FRIENDS_LEGAL_NAME");
  }
  if (!(ein[2] === "-" && isDigits(ein.slice(0, 2), 2) && isDigits(ein.slice(3), 7))) {
    throw new ConfigError("RECEIPT_FRIENDS_EIN", `must be a US EIN such as 12-3456789 (got "${ein}")`);
  }
  return { legalName, address, ein };
}

/** An approval number: 1 to 30 letters, digits, dashes and slashes. */
const isApprovalNumber = (value: string) =>
  value.length <= 30 && [...value].every((c) =>
    /* ASCII letters, digits, - and / */
    (c >= "0" && c <= "9") || (c >= "A" && c <= "Z") || (c >= "a" && c <= "z") || c === "-" || c === "/"
  );

/** Whether `value` is a real calendar day written `YYYY-MM-DD`. */
function isDay(value: string): boolean {
  return isDayShape(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
}
