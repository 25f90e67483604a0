/**
 * A cached page is answered in the turn its request came in (issue 29, pipeline): the request
 * pipeline, the route's chain and the page cache hand a Response back with no promise between the
 * request and its bytes, and with every header (security headers, CSP nonce, request id, language)
 * and the log line of an answer that waited.
 */
import assert from "node:assert/strict";
import { startTestApp } from "@/tests/helpers/app.ts";

/** Header names and values, the per-response ones (and what the HTTP server adds) left out. */
function fixedHeaders(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of res.headers) {
    if (name === "date" || name === "content-length" || name === "x-request-id") continue;
    out[name] = name === "content-security-policy" ? value.replace(/'nonce-[^']+'/, "'nonce-*'") : value;
  }
  return out;
}

Deno.test("a cached page answers at once, with every header and its log line", async () => {
  const app = await startTestApp();
  try {
    for (const lang of ["en", "he"]) {
      const first = await fetch(`${app.url}/${lang}/`);
      assert.equal(first.status, 200);
      await first.text();
      // The flags and settings are read once a second: a read due now makes one answer wait.
      let res: Response | Promise<Response> = app.fetch(new Request(`${app.url}/${lang}/`));
      for (let i = 0; i < 3 && res instanceof Promise; i++) {
        await res;
        res = app.fetch(new Request(`${app.url}/${lang}/`));
      }
      assert.ok(
        !(res instanceof Promise),
        `/${lang}/ from the page cache is answered at once, not through a promise`,
      );
      assert.equal(res.status, 200);
      assert.deepEqual(fixedHeaders(res), fixedHeaders(first));
      const id = res.headers.get("x-request-id");
      assert.match(id ?? "", /^[0-9a-f-]{36}$/);
      assert.notEqual(id, first.headers.get("x-request-id"));
      const nonce = res.headers.get("content-security-policy")?.match(/'nonce-([^']+)'/)?.[1];
      assert.ok(
        nonce && (await res.text()).includes(`nonce="${nonce}"`),
        "the page's scripts carry this answer's nonce",
      );
      const line = app.logs.find((l) => l.msg === "request" && l.requestId === id);
      assert.deepEqual(
        line && { method: line.method, path: line.path, status: line.status },
        // Hono's path (the app is not strict: no trailing slash), as before.
        { method: "GET", path: `/${lang}`, status: 200 },
      );
    }
  } finally {
    await app.close();
  }
});
