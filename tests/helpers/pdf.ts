/**
 * Reading a PDF back in tests, with PDF.js (`unpdf`): the first page's text, one item per line.
 * PDF.js puts right-to-left runs (drawn in visual order) back into reading order itself, so this
 * text cannot tell whether a Hebrew line stands right on the page: `pdf_reader.ts` reads positions.
 *
 * @module
 */
import { getDocumentProxy } from "unpdf";

/** The text of the PDF's first page. */
export async function pdfText(content: Uint8Array): Promise<string> {
  const doc = await getDocumentProxy(content.slice());
  const items = (await (await doc.getPage(1)).getTextContent()).items;
  return items.map((i) => ("str" in i ? i.str : "")).join("\n");
}
