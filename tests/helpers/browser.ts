/**
 * Real-browser tests: Debian's Chromium driven by playwright-core (a test tool's own browser
 * download does not work on these machines, so we never download one).
 *
 * - {@link launchBrowser} starts headless Chromium from `CHROMIUM_PATH` or `/usr/bin/chromium`.
 * - {@link browserTest} registers a `Deno.test` that is skipped, with one line saying why, when
 *   Chromium is missing, and that fails instead when `CI` is set.
 * - {@link openWatchedPage} / {@link watchPage} record every console error, uncaught page error,
 *   failed request and failed sub-resource response (plus CSP violations), so a test can assert
 *   that a page is clean.
 *
 * @module
 */
import {
  type Browser,
  type BrowserContext,
  chromium,
  type ConsoleMessage,
  type Page,
  type Request,
  type Response,
} from "playwright-core";

/** Chromium flags that keep a headless run quiet and off the network (see shared/DESIGN.md). */
export const CHROMIUM_ARGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Where Chromium is expected: env `CHROMIUM_PATH`, else `/usr/bin/chromium`.
 *
 * @example
 * ```ts
 * console.log(chromiumPath()); // "/usr/bin/chromium"
 * ```
 */
export function chromiumPath(): string {
  return Deno.env.get("CHROMIUM_PATH") || "/usr/bin/chromium";
}

/** Whether env `CI` is set to something other than "", "0" or "false" (as tests/storage/support.ts reads it). */
function inCi(): boolean {
  return !["", "0", "false"].includes((Deno.env.get("CI") ?? "").toLowerCase());
}

/** Whether `path` is an executable file (sync, because tests are registered synchronously). */
function isExecutable(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile && (info.mode === null || (info.mode & 0o111) !== 0);
  } catch {
    return false;
  }
}

/**
 * Whether Chromium is installed where {@link chromiumPath} says.
 *
 * @example
 * ```ts
 * if (!(await browserAvailable())) console.log("no Chromium here");
 * ```
 */
export function browserAvailable(): Promise<boolean> {
  return Promise.resolve(isExecutable(chromiumPath()));
}

/**
 * Launches headless Chromium with {@link CHROMIUM_ARGS}. Close it with `browser.close()`.
 *
 * @example
 * ```ts
 * const browser = await launchBrowser();
 * const page = await browser.newPage();
 * await page.goto("http://127.0.0.1:8000/en/");
 * await browser.close();
 * ```
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: [...CHROMIUM_ARGS] });
}

let skipNoticePrinted = false;

/**
 * Registers a browser test. When Chromium is missing it is registered with `ignore: true` and one
 * line says why (once per process); when env `CI` is set and Chromium is missing, the test fails
 * with a message naming the path it looked at.
 *
 * Sanitizers: Deno's op and resource sanitizers stay on. They are not needed off as long as a test
 * launches and closes its own browser (and app) inside its body: `browser.close()` ends the
 * Chromium child process and its pipe, and tests/browser_test.ts passes with them on. A test that
 * shares one browser across several `Deno.test`s would have to turn them off (playwright keeps the
 * pipe and the process open between tests).
 *
 * @example
 * ```ts
 * browserTest("home page renders", async (t) => {
 *   const browser = await launchBrowser();
 *   try {
 *     const page = await browser.newPage();
 *     await page.goto(`${app.url}/en/`);
 *   } finally {
 *     await browser.close();
 *   }
 * });
 * ```
 */
export function browserTest(name: string, fn: (t: Deno.TestContext) => void | Promise<void>): void {
  const path = chromiumPath();
  const available = isExecutable(path);
  if (available) {
    Deno.test({ name, fn });
  } else if (inCi()) {
    Deno.test({
      name,
      fn() {
        throw new Error(
          `Chromium is required for browser tests under CI but was not found at ${path}; ` +
            `install it (apt-get install -y chromium) or set CHROMIUM_PATH`,
        );
      },
    });
  } else {
    if (!skipNoticePrinted) {
      skipNoticePrinted = true;
      console.log(
        `browser tests skipped: Chromium not found at ${path} (set CHROMIUM_PATH; under CI this fails)`,
      );
    }
    Deno.test({ name, ignore: true, fn });
  }
}

/** What {@link watchPage} records. Every list is empty on a clean page. */
export interface PageProblems {
  /** `console.error` lines, including the browser's own (CSP violations, failed loads). */
  readonly consoleErrors: string[];
  /** Uncaught exceptions and unhandled rejections. */
  readonly pageErrors: string[];
  /** Requests that failed at the network level, and sub-resources answered with status 400 or more. */
  readonly failedRequests: string[];
}

/** A page with its problem recorder. */
export interface WatchedPage {
  page: Page;
  problems: PageProblems;
  /** All problems as one list of lines; `[]` on a clean page. */
  all(): string[];
  /** Forgets what was recorded so far (e.g. before the next navigation). */
  reset(): void;
}

/**
 * Records the problems of `page` from now on. Besides what Chromium logs, a CSP violation is
 * reported as a console error by a listener installed before any page script (the page's CSP does
 * not apply to it). A navigation answered with an error status is not counted (neither as a failed
 * request nor as Chromium's console line about it): the test checks a page's own status itself, so
 * a 404 page can still be checked for clean sub-resources.
 *
 * @example
 * ```ts
 * const watched = await watchPage(page);
 * await page.goto(`${app.url}/en/`);
 * assert.deepEqual(watched.all(), []);
 * ```
 */
export async function watchPage(page: Page): Promise<WatchedPage> {
  const consoleErrors: { text: string; url: string }[] = [];
  const pageErrors: string[] = [];
  const failedRequests: string[] = [];
  // Documents answered with an error status: the test checks their status itself, so Chromium's
  // "Failed to load resource" line about them is not a problem of the page.
  const erroredDocuments = new Set<string>();
  page.on("console", (msg: ConsoleMessage) => {
    if (msg.type() === "error") consoleErrors.push({ text: msg.text(), url: msg.location()?.url ?? "" });
  });
  page.on("pageerror", (err: Error) => pageErrors.push(`${err.name}: ${err.message}`));
  // Which navigation of the main frame each request was made under: a request still in flight when
  // a later navigation starts (the test's or the page's own) is cancelled by the browser
  // (ERR_ABORTED), which a loaded machine makes likely; that is not the page's fault.
  let navigations = 0;
  const madeUnder = new WeakMap<Request, number>();
  page.on("request", (req: Request) => {
    if (req.isNavigationRequest() && req.frame() === page.mainFrame()) navigations++;
    madeUnder.set(req, navigations);
  });
  page.on("requestfailed", (req: Request) => {
    if (req.failure()?.errorText === "net::ERR_ABORTED") {
      // The browser cancels the favicon's request when the page navigates away first.
      if (/\/favicon[^/]*$/.test(new URL(req.url()).pathname)) return;
      if ((madeUnder.get(req) ?? navigations) < navigations) return;
    }
    failedRequests.push(`${req.method()} ${req.url()}: ${req.failure()?.errorText ?? "failed"}`);
  });
  page.on("response", (res: Response) => {
    if (res.status() < 400) return;
    if (res.request().isNavigationRequest()) erroredDocuments.add(res.url());
    else failedRequests.push(`${res.request().method()} ${res.url()}: HTTP ${res.status()}`);
  });
  await page.addInitScript(() => {
    addEventListener("securitypolicyviolation", (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"}`);
    });
  });
  const problems: PageProblems = {
    get consoleErrors() {
      return consoleErrors
        .filter((e) => !(e.text.startsWith("Failed to load resource") && erroredDocuments.has(e.url)))
        .map((e) => `${e.text}${e.url ? ` (${e.url})` : ""}`);
    },
    pageErrors,
    failedRequests,
  };
  return {
    page,
    problems,
    all: () => [
      ...problems.consoleErrors.map((s) => `console error: ${s}`),
      ...pageErrors.map((s) => `page error: ${s}`),
      ...failedRequests.map((s) => `failed request: ${s}`),
    ],
    reset() {
      consoleErrors.length = 0;
      pageErrors.length = 0;
      failedRequests.length = 0;
      erroredDocuments.clear();
    },
  };
}

/**
 * Opens a new page in `context` (or in a fresh context of `browser`) and records its problems
 * with {@link watchPage}.
 *
 * @example
 * ```ts
 * const context = await browser.newContext({ locale: "he-IL" });
 * const { page, all } = await openWatchedPage(context);
 * await page.goto(`${app.url}/he/`);
 * assert.deepEqual(all(), []);
 * await context.close();
 * ```
 */
export async function openWatchedPage(context: BrowserContext | Browser): Promise<WatchedPage> {
  const page = await context.newPage();
  return await watchPage(page);
}
