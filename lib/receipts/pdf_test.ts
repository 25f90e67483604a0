/**
 * The receipt PDF read back with a text extractor: its text with PDF.js (through `unpdf`), in
 * English and in Hebrew, each field checked against the receipt, Hebrew laid out from the right;
 * the QR code's squares read out of the page and decoded with `jsqr`. PDF.js reorders right-to-left
 * text itself, so the order of the glyphs on the page is proven in `pdf_layout_test.ts`.
 */
import assert from "node:assert/strict";
import jsQRModule from "jsqr";
import { decodePDFRawStream, PDFArray, PDFDocument, type PDFRawStream } from "pdf-lib";
import { getDocumentProxy } from "unpdf";
import { drawReceiptPdf, receiptFixture as israeli, usReceiptFixture } from "@/tests/helpers/receipts.ts";

// jsqr is CommonJS: its default export is the function its types call the module.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default;

const VERIFY =
  "https://donate.example.org/he/receipts/verify?c=q2V0bUoHx3f1k8Zr0aTQ9w_L.AbCdEfGhIjKlMnOpQrStUv";

/** One run of text as PDF.js reads it: logical order (PDF.js reorders right-to-left runs itself). */
interface Run {
  text: string;
  x: number;
  width: number;
}

async function readRuns(pdf: Uint8Array): Promise<{ runs: Run[]; pages: number; title: string }> {
  const doc = await getDocumentProxy(pdf.slice());
  const page = await doc.getPage(1);
  const content = await page.getTextContent();
  const runs: Run[] = [];
  for (const item of content.items) {
    if (!("str" in item) || item.str.trim() === "") continue;
    runs.push({ text: item.str, x: item.transform[4], width: item.width });
  }
  const { info } = await doc.getMetadata() as { info: { Title?: string } };
  return { runs, pages: doc.numPages, title: info.Title ?? "" };
}

const all = (runs: Run[]) => runs.map((r) => r.text).join("\n");

/** The QR code's dark squares, read from the page's content stream, as an image jsQR decodes. */
async function readQr(pdf: Uint8Array): Promise<string | null> {
  const doc = await PDFDocument.load(pdf);
  const contents = doc.getPage(0).node.Contents()!;
  const streams = contents instanceof PDFArray
    ? contents.asArray().map((r) => doc.context.lookup(r))
    : [contents];
  const ops = streams.map((s) => new TextDecoder().decode(decodePDFRawStream(s as PDFRawStream).decode()))
    .join("\n");
  // Dark modules are drawn as rectangles, one per run of them in a row (`x y width height re`).
  const runs = [...ops.matchAll(/([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) re\n/g)]
    .map((m) => ({ x: Number(m[1]), y: Number(m[2]), width: Number(m[3]), size: Number(m[4]) }));
  if (runs.length === 0) return null;
  const cell = runs[0].size;
  const left = Math.min(...runs.map((s) => s.x));
  const top = Math.max(...runs.map((s) => s.y));
  const modules = Math.round((Math.max(...runs.map((s) => s.x + s.width)) - left) / cell);
  const scale = 4;
  const quiet = 4;
  const side = (modules + 2 * quiet) * scale;
  const image = new Uint8ClampedArray(side * side * 4).fill(255);
  for (const s of runs) {
    const row = Math.round((top - s.y) / cell) + quiet;
    for (let c = 0; c < Math.round(s.width / cell); c++) {
      const col = Math.round((s.x - left) / cell) + c + quiet;
      for (let dy = 0; dy < scale; dy++) {
        for (let dx = 0; dx < scale; dx++) {
          const at = ((row * scale + dy) * side + col * scale + dx) * 4;
          image[at] = image[at + 1] = image[at + 2] = 0;
        }
      }
    }
  }
  return jsQR(image, side, side)?.data ?? null;
}

Deno.test("receipt PDF in English: every field of an Israeli receipt, read back", async () => {
  const pdf = await drawReceiptPdf(israeli(), "en", { verifyUrl: VERIFY });
  assert.equal(new TextDecoder().decode(pdf.slice(0, 5)), "%PDF-");
  const { runs, pages, title } = await readRuns(pdf);
  const text = all(runs);
  assert.equal(pages, 1);
  assert.equal(title, "Donation receipt IL-2026-000123");
  for (
    const want of [
      "Donation receipt",
      "Example Museum Association",
      "1 Museum Road, Jerusalem",
      "Non-profit no.: 580000000",
      "Section 46 approval: 4567, valid until December 31, 2026",
      "Receipt no.",
      "IL-2026-000123",
      "Date of issue",
      "May 10, 2026",
      "Date of gift",
      "May 9, 2026",
      "Received from",
      "Ada Lovelace",
      "Israeli ID no.",
      "000000018",
      "₪180.50",
      "one hundred eighty shekels and fifty agorot",
      "Credit card ending in 4580",
      "One-time gift",
      "eligible for a tax credit under Section 46 of the",
      VERIFY,
    ]
  ) assert.ok(text.includes(want), `missing ${JSON.stringify(want)} in:\n${text}`);
  assert.ok(!text.includes("No goods or services"), "an ILS receipt has no US statement");
  assert.ok(!text.includes("allocation"), "no report number yet");
  assert.equal(await readQr(pdf), VERIFY);
});

Deno.test("receipt PDF in Hebrew: fields in logical order, laid out from the right", async () => {
  const receipt = israeli({ donorName: "עדה לאבלייס", isMonthly: true, reportNumber: "ITA-778899" });
  const pdf = await drawReceiptPdf(receipt, "he", { verifyUrl: VERIFY });
  const { runs } = await readRuns(pdf);
  const text = all(runs);
  for (
    const want of [
      "קבלה על תרומה",
      'מספר עמותה / מלכ"ר: 580000000',
      "אישור לפי סעיף 46: 4567, בתוקף עד 31 בדצמבר 2026",
      "מספר קבלה",
      "IL-2026-000123",
      "תאריך הפקה",
      "10 במאי 2026",
      "התקבל מאת",
      "עדה לאבלייס",
      "מספר תעודת זהות",
      "000000018",
      "180.50",
      "מאה שמונים שקלים וחמישים אגורות",
      "כרטיס אשראי המסתיים ב-4580",
      "תרומה חודשית",
      "מספר הקצאה מרשות המסים",
      "ITA-778899",
      "לפי סעיף 46 לפקודת מס הכנסה",
    ]
  ) assert.ok(text.includes(want), `missing ${JSON.stringify(want)} in:\n${text}`);
  // Right-to-left: the title and the labels end at the right margin (595.28 - 50).
  for (const start of ["קבלה על תרומה", "מספר קבלה", "התקבל מאת"]) {
    const run = runs.find((r) => r.text.startsWith(start))!;
    assert.ok(Math.abs(run.x + run.width - 545.28) < 1, `${start} ends at ${run.x + run.width}`);
  }
  assert.equal(await readQr(pdf), VERIFY);
});

Deno.test("receipt PDF: a USD receipt of the Friends organisation says no goods or services were given", async () => {
  const receipt = usReceiptFixture();
  for (
    const [lang, want] of [
      ["en", ["$250.00", "two hundred fifty dollars", "US EIN (tax ID): 12-3456789"]],
      [
        "ru",
        ["двести пятьдесят долларов", "Никакие товары или услуги"],
      ],
      ["es", ["doscientos cincuenta dólares"]],
      ["pt", ["duzentos e cinquenta dólares"]],
    ] as const
  ) {
    const text = all((await readRuns(await drawReceiptPdf(receipt, lang, { verifyUrl: VERIFY }))).runs);
    for (const w of want) assert.ok(text.includes(w), `${lang}: missing ${w} in:\n${text}`);
    if (lang === "en") {
      assert.ok(text.includes("No goods or services were provided in return for this contribution."), text);
      assert.ok(!text.includes("Israeli ID"), "no Israeli ID on a US receipt");
      assert.ok(!text.includes("Section 46"), "no Section 46 on a US receipt");
      assert.ok(text.includes("Credit card"), text);
    }
  }
});
