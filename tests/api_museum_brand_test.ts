/**
 * The museum's logo and the donation page's hero through the admin API (issue 27, item 1), on both
 * backends: only owners upload (`PUT /api/settings/museum/logo` and `/hero-image`, a multipart form
 * of `version` and `file`), over the version they read; a file too large, of another type, a PNG
 * that is not one or too large in pixels, or an SVG with a script is refused by field; a hostile
 * SVG's event handlers, external references and foreign objects are removed before it is stored;
 * the image is served from one address holding its hash, with its exact type, `nosniff`, a long
 * cache and (SVG) a policy that runs nothing; the hero's title and text are edited per language.
 */
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { tokensFor } from "@/tests/helpers/role_tokens.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { CLEAN_SVG, pngOf } from "@/tests/helpers/images.ts";
import type { MuseumSettings } from "@/lib/storage/types.ts";

/** An upload of `bytes` as `name` of `type`, over `version`. */
async function upload(
  app: TestApp,
  token: string | null,
  which: "logo" | "hero-image",
  version: number,
  bytes: Uint8Array | string,
  name: string,
  type: string,
) {
  const form = new FormData();
  form.set("version", String(version));
  form.set("file", new File([bytes as BlobPart], name, { type }));
  const res = await fetch(`${app.url}/api/settings/museum/${which}`, {
    method: "PUT",
    body: form,
    headers: token ? bearer(token) : {},
  });
  return { status: res.status, body: await res.json() };
}

const settingsOf = async (app: TestApp, token: string): Promise<MuseumSettings> =>
  (await api(app.url, "GET", "/api/settings/museum", undefined, bearer(token))).body;

/** The donation page in `lang` once it matches `pattern` (pages read the settings a second late). */
async function pageMatching(app: TestApp, lang: string, pattern: RegExp): Promise<string> {
  let html = "";
  for (const started = Date.now(); !pattern.test(html);) {
    assert.ok(Date.now() - started < 3000, `/${lang}/ does not match ${pattern} after 3 s`);
    html = await (await fetch(`${app.url}/${lang}/`)).text();
  }
  return html;
}

backendTest("api: the museum's logo and hero, uploaded and edited by owners", async (t, open) => {
  const store = await open();
  const app = await startTestApp({ store });
  try {
    const tokens = await tokensFor(app, store);
    const owner = tokens.get("owner")!;

    await t.step("only owners upload: none signed in 401, every other role 403", async () => {
      assert.equal((await upload(app, null, "logo", 0, CLEAN_SVG, "l.svg", "image/svg+xml")).status, 401);
      for (const [role, token] of tokens) {
        if (role === "owner") continue;
        const res = await upload(app, token, "logo", 0, CLEAN_SVG, "l.svg", "image/svg+xml");
        assert.equal(res.status, 403, `${role}: ${JSON.stringify(res.body)}`);
      }
      assert.equal(await store.museum.get(), null);
    });

    await t.step("a fresh install's hero is today's locale texts, with no logo or image", async () => {
      const settings = await settingsOf(app, owner);
      assert.equal(settings.identity.logo, undefined);
      assert.equal(settings.hero!.title.en, "Be part of the museum's next chapter");
      assert.equal(settings.hero!.title.he, "היו שותפים לפרק הבא של המוזיאון");
      assert.match(settings.hero!.text.ru, /\S/);
      assert.equal(settings.hero!.image, undefined);
    });

    await t.step("bad files refused by field, in words; nothing saved, nothing 5xx", async () => {
      const cases: [Uint8Array | string, string, string, RegExp][] = [
        [new Uint8Array(201 * 1024).fill(0x20), "big.svg", "image/svg+xml", /larger than 200 KB/],
        [new TextEncoder().encode("GIF89a not really"), "a.gif", "image/gif", /SVG or a PNG/],
        [new TextEncoder().encode("not a png at all"), "fake.png", "image/png", /not a PNG/],
        [pngOf(5000, 2), "wide.png", "image/png", /at most 4000 × 4000 pixels/],
        [
          CLEAN_SVG.replace("</svg>", "<script>alert(1)</script></svg>"),
          "s.svg",
          "image/svg+xml",
          /contains a script/,
        ],
        [
          `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "boom">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>`,
          "e.svg",
          "image/svg+xml",
          /entities|DOCTYPE/,
        ],
        ["<svg><unclosed></svg>", "broken.svg", "image/svg+xml", /not a well-formed SVG/],
      ];
      for (const [bytes, name, type, message] of cases) {
        const res = await upload(app, owner, "logo", 0, bytes, name, type);
        assert.ok([400, 413].includes(res.status), `${name}: ${res.status} ${JSON.stringify(res.body)}`);
        assert.equal(res.body.errors?.[0]?.path, "file", name);
        assert.match(res.body.errors[0].message, message, name);
      }
      assert.equal(await store.museum.get(), null);
    });

    await t.step(
      "a hostile SVG is stored clean; served from its hash, exactly typed, locked down",
      async () => {
        const hostile = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
        viewBox="0 0 100 100" onload="alert(1)">
        <circle cx="50" cy="50" r="40" fill="#7a1f3d" onclick="alert(2)"/>
        <use href="https://evil.example/sprite.svg#x"/>
        <use xlink:href="//evil.example/sprite.svg#y"/>
        <image href="http://evil.example/track.png" width="10" height="10"/>
        <a href="javascript:alert(3)"><rect width="5" height="5"/></a>
        <foreignObject width="100" height="100"><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject>
        <rect width="10" height="10" style="fill: url(https://evil.example/x.svg#p)"/>
        <iframe src="https://evil.example"/>
      </svg>`;
        const res = await upload(app, owner, "logo", 0, hostile, "hostile.svg", "image/svg+xml");
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.version, 1);
        const logo = res.body.identity.logo;
        assert.equal(logo.type, "image/svg+xml");
        assert.match(logo.hash, /^[0-9a-f]{64}$/);
        const [entry] = await store.audit.list({ action: "museum-settings-changed" }, 10);
        assert.deepEqual(entry.changes.changed, ["identity.logo"]);

        const html = await pageMatching(app, "en", /museum-images\//);
        const src = /<img src="(\/museum-images\/[^"]+)"/.exec(html)?.[1];
        assert.ok(src, "the logo in the header");
        assert.ok(src.includes(logo.hash), src);
        const served = await fetch(app.url + src);
        assert.equal(served.status, 200);
        assert.equal(served.headers.get("content-type"), "image/svg+xml");
        assert.equal(served.headers.get("x-content-type-options"), "nosniff");
        assert.match(served.headers.get("cache-control") ?? "", /max-age=31536000.*immutable/);
        const csp = served.headers.get("content-security-policy") ?? "";
        assert.match(csp, /default-src 'none'/);
        assert.match(csp, /sandbox/);
        const svg = await served.text();
        assert.match(svg, /<circle[^>]*cx="50"/);
        for (
          const bad of [/onload/i, /onclick/i, /evil\.example/, /javascript:/i, /foreignObject/i, /<iframe/i]
        ) {
          assert.doesNotMatch(svg, bad);
        }
        // Another hash is not found; a name that is not a hash is not found either.
        assert.equal((await fetch(`${app.url}/museum-images/${"0".repeat(64)}.svg`)).status, 404);
        assert.equal((await fetch(`${app.url}/museum-images/..%2Fsecret.svg`)).status, 404);
      },
    );

    await t.step("a PNG logo, then a stale version refused 409, then removed", async () => {
      const png = pngOf(120, 40);
      const stale = await upload(app, owner, "logo", 0, png, "logo.png", "image/png");
      assert.equal(stale.status, 409, JSON.stringify(stale.body));
      const res = await upload(app, owner, "logo", 1, png, "logo.png", "image/png");
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(
        {
          type: res.body.identity.logo.type,
          w: res.body.identity.logo.width,
          h: res.body.identity.logo.height,
        },
        { type: "image/png", w: 120, h: 40 },
      );
      const html = await pageMatching(app, "he", /museum-images\/[0-9a-f]+\.png/);
      const src = /<img src="(\/museum-images\/[^"]+\.png)"/.exec(html)![1];
      const served = await fetch(app.url + src);
      assert.equal(served.headers.get("content-type"), "image/png");
      assert.deepEqual(new Uint8Array(await served.arrayBuffer()), png);
      const removed = await fetch(`${app.url}/api/settings/museum/logo?version=2`, {
        method: "DELETE",
        headers: bearer(owner),
      });
      assert.equal(removed.status, 200);
      assert.equal((await removed.json()).identity.logo, undefined);
    });

    await t.step("the hero's title and text per language, and its image with alt text", async () => {
      const current = await settingsOf(app, owner);
      const hero = structuredClone(current.hero!);
      hero.title.en = "Open late on Thursdays";
      hero.title.he = "פתוחים עד מאוחר בימי חמישי";
      hero.imageAlt.en = "The great hall at dusk";
      hero.imageAlt.he = "האולם הגדול בשעת דמדומים";
      const change = {
        version: current.version,
        identity: { name: current.identity.name, colours: current.identity.colours },
        levels: current.levels,
        hero: { title: hero.title, text: hero.text, imageAlt: hero.imageAlt },
      };
      const saved = await api(app.url, "PUT", "/api/settings/museum", change, bearer(owner));
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      const image = await upload(
        app,
        owner,
        "hero-image",
        saved.body.version,
        pngOf(64, 32),
        "h.png",
        "image/png",
      );
      assert.equal(image.status, 200, JSON.stringify(image.body));
      assert.equal(image.body.hero.title.he, "פתוחים עד מאוחר בימי חמישי");
      const he = await pageMatching(app, "he", /פתוחים עד מאוחר בימי חמישי/);
      assert.match(
        he,
        /<img[^>]*class="hero-image"[^>]*alt="האולם הגדול בשעת דמדומים"|alt="האולם הגדול בשעת דמדומים"[^>]*class="hero-image"/,
      );
      const en = await pageMatching(app, "en", /Open late on Thursdays/);
      assert.match(en, /alt="The great hall at dusk"/);
      // The languages not edited keep today's texts.
      assert.match(await pageMatching(app, "ru", /hero-title/), /<h1 id="hero-title">[^<]+<\/h1>/);
    });
  } finally {
    await app.close();
  }
});
