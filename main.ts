/**
 * Start-up: the scheduled jobs, configuration, client build (when stale), storage, flags, then serve.
 * `deno task start` runs this file.
 *
 * @module
 */
import { loadConfigOrExit } from "@/lib/app/config.ts";
import { ensureBuild } from "@/lib/framework/build.ts";
import { loadBuild } from "@/lib/framework/assets.ts";
import { createLogger } from "@/lib/core/log.ts";
import { openStore } from "@/lib/storage/mod.ts";
import type { Store } from "@/lib/storage/types.ts";
import { seedFlags } from "@/lib/settings/flags.ts";
import { createJobs, JOB_SCHEDULES } from "@/lib/app/scheduled_jobs.ts";

type Jobs = ReturnType<typeof createJobs>;

// The scheduled jobs (lib/app/scheduled_jobs.ts), registered before anything else can fail or wait:
// Deno Deploy finds an app's crons by running its entry point's top level, and takes only those
// registered before the server starts. A run waits until the app is ready.
let jobsReady: (jobs: Jobs) => void = () => {};
const jobs = new Promise<Jobs>((resolve) => jobsReady = resolve);
const hasCron = typeof Deno.cron === "function";
if (hasCron) {
  for (const { name, cron } of JOB_SCHEDULES) Deno.cron(name, cron, async () => await (await jobs)[name]());
}

const root = new URL(".", import.meta.url).pathname;
Deno.chdir(root);
const log = createLogger();

const config = await loadConfigOrExit();
if (config.appSecretSource === "generated") {
  log.warn("APP_SECRET is not set: generated one and saved it in data/app-secret (development only)");
}
for (const warning of config.warnings) log.warn(warning.message, { setting: warning.setting });

await ensureBuild(root);
await loadBuild(`${root}/_build`);

let store: Store;
try {
  store = await openStore({ databaseUrl: config.databaseUrl, kvPath: config.kvPath });
} catch (e) {
  const setting = config.databaseUrl ? "DATABASE_URL" : "KV_PATH";
  console.error(`Configuration error: ${setting}: storage could not be opened (${(e as Error).message})`);
  Deno.exit(1);
}
await seedFlags(store, config.features);
// Flags the configuration decides at every start (in production: no test-terminal payments unless
// FEATURE_TEST_TERMINAL_PAYMENT is on), whatever an earlier run left in storage.
for (const [flag, enabled] of Object.entries(config.enforcedFeatures)) {
  const stored = await store.flags.get(flag);
  if (stored?.enabled !== enabled) {
    await store.flags.set(flag, enabled);
    log.warn("feature flag set by the configuration", { flag, enabled, was: stored?.enabled ?? null });
  }
}

// The app imports the route manifest, which the build may just have rewritten: import it now.
const { createApp } = await import("@/lib/app/app.ts");
const { createServices } = await import("@/lib/app/services.ts");
const { preloadRoutes } = await import("@/lib/framework/server.ts");
const services = await createServices(config, store, log);
const app = createApp(services);

// Tests start this file with DENO_ENV=test: no job does anything there.
const scheduled: Jobs = config.env === "test"
  ? {
    "monthly billing": async () => {},
    "reconcile payments": async () => {},
    "retention sweep": async () => {},
    "yearly statements": async () => {},
    "sign-in summaries": async () => {},
    "membership renewals": async () => {},
  }
  : createJobs({
    // The services' store: messages the jobs enqueue (billing) wake this instance's sender.
    store: services.store,
    provider: services.providerFor(config.publicUrl ?? `http://localhost:${config.port}`),
    log,
    holder: `${Deno.hostname()}-${Deno.pid}`,
    rateLimits: config.rateLimits,
    membershipGraceDays: config.memberships.graceDays,
    membershipReminderDays: config.memberships.reminderDays,
    enqueueMessage: services.enqueueMessage,
  });
jobsReady(scheduled);
if (!hasCron && config.env !== "test") {
  for (const { name, everyMs } of JOB_SCHEDULES) setInterval(scheduled[name], everyMs);
}

const server = Deno.serve({
  port: config.port,
  hostname: config.listenHost,
  onListen: ({ hostname, port }) =>
    log.info("listening", {
      url: `http://${
        hostname === "0.0.0.0" || hostname === "::"
          ? "localhost"
          : hostname.includes(":")
          ? `[${hostname}]`
          : hostname
      }:${port}/`,
      storage: store.kind,
      env: config.env,
    }),
}, app.fetch);
// Route modules load on their first request (manifest.lazy.gen.ts). The donor pages' are loaded
// in the background: `/{lang}/` now, the others a second later, so that loading them does not
// hold up the first requests; the API and the back office load when first asked for.
preloadRoutes(app, (file) => file === "[lang]/index.tsx").then(() =>
  setTimeout(() => preloadRoutes(app, (file) => file.startsWith("[lang]/")), 1000)
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, async () => {
    log.info("shutting down", { signal });
    await server.shutdown();
    await services.mail.sender?.stop();
    await services.passwords.close();
    await services.receiptPdfs.close();
    await services.memberCards.close();
    await store.close();
    Deno.exit(0);
  });
}
