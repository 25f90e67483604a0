/**
 * Spec section 2, language handling: visiting `/{lang}/…` saves that language (the `lang` cookie
 * the server reads, set by the page's answer, so this works without JavaScript), and `/` then
 * redirects to it, before the browser's languages. The order stays path, `lng`, saved choice,
 * browser language. Pages come from the page cache after their first render: the cookie is set per
 * response, and only when it differs, on the cached answer as on the first.
 */
import assert from "node:assert/strict";
import { startTestApp } from "@/tests/helpers/app.ts";

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers, redirect: "manual" });
  await res.body?.cancel();
  return res;
}

/** The `lang` cookie a response sets, or null. */
const savedBy = (res: Response) =>
  res.headers.getSetCookie().find((c) => c.startsWith("lang="))?.match(/^lang=([^;]*)/)?.[1] ?? null;

Deno.test("language memory: visiting /es/ saves es; / then goes to /es/, even for a ru-RU browser", async () => {
  const app = await startTestApp();
  try {
    const visit = await get(`${app.url}/es/`, { "accept-language": "ru-RU,ru;q=0.9" });
    assert.equal(visit.status, 200);
    assert.equal(savedBy(visit), "es");
    const cookie = visit.headers.getSetCookie().find((c) => c.startsWith("lang="))!;
    assert.match(cookie, /; Path=\/; Max-Age=31536000; SameSite=Lax/);
    assert.equal(visit.headers.get("cache-control"), "no-store", "pages stay uncacheable");

    const root = await get(`${app.url}/`, { "accept-language": "ru-RU,ru;q=0.9", cookie: "lang=es" });
    assert.equal(root.status, 302);
    assert.equal(root.headers.get("location"), "/es/");
    // Without a saved choice the browser's language; `lng` before the saved choice.
    assert.equal((await get(`${app.url}/`, { "accept-language": "ru-RU" })).headers.get("location"), "/ru/");
    assert.equal(
      (await get(`${app.url}/?lng=he`, { "accept-language": "ru-RU", cookie: "lang=es" })).headers.get(
        "location",
      ),
      "/he/",
    );
  } finally {
    await app.close();
  }
});

Deno.test("language memory: the cookie is set per response, only when it differs, cached page or not", async () => {
  const app = await startTestApp();
  try {
    for (let i = 0; i < 3; i++) {
      // The first request renders /pt/; the next come from the page cache.
      assert.equal(savedBy(await get(`${app.url}/pt/`)), "pt", `no cookie yet (${i})`);
      assert.equal(savedBy(await get(`${app.url}/pt/`, { cookie: "lang=pt" })), null, `already pt (${i})`);
      assert.equal(savedBy(await get(`${app.url}/pt/`, { cookie: "a=1; lang=he" })), "pt", `was he (${i})`);
    }
    // Every page under /{lang}/, not only the donation page.
    assert.equal(savedBy(await get(`${app.url}/he/login`, { cookie: "lang=en" })), "he");
    // Not a visit: a form post, an unsupported language's redirect, a page that is not there.
    const post = await fetch(`${app.url}/ru/`, {
      method: "POST",
      headers: { cookie: "lang=en", "content-type": "application/x-www-form-urlencoded", origin: app.url },
      body: "choice=tier-1",
      redirect: "manual",
    });
    await post.body?.cancel();
    assert.equal(savedBy(post), null);
    assert.equal(savedBy(await get(`${app.url}/fr/`, { cookie: "lang=en" })), null);
    assert.equal(savedBy(await get(`${app.url}/es/no-such-page`, { cookie: "lang=en" })), null);
  } finally {
    await app.close();
  }
  // Behind https (PUBLIC_URL), the cookie is Secure.
  const secure = await startTestApp({ env: { PUBLIC_URL: "https://donate.museum.test" } });
  try {
    const res = await get(`${secure.url}/es/`, { host: "donate.museum.test" });
    assert.match(res.headers.getSetCookie().join("\n"), /lang=es;[^\n]*; Secure/);
  } finally {
    await secure.close();
  }
});
