/**
 * The member card (issue 27, item 3) as a person and a door scanner see it: golden pictures of the
 * card's PDF page (drawn by Poppler) and of its PNG, in Hebrew and English, from a fixed card (its
 * token too), so a picture changes only when the layout does (`deno task golden:update` draws them
 * anew); and the QR code of a freshly signed card read back by `zbarimg` from the PNG and from the
 * PDF's page, its token verified with only the public key.
 */
import assert from "node:assert/strict";
import { MemberCardPool } from "@/lib/memberships/card_pool.ts";
import type { MemberCardFace } from "@/lib/memberships/card_face.ts";
import { memberCardKey, signMemberCardToken, verifyMemberCardToken } from "@/lib/memberships/card_token.ts";
import { assertLooksLike, assertPictureLooksLike, goldenTest, greyPicture } from "@/tests/helpers/golden.ts";
import { scanPdfQr, scanQr } from "@/tests/helpers/qr.ts";

const SECRET = "member-card-pictures-secret-0123456789abcdef";
/** A token as a card's QR holds one, fixed (signed once, kept here) so the pictures never move. */
const FIXED_TOKEN =
  "eyJhbGciOiJFZERTQSIsInR5cCI6Im1lbWJlci1jYXJkK2p3dCJ9.eyJsdmwiOjMsInVudGlsIjoiMjAyNy0xMS0yOSIsImgiOjAsIm5hbWUiOiJEYW5hIExldmkiLCJzdWIiOiJNN0syUTkiLCJpYXQiOjE3OTY1NDQwMDAsImV4cCI6MTgyNjU0NDAwMH0.c2lnbmF0dXJlLW9mLWEtZml4ZWQtY2FyZC1mb3ItdGhlLWdvbGRlbi1waWN0dXJlcy1vbmx5LW5vdC1hLXJlYWwtb25lLXBhZA";

const FACES: Record<"he" | "en", Omit<MemberCardFace, "token">> = {
  he: {
    lang: "he",
    dir: "rtl",
    museum: "מוזיאון העיר",
    title: "כרטיס חבר",
    name: "דנה לוי",
    level: "משפחה",
    numberLabel: "מספר חבר",
    number: "M7K2Q9",
    validLabel: "בתוקף עד",
    validUntil: "29 בנובמבר 2027",
  },
  en: {
    lang: "en",
    dir: "ltr",
    museum: "The City Museum",
    title: "Member card",
    name: "Dana Levi",
    level: "Family",
    numberLabel: "Member number",
    number: "M7K2Q9",
    validLabel: "Valid until",
    validUntil: "November 29, 2027",
  },
};

for (const lang of ["he", "en"] as const) {
  goldenTest(`member card PDF and PNG look as they did, in ${lang}`, async () => {
    const pool = new MemberCardPool({ workers: 1 });
    try {
      const face = { ...FACES[lang], token: FIXED_TOKEN };
      const [pdf, png] = await Promise.all([pool.render(face, "pdf"), pool.render(face, "png")]);
      await assertLooksLike(pdf, new URL(`./golden/member-card-${lang}.png`, import.meta.url));
      await assertPictureLooksLike(
        greyPicture(png),
        new URL(`./golden/member-card-${lang}-png.png`, import.meta.url),
      );
    } finally {
      await pool.close();
    }
  });

  goldenTest(
    `the member card's QR code scans back to a token the public key verifies, in ${lang}`,
    async () => {
      const pool = new MemberCardPool({ workers: 1 });
      try {
        const key = await memberCardKey(SECRET);
        const name = lang === "he" ? "דנה לוי" : "Dana Levi";
        const token = await signMemberCardToken(
          key,
          {
            number: "M7K2Q9",
            levelId: 3,
            validUntil: "2027-11-29T10:00:00.000Z",
            holder: 1,
            name,
          },
          30,
          new Date("2026-11-29T10:00:00.000Z"),
        );
        const face = { ...FACES[lang], name, token };
        const publicJwk = JSON.parse(JSON.stringify(key.publicJwk));
        const fromPng = await scanQr(await pool.render(face, "png"));
        const fromPdf = await scanPdfQr(await pool.render(face, "pdf"));
        for (const scanned of [fromPng, fromPdf]) {
          assert.equal(scanned, token);
          const card = await verifyMemberCardToken(scanned, publicJwk, new Date("2027-01-01T00:00:00.000Z"));
          assert.deepEqual([card.number, card.levelId, card.holder, card.name], ["M7K2Q9", 3, 1, name]);
        }
      } finally {
        await pool.close();
      }
    },
  );
}
