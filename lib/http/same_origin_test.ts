/** The same-origin rule of no-JavaScript form posts (`same_origin.ts`). */
import assert from "node:assert/strict";
import { crossSiteRefusal, isSameOrigin } from "./same_origin.ts";

const URL_ = new URL("http://127.0.0.1:8000/en/");
const post = (headers: Record<string, string>) => new Request(URL_, { method: "POST", headers });

Deno.test("same origin: Origin decides when sent; Sec-Fetch-Site only without it; neither is refused", () => {
  const cases: [Record<string, string>, string | undefined, boolean][] = [
    [{ origin: "http://127.0.0.1:8000" }, undefined, true],
    [{ origin: "https://donate.museum.org" }, "https://donate.museum.org", true],
    [{ origin: "https://donate.museum.org" }, undefined, false],
    [{ origin: "https://evil.example" }, "https://donate.museum.org", false],
    [{ origin: "null" }, undefined, false],
    [{ origin: "http://127.0.0.1:8000/" }, undefined, false],
    // A sent Origin is not overruled by Sec-Fetch-Site.
    [{ origin: "https://evil.example", "sec-fetch-site": "same-origin" }, undefined, false],
    [{ "sec-fetch-site": "same-origin" }, undefined, true],
    [{ "sec-fetch-site": "same-site" }, undefined, false],
    [{ "sec-fetch-site": "cross-site" }, undefined, false],
    [{ "sec-fetch-site": "none" }, undefined, false],
    [{}, undefined, false],
  ];
  for (const [headers, publicUrl, ok] of cases) {
    assert.equal(isSameOrigin(post(headers), URL_, publicUrl), ok, `${JSON.stringify(headers)} ${publicUrl}`);
  }
});

Deno.test("same origin: the plain refusal is a 403 that is never cached", async () => {
  const res = crossSiteRefusal();
  assert.equal(res.status, 403);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.equal(await res.text(), "Forbidden: cross-site form post");
});
