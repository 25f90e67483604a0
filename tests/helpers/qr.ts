/**
 * Reading QR codes back in tests as a scanner would: `zbarimg` on a PNG, or on a PDF's first page
 * drawn by Poppler at 200 dpi.
 *
 * @module
 */
import assert from "node:assert/strict";

/** The text of the QR code in `png`, as `zbarimg` reads it. */
export async function scanQr(png: Uint8Array): Promise<string> {
  const file = await Deno.makeTempFile({ suffix: ".png" });
  try {
    await Deno.writeFile(file, png);
    const { code, stdout, stderr } = await new Deno.Command("zbarimg", {
      args: ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", file],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(code, 0, `zbarimg found no QR code: ${new TextDecoder().decode(stderr)}`);
    return new TextDecoder().decode(stdout).trim();
  } finally {
    await Deno.remove(file);
  }
}

/** The text of the QR code on page 1 of `pdf`, drawn at 200 dpi. */
export async function scanPdfQr(pdf: Uint8Array): Promise<string> {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeFile(`${dir}/page.pdf`, pdf);
    const drawn = await new Deno.Command("pdftoppm", {
      args: ["-r", "200", "-png", "-singlefile", `${dir}/page.pdf`, `${dir}/page`],
    }).output();
    assert.ok(drawn.success, "pdftoppm drew the page");
    return await scanQr(await Deno.readFile(`${dir}/page.png`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
