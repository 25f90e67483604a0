/**
 * `deno task bench:lighthouse`: Lighthouse (npm, under Node) on the donation page in English and
 * Hebrew, a success page of a real sandbox payment, the sign-in page and the back office with
 * seeded data; three runs per page, the median per category (see bench/README.md).
 *
 * Installs `bench/lighthouse/`'s npm packages when they are missing (`npm ci`), seeds a fresh KV
 * store in a temporary folder (`scripts/seed.ts`: an approved admin and 200 transactions), starts
 * the app on it as its own process, pays one donation on the sandbox's card page to get a real
 * success page, and runs `run.mjs` under Node, which prints the table.
 *
 * | variable      | default              |
 * |---------------|----------------------|
 * | `LH_RUNS`     | `3`                  |
 * | `CHROME_PATH` | `/usr/bin/chromium`  |
 * | `LH_REPORTS`  | `bench/lighthouse/reports/` (JSON of every run, HTML of each median run) |
 * | `LH_ONLY`     | all pages; else a comma-separated list of page names (`en,he,success,login,admin`) |
 *
 * @module
 */
import { signPayload } from "@/lib/shared/signing.ts";
import { ROOT, runScript, startAppProcess } from "@/bench/app_process.ts";

const HERE = `${ROOT}/bench/lighthouse`;
const log = (line: string) => console.error(line);

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

async function run(cmd: string, args: string[], options: Deno.CommandOptions = {}): Promise<void> {
  const status = await new Deno.Command(cmd, { args, stdout: "inherit", stderr: "inherit", ...options })
    .spawn().status;
  if (!status.success) throw new Error(`${cmd} ${args.join(" ")} failed (exit ${status.code})`);
}

async function json(
  url: string,
  init?: RequestInit,
): Promise<{ status: number; body: Record<string, string> }> {
  const res = await fetch(url, {
    ...init,
    headers: { "content-type": "application/json", ...init?.headers },
  });
  return { status: res.status, body: await res.json() };
}

/** A one-time donation paid on the sandbox's card page; answers the success page's path and query. */
async function paidDonation(base: string): Promise<string> {
  const donor = await json(`${base}/api/user`, {
    method: "POST",
    body: JSON.stringify({
      firstName: "Dana",
      lastName: "Levi",
      email: "dana@example.org",
      country: "Israel",
    }),
  });
  if (donor.status !== 201) throw new Error(`POST /api/user: ${donor.status} ${JSON.stringify(donor.body)}`);
  const key = await json(`${base}/api/signing-key`);
  const payload = { amount: 100, currency: "nis", userId: donor.body.id, isMonthly: false, language: "en" };
  const created = await json(`${base}/api/payment/create`, {
    method: "POST",
    body: JSON.stringify(await signPayload(payload, { keyId: key.body.keyId, key: key.body.key })),
  });
  if (created.status !== 200) {
    throw new Error(`POST /api/payment/create: ${created.status} ${JSON.stringify(created.body)}`);
  }
  const card = new URLSearchParams({
    cardNumber: "4580 1234 5678 9015",
    expiry: "12/30",
    cvv: "123",
    idNumber: "123456789",
  });
  const page = await fetch(created.body.url, { method: "POST", body: card });
  const html = await page.text();
  const href = html.match(/<a class="button button-primary" href="([^"]+)" target="_top">/)?.[1];
  if (!href) throw new Error(`no return link on the sandbox card page (${page.status})`);
  const back = await fetch(href.replaceAll("&amp;", "&"), { redirect: "manual" });
  await back.body?.cancel();
  const location = new URL(back.headers.get("location") ?? "", base);
  if (!location.pathname.endsWith("/success")) throw new Error(`the payment ended on ${location.href}`);
  return location.pathname + location.search;
}

if (!await exists(`${HERE}/node_modules/lighthouse`)) {
  log("bench/lighthouse: installing its npm packages (npm ci)");
  await run("npm", ["ci", "--no-audit", "--no-fund"], { cwd: HERE });
}

const tmp = await Deno.makeTempDir({ prefix: "bench-lighthouse-" });
const admin = { email: "admin@museum.test", password: `lighthouse-${crypto.randomUUID()}` };
const env = {
  DENO_ENV: "development",
  KV_PATH: `${tmp}/kv.sqlite3`,
  APP_SECRET: crypto.randomUUID() + crypto.randomUUID(),
  FEATURE_MONTHLY_PAYMENT: "1",
};
let app;
try {
  log(`seeding ${env.KV_PATH}`);
  await runScript("scripts/seed.ts", { ...env, SEED_ADMIN_PASSWORD: admin.password, SEED_COUNT: "200" });
  app = await startAppProcess(env, `${tmp}/app.log`);
  log(`app on ${app.url} (log: ${app.logFile})`);
  const success = await paidDonation(app.url);
  const only = (Deno.env.get("LH_ONLY") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const pages = [
    { key: "en", name: "donation (en)", path: "/en/" },
    { key: "he", name: "donation (he)", path: "/he/" },
    { key: "success", name: "success", path: success },
    { key: "login", name: "sign-in", path: "/en/login" },
    { key: "admin", name: "admin", path: "/en/admin", admin: true },
  ].filter((page) => only.length === 0 || only.includes(page.key));
  await run("node", ["run.mjs"], {
    cwd: HERE,
    env: {
      LH_BASE_URL: app.url,
      LH_PAGES: JSON.stringify(pages),
      LH_ADMIN_EMAIL: admin.email,
      LH_ADMIN_PASSWORD: admin.password,
      CHROME_PATH: Deno.env.get("CHROME_PATH") ?? "/usr/bin/chromium",
    },
  });
} finally {
  await app?.close();
  await Deno.remove(tmp, { recursive: true }).catch(() => {});
}
