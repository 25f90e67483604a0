// Lighthouse audits of a running app, under Node: `node run.mjs` (bench/lighthouse/main.ts starts
// the app, seeds it and calls this; see bench/README.md).
//
// Each run launches a fresh Chromium (chrome-launcher, `--headless=new --no-sandbox`), connects
// puppeteer-core to it and hands Lighthouse that page: Lighthouse's defaults otherwise (mobile form
// factor, simulated throttling, storage reset before the navigation, the four categories). For a
// page that needs the admin's session, the runner signs in through the API first and registers a
// script that runs at the start of every document of the app's origin
// (`Page.addScriptToEvaluateOnNewDocument`, through puppeteer) and writes the three local-storage
// items. It runs after Lighthouse's storage reset and before the page's own scripts, so the audit
// still starts from an empty cache, exactly like the other pages, with a signed-in admin.
//
// | variable          | default                                    |
// |-------------------|--------------------------------------------|
// | `LH_BASE_URL`     | `http://127.0.0.1:8000`                    |
// | `LH_PAGES`        | JSON `[{ "name", "path", "admin"? }]`; default: the five pages below |
// | `LH_RUNS`         | `3` runs per page (the median is reported) |
// | `LH_ADMIN_EMAIL`, `LH_ADMIN_PASSWORD` | the admin for pages marked `admin` |
// | `LH_REPORTS`      | `reports/` beside this file: each run's JSON, the median run's HTML |
// | `CHROME_PATH`     | `/usr/bin/chromium`                        |
//
// stdout: the medians as a Markdown table, then every audit that did not pass in the median run of
// a page. `summary.json` in LH_REPORTS holds the same.

import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import puppeteer from "puppeteer-core";

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
const HERE = fileURLToPath(new URL(".", import.meta.url));

const env = process.env;
const base = (env.LH_BASE_URL ?? "http://127.0.0.1:8000").replace(/\/+$/, "");
const runs = Number(env.LH_RUNS ?? "3");
if (!Number.isInteger(runs) || runs < 1) throw new Error(`LH_RUNS must be a whole number of at least 1`);
const chromePath = env.CHROME_PATH ?? "/usr/bin/chromium";
const reports = env.LH_REPORTS ?? join(HERE, "reports");
const pages = env.LH_PAGES ? JSON.parse(env.LH_PAGES) : [
  { name: "donation (en)", path: "/en/" },
  { name: "donation (he)", path: "/he/" },
  { name: "success", path: "/en/success" },
  { name: "login", path: "/en/login" },
  { name: "admin", path: "/en/admin", admin: true },
];

/** Signs the admin in through the API; answers the three local-storage items. */
async function adminSession() {
  const email = env.LH_ADMIN_EMAIL;
  const password = env.LH_ADMIN_PASSWORD;
  if (!email || !password) throw new Error("an admin page needs LH_ADMIN_EMAIL and LH_ADMIN_PASSWORD");
  const res = await fetch(`${base}/api/auth/admin/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`admin login: ${res.status} ${JSON.stringify(body)}`);
  const { accessToken, refreshToken, ...admin } = body;
  return { accessToken, refreshToken, admin: JSON.stringify(admin) };
}

/** One Lighthouse run of one page in a fresh browser; answers Lighthouse's result (lhr). */
async function audit(target) {
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ["--headless=new", "--no-sandbox"],
  });
  let browser;
  try {
    browser = await puppeteer.connect({
      browserURL: `http://127.0.0.1:${chrome.port}`,
      defaultViewport: null,
    });
    const page = (await browser.pages())[0] ?? await browser.newPage();
    if (target.admin) {
      const items = await adminSession();
      await page.evaluateOnNewDocument(
        (origin, items) => {
          if (location.origin !== origin) return;
          for (const [key, value] of Object.entries(items)) localStorage.setItem(key, value);
        },
        new URL(base).origin,
        items,
      );
    }
    const result = await lighthouse(
      `${base}${target.path}`,
      { logLevel: "error", output: "html", onlyCategories: CATEGORIES },
      undefined,
      page,
    );
    if (!result) throw new Error(`no Lighthouse result for ${target.path}`);
    if (result.lhr.runtimeError) {
      throw new Error(`${target.path}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
    }
    return { lhr: result.lhr, html: result.report };
  } finally {
    await browser?.disconnect().catch(() => {});
    chrome.kill();
  }
}

/**
 * {@link audit}, tried up to three times: on a loaded machine Lighthouse sometimes fails to record
 * the trace (NO_NAVSTART, NO_FCP) and asks to be run again.
 */
async function auditWithRetries(target) {
  for (let attempt = 1;; attempt++) {
    try {
      return await audit(target);
    } catch (e) {
      if (attempt === 3) throw e;
      console.error(`${target.name}: ${e.message}; trying again`);
    }
  }
}

const score = (lhr, category) => Math.round((lhr.categories[category]?.score ?? 0) * 100);

/** The run whose scores are closest to the medians (its report is kept as HTML). */
function medianRun(results, medians) {
  let best = results[0];
  let bestDistance = Infinity;
  for (const r of results) {
    const distance = CATEGORIES.reduce((sum, c) => sum + Math.abs(score(r.lhr, c) - medians[c]), 0);
    if (distance < bestDistance) [best, bestDistance] = [r, distance];
  }
  return best;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2);
}

/** Audits that count toward a category and did not pass. */
function failing(lhr) {
  const out = [];
  for (const category of CATEGORIES) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const a = lhr.audits[ref.id];
      if (!a || a.score === null || a.score >= 1) continue;
      if (a.scoreDisplayMode === "informative" || a.scoreDisplayMode === "manual") continue;
      if (a.scoreDisplayMode === "notApplicable") continue;
      out.push({
        category,
        id: ref.id,
        weight: ref.weight,
        score: a.score,
        displayValue: a.displayValue ?? "",
        title: a.title,
      });
    }
  }
  return out;
}

await mkdir(reports, { recursive: true });
const summary = [];
for (const target of pages) {
  const results = [];
  for (let i = 1; i <= runs; i++) {
    const started = Date.now();
    const r = await auditWithRetries(target);
    results.push(r);
    const slug = target.path.replace(/[^a-z0-9]+/gi, "_").replace(/^_|_$/g, "") || "root";
    await writeFile(join(reports, `${slug}-${i}.json`), JSON.stringify(r.lhr));
    console.error(
      `${target.name} run ${i}/${runs}: ${CATEGORIES.map((c) => `${c} ${score(r.lhr, c)}`).join(", ")} ` +
        `(${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
  }
  const medians = Object.fromEntries(CATEGORIES.map((c) => [c, median(results.map((r) => score(r.lhr, c)))]));
  const chosen = medianRun(results, medians);
  const slug = target.path.replace(/[^a-z0-9]+/gi, "_").replace(/^_|_$/g, "") || "root";
  await writeFile(join(reports, `${slug}-median.html`), chosen.html);
  const metrics = Object.fromEntries(
    ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift"]
      .map(
        (id) => [id, chosen.lhr.audits[id]?.displayValue ?? ""],
      ),
  );
  summary.push({
    ...target,
    runs: results.map((r) => Object.fromEntries(CATEGORIES.map((c) => [c, score(r.lhr, c)]))),
    medians,
    metrics,
    failing: failing(chosen.lhr),
    benchmarkIndex: median(results.map((r) => Math.round(r.lhr.environment?.benchmarkIndex ?? 0))),
    lighthouse: chosen.lhr.lighthouseVersion,
    userAgent: chosen.lhr.environment?.hostUserAgent,
  });
}
await writeFile(join(reports, "summary.json"), JSON.stringify(summary, null, 2));

console.log(
  `| page | path | performance | accessibility | best practices | SEO | FCP | LCP | TBT | CLS | CPU index |`,
);
console.log(
  `| ---- | ---- | ----------: | ------------: | -------------: | --: | --: | --: | --: | --: | --------: |`,
);
for (const s of summary) {
  const m = s.metrics;
  console.log(
    `| ${s.name} | \`${s.path.replace(/\?.*/, "?…")}\` | ${
      CATEGORIES.map((c) => s.medians[c]).join(" | ")
    } | ` +
      `${m["first-contentful-paint"]} | ${m["largest-contentful-paint"]} | ${m["total-blocking-time"]} | ` +
      `${m["cumulative-layout-shift"]} | ${s.benchmarkIndex} |`,
  );
}
console.log("");
for (const s of summary) {
  if (s.failing.length === 0) continue;
  console.log(`Not passed on ${s.path} (median run):`);
  for (const f of s.failing) {
    console.log(
      `- ${f.category}: \`${f.id}\` (weight ${f.weight}, score ${f.score}) ${f.title} ${f.displayValue}`
        .trim(),
    );
  }
}
console.log(
  `\nLighthouse ${summary[0]?.lighthouse}, ${summary[0]?.userAgent}. FCP, LCP, TBT and CLS are the median ` +
    `run's; CPU index is Lighthouse's benchmarkIndex (median of the runs; lower means a slower or busier CPU).`,
);
