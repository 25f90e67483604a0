/**
 * The client build: server-only code never reaches an island, React-style islands build against
 * preact/compat, a page without islands ships no script, and the JavaScript budgets hold.
 */
import assert from "node:assert/strict";
import { h } from "preact";
import { currentBuild } from "@/lib/framework/assets.ts";
import { build, BuildError, COMPILE_HINT, COMPILE_HINT_MIN } from "@/lib/framework/build.ts";
import { pageWeight } from "@/lib/framework/page_weight.ts";
import { renderPage } from "@/lib/framework/render.ts";
import type { PageProps } from "@/lib/framework/types.ts";
import { ensureTestBuild, PAGE_PATHS, ROOT, startTestApp } from "@/tests/helpers/app.ts";
import { signInAs } from "@/tests/helpers/donor_portal.ts";
import { pairTestKiosk } from "@/tests/helpers/kiosk.ts";
import { donorFixture, subscriptionFixture } from "@/tests/storage/fixtures.ts";

/** Budget for the shell's islands (language selector, scroll-to-top, message listener), gzip. */
const SHELL_BUDGET = 8 * 1024;
/**
 * Budget for the donation page (shell plus the period tabs, the contribution picker with the
 * membership levels, and the payment form with the gift option), gzip. 20 KB until issue 29: its
 * islands share a store of their own over `preact/hooks` rather than `@preact/signals` and
 * `preact/compat`, and the build no longer splits files the page loads anyway (bench/README.md).
 */
const DONATION_BUDGET = 15 * 1024;
/** Pages that carry the donation islands; every other page has only the shell's. */
const DONATION_PAGES = new Set(["", "terminal-payment/7"]);
/** Budget for the sign-in and register pages (shell plus the account form and its API client), gzip. */
// Issue 29: the form on preact/hooks (not preact/compat), the sign-in calls and the forms' rules in
// modules of their own, so the back office's sections no longer carry them either.
const ACCOUNT_BUDGET = 12.5 * 1024;
/** Pages that carry the account form. */
const ACCOUNT_PAGES = new Set(["login", "register"]);
/**
 * Budgets for the back office's pages, one per section (issue 26: each loads only its own island and
 * the shell: header, navigation, the API client), gzip. The one-page dashboard they replace shipped
 * 27.1 KB; the transactions section is most of what it held (history, receipts; its refund dialogs
 * load when one opens, its chart is drawn on the server). bench/README.md records what each ships.
 * Issue 29's target is 15 KB for every section with the shell; each budget is what it reached with
 * its own part and the shell made smaller (bench/README.md, "Issue 29"), a little above the figure.
 */
const ADMIN_BUDGETS: Record<string, number> = {
  "admin": 17 * 1024,
  // Issue 29 (21,913 on /en/ after the merges; 26,881 before): the daily chart drawn on the server
  // (GET /api/transaction/daily-totals.svg), the donor's view no longer in a shared chunk. The history
  // (its table, filters and pages) is most of what is left beside the shell.
  "admin/transactions": 22 * 1024,
  "admin/donors": 17 * 1024,
  // A member's page is an island of its own (AdminMember.tsx): the list ships without it (15,790).
  "admin/members": 16 * 1024,
  // The Front desk section (issue 28): today's visits.
  "admin/desk": 17.5 * 1024,
  // With the visits per day and per level (issue 28); 17,539 without the donor's view (issue 29).
  "admin/reports": 18 * 1024,
  "admin/kiosks": 16 * 1024,
  // 15,785 without the history's filters (issue 29: the days' check is lib/shared/calendar_day.ts).
  "admin/email": 16 * 1024,
  "admin/staff": 16.5 * 1024,
  "admin/audit": 16 * 1024,
  // The museum editor beside the feature flags; its refusals' words load when one comes (16,547).
  "admin/settings": 17 * 1024,
  // Issue 29: the shell without the sign-in forms' rules, the donation page's modules or the dates.
  "admin/two-factor": 15 * 1024,
};

Deno.test("the build fails when an island reaches server-only code, naming the chain", async () => {
  const outDir = await Deno.makeTempDir();
  try {
    await assert.rejects(
      () => build(ROOT, { outDir, islandsDir: `${ROOT}/tests/fixtures/server_only` }),
      (e) => {
        assert.ok(e instanceof BuildError);
        assert.match(e.message, /server-only code/);
        assert.match(e.message, /tests\/fixtures\/server_only\/islands\/(Leaky|Config)\.tsx → /);
        assert.match(e.message, /lib\/(storage\/mod|app\/config)\.ts/);
        return true;
      },
    );
  } finally {
    await Deno.remove(outDir, { recursive: true });
  }
});

Deno.test("an island importing from react builds against preact/compat", async () => {
  const outDir = await Deno.makeTempDir();
  try {
    const manifest = await build(ROOT, { outDir, islandsDir: `${ROOT}/tests/fixtures/react_compat` });
    assert.ok(manifest.islands.Counter, "the island is in the manifest");
    let js = "";
    const visit = (name: string) => {
      js += Deno.readTextFileSync(`${outDir}/static/${name}`);
      manifest.files[name].imports.forEach(visit);
    };
    visit(manifest.islands.Counter);
    assert.ok(!/from\s*"react"/.test(js), "no bare react import is left");
    assert.match(js, /ondoubleclick/i, "preact/compat's event normalisation is bundled");
  } finally {
    await Deno.remove(outDir, { recursive: true });
  }
});

Deno.test("code an island imports dynamically is built, but not counted as its page's", async () => {
  const outDir = await Deno.makeTempDir();
  try {
    const manifest = await build(ROOT, { outDir, islandsDir: `${ROOT}/tests/fixtures/lazy` });
    const read = (name: string) => Deno.readTextFileSync(`${outDir}/static/${name}`);
    const loaded = new Set<string>();
    const visit = (name: string) => {
      if (loaded.has(name)) return;
      loaded.add(name);
      manifest.files[name].imports.forEach(visit);
    };
    visit(manifest.islands.Opener);
    const later = Object.keys(manifest.files).filter((f) =>
      f.endsWith(".js") && read(f).includes("LOADED-ONLY")
    );
    assert.equal(later.length, 1, "the dynamically imported module is built");
    assert.ok(!loaded.has(later[0]), "and not among the island's static imports");
  } finally {
    await Deno.remove(outDir, { recursive: true });
  }
});

Deno.test("the compile hint heads the big client files only", async () => {
  await ensureTestBuild();
  const { manifest } = currentBuild();
  const js = Object.keys(manifest.files).filter((f) => f.endsWith(".js"));
  const hinted = js.filter((f) =>
    Deno.readTextFileSync(`${ROOT}/_build/static/${f}`).startsWith(COMPILE_HINT)
  );
  assert.ok(hinted.includes(manifest.islands.DonorPayment), "a big island compiles eagerly");
  for (const f of js) {
    assert.equal(
      hinted.includes(f),
      manifest.files[f].size >= COMPILE_HINT_MIN,
      `${f}: ${manifest.files[f].size} B`,
    );
  }
  assert.ok(!hinted.includes(manifest.client), "the tiny client runtime carries no hint");
  for (const f of hinted) {
    const bytes = Deno.readFileSync(`${ROOT}/_build/static/${f}`);
    assert.equal(manifest.files[f].size, bytes.length, `${f}: the manifest weighs the bytes served`);
  }
});

Deno.test("a page without islands ships no script tag at all", async () => {
  await ensureTestBuild();
  const page = () => h("p", null, "static");
  const props: PageProps = { url: new URL("http://x/"), params: {}, state: {}, data: null, status: 200 };
  const html = renderPage({ layouts: [], page, props, nonce: "abc" });
  assert.equal(html, "<!DOCTYPE html><p>static</p>");
  assert.equal(pageWeight(html, currentBuild().manifest).gzip, 0);
});

Deno.test("JavaScript budgets (gzip): donation 15 KB, sign-in and register 12.5 KB, each back-office section its own, others 8 KB", async () => {
  // Every section of the back office has its budget, and is among the pages measured.
  assert.deepEqual(
    Object.keys(ADMIN_BUDGETS).sort(),
    PAGE_PATHS.filter((p) => p.startsWith("admin")).sort(),
  );
  const app = await startTestApp();
  try {
    const manifest = currentBuild().manifest;
    // The kiosk page as its paired kiosk sees it (the form); any other browser gets a notice.
    const kiosk = await pairTestKiosk(app, "7");
    for (const lang of ["en", "he"]) {
      for (const path of PAGE_PATHS) {
        const headers = path === "terminal-payment/7" ? kiosk.headers : {};
        const html = await (await fetch(`${app.url}/${lang}/${path}`, { headers })).text();
        const weight = pageWeight(html, manifest);
        assert.equal(weight.scriptTags, 1, `/${lang}/${path}: one entry script`);
        assert.ok(weight.gzip > 0);
        const budget = DONATION_PAGES.has(path)
          ? DONATION_BUDGET
          : ACCOUNT_PAGES.has(path)
          ? ACCOUNT_BUDGET
          : ADMIN_BUDGETS[path] ?? SHELL_BUDGET;
        assert.ok(
          weight.gzip <= budget,
          `/${lang}/${path} ships ${weight.gzip} bytes of JavaScript (gzip); its budget is ${budget}`,
        );
      }
    }
  } finally {
    await app.close();
  }
});

Deno.test("JavaScript budget (gzip): the donor portal's signed-in pages stay within the shell's 8 KB", async () => {
  const app = await startTestApp();
  try {
    const manifest = currentBuild().manifest;
    const donor = await app.store.donors.create(donorFixture({ email: "ada@example.org" }));
    await app.store.subscriptions.create(subscriptionFixture({ donorId: donor.id }));
    for (const lang of ["en", "he"]) {
      const cookie = await signInAs(app, donor.id, lang);
      for (const path of ["account", "account/erase"]) {
        const res = await fetch(`${app.url}/${lang}/${path}`, { headers: { cookie } });
        assert.equal(res.status, 200, `/${lang}/${path}`);
        const html = await res.text();
        assert.ok(html.includes('name="amount"') || path !== "account", "the gift's forms are on the page");
        const weight = pageWeight(html, manifest);
        assert.ok(
          weight.gzip <= SHELL_BUDGET,
          `/${lang}/${path} ships ${weight.gzip} bytes of JavaScript (gzip); its budget is ${SHELL_BUDGET}`,
        );
      }
    }
  } finally {
    await app.close();
  }
});

/**
 * The front desk page (issue 28): its island (scanning, the look-ups, the answer) in the back office's
 * shell (header, sign-out, the admin API client) and its offline part (the queue, the kept key, the
 * worker's registration, the banner: about 2.3 KB) within 21 KB gzip; the QR decoder for browsers without BarcodeDetector (jsqr, about 46 KB
 * gzip) loads only when a scan needs it, never with the page.
 */
const DESK_BUDGET = 21 * 1024;

Deno.test("JavaScript budget (gzip): the front desk page 21 KB, its QR decoder loaded only when needed", async () => {
  const app = await startTestApp();
  try {
    const manifest = currentBuild().manifest;
    for (const lang of ["en", "he"]) {
      const html = await (await fetch(`${app.url}/${lang}/desk`)).text();
      const weight = pageWeight(html, manifest);
      assert.equal(weight.scriptTags, 1, `/${lang}/desk: one entry script`);
      assert.ok(
        weight.gzip <= DESK_BUDGET,
        `/${lang}/desk ships ${weight.gzip} bytes (gzip); its budget is ${DESK_BUDGET}`,
      );
      const loaded = await Promise.all(
        weight.files.map((f) => Deno.readTextFile(`${ROOT}/_build/static/${f}`)),
      );
      assert.ok(
        !loaded.some((text) => text.includes("attemptBoth")),
        "jsqr is not loaded with the page",
      );
    }
  } finally {
    await app.close();
  }
});
