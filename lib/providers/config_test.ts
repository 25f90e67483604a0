import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "@/lib/app/config.ts";

const SECRET = "s".repeat(32);
const tempDir = () => Deno.makeTempDir({ prefix: "config-payments-" });

Deno.test("payment settings: defaults and bad values", async () => {
  const dataDir = await tempDir();
  const config = await loadConfig({ APP_SECRET: SECRET }, { dataDir });
  assert.equal(config.payments.provider, "sandbox");
  assert.equal(config.payments.maxAmount, 100000);
  assert.deepEqual(config.payments.testTerminals, ["1001", "1002", "1003"]);
  assert.equal(config.payments.terminalDeadlineMs, 60_000);
  assert.equal(config.payments.sandboxTerminal, "manual");
  const set = await loadConfig({
    APP_SECRET: SECRET,
    TERMINALS: "12:pp-1, 7:pp-2",
    SANDBOX_TERMINAL_AUTO: "decline:004",
  }, {
    dataDir,
  });
  assert.deepEqual([...set.payments.terminals], [["12", "pp-1"], ["7", "pp-2"]]);
  assert.equal(set.payments.sandboxTerminal, "decline:004");
  const bad: [Record<string, string>, string][] = [
    [{ PAYMENT_PROVIDER: "stripe" }, "PAYMENT_PROVIDER"],
    [{ MAX_PAYMENT_AMOUNT: "0" }, "MAX_PAYMENT_AMOUNT"],
    [{ MAX_PAYMENT_AMOUNT: "lots" }, "MAX_PAYMENT_AMOUNT"],
    [{ TERMINALS: "12" }, "TERMINALS"],
    [{ TEST_TERMINALS: "1,2" }, "TEST_TERMINALS"],
    [{ TERMINAL_DEADLINE_SECONDS: "0" }, "TERMINAL_DEADLINE_SECONDS"],
    [{ SANDBOX_TERMINAL_AUTO: "decline:x" }, "SANDBOX_TERMINAL_AUTO"],
    [{ PUBLIC_URL: "https://museum.org/donate" }, "PUBLIC_URL"],
  ];
  for (const [env, setting] of bad) {
    await assert.rejects(
      () => loadConfig({ APP_SECRET: SECRET, ...env }, { dataDir }),
      (e) => e instanceof ConfigError && e.setting === setting,
      setting,
    );
  }
});
