import { cardDownload } from "./_card.ts";

/** `GET /{lang}/account/membership/card.png?holder=N`: the member card of cardholder N as a PNG (`_card.ts`). */
export const handler = cardDownload("png");
