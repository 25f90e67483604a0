/**
 * Golden pictures: a PDF's first page drawn as a person sees it (Poppler's `pdftoppm`, greyscale, at
 * {@link GOLDEN_DPI} dpi), or a page's screenshot in greyscale ({@link greyPicture}), compared with
 * the picture kept in `tests/golden/`, so a change a person would notice (a word reversed, a number
 * moved, a label running into its value) fails a test. A pixel counts as changed when its grey
 * differs by more than {@link PIXEL_TOLERANCE} levels (anti-aliasing may vary a little between
 * Poppler builds); a picture fails when more than {@link CHANGED_PIXELS} pixels changed (two digits
 * swapped in a number change 20 to 60).
 *
 * `deno task golden:update` (`GOLDEN_UPDATE=1`) writes the pictures instead of comparing: look at
 * each one before committing it. Without `pdftoppm` (Debian's `poppler-utils`) the tests are skipped
 * with one line saying why, except under CI (`CI` set), where they fail.
 *
 * @module
 */
import { decode, encode } from "fast-png";
import type { Browser, BrowserContext, Page } from "playwright-core";

/** How finely the page is drawn: small pictures, every letter still legible. */
export const GOLDEN_DPI = 72;
/** How much a pixel's grey (0–255) may differ before it counts as changed. */
export const PIXEL_TOLERANCE = 64;
/** How many changed pixels a picture may have and still look the same. */
export const CHANGED_PIXELS = 12;

/** A greyscale picture: one byte a pixel, rows top down. */
export interface Picture {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Page 1 of `pdf` as a greyscale picture, drawn by `pdftoppm` (a raw PGM, read here). */
export async function renderPage(pdf: Uint8Array, dpi = GOLDEN_DPI): Promise<Picture> {
  const child = new Deno.Command("pdftoppm", {
    args: ["-r", String(dpi), "-gray", "-singlefile", "-f", "1", "-l", "1", "-"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(pdf);
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  if (code !== 0) throw new Error(`pdftoppm failed: ${new TextDecoder().decode(stderr)}`);
  // PGM: "P5", width, height, maxval (each after whitespace), one whitespace byte, then the pixels.
  const fields: string[] = [];
  let at = 0;
  while (fields.length < 4) {
    let field = "";
    while (stdout[at] > 0x20) field += String.fromCharCode(stdout[at++]);
    if (field) fields.push(field);
    at++;
  }
  const [magic, width, height] = [fields[0], Number(fields[1]), Number(fields[2])];
  if (magic !== "P5" || fields[3] !== "255") {
    throw new Error(`pdftoppm gave no 8-bit PGM (${fields.join(" ")})`);
  }
  return { width, height, data: stdout.slice(at, at + width * height) };
}

/** A picture as a greyscale PNG file. */
export function toPng(picture: Picture): Uint8Array {
  return encode({ ...picture, channels: 1, depth: 8 });
}

/** A greyscale PNG file as a picture. */
export function fromPng(png: Uint8Array): Picture {
  const image = decode(png);
  if (image.channels !== 1 || image.depth !== 8) throw new Error("not an 8-bit greyscale PNG");
  return { width: image.width, height: image.height, data: Uint8Array.from(image.data) };
}

/** How many pixels differ by more than {@link PIXEL_TOLERANCE}; every pixel when the sizes differ. */
export function changedPixels(a: Picture, b: Picture): number {
  if (a.width !== b.width || a.height !== b.height) return Math.max(a.data.length, b.data.length);
  let changed = 0;
  for (let i = 0; i < a.data.length; i++) if (Math.abs(a.data[i] - b.data[i]) > PIXEL_TOLERANCE) changed++;
  return changed;
}

/** Whether this run writes the golden pictures (`deno task golden:update`) instead of comparing. */
export const updatingGoldens = () => Deno.env.get("GOLDEN_UPDATE") === "1";

/**
 * A screenshot (a PNG in colour, as Chromium takes it) as a greyscale picture: each pixel's luma
 * (Rec. 601), so that it compares as a rendered PDF does.
 */
export function greyPicture(png: Uint8Array): Picture {
  const image = decode(png);
  const { width, height, channels } = image;
  if (image.depth !== 8 || channels < 3) throw new Error("not an 8-bit colour PNG");
  const data = new Uint8Array(width * height);
  for (let i = 0, at = 0; i < data.length; i++, at += channels) {
    data[i] = Math.round(0.299 * image.data[at] + 0.587 * image.data[at + 1] + 0.114 * image.data[at + 2]);
  }
  return { width, height, data };
}

/**
 * Asserts that page 1 of `pdf` looks like the golden picture at `golden` (a file URL or path); with
 * `GOLDEN_UPDATE=1`, writes it there instead. On a difference, the new picture is written beside
 * the golden one (`*.actual.png`, ignored by git) to look at.
 */
export async function assertLooksLike(pdf: Uint8Array, golden: URL): Promise<void> {
  await assertPictureLooksLike(await renderPage(pdf), golden);
}

/**
 * Asserts that `picture` looks like the golden picture at `golden`, within {@link PIXEL_TOLERANCE}
 * and {@link CHANGED_PIXELS}, as {@link assertLooksLike} does for a PDF (a page's screenshot: see
 * {@link greyPicture}).
 */
export async function assertPictureLooksLike(picture: Picture, golden: URL): Promise<void> {
  if (updatingGoldens()) {
    await Deno.writeFile(golden, toPng(picture));
    return;
  }
  let kept: Picture;
  try {
    kept = fromPng(await Deno.readFile(golden));
  } catch (error) {
    throw new Error(`no golden picture ${golden.pathname}: run \`deno task golden:update\``, {
      cause: error,
    });
  }
  const changed = changedPixels(picture, kept);
  const actual = new URL(golden.href.replace(/\.png$/, ".actual.png"));
  if (changed > CHANGED_PIXELS) {
    await Deno.writeFile(actual, toPng(picture));
    throw new Error(
      `${golden.pathname}: ${changed} pixels changed (at most ${CHANGED_PIXELS}); the new picture is ` +
        `${actual.pathname}. If the change is meant, run \`deno task golden:update\` and look at the pictures.`,
    );
  }
  await Deno.remove(actual).catch(() => {});
}

const hasPdftoppm = (() => {
  try {
    return new Deno.Command("pdftoppm", { args: ["-v"], stdout: "null", stderr: "null" }).outputSync()
      .success;
  } catch {
    return false;
  }
})();
const inCi = !["", "0", "false"].includes((Deno.env.get("CI") ?? "").toLowerCase());
let skipNoticePrinted = false;

/**
 * Registers a test of golden pictures: skipped, with one line saying why, when `pdftoppm` is
 * missing; failing instead under CI.
 *
 * @example
 * ```ts
 * goldenTest("the receipt looks as it did", async () => await assertLooksLike(pdf, golden));
 * ```
 */
export function goldenTest(name: string, fn: () => Promise<void>): void {
  if (hasPdftoppm) Deno.test({ name, fn });
  else if (inCi) {
    Deno.test({
      name,
      fn() {
        throw new Error(
          "pdftoppm is required for golden pictures under CI: apt-get install -y poppler-utils",
        );
      },
    });
  } else {
    if (!skipNoticePrinted) {
      skipNoticePrinted = true;
      console.log(
        "golden pictures skipped: pdftoppm not found (apt-get install poppler-utils; under CI this fails)",
      );
    }
    Deno.test({ name, ignore: true, fn });
  }
}

/**
 * A page whose screenshots compare from run to run: the language's locale, Jerusalem's time zone, one
 * device pixel a CSS pixel, and the browser's clock fixed at `now` (fix the server's with `shiftClock`).
 */
export async function picturePage(
  browser: Browser,
  lang: string,
  now: Date,
  viewport: { width: number; height: number },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    locale: lang === "he" ? "he-IL" : "en-US",
    timezoneId: "Asia/Jerusalem",
    viewport,
    deviceScaleFactor: 1,
  });
  const page = await context.newPage();
  await page.clock.setFixedTime(now);
  return { context, page };
}

/** Nothing hovered or focused (no caret), then one frame drawn: the page at rest for its picture. */
export async function settlePage(page: Page): Promise<void> {
  await page.mouse.move(0, 0);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.evaluate(() => new Promise(requestAnimationFrame));
}
