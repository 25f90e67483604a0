import { cardDownload } from "./_card.ts";

/** `GET /{lang}/account/membership/card.pdf?holder=N`: the member card of cardholder N as a PDF (`_card.ts`). */
export const handler = cardDownload("pdf");
