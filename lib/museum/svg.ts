/**
 * An owner's SVG logo made safe to serve (issue 27): parsed as XML by `@xmldom/xmldom` (a document
 * that is not well-formed is refused), a DOCTYPE refused outright (so no entity is ever declared or
 * expanded), a `<script>` refused with its own message, and everything else kept only when on an
 * allow-list of drawing elements and presentation attributes: event handlers, `<foreignObject>`,
 * `<image>`, links and `<use>` of anything but a fragment of the same file, and styles naming an
 * address are removed. The result is serialized again (`requireWellFormed`), so what is stored is
 * what was checked. The page shows it through `<img>` (which runs nothing) and serves it with a policy
 * that runs nothing either (`routes/museum-images/[file].ts`).
 *
 * @module
 */
import { DOMParser, type Element, type Node, XMLSerializer } from "@xmldom/xmldom";

const SVG_NS = "http://www.w3.org/2000/svg";

/** Drawing elements: shapes, text, gradients, patterns, clips, masks, filters, descriptions. */
const ELEMENTS = new Set(
  ("svg g defs symbol title desc metadata path rect circle ellipse line polyline polygon text tspan " +
    "textPath linearGradient radialGradient stop pattern clipPath mask use marker style filter " +
    "feBlend feColorMatrix feComponentTransfer feComposite feFlood feFuncA feFuncB feFuncG feFuncR " +
    "feGaussianBlur feMerge feMergeNode feMorphology feOffset").split(" "),
);

/** Presentation and geometry attributes (no event handler, no address but a local fragment). */
const ATTRIBUTES = new Set(
  ("id class style viewBox preserveAspectRatio width height x y x1 y1 x2 y2 cx cy r rx ry d points " +
    "transform fill fill-opacity fill-rule stroke stroke-width stroke-opacity stroke-linecap " +
    "stroke-linejoin stroke-miterlimit stroke-dasharray stroke-dashoffset opacity color display " +
    "visibility clip-path clip-rule mask filter font-family font-size font-weight font-style " +
    "text-anchor dominant-baseline letter-spacing word-spacing gradientUnits gradientTransform " +
    "spreadMethod offset stop-color stop-opacity patternUnits patternContentUnits patternTransform " +
    "clipPathUnits maskUnits maskContentUnits fx fy fr dx dy rotate lengthAdjust textLength " +
    "markerWidth markerHeight markerUnits refX refY orient href xlink:href version xmlns xmlns:xlink " +
    "stdDeviation in in2 result mode operator k1 k2 k3 k4 values type tableValues slope intercept " +
    "amplitude exponent flood-color flood-opacity radius xml:space").split(" "),
);

/** Why an SVG was refused, for the editor's message (`museumEditor.imageErrors`). */
export type SvgFault = "svg-invalid" | "svg-script" | "svg-entities";

/** An SVG the site will not take, and why. */
export class SvgRefusedError extends Error {
  constructor(readonly fault: SvgFault, message: string) {
    super(message);
    this.name = "SvgRefusedError";
  }
}

/** Whether an address stays inside the file: a fragment (`#id`) and nothing else. */
const local = (value: string) => /^\s*#[\w.:-]*\s*$/.test(value);

/** Whether a style names an address other than a local fragment (`url(#g)` is kept). */
const reachesOut = (css: string) =>
  /@import|expression\s*\(|javascript:/i.test(css) ||
  [...css.matchAll(/url\s*\(\s*['"]?([^'")]*)/gi)].some((m) => !local(m[1]));

/** Cleans `element` and its descendants in place. */
function clean(element: Element): void {
  for (const attribute of Array.from(element.attributes)) {
    const name = attribute.name;
    const value = attribute.value;
    const keep = ATTRIBUTES.has(name) &&
      (name !== "href" && name !== "xlink:href" || local(value)) &&
      (name !== "style" || !reachesOut(value)) &&
      !/^\s*(javascript|data|vbscript):/i.test(value);
    if (!keep) element.removeAttributeNode(attribute);
  }
  for (const child of Array.from(element.childNodes) as Node[]) {
    if (child.nodeType === child.ELEMENT_NODE) {
      const el = child as Element;
      const known = (el.namespaceURI === SVG_NS) && ELEMENTS.has(el.localName ?? "");
      if (!known || (el.localName === "style" && reachesOut(el.textContent ?? ""))) element.removeChild(el);
      else clean(el);
    } else if (child.nodeType !== child.TEXT_NODE && child.nodeType !== child.CDATA_SECTION_NODE) {
      // Comments and processing instructions.
      element.removeChild(child);
    }
  }
}

/** The size an SVG declares (its width and height, else its view box), whole pixels; 0 when unknown. */
function declaredSize(svg: Element): { width: number; height: number } {
  const box = (svg.getAttribute("viewBox") ?? "").trim().split(/[\s,]+/).map(Number);
  const number = (name: string, fallback: number) => {
    const value = parseFloat(svg.getAttribute(name) ?? "");
    return Number.isFinite(value) && value > 0 ? Math.round(value) : fallback;
  };
  const [bw, bh] = box.length === 4 && box.every(Number.isFinite) ? [box[2], box[3]] : [0, 0];
  return { width: number("width", Math.round(bw)), height: number("height", Math.round(bh)) };
}

/**
 * The SVG `text` made safe, with its declared size; throws {@link SvgRefusedError} for a document
 * that is not well-formed SVG, declares a DOCTYPE (entities), or holds a script.
 *
 * @example
 * ```ts
 * sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg" onload="x()"><circle r="4"/></svg>').svg;
 * // '<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>'
 * ```
 */
export function sanitizeSvg(text: string): { svg: string; width: number; height: number } {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) {
    throw new SvgRefusedError(
      "svg-entities",
      "the SVG declares a DOCTYPE or entities, which are not allowed",
    );
  }
  let root: Element | null = null;
  try {
    const doc = new DOMParser({
      onError: (level, message) => {
        if (level !== "warning") throw new Error(message);
      },
    }).parseFromString(text, "image/svg+xml");
    root = doc.documentElement;
  } catch {
    root = null;
  }
  if (!root || root.localName !== "svg" || root.namespaceURI !== SVG_NS) {
    throw new SvgRefusedError("svg-invalid", "the file is not a well-formed SVG document");
  }
  if (root.getElementsByTagNameNS("*", "script").length > 0) {
    throw new SvgRefusedError("svg-script", "the SVG contains a script, which is not allowed");
  }
  clean(root);
  const svg = new XMLSerializer().serializeToString(root, { requireWellFormed: true } as never);
  return { svg, ...declaredSize(root) };
}
