/**
 * The admin sign-in and register pages in Chromium, in English and Hebrew (right to left): every
 * validation message on blur and on submit with its ARIA wiring and focus, the busy texts while the
 * call runs, the password show/hide toggles, the server's refusals worded by the spec's section 8
 * catalogue (made up with `page.route`, and the real server's own), success into `/{lang}/admin`
 * with the three stored items, the signed-in redirect, the submit button that waits for the
 * island, and axe on all four pages in their states.
 *
 * The back office itself (`/{lang}/admin`) is answered by a stub document here: these tests check
 * where the forms send the admin and what they store, not the dashboard.
 */
import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import type { Browser, BrowserContext, Page, Route } from "playwright-core";
import en from "@/locales/en.json" with { type: "json" };
import he from "@/locales/he.json" with { type: "json" };
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, type WatchedPage, watchPage } from "@/tests/helpers/browser.ts";
import { api, bearer } from "@/tests/helpers/http.ts";

const LANGS = ["en", "he"] as const;
type Lang = typeof LANGS[number];
type Mode = "login" | "register";
const LOCALES: Record<Lang, Record<string, unknown>> = { en, he };
/** How long one wait may take before the test fails, in ms. */
const WAIT = 15_000;
/** Not among the 1,000 most common passwords. */
const PASSWORD = "violet-harbor-lantern";
const SUBMIT = "form.account-form button[type=submit]";
const ALERT = 'form.account-form .form-alert[role="alert"]';

/** The text of `key` in `locales/{lang}.json` with `{{params}}` filled; fails when missing. */
function text(lang: Lang, key: string, params: Record<string, string | number> = {}): string {
  const value = key.split(".").reduce<unknown>(
    (o, k) => (o as Record<string, unknown> | undefined)?.[k],
    LOCALES[lang],
  );
  assert.equal(typeof value, "string", `locales/${lang}.json has ${key}`);
  if (lang !== "en") assert.notEqual(value, text("en", key), `${lang}:${key} is translated`);
  return (value as string).replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(params[name]));
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Reads until it answers `want` (or the wait runs out, then fails showing the last answer). */
async function eventually<T>(read: () => Promise<T>, want: T, what: string): Promise<void> {
  const end = Date.now() + WAIT;
  let got = await read();
  while (!isDeepStrictEqual(got, want) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    got = await read();
  }
  assert.deepEqual(got, want, what);
}

async function newContext(browser: Browser, lang: Lang, options: { javaScriptEnabled?: boolean } = {}) {
  const context = await browser.newContext({
    bypassCSP: true, // lets axe be injected
    locale: lang === "he" ? "he-IL" : "en-US",
    ...options,
  });
  context.setDefaultTimeout(WAIT);
  return context;
}

/** Answers `/{lang}/admin` with a stub page (see the module doc). */
async function stubAdmin(context: BrowserContext, app: TestApp) {
  await context.route(new RegExp(`^${app.url}/(en|he)/admin$`), (route) =>
    route.fulfill({
      status: 200,
      contentType: "text/html; charset=utf-8",
      body:
        '<!DOCTYPE html><html lang="en"><title>Back office (stub)</title><h1>Back office (stub)</h1></html>',
    }));
}

/** Opens `/{lang}/{mode}`, checks language and direction, and waits for the island to run. */
async function openForm(context: BrowserContext, app: TestApp, lang: Lang, mode: Mode): Promise<WatchedPage> {
  const page = await context.newPage();
  const watched = await watchPage(page);
  const res = await page.goto(`${app.url}/${lang}/${mode}`);
  assert.equal(res?.status(), 200);
  assert.equal(await page.getAttribute("html", "lang"), lang);
  assert.equal(await page.getAttribute("html", "dir"), lang === "he" ? "rtl" : "ltr");
  await hydrated(page);
  return watched;
}

/** The island has run: the submit button is enabled. */
async function hydrated(page: Page) {
  await page.waitForSelector(`${SUBMIT}:not([disabled])`);
}

/** What a field shows: its aria-invalid, the text its aria-describedby points at, and its message. */
function fieldState(page: Page, id: string) {
  return page.evaluate((id) => {
    const input = document.getElementById(id)!;
    const describedBy = input.getAttribute("aria-describedby");
    const error = document.getElementById(`${id}-error`);
    return {
      invalid: input.getAttribute("aria-invalid"),
      describedBy: describedBy === null
        ? null
        : document.getElementById(describedBy)?.textContent ?? "(dangling)",
      message: error && error.checkVisibility() ? error.textContent : null,
    };
  }, id);
}

const ok = { invalid: null, describedBy: null, message: null };
const problem = (message: string) => ({ invalid: "true", describedBy: message, message });

async function expectField(
  page: Page,
  id: string,
  want: ReturnType<typeof problem> | typeof ok,
  what: string,
) {
  await eventually(() => fieldState(page, id), want, `${id}: ${what}`);
}

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? null);

/** Submits with the keyboard on the button (a click could land after a message moved the button). */
async function submit(page: Page) {
  await page.locator(SUBMIT).press("Enter");
}

/** The lines of the form's error area. */
const alertLines = (page: Page) => page.locator(`${ALERT} p`).allTextContents();

/** Counts the calls the page makes to the sign-in and register API. */
function countAuthCalls(page: Page) {
  const seen: string[] = [];
  page.on("request", (req) => {
    if (/\/api\/auth\/admin\/(login|register)$/.test(req.url())) seen.push(req.url());
  });
  return seen;
}

/** Problems other than the ones a refused API call causes on purpose. */
const unexpectedProblems = (watched: WatchedPage) =>
  watched.all().filter((line) => !/\/api\/auth\/admin\/(login|register)\b/.test(line));

// ---- validation -----------------------------------------------------------------------------

async function loginValidation(app: TestApp, context: BrowserContext, lang: Lang) {
  const watched = await openForm(context, app, lang, "login");
  const { page } = watched;
  const calls = countAuthCalls(page);
  const t = (key: string) => text(lang, key);
  assert.equal((await page.textContent("h1"))?.trim(), t("login.heading"));
  assert.equal(await page.textContent('label[for="login-email"]'), t("login.email"));
  assert.equal(await page.textContent('label[for="login-password"]'), t("login.password"));
  assert.equal(await page.textContent(SUBMIT), t("login.submit"));
  assert.equal(await page.getAttribute(".account-switch a", "href"), `/${lang}/register`);
  assert.equal(await page.textContent(".account-switch a"), t("login.registerLink"));
  await expectField(page, "login-email", ok, "nothing shown before a blur");

  // On submit: every message, and the first invalid field takes focus.
  await submit(page);
  await expectField(page, "login-email", problem(t("login.emailRequired")), "submit, empty");
  await expectField(page, "login-password", problem(t("login.passwordRequired")), "submit, empty");
  assert.equal(await focusedId(page), "login-email");

  // On blur, each rule in turn; a shown message clears as soon as the field is right.
  await page.fill("#login-email", "   ");
  await page.press("#login-email", "Tab");
  await expectField(page, "login-email", problem(t("login.emailRequired")), "whitespace only");
  for (const bad of ["dana", "dana@museum", "dana@museum.", "da na@museum.org"]) {
    await page.fill("#login-email", bad);
    await page.press("#login-email", "Tab");
    await expectField(page, "login-email", problem(t("login.emailInvalid")), bad);
  }
  await page.fill("#login-email", "dana@museum.org");
  await expectField(page, "login-email", ok, "fixed while typing");

  await page.fill("#login-password", "12345");
  await page.press("#login-password", "Tab");
  await expectField(page, "login-password", problem(t("login.passwordMinLength")), "5 characters");
  await page.fill("#login-password", "a".repeat(129));
  await expectField(page, "login-password", problem(t("login.passwordMaxLength")), "129 characters");
  await page.fill("#login-password", "");
  await expectField(page, "login-password", problem(t("login.passwordRequired")), "emptied");
  await page.fill("#login-password", "123456");
  await expectField(page, "login-password", ok, "6 characters");

  // The first invalid field, not the first field, takes focus.
  await page.fill("#login-password", "\u{1F600}".repeat(5)); // five emoji: five characters
  await submit(page);
  await expectField(page, "login-password", problem(t("login.passwordMinLength")), "five emoji");
  assert.equal(await focusedId(page), "login-password");
  await expectField(page, "login-email", ok, "still good");

  assert.deepEqual(calls, [], "nothing was sent while the form had problems");
  assert.deepEqual(watched.all(), []);
  await page.close();
}

async function registerValidation(app: TestApp, context: BrowserContext, lang: Lang) {
  const watched = await openForm(context, app, lang, "register");
  const { page } = watched;
  const calls = countAuthCalls(page);
  const t = (key: string) => text(lang, key);
  assert.equal((await page.textContent("h1"))?.trim(), t("register.heading"));
  for (
    const [id, key] of [
      ["register-name", "register.name"],
      ["register-email", "login.email"],
      ["register-password", "login.password"],
      ["register-confirm", "register.confirm"],
    ]
  ) {
    assert.equal(await page.textContent(`label[for="${id}"]`), t(key));
  }
  assert.equal(await page.textContent(SUBMIT), t("register.submit"));
  assert.equal(await page.getAttribute(".account-switch a", "href"), `/${lang}/login`);
  assert.equal(await page.textContent(".account-switch a"), t("register.loginLink"));

  await submit(page);
  await expectField(page, "register-name", problem(t("register.nameRequired")), "submit, empty");
  await expectField(page, "register-email", problem(t("login.emailRequired")), "submit, empty");
  await expectField(page, "register-password", problem(t("login.passwordRequired")), "submit, empty");
  await expectField(page, "register-confirm", problem(t("register.confirmRequired")), "submit, empty");
  assert.equal(await focusedId(page), "register-name");

  await page.fill("#register-name", " A ");
  await page.press("#register-name", "Tab");
  await expectField(page, "register-name", problem(t("register.nameMinLength")), "one letter");
  await page.fill("#register-name", "Al");
  await expectField(page, "register-name", ok, "two letters");

  await page.fill("#register-email", "dana@");
  await page.press("#register-email", "Tab");
  await expectField(page, "register-email", problem(t("login.emailInvalid")), "dana@");
  await page.fill("#register-email", "dana@museum.org");
  await expectField(page, "register-email", ok, "fixed");

  await page.fill("#register-password", "12345");
  await page.press("#register-password", "Tab");
  await expectField(page, "register-password", problem(t("login.passwordMinLength")), "5 characters");
  await page.fill("#register-password", PASSWORD);
  await expectField(page, "register-password", ok, "fixed");

  await page.fill("#register-confirm", "");
  await page.press("#register-confirm", "Tab");
  await expectField(page, "register-confirm", problem(t("register.confirmRequired")), "empty");
  await page.fill("#register-confirm", `${PASSWORD}!`);
  await page.press("#register-confirm", "Tab");
  await expectField(page, "register-confirm", problem(t("register.passwordsDoNotMatch")), "different");
  // Changing the password to match clears the confirmation's message.
  await page.fill("#register-password", `${PASSWORD}!`);
  await expectField(page, "register-confirm", ok, "password changed to match");

  // The first invalid field takes focus on submit.
  await page.fill("#register-email", "dana@museum");
  await submit(page);
  await expectField(page, "register-email", problem(t("login.emailInvalid")), "submit");
  assert.equal(await focusedId(page), "register-email");
  for (const id of ["register-name", "register-password", "register-confirm"]) {
    await expectField(page, id, ok, "still good");
  }

  assert.deepEqual(calls, [], "nothing was sent while the form had problems");
  assert.deepEqual(watched.all(), []);
  await page.close();
}

/** A toggle's state: the input's type, its label (which says what it does), and no aria-pressed. */
async function toggleState(page: Page, id: string) {
  const toggle = page.locator(`#${id} + button.password-toggle`);
  return {
    type: await page.getAttribute(`#${id}`, "type"),
    pressed: await toggle.getAttribute("aria-pressed"),
    label: await toggle.textContent(),
  };
}

async function passwordToggles(app: TestApp, context: BrowserContext, lang: Lang) {
  const t = (key: string) => text(lang, key);
  {
    const watched = await openForm(context, app, lang, "login");
    const { page } = watched;
    await page.fill("#login-password", "secret-words");
    const hidden = { type: "password", pressed: null, label: t("login.showPassword") };
    const shown = { type: "text", pressed: null, label: t("login.hidePassword") };
    assert.deepEqual(await toggleState(page, "login-password"), hidden);
    await page.click("#login-password + button.password-toggle");
    assert.deepEqual(await toggleState(page, "login-password"), shown);
    assert.equal(await page.inputValue("#login-password"), "secret-words", "the value survives");
    await page.click("#login-password + button.password-toggle");
    assert.deepEqual(await toggleState(page, "login-password"), hidden);
    // The toggle is a button of its own: it does not submit the form.
    assert.deepEqual(await alertLines(page), []);
    assert.deepEqual(watched.all(), []);
    await page.close();
  }
  {
    const watched = await openForm(context, app, lang, "register");
    const { page } = watched;
    const password = {
      hidden: { type: "password", pressed: null, label: t("login.showPassword") },
      shown: { type: "text", pressed: null, label: t("login.hidePassword") },
    };
    const confirm = {
      hidden: { type: "password", pressed: null, label: t("register.showConfirm") },
      shown: { type: "text", pressed: null, label: t("register.hideConfirm") },
    };
    assert.deepEqual(await toggleState(page, "register-password"), password.hidden);
    assert.deepEqual(await toggleState(page, "register-confirm"), confirm.hidden);
    await page.click("#register-confirm + button.password-toggle");
    assert.deepEqual(await toggleState(page, "register-confirm"), confirm.shown);
    assert.deepEqual(await toggleState(page, "register-password"), password.hidden, "each toggle is its own");
    await page.click("#register-password + button.password-toggle");
    assert.deepEqual(await toggleState(page, "register-password"), password.shown);
    await page.click("#register-confirm + button.password-toggle");
    assert.deepEqual(await toggleState(page, "register-confirm"), confirm.hidden);
    assert.deepEqual(await toggleState(page, "register-password"), password.shown);
    await page.click("#register-password + button.password-toggle");
    assert.deepEqual(await toggleState(page, "register-password"), password.hidden);
    assert.deepEqual(watched.all(), []);
    await page.close();
  }
}

for (const lang of LANGS) {
  browserTest(
    `admin sign-in and register (${lang}): every validation message, and the password toggles`,
    async (t) => {
      const app = await startTestApp();
      let browser: Browser | undefined;
      try {
        browser = await launchBrowser();
        const context = await newContext(browser, lang);
        await t.step("login: on blur and on submit", () => loginValidation(app, context, lang));
        await t.step("register: on blur and on submit", () => registerValidation(app, context, lang));
        await t.step("show/hide on every password field", () => passwordToggles(app, context, lang));
        await context.close();
      } finally {
        await browser?.close();
        await app.close();
      }
    },
  );
}

// ---- server errors --------------------------------------------------------------------------

type Answer = (route: Route) => Promise<void>;

const fulfill = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => (route) =>
  route.fulfill({ status, contentType: "application/json", body: JSON.stringify(body), headers });

/** Routes `/api/auth/admin/{mode}` to whatever `answer` is at the time of the call. */
async function scriptedApi(page: Page, mode: Mode) {
  const script: { answer: Answer | null } = { answer: null };
  await page.route(
    `**/api/auth/admin/${mode}`,
    (route) => script.answer ? script.answer(route) : route.continue(),
  );
  return script;
}

async function fillLogin(page: Page, email: string, password: string) {
  await page.fill("#login-email", email);
  await page.fill("#login-password", password);
}

async function fillRegister(page: Page, who: { name: string; email: string; password: string }) {
  await page.fill("#register-name", who.name);
  await page.fill("#register-email", who.email);
  await page.fill("#register-password", who.password);
  await page.fill("#register-confirm", who.password);
}

/** Submits and waits for the error area to say `lines`; the button is back to its idle text. */
async function expectRefusal(page: Page, mode: Mode, lang: Lang, lines: string[], what: string) {
  await submit(page);
  await eventually(() => alertLines(page), lines, `${lang} ${mode}: ${what}`);
  assert.equal(
    await page.textContent(SUBMIT),
    text(lang, mode === "login" ? "login.submit" : "register.submit"),
  );
  assert.ok(await page.isEnabled(SUBMIT), `${what}: the button is usable again`);
  assert.match(new URL(page.url()).pathname, new RegExp(`^/${lang}/${mode}$`), `${what}: still on the form`);
}

const storedSession = (page: Page) =>
  page.evaluate(() => ({
    accessToken: localStorage.getItem("accessToken"),
    refreshToken: localStorage.getItem("refreshToken"),
    admin: localStorage.getItem("admin"),
  }));
const NOTHING_STORED = { accessToken: null, refreshToken: null, admin: null };

async function loginErrors(app: TestApp, context: BrowserContext, lang: Lang, email: string) {
  const t = (key: string, params?: Record<string, string | number>) => text(lang, key, params);
  const watched = await openForm(context, app, lang, "login");
  const { page } = watched;
  const script = await scriptedApi(page, "login");
  await fillLogin(page, email, PASSWORD);
  const cases: [string, Answer, string[]][] = [
    ["401", fulfill(401, { statusCode: 401, message: "Invalid credentials" }), [
      t("apiErrors.invalidCredentials"),
      t("login.invalidEmailOrPassword"),
    ]],
    ["400", fulfill(400, { statusCode: 400, message: "email is not a valid email address" }), [
      t("apiErrors.invalidData"),
      t("apiErrors.checkInput"),
    ]],
    ["500", fulfill(500, { statusCode: 500, message: "Internal Server Error" }), [t("apiErrors.server")]],
    [
      "503 from a proxy",
      (route) => route.fulfill({ status: 503, contentType: "text/html", body: "<h1>down</h1>" }),
      [
        t("apiErrors.server"),
      ],
    ],
    ["a network failure", (route) => route.abort("internetdisconnected"), [t("apiErrors.network")]],
    ["a 200 without the tokens", fulfill(200, { id: "x", email, name: "Ana", status: "approved" }), [
      t("apiErrors.invalidResponse"),
    ]],
    [
      "a 200 with only the access token",
      fulfill(200, { id: "x", email, name: "Ana", accessToken: "a.b.c" }),
      [
        t("apiErrors.invalidResponse"),
      ],
    ],
    [
      "429 with Retry-After",
      fulfill(429, { statusCode: 429, message: "Too many" }, { "retry-after": "241" }),
      [
        t("apiErrors.tooManyAttempts", { minutes: 5 }),
      ],
    ],
    ["429 without Retry-After", fulfill(429, { statusCode: 429, message: "Too many" }), [
      t("apiErrors.tooManyAttempts", { minutes: 15 }),
    ]],
    ["403", fulfill(403, { statusCode: 403, message: "not approved" }), [t("login.notApproved")]],
    ["another status with a message", fulfill(418, { statusCode: 418, message: "The kettle is busy" }), [
      "The kettle is busy",
    ]],
    ["another status without one", fulfill(418, {}), [t("apiErrors.unexpected")]],
  ];
  for (const [what, answer, lines] of cases) {
    script.answer = answer;
    await expectRefusal(page, "login", lang, lines, what);
    assert.deepEqual(await storedSession(page), NOTHING_STORED, `${what}: nothing stored`);
  }

  // A new attempt clears the old message while it runs.
  const gate = deferred();
  script.answer = async (route) => {
    await gate.promise;
    await fulfill(500, {})(route);
  };
  await submit(page);
  await page.locator(SUBMIT, { hasText: t("login.signingIn") }).waitFor();
  assert.deepEqual(await alertLines(page), [], "the previous message is gone while signing in");
  gate.resolve();
  await eventually(() => alertLines(page), [t("apiErrors.server")], "after the held call");

  // The real server: a wrong password.
  script.answer = null;
  await fillLogin(page, email, `${PASSWORD}-wrong`);
  await expectRefusal(page, "login", lang, [
    t("apiErrors.invalidCredentials"),
    t("login.invalidEmailOrPassword"),
  ], "real 401");
  assert.deepEqual(await storedSession(page), NOTHING_STORED);
  assert.deepEqual(unexpectedProblems(watched), []);
  await page.close();
}

async function registerErrors(app: TestApp, context: BrowserContext, lang: Lang, takenEmail: string) {
  const t = (key: string) => text(lang, key);
  const watched = await openForm(context, app, lang, "register");
  const { page } = watched;
  const script = await scriptedApi(page, "register");
  await fillRegister(page, { name: "Ana Curator", email: `new-${lang}@museum.org`, password: PASSWORD });
  const cases: [string, Answer, string[]][] = [
    ["401", fulfill(401, { statusCode: 401, message: "Invalid credentials" }), [
      t("apiErrors.invalidCredentials"),
    ]],
    ["400", fulfill(400, { statusCode: 400, message: "name must be at least 2 characters" }), [
      t("apiErrors.invalidData"),
      t("apiErrors.checkInput"),
    ]],
    ["500", fulfill(500, {}), [t("apiErrors.server")]],
    ["a network failure", (route) => route.abort("failed"), [t("apiErrors.network")]],
    ["a 201 without the tokens", fulfill(201, { id: "x", email: "a@b.org", name: "Ana" }), [
      t("apiErrors.invalidResponse"),
    ]],
    ["403 (registration closed)", fulfill(403, { statusCode: 403, message: "closed" }), [
      t("register.closed"),
    ]],
  ];
  for (const [what, answer, lines] of cases) {
    script.answer = answer;
    await expectRefusal(page, "register", lang, lines, what);
  }

  // The real server: a taken email (any case), then a password from the common list.
  script.answer = null;
  await fillRegister(page, { name: "Ana Curator", email: takenEmail.toUpperCase(), password: PASSWORD });
  await expectRefusal(page, "register", lang, [t("register.emailTaken")], "real 409");
  await fillRegister(page, { name: "Ana Curator", email: `other-${lang}@museum.org`, password: "password1" });
  await expectRefusal(
    page,
    "register",
    lang,
    [t("register.passwordRejected")],
    "real 400, a common password",
  );
  assert.equal(await app.store.admins.getByEmail(`other-${lang}@museum.org`), null, "nobody was registered");
  assert.deepEqual(await storedSession(page), NOTHING_STORED);
  assert.deepEqual(unexpectedProblems(watched), []);
  await page.close();
}

for (const lang of LANGS) {
  browserTest(
    `admin sign-in and register (${lang}): the server's refusals, worded by the catalogue`,
    async (t) => {
      const app = await startTestApp();
      let browser: Browser | undefined;
      try {
        const email = `curator-${lang}@museum.org`;
        const made = await api(app.url, "POST", "/api/auth/admin/register", {
          email,
          password: PASSWORD,
          name: "Ana",
        });
        assert.equal(made.status, 201);
        browser = await launchBrowser();
        const context = await newContext(browser, lang);
        await stubAdmin(context, app);
        await t.step("login", () => loginErrors(app, context, lang, email));
        await t.step("register", () => registerErrors(app, context, lang, email));
        await context.close();
      } finally {
        await browser?.close();
        await app.close();
      }
    },
  );
}

browserTest("admin sign-in (en, he): the real throttle's 429 says how long to wait", async () => {
  const app = await startTestApp();
  let browser: Browser | undefined;
  try {
    const email = "throttled@museum.org";
    assert.equal(
      (await api(app.url, "POST", "/api/auth/admin/register", { email, password: PASSWORD })).status,
      201,
    );
    // Five failures from this address (the browser's too) within the window.
    for (let i = 0; i < 5; i++) {
      const res = await api(app.url, "POST", "/api/auth/admin/login", {
        email,
        password: `${PASSWORD}-${i}`,
      });
      assert.equal(res.status, 401);
    }
    browser = await launchBrowser();
    for (const lang of LANGS) {
      const context = await newContext(browser, lang);
      const watched = await openForm(context, app, lang, "login");
      await fillLogin(watched.page, email, PASSWORD);
      // The window is 15 minutes; a second or two has passed, which still rounds up to 15.
      await expectRefusal(watched.page, "login", lang, [
        text(lang, "apiErrors.tooManyAttempts", { minutes: 15 }),
      ], "429");
      assert.deepEqual(unexpectedProblems(watched), []);
      await context.close();
    }
  } finally {
    await browser?.close();
    await app.close();
  }
});

// ---- success --------------------------------------------------------------------------------

/** The three stored items make a session the server accepts, for `email`. */
async function assertSignedIn(app: TestApp, page: Page, email: string, name: string) {
  const stored = await storedSession(page);
  assert.ok(stored.accessToken, "accessToken stored");
  assert.ok(stored.refreshToken, "refreshToken stored");
  const admin = JSON.parse(stored.admin ?? "null");
  assert.equal(admin?.email, email);
  assert.equal(admin?.name, name);
  assert.ok(admin?.id, "the profile's id");
  const me = await api(app.url, "GET", "/api/auth/admin/me", undefined, bearer(stored.accessToken!));
  assert.equal(me.status, 200, "the stored access token is a real one");
  assert.equal(me.body.email, email);
  const refreshed = await api(app.url, "POST", "/api/auth/admin/refresh", {
    refreshToken: stored.refreshToken,
  });
  assert.equal(refreshed.status, 200, "the stored refresh token is a real one");
}

/** Records every request URL of the context, to look for a password in one. */
function recordUrls(context: BrowserContext) {
  const urls: string[] = [];
  context.on("request", (req) => urls.push(req.url()));
  return urls;
}

async function registerSuccess(app: TestApp, context: BrowserContext, lang: Lang) {
  const t = (key: string) => text(lang, key);
  const who = {
    name: lang === "he" ? "ענת כהן" : "Ana Curator",
    email: `ana-${lang}@museum.org`,
    password: PASSWORD,
  };
  const urls = recordUrls(context);
  const watched = await openForm(context, app, lang, "register");
  const { page } = watched;
  const gate = deferred();
  const sent: unknown[] = [];
  await page.route("**/api/auth/admin/register", async (route) => {
    sent.push(route.request().postDataJSON());
    await gate.promise;
    await route.continue();
  });
  await fillRegister(page, { ...who, name: `  ${who.name} `, email: ` ${who.email.toUpperCase()}` });
  await submit(page);
  const busy = page.locator(SUBMIT, { hasText: t("register.creating") });
  await busy.waitFor();
  assert.equal(await busy.textContent(), t("register.creating"));
  assert.ok(await busy.isDisabled(), "no second submit while creating");
  gate.resolve();
  await page.waitForURL(`${app.url}/${lang}/admin`);
  // The name is sent (trimmed), with the email and the password; the confirmation is not.
  assert.deepEqual(sent, [{ name: who.name, email: who.email.toUpperCase(), password: PASSWORD }]);
  await assertSignedIn(app, page, who.email, who.name);
  assert.equal((await app.store.admins.getByEmail(who.email))?.name, who.name);
  assert.deepEqual(watched.all(), []);
  assert.deepEqual(
    urls.filter((u) => u.includes(PASSWORD) || /password=/i.test(u)),
    [],
    "no password in a URL",
  );
  await page.close();
}

async function loginSuccess(app: TestApp, context: BrowserContext, lang: Lang) {
  const t = (key: string) => text(lang, key);
  const email = `login-${lang}@museum.org`;
  const made = await api(app.url, "POST", "/api/auth/admin/register", {
    email,
    password: PASSWORD,
    name: "Dana Levi",
  });
  assert.equal(made.status, 201);
  const urls = recordUrls(context);
  const watched = await openForm(context, app, lang, "login");
  const { page } = watched;
  const gate = deferred();
  const sent: unknown[] = [];
  await page.route("**/api/auth/admin/login", async (route) => {
    sent.push(route.request().postDataJSON());
    await gate.promise;
    await route.continue();
  });
  await fillLogin(page, `  ${email}  `, PASSWORD);
  // Enter in the password field submits, as in any form.
  await page.press("#login-password", "Enter");
  const busy = page.locator(SUBMIT, { hasText: t("login.signingIn") });
  await busy.waitFor();
  assert.equal(await busy.textContent(), t("login.signingIn"));
  assert.ok(await busy.isDisabled());
  gate.resolve();
  await page.waitForURL(`${app.url}/${lang}/admin`);
  assert.deepEqual(sent, [{ email, password: PASSWORD }]);
  await assertSignedIn(app, page, email, "Dana Levi");
  assert.deepEqual(watched.all(), []);
  assert.deepEqual(
    urls.filter((u) => u.includes(PASSWORD) || /password=/i.test(u)),
    [],
    "no password in a URL",
  );

  // Signed in, the sign-in and register pages replace themselves with the back office.
  for (const mode of ["login", "register"] as const) {
    await page.goto(`${app.url}/${lang}/`);
    await page.goto(`${app.url}/${lang}/${mode}`);
    await page.waitForURL(`${app.url}/${lang}/admin`);
    await page.goBack();
    await page.waitForURL(`${app.url}/${lang}/`);
    assert.equal(new URL(page.url()).pathname, `/${lang}/`, `${mode}: replaced, not pushed onto history`);
  }
  await page.close();
}

for (const lang of LANGS) {
  browserTest(`admin sign-in and register (${lang}): the busy texts, then into /${lang}/admin`, async (t) => {
    const app = await startTestApp();
    let browser: Browser | undefined;
    try {
      browser = await launchBrowser();
      for (const [name, flow] of [["register", registerSuccess], ["login", loginSuccess]] as const) {
        await t.step(name, async () => {
          const context = await newContext(browser!, lang);
          await stubAdmin(context, app);
          try {
            await flow(app, context, lang);
          } finally {
            await context.close();
          }
        });
      }
    } finally {
      await browser?.close();
      await app.close();
    }
  });
}

// ---- before the island runs -----------------------------------------------------------------

browserTest(
  "admin sign-in: the submit button waits for the island, and what was typed before it is kept",
  async (t) => {
    const app = await startTestApp();
    let browser: Browser | undefined;
    try {
      const email = "early@museum.org";
      assert.equal(
        (await api(app.url, "POST", "/api/auth/admin/register", { email, password: PASSWORD })).status,
        201,
      );
      browser = await launchBrowser();

      await t.step("with the island held back, Enter sends nothing anywhere", async () => {
        const context = await newContext(browser!, "en");
        await stubAdmin(context, app);
        const urls = recordUrls(context);
        const page = await context.newPage();
        const watched = await watchPage(page);
        const gate = deferred();
        await page.route("**/_app/AccountForm-*.js", async (route) => {
          await gate.promise;
          await route.continue();
        });
        await page.goto(`${app.url}/en/login`, { waitUntil: "commit" });
        await page.waitForSelector("#login-password");
        assert.ok(await page.isDisabled(SUBMIT), "disabled in the server's HTML");
        await page.fill("#login-email", email);
        await page.fill("#login-password", PASSWORD);
        await page.press("#login-password", "Enter");
        await page.waitForTimeout(300);
        assert.equal(page.url(), `${app.url}/en/login`);
        assert.deepEqual(
          urls.filter((u) =>
            u.includes(PASSWORD) || /password=|\/api\/auth/.test(u) || u.endsWith("/en/login?")
          ),
          [],
        );

        gate.resolve();
        await hydrated(page);
        assert.equal(await page.inputValue("#login-email"), email, "the email typed early is kept");
        assert.equal(await page.inputValue("#login-password"), PASSWORD, "the password typed early is kept");
        await submit(page);
        await page.waitForURL(`${app.url}/en/admin`);
        await assertSignedIn(app, page, email, "early");
        assert.deepEqual(watched.all(), []);
        await context.close();
      });

      await t.step("without JavaScript: a disabled button and a note", async () => {
        const context = await newContext(browser!, "en", { javaScriptEnabled: false });
        const page = await context.newPage();
        for (const mode of ["login", "register"] as const) {
          await page.goto(`${app.url}/en/${mode}`);
          assert.ok(await page.isDisabled(SUBMIT), `${mode}: disabled`);
          // (Playwright's getByText does not look inside <noscript>.)
          const note = page.locator("noscript p.form-alert");
          assert.equal(await note.textContent(), text("en", "login.noscript"));
          assert.ok(await note.isVisible(), `${mode}: the note`);
          assert.equal(await page.getAttribute("form.account-form", "method"), "post", "never a GET form");
        }
        await context.close();
      });
    } finally {
      await browser?.close();
      await app.close();
    }
  },
);

// ---- accessibility --------------------------------------------------------------------------

browserTest(
  "admin sign-in and register (en, he): axe finds nothing, with messages and a server error shown",
  async (t) => {
    const app = await startTestApp();
    let browser: Browser | undefined;
    try {
      browser = await launchBrowser();
      for (const lang of LANGS) {
        for (const mode of ["login", "register"] as const) {
          await t.step(`/${lang}/${mode}`, async () => {
            const context = await newContext(browser!, lang);
            try {
              const watched = await openForm(context, app, lang, mode);
              const { page } = watched;
              const path = `/${lang}/${mode}`;
              await assertAxeClean(page, `${path}: as loaded`);

              await submit(page);
              await page.locator(".field-error").first().waitFor();
              assert.equal(await page.locator(".field-error").count(), mode === "login" ? 2 : 4);
              await assertAxeClean(page, `${path}: with every validation message`);

              const script = await scriptedApi(page, mode);
              script.answer = fulfill(500, {});
              if (mode === "login") await fillLogin(page, "ana@museum.org", PASSWORD);
              else await fillRegister(page, { name: "Ana", email: "ana@museum.org", password: PASSWORD });
              await page.click(`#${mode}-password + button.password-toggle`);
              await expectRefusal(page, mode, lang, [text(lang, "apiErrors.server")], "500");
              await assertAxeClean(page, `${path}: with a server error and the password shown`);
              assert.deepEqual(unexpectedProblems(watched), []);
            } finally {
              await context.close();
            }
          });
        }
      }
    } finally {
      await browser?.close();
      await app.close();
    }
  },
);
