/**
 * Reading a PDF back in tests, with PDF.js (`unpdf`): the first page's text, one item per line,
 * right-to-left items (Hebrew, drawn in visual order) turned back into reading order.
 *
 * @module
 */
import { getDocumentProxy } from "unpdf";

/** The text of the PDF's first page. */
export async function pdfText(content: Uint8Array): Promise<string> {
  const doc = await getDocumentProxy(content.slice());
  const items = (await (await doc.getPage(1)).getTextContent()).items;
  return items.map((i) => ("str" in i ? (i.dir === "rtl" ? [...i.str].reverse().join("") : i.str) : "")).join(
    "\n",
  );
}
