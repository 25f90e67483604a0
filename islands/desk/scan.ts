/**
 * Reading a member card's QR code in the browser (issue 28): the browser's own `BarcodeDetector`
 * where it has one for QR codes, else `jsqr`, loaded only then (its own chunk, never on a page that
 * does not scan). From the camera's video or from a picture (a photo of the card).
 *
 * @module
 */

/** The browser's BarcodeDetector, where it exists (not in every browser's types). */
interface Detector {
  detect(source: CanvasImageSource | ImageBitmap): Promise<{ rawValue: string }[]>;
}
type DetectorClass = {
  new (options: { formats: string[] }): Detector;
  getSupportedFormats?: () => Promise<string[]>;
};

let native: Promise<Detector | null> | null = null;

/** The native QR detector, or null where the browser has none. */
function nativeDetector(): Promise<Detector | null> {
  native ??= (async () => {
    const Class = (globalThis as unknown as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
    if (!Class) return null;
    try {
      const formats = await Class.getSupportedFormats?.() ?? ["qr_code"];
      return formats.includes("qr_code") ? new Class({ formats: ["qr_code"] }) : null;
    } catch {
      return null;
    }
  })();
  return native;
}

type JsQr = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
let fallback: Promise<JsQr> | null = null;

/** jsqr, loaded the first time it is needed. */
function jsQr(): Promise<JsQr> {
  // jsqr is CommonJS: its default export is the function.
  fallback ??= import("jsqr").then((m) => (m.default ?? m) as unknown as JsQr);
  return fallback;
}

/** The most pixels a side is drawn at for jsqr (a phone camera's frame is larger than needed). */
const MAX_SIDE = 1024;

/**
 * The text of the first QR code in `source` (a video frame or a picture), or null when none is
 * found.
 *
 * @example
 * ```ts
 * const token = await readQr(await createImageBitmap(file));
 * ```
 */
export async function readQr(
  source: HTMLVideoElement | ImageBitmap,
  canvas: HTMLCanvasElement = document.createElement("canvas"),
): Promise<string | null> {
  const detector = await nativeDetector();
  if (detector) {
    const [code] = await detector.detect(source);
    return code?.rawValue ?? null;
  }
  const width = source instanceof HTMLVideoElement ? source.videoWidth : source.width;
  const height = source instanceof HTMLVideoElement ? source.videoHeight : source.height;
  if (!width || !height) return null;
  const scale = Math.min(1, MAX_SIDE / Math.max(width, height));
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const context = canvas.getContext("2d", { willReadFrequently: true });
  if (!context) return null;
  context.drawImage(source, 0, 0, canvas.width, canvas.height);
  const image = context.getImageData(0, 0, canvas.width, canvas.height);
  const decode = await jsQr();
  return decode(image.data, image.width, image.height)?.data ?? null;
}
