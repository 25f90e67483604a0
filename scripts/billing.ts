/**
 * `deno task billing:run`: one billing pass over the configured store and provider, then exit.
 * The app also runs passes by itself (Deno.cron every 15 minutes, or an interval where cron is
 * unavailable); running this by hand at the same time is safe.
 *
 * @module
 */
import { loadConfigOrExit } from "@/lib/app/config.ts";
import { createLogger } from "@/lib/core/log.ts";
import { runBillingPass } from "@/lib/monthly_gifts/billing.ts";
import { createProviderFactory } from "@/lib/app/payments.ts";
import { openStore } from "@/lib/storage/mod.ts";

const config = await loadConfigOrExit();
const log = createLogger();
const store = await openStore({ databaseUrl: config.databaseUrl, kvPath: config.kvPath });
try {
  const provider = createProviderFactory(config, store, log)(config.publicUrl ?? "http://localhost");
  const report = await runBillingPass({
    store,
    provider,
    log,
    holder: `cli-${Deno.hostname()}-${Deno.pid}`,
    membershipGraceDays: config.memberships.graceDays,
  });
  if (!report.ran) console.log("another runner holds the billing lease; nothing done");
} finally {
  await store.close();
}
