import { cardDownload } from "./_card.ts";

/**
 * `GET /{lang}/account/membership/wallet.pkpass?holder=N`: the member card of cardholder N as an Apple
 * Wallet pass, when the museum has set its pass certificates (`_card.ts`).
 */
export const handler = cardDownload("pkpass");
