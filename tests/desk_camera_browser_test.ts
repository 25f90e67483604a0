/**
 * The front desk's scanner may open the camera (issue 28): in Chromium with a fake camera, the desk
 * page (`/{lang}/desk`) gets a video stream, and every other page is refused one by the
 * Permissions-Policy (`camera=()`; the desk's `camera=(self)`, `lib/http/security.ts`). With
 * `camera=()` everywhere, as before, the desk's "Scan with the camera" could never start.
 */
import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import { startTestApp } from "@/tests/helpers/app.ts";
import { browserTest, CHROMIUM_ARGS, chromiumPath } from "@/tests/helpers/browser.ts";
import { api, bearer } from "@/tests/helpers/http.ts";

const OWNER = { name: "Dana Levi", email: "dana.owner@museum.org", password: "ledger-and-ink-2026" };
const DESK = { name: "Avi Door", email: "avi.desk@museum.org", password: "tickets-at-the-door-26" };

browserTest("front desk: the camera opens on the desk page, and on no other page", async () => {
  const app = await startTestApp();
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [...CHROMIUM_ARGS, "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"],
  });
  try {
    const owner = await api(app.url, "POST", "/api/auth/admin/register", OWNER);
    const desk = await api(app.url, "POST", "/api/auth/admin/register", DESK);
    const role = { role: "desk" };
    const approved = await api(
      app.url,
      "POST",
      `/api/auth/admin/${desk.body.id}/approve`,
      role,
      bearer(owner.body.accessToken),
    );
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    const context = await browser.newContext();
    await context.grantPermissions(["camera"], { origin: app.url });
    const page = await context.newPage();
    const camera = () =>
      page.evaluate(async () => {
        try {
          const stream = await navigator.mediaDevices.getUserMedia({ video: true });
          stream.getTracks().forEach((track) => track.stop());
          return "stream";
        } catch (e) {
          return (e as Error).name;
        }
      });
    await page.goto(`${app.url}/en/login`);
    await page.locator("button[type=submit]:not([disabled])").waitFor({ timeout: 15_000 });
    await page.fill("#login-email", DESK.email);
    await page.fill("#login-password", DESK.password);
    await page.click("button[type=submit]");
    await page.waitForURL(`${app.url}/en/admin/desk`, { timeout: 15_000 });
    for (const lang of ["en", "he"]) {
      await page.goto(`${app.url}/${lang}/desk`);
      await page.locator(".desk[data-ready]").waitFor({ timeout: 15_000 });
      assert.equal(await camera(), "stream", `/${lang}/desk`);
      for (const path of [`/${lang}/`, `/${lang}/account`, `/${lang}/kiosk-pair`]) {
        await page.goto(app.url + path);
        await page.waitForLoadState("load");
        assert.equal(await camera(), "NotAllowedError", path);
      }
    }
  } finally {
    await browser.close();
    await app.close();
  }
});
