import assert from "node:assert/strict";
import { csvField, csvRecord } from "./csv.ts";

Deno.test("csvField quotes per RFC 4180 and defuses formulas", () => {
  assert.equal(csvField("Levi"), "Levi");
  assert.equal(csvField("Levi, Dana"), '"Levi, Dana"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField("two\nlines"), '"two\nlines"');
  assert.equal(csvField("cr\r"), '"cr\r"');
  assert.equal(csvField(""), "");
  assert.equal(csvField("דוד כהן"), "דוד כהן");
  for (const start of ["=", "+", "-", "@", "\t", "\r"]) {
    const cell = csvField(`${start}1+1`);
    assert.ok(cell.startsWith("'") || cell.startsWith(`"'`), JSON.stringify(cell));
  }
  assert.equal(csvField('=HYPERLINK("http://evil","x")'), `"'=HYPERLINK(""http://evil"",""x"")"`);
  assert.equal(csvField("@SUM(A1)"), "'@SUM(A1)");
  assert.equal(csvField("<script>alert(1)</script>"), "<script>alert(1)</script>");
  assert.equal(csvField("a=b"), "a=b", "only a leading character counts");
  assert.equal(csvField("-5.00", true), "-5.00", "trusted cells stay as they are");
  assert.equal(csvRecord(["-1", "x", "-2"], 2), "'-1,x,-2\r\n");
});
