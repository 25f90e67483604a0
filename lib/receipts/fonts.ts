/**
 * The receipt's font: DejaVu Sans (regular and bold), a free font (Bitstream Vera / DejaVu
 * licence) covering Latin, Hebrew and Cyrillic in one file, so every language's receipt, and a
 * Hebrew receipt naming an English legal name, uses one typeface. It comes from the npm package
 * `dejavu-fonts-ttf` (pinned in `deno.json`), installed with the app's other packages under
 * `node_modules/`, and is read from there once per process.
 *
 * @module
 */

/** The font files' bytes. */
export interface ReceiptFonts {
  regular: Uint8Array;
  bold: Uint8Array;
}

let loading: Promise<ReceiptFonts> | undefined;

const read = async (file: string): Promise<Uint8Array> => {
  const url = import.meta.resolve(`dejavu-fonts-ttf/ttf/${file}`);
  try {
    return await Deno.readFile(new URL(url));
  } catch (error) {
    throw new Error(`the receipt font ${file} is missing (${url}); run \`deno install\``, { cause: error });
  }
};

/**
 * The receipt's fonts, read on first use and kept.
 *
 * @example
 * ```ts
 * const { regular } = await receiptFonts();
 * ```
 */
export function receiptFonts(): Promise<ReceiptFonts> {
  loading ??= Promise.all([read("DejaVuSans.ttf"), read("DejaVuSans-Bold.ttf")]).then(([regular, bold]) => ({
    regular,
    bold,
  }));
  // A failed read is not kept: the next receipt tries again.
  loading.catch(() => loading = undefined);
  return loading;
}
