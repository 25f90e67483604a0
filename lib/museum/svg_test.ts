import assert from "node:assert/strict";
import { sanitizeSvg, SvgRefusedError } from "./svg.ts";

const svg = (inner: string, attrs = "") =>
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 24 12"${attrs}>${inner}</svg>`;

Deno.test("sanitizeSvg: a script in any namespace or spelling is refused, not stripped", () => {
  for (
    const text of [
      svg("<script>alert(1)</script>"),
      svg('<svg:script xmlns:svg="http://www.w3.org/2000/svg">alert(1)</svg:script>'),
      svg("<g><script><![CDATA[alert(1)]]></script></g>"),
    ]
  ) {
    assert.throws(() => sanitizeSvg(text), (e) => e instanceof SvgRefusedError && e.fault === "svg-script");
  }
});

Deno.test("sanitizeSvg: DOCTYPEs, entities and documents that are not SVG are refused", () => {
  const refused = (text: string, fault: string) =>
    assert.throws(() => sanitizeSvg(text), (e) => e instanceof SvgRefusedError && e.fault === fault, text);
  refused('<!DOCTYPE svg SYSTEM "http://evil.example/x.dtd">' + svg(""), "svg-entities");
  refused(svg("<!ENTITY x 'y'>"), "svg-entities");
  refused("<html><body/></html>", "svg-invalid");
  refused('<svg xmlns="http://www.w3.org/2000/svg"><g></svg>', "svg-invalid");
  refused('<html xmlns="http://www.w3.org/1999/xhtml"><svg/></html>', "svg-invalid");
  // An SVG saved without its namespace is read as SVG, and stored with it (browsers need it).
  assert.equal(
    sanitizeSvg('<svg><circle r="3"/></svg>').svg,
    '<svg xmlns="http://www.w3.org/2000/svg"><circle r="3"/></svg>',
  );
});

Deno.test("sanitizeSvg: animation, handlers and addresses out of the file are removed; drawing kept", () => {
  const { svg: clean, width, height } = sanitizeSvg(svg(
    '<a xlink:href="https://evil.example"><rect width="4" height="4"/></a>' +
      '<rect id="r" width="4" height="4" fill="url(#g)" onmouseover="x()"/>' +
      '<set attributeName="href" to="javascript:alert(1)"/>' +
      '<animate attributeName="xlink:href" values="javascript:alert(1)"/>' +
      '<use xlink:href="#r" x="6"/><use href="data:image/svg+xml;base64,PHN2Zz4=#a"/>' +
      "<style>@import url(https://evil.example/a.css);</style>" +
      "<SCRIPT>alert(1)</SCRIPT><?php echo 1 ?><!-- note -->" +
      '<linearGradient id="g"><stop offset="0" stop-color="#7a1f3d"/></linearGradient>',
    ' onload="x()" style="background:url(//evil.example/t.png)"',
  ));
  assert.deepEqual([width, height], [24, 12]);
  for (
    const bad of [
      /evil/,
      /javascript/,
      /onmouseover|onload/,
      /<set|<animate|<a[ >]|SCRIPT|<style|php|note|data:/,
    ]
  ) {
    assert.doesNotMatch(clean, bad);
  }
  assert.match(clean, /<rect id="r" width="4" height="4" fill="url\(#g\)"\/>/);
  assert.match(clean, /<use xlink:href="#r" x="6"\/>/);
  assert.match(clean, /<stop offset="0" stop-color="#7a1f3d"\/>/);
});
