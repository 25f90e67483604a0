/** The receipt settings: the museum's and the Friends' legal details; partial or malformed ones refused. */
import assert from "node:assert/strict";
import { loadConfig } from "@/lib/app/config.ts";
import { readReceipts } from "./config.ts";
import { ConfigError, type Env } from "@/lib/core/config_values.ts";

const MUSEUM: Env = {
  RECEIPT_LEGAL_NAME: "The Museum (R.A.)",
  RECEIPT_ADDRESS: "1 Museum Road, Jerusalem",
  RECEIPT_SECTION46_NUMBER: "4567",
};

/** Reads in production, answering the settings and the warned settings' names. */
function production(env: Env) {
  const warned: string[] = [];
  const settings = readReceipts(env, true, (setting) => warned.push(setting));
  return { settings, warned };
}

function refused(env: Env, setting: string, detail: RegExp) {
  assert.throws(() => readReceipts(env, true, () => {}), (e) => {
    assert.ok(e instanceof ConfigError, String(e));
    assert.equal(e.setting, setting, e.message);
    assert.match(e.message, detail);
    return true;
  });
}

Deno.test("receipts settings: every detail read; a complete production set warns about nothing", () => {
  const { settings, warned } = production({
    ...MUSEUM,
    RECEIPT_NONPROFIT_NUMBER: "580000000",
    RECEIPT_SECTION46_VALID_UNTIL: "2099-12-31",
    RECEIPT_FRIENDS_LEGAL_NAME: "American Friends of the Museum, Inc.",
    RECEIPT_FRIENDS_ADDRESS: "1 Broadway, New York, NY",
    RECEIPT_FRIENDS_EIN: "12-3456789",
  });
  assert.deepEqual(settings, {
    museum: {
      legalName: "The Museum (R.A.)",
      address: "1 Museum Road, Jerusalem",
      nonprofitNumber: "580000000",
      section46Approval: "4567",
      section46ValidUntil: "2099-12-31",
    },
    friends: {
      legalName: "American Friends of the Museum, Inc.",
      address: "1 Broadway, New York, NY",
      ein: "12-3456789",
    },
  });
  assert.deepEqual(warned, []);
});

Deno.test("receipts settings: development has a plainly fake museum; production without one issues none", async () => {
  const dev = readReceipts({}, false, () => assert.fail("no warning in development"));
  assert.match(dev.museum!.legalName, /Example Museum.*RECEIPT_LEGAL_NAME/);
  assert.equal(dev.friends, null);
  assert.deepEqual(production({}), {
    settings: { museum: null, friends: null },
    warned: ["RECEIPT_LEGAL_NAME"],
  });
  assert.deepEqual(production({ ...MUSEUM, RECEIPT_SECTION46_NUMBER: "" }).warned, [
    "RECEIPT_SECTION46_NUMBER",
  ]);
  assert.deepEqual(production({ ...MUSEUM, RECEIPT_SECTION46_VALID_UNTIL: "2020-01-01" }).warned, [
    "RECEIPT_SECTION46_VALID_UNTIL",
  ]);
  // Through loadConfig: the settings land in config.receipts.
  const config = await loadConfig({ ...MUSEUM }, { dataDir: await Deno.makeTempDir() });
  assert.equal(config.receipts.museum?.legalName, "The Museum (R.A.)");
});

Deno.test("receipts settings: partial or malformed details are refused with one line naming the setting", () => {
  refused({ ...MUSEUM, RECEIPT_ADDRESS: "" }, "RECEIPT_ADDRESS", /RECEIPT_LEGAL_NAME and RECEIPT_ADDRESS/);
  refused({ RECEIPT_ADDRESS: "Somewhere" }, "RECEIPT_LEGAL_NAME", /RECEIPT_LEGAL_NAME and RECEIPT_ADDRESS/);
  refused({ ...MUSEUM, RECEIPT_NONPROFIT_NUMBER: "58-123" }, "RECEIPT_NONPROFIT_NUMBER", /9 digits/);
  refused({ ...MUSEUM, RECEIPT_SECTION46_NUMBER: "45 67" }, "RECEIPT_SECTION46_NUMBER", /approval/);
  refused(
    { ...MUSEUM, RECEIPT_SECTION46_VALID_UNTIL: "2026-02-30" },
    "RECEIPT_SECTION46_VALID_UNTIL",
    /date/,
  );
  refused({ ...MUSEUM, RECEIPT_FRIENDS_LEGAL_NAME: "Friends" }, "RECEIPT_FRIENDS_ADDRESS", /required/);
  refused({ ...MUSEUM, RECEIPT_FRIENDS_EIN: "12-3456789" }, "RECEIPT_FRIENDS_LEGAL_NAME", /required/);
  refused(
    {
      RECEIPT_FRIENDS_LEGAL_NAME: "Friends",
      RECEIPT_FRIENDS_ADDRESS: "NY",
      RECEIPT_FRIENDS_EIN: "123456789",
    },
    "RECEIPT_FRIENDS_EIN",
    /12-3456789/,
  );
});
