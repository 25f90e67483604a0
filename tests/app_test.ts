/**
 * The app over real HTTP: redirects, every page of the route table, the not-found page, API
 * errors, security headers, request ids and logs, body limit, health.
 */
import assert from "node:assert/strict";
import { currentBuild } from "@/lib/framework/assets.ts";
import { LANGUAGES } from "@/lib/shared/languages.ts";
import type { Store } from "@/lib/storage/types.ts";
import { PAGE_PATHS, startTestApp, type TestApp } from "@/tests/helpers/app.ts";

async function get(app: TestApp, path: string, headers: Record<string, string> = {}): Promise<Response> {
  return await fetch(app.url + path, { headers, redirect: "manual" });
}

Deno.test("routes", async (t) => {
  const app = await startTestApp();
  try {
    await t.step(
      "GET / redirects to the lng parameter, then the cookie, then Accept-Language, then en",
      async () => {
        const cases: [string, Record<string, string>, string][] = [
          ["/", {}, "/en/"],
          ["/", { "accept-language": "he-IL,he;q=0.9,en;q=0.5" }, "/he/"],
          ["/", { "accept-language": "fr-FR, pt-BR;q=0.8" }, "/pt/"],
          ["/", { "accept-language": "fr-FR" }, "/en/"],
          ["/", { cookie: "lang=ru", "accept-language": "he" }, "/ru/"],
          ["/?lng=es", { cookie: "lang=ru" }, "/es/"],
          ["/?lng=xx", { cookie: "lang=ru" }, "/ru/"],
          ["/?lng=he&utm_source=mail", {}, "/he/?utm_source=mail"],
        ];
        for (const [path, headers, location] of cases) {
          const res = await get(app, path, headers);
          await res.body?.cancel();
          assert.equal(res.status, 302, `${path} ${JSON.stringify(headers)}`);
          assert.equal(res.headers.get("location"), location, `${path} ${JSON.stringify(headers)}`);
        }
      },
    );

    await t.step(
      "an unsupported language redirects to /en/ with the rest of the path and the query",
      async () => {
        const cases: [string, string][] = [
          ["/fr/success?x=1", "/en/success?x=1"],
          ["/fr", "/en/"],
          ["/de/terminal-payment/12", "/en/terminal-payment/12"],
          ["/pt-BR/success", "/pt/success"],
          ["/success", "/en/success"],
          ["/fr/no-such-page", "/en/no-such-page"],
        ];
        for (const [path, location] of cases) {
          const res = await get(app, path);
          await res.body?.cancel();
          assert.equal(res.status, 302, path);
          assert.equal(res.headers.get("location"), location, path);
        }
      },
    );

    await t.step(
      "every page of the route table answers 200 in every language, with lang and dir",
      async () => {
        for (const lang of LANGUAGES) {
          for (const page of PAGE_PATHS) {
            for (const path of [`/${lang}/${page}`, `/${lang}/${page}/`.replace("//", "/")]) {
              const res = await get(app, path);
              const html = await res.text();
              assert.equal(res.status, 200, path);
              assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
              assert.equal(res.headers.get("cache-control"), "no-store", path);
              assert.equal(res.headers.get("content-language"), lang, path);
              assert.ok(html.startsWith("<!DOCTYPE html>"), path);
              assert.ok(html.includes(`<html lang="${lang}" dir="${lang === "he" ? "rtl" : "ltr"}">`), path);
              assert.equal(html.match(/<title>/g)?.length, 1, `${path}: one title`);
            }
          }
        }
      },
    );

    await t.step("the donation page has the hero with its texts and a Donate now anchor", async () => {
      const html = await (await get(app, "/en/")).text();
      assert.ok(html.includes("The Museum"));
      assert.ok(html.includes('href="#donate"'));
      assert.ok(html.includes(">Donate now<"));
      assert.ok(html.includes('id="donate"'));
      const he = await (await get(app, "/he/")).text();
      assert.ok(he.includes("לתרומה עכשיו"));
    });

    await t.step("an unknown path answers the localized 404 page", async () => {
      for (
        const [lang, title, home] of [["en", "Page not found", "Go to Home Page"], [
          "he",
          "הדף לא נמצא",
          "לדף הבית",
        ]]
      ) {
        const res = await get(app, `/${lang}/no/such/page`);
        const html = await res.text();
        assert.equal(res.status, 404);
        assert.ok(html.includes(`<title>${title}</title>`), html);
        assert.ok(html.includes(`<a class="button" href="/${lang}">${home}</a>`));
        assert.ok(html.includes(`lang="${lang}"`));
      }
    });

    await t.step("HEAD answers like GET without a body", async () => {
      const res = await fetch(app.url + "/en/", { method: "HEAD" });
      assert.equal(res.status, 200);
      assert.equal(await res.text(), "");
    });

    await t.step("a page answers 405 to a method it does not handle", async () => {
      const res = await fetch(app.url + "/en/success", { method: "DELETE" });
      await res.body?.cancel();
      assert.equal(res.status, 405);
      assert.match(res.headers.get("allow") ?? "", /GET/);
    });
  } finally {
    await app.close();
  }
});

Deno.test("api", async (t) => {
  const app = await startTestApp({
    env: { FEATURE_MONTHLY_PAYMENT: "1", FEATURE_TEST_TERMINAL_PAYMENT: "0" },
  });
  try {
    await t.step("GET /api/feature-flags answers both flags from storage", async () => {
      const res = await get(app, "/api/feature-flags");
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), [
        { flag: "MONTHLY_PAYMENT", enabled: true },
        { flag: "TEST_TERMINAL_PAYMENT", enabled: false },
      ]);
      await app.store.flags.set("TEST_TERMINAL_PAYMENT", true);
      await app.store.flags.set("MONTHLY_PAYMENT", false);
      assert.deepEqual(await (await get(app, "/api/feature-flags")).json(), [
        { flag: "MONTHLY_PAYMENT", enabled: false },
        { flag: "TEST_TERMINAL_PAYMENT", enabled: true },
      ]);
    });

    await t.step("unknown API paths answer JSON 404, wrong methods JSON 405 with Allow", async () => {
      for (const path of ["/api/nope", "/api", "/api/feature-flags/extra", "/api/users"]) {
        const res = await get(app, path);
        assert.equal(res.status, 404, path);
        assert.match(res.headers.get("content-type") ?? "", /application\/json/);
        assert.deepEqual(await res.json(), { message: "Not found", statusCode: 404 });
      }
      const res = await fetch(app.url + "/api/feature-flags", { method: "POST", body: "{}" });
      assert.equal(res.status, 405);
      assert.equal(res.headers.get("allow"), "GET, HEAD");
      const body = await res.json();
      assert.equal(body.statusCode, 405);
      assert.match(body.message, /POST is not allowed/);
    });

    await t.step("a body over the limit answers 413 JSON", async () => {
      const res = await fetch(app.url + "/api/feature-flags", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ x: "a".repeat(70_000) }),
      });
      assert.equal(res.status, 413);
      const body = await res.json();
      assert.equal(body.statusCode, 413);
      assert.match(body.message, /larger than 65536 bytes/);
    });
  } finally {
    await app.close();
  }
});

Deno.test("headers, request ids and logs", async (t) => {
  const app = await startTestApp();
  try {
    await t.step("every response carries the security headers and a request id", async () => {
      for (const path of ["/en/", "/en/nope", "/api/feature-flags", "/api/nope", "/health", "/"]) {
        const res = await get(app, path);
        await res.body?.cancel();
        const csp = res.headers.get("content-security-policy") ?? "";
        assert.match(csp, /script-src 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/, path);
        assert.match(csp, /object-src 'none'/, path);
        assert.match(csp, /base-uri 'none'/, path);
        // Workers from this site only (the desk's service worker), whatever a browser's fallback.
        assert.match(csp, /(^|; )worker-src 'self'(;|$)/, path);
        assert.match(csp, /frame-ancestors 'none'/, path);
        // Forms post to us alone (the sandbox: no provider's page a form could be sent on to).
        assert.match(csp, /(^|; )form-action 'self'(;|$)/, path);
        assert.match(res.headers.get("strict-transport-security") ?? "", /max-age=\d{7,}/, path);
        assert.equal(res.headers.get("x-content-type-options"), "nosniff", path);
        assert.equal(res.headers.get("referrer-policy"), "strict-origin-when-cross-origin", path);
        assert.match(res.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/, path);
      }
    });

    await t.step(
      "the island script carries this response's nonce, and nonces differ per response",
      async () => {
        const a = await get(app, "/en/");
        const b = await get(app, "/en/");
        const nonceOf = (res: Response) =>
          res.headers.get("content-security-policy")!.match(/'nonce-([^']+)'/)![1];
        const html = await a.text();
        await b.body?.cancel();
        assert.notEqual(nonceOf(a), nonceOf(b));
        const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
        assert.equal(scripts.length, 1);
        assert.ok(scripts[0].includes(`nonce="${nonceOf(a)}"`));
      },
    );

    await t.step("one structured log line per request, with the request id of the response", async () => {
      const res = await get(app, "/en/success?userId=secret-donor-id", { "x-request-id": "trace-abc-123" });
      await res.body?.cancel();
      assert.equal(res.headers.get("x-request-id"), "trace-abc-123");
      const lines = app.logs.filter((l) => l.requestId === "trace-abc-123");
      assert.equal(lines.length, 1);
      assert.equal(lines[0].msg, "request");
      assert.equal(lines[0].method, "GET");
      assert.equal(lines[0].path, "/en/success");
      assert.equal(lines[0].status, 200);
      assert.equal(typeof lines[0].ms, "number");
      assert.ok(!JSON.stringify(app.logs).includes("secret-donor-id"), "query strings are not logged");
    });

    await t.step("GET /health checks storage", async () => {
      const res = await get(app, "/health");
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { status: "ok", storage: { kind: "kv", ok: true } });
    });
  } finally {
    await app.close();
  }
});

Deno.test("GET /health answers 503 when storage fails", async () => {
  const { openStore } = await import("@/lib/storage/mod.ts");
  const real = await openStore({ kvPath: ":memory:" });
  const broken: Store = {
    ...real,
    flags: real.flags,
    kind: real.kind,
    ping: () => Promise.reject(new Error("down")),
  };
  const app = await startTestApp({ store: broken });
  try {
    const res = await get(app, "/health");
    assert.equal(res.status, 503);
    const body = await res.json();
    assert.equal(body.status, "unavailable");
    assert.equal(body.storage.ok, false);
  } finally {
    await app.close();
  }
});

Deno.test("built assets: hashed, immutable, compressed, with length and ETag", async (t) => {
  const app = await startTestApp();
  try {
    const html = await (await get(app, "/en/")).text();
    const css = html.match(/href="(\/_app\/styles-[^"]+\.css)"/)![1];
    const client = html.match(/from"(\/_app\/client-[^"]+\.js)"/)![1];
    for (const path of [css, client]) {
      await t.step(path, async () => {
        const plain = await fetch(app.url + path, { headers: { "accept-encoding": "identity" } });
        const bytes = new Uint8Array(await plain.arrayBuffer());
        assert.equal(plain.status, 200);
        assert.equal(plain.headers.get("cache-control"), "public, max-age=31536000, immutable");
        assert.equal(plain.headers.get("content-length"), String(bytes.length));
        assert.equal(plain.headers.get("content-encoding"), null);
        const etag = plain.headers.get("etag")!;
        assert.match(etag, /^"[0-9a-f]{32}"$/);
        const name = path.slice("/_app/".length);
        const meta = currentBuild().manifest.files[name];
        for (const [enc, size] of [["br", meta.brotli], ["gzip", meta.gzip]] as const) {
          // Deno's fetch decodes the body; the length header tells the bytes that were sent.
          const res = await fetch(app.url + path, { headers: { "accept-encoding": enc } });
          const decoded = new Uint8Array(await res.arrayBuffer());
          assert.equal(res.headers.get("content-encoding"), enc);
          assert.equal(res.headers.get("content-length"), String(size));
          assert.ok(size < bytes.length, `${enc} is smaller`);
          assert.equal(res.headers.get("etag"), `"${meta.etag}-${enc}"`);
          assert.deepEqual(decoded, bytes);
        }
        const cached = await fetch(app.url + path, {
          headers: { "accept-encoding": "identity", "if-none-match": etag },
        });
        await cached.body?.cancel();
        assert.equal(cached.status, 304);
      });
    }
    await t.step("an unknown asset is a 404", async () => {
      const res = await get(app, "/_app/nope-123.js");
      await res.body?.cancel();
      assert.equal(res.status, 404);
    });
    await t.step("robots.txt by its plain name", async () => {
      const res = await get(app, "/robots.txt");
      assert.equal(res.status, 200);
      assert.match(await res.text(), /Disallow: \/api\//);
    });
  } finally {
    await app.close();
  }
});

Deno.test("app: the front desk's page may use the camera (its scanner); the donation page may not", async () => {
  const app = await startTestApp();
  try {
    for (
      const [path, camera] of [["/he/desk", "camera=(self)"], ["/he/", "camera=()"], [
        "/en/admin",
        "camera=()",
      ]]
    ) {
      const res = await fetch(app.url + path);
      await res.body?.cancel();
      assert.match(
        res.headers.get("permissions-policy") ?? "",
        new RegExp(`^${camera.replace(/[()]/g, "\\$&")},`),
        path,
      );
    }
  } finally {
    await app.close();
  }
});
