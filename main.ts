/**
 * Start-up: configuration, client build (when stale), storage, flag seeding, then serve.
 * `deno task start` runs this file.
 *
 * @module
 */
import { loadConfigOrExit } from "./lib/config.ts";
import { ensureBuild } from "./lib/framework/build.ts";
import { loadBuild } from "./lib/framework/assets.ts";
import { createLogger } from "./lib/log.ts";
import { openStore } from "./lib/storage/mod.ts";
import { seedFlags } from "./lib/flags.ts";

const root = new URL(".", import.meta.url).pathname;
Deno.chdir(root);
const log = createLogger();

const config = await loadConfigOrExit();
if (config.appSecretSource === "generated") {
  log.warn("APP_SECRET is not set: generated one and saved it in data/app-secret (development only)");
}

await ensureBuild(root);
await loadBuild(`${root}/_build`);

let store;
try {
  store = await openStore({ databaseUrl: config.databaseUrl, kvPath: config.kvPath });
} catch (e) {
  const setting = config.databaseUrl ? "DATABASE_URL" : "KV_PATH";
  console.error(`Configuration error: ${setting}: storage could not be opened (${(e as Error).message})`);
  Deno.exit(1);
}
await seedFlags(store, config.features);

// The app imports the route manifest, which the build may just have rewritten: import it now.
const { createApp } = await import("./lib/app.ts");
const { createServices } = await import("./lib/services.ts");
const services = await createServices(config, store, log);
const app = createApp(services);
const server = Deno.serve({
  port: config.port,
  onListen: ({ hostname, port }) =>
    log.info("listening", {
      url: `http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}/`,
      storage: store.kind,
      env: config.env,
    }),
}, app.fetch);

// Monthly billing every 15 minutes. Every instance schedules it; a lease in storage lets one run.
const { runBillingPass } = await import("./lib/payments/billing.ts");
const billingPass = () =>
  runBillingPass({
    store,
    provider: services.providerFor(config.publicUrl ?? `http://localhost:${config.port}`),
    log,
    holder: `${Deno.hostname()}-${Deno.pid}`,
  }).then(() => {}, (e) => log.error("billing pass failed", { error: e }));
if (config.env !== "test") {
  if (typeof Deno.cron === "function") Deno.cron("monthly billing", "*/15 * * * *", billingPass);
  else setInterval(billingPass, 15 * 60 * 1000);
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, async () => {
    log.info("shutting down", { signal });
    await server.shutdown();
    await store.close();
    Deno.exit(0);
  });
}
