/**
 * The documented signing example, run as written: its `sh` block under "Signed requests from your own
 * systems" is taken from docs/configuration.md and run with bash (openssl, curl) against the app with a server
 * key in `SIGNING_KEYS`. The app must accept it; the same block keyed with the hex text instead of
 * the decoded bytes (`-hmac "$KEY"`, the mistake the docs warn of) must be refused.
 */
import assert from "node:assert/strict";
import { ROOT, startTestApp } from "@/tests/helpers/app.ts";
import { newDonor } from "@/tests/helpers/payments.ts";

const KEY = "9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c2e4a6c8e0a2c4e6a8b0d1f3e5a7c9e1b";

/** The first `sh` block after docs/configuration.md's signing heading. */
async function docsExample(): Promise<string> {
  const text = await Deno.readTextFile(`${ROOT}/docs/configuration.md`);
  const section = text.indexOf("## Signed requests from your own systems");
  assert.ok(section > 0, "docs/configuration.md has the signing section");
  const start = text.indexOf("```sh\n", section) + "```sh\n".length;
  return text.slice(start, text.indexOf("\n```\n", start) + 1);
}

async function run(script: string, env: Record<string, string>): Promise<{ code: number; out: string }> {
  const { code, stdout, stderr } = await new Deno.Command("bash", {
    args: ["-euo", "pipefail", "-c", script],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code, out: text.decode(stdout) + text.decode(stderr) };
}

Deno.test("docs: the signing example is accepted as written; keying with the hex text is refused", async () => {
  const app = await startTestApp({ env: { SIGNING_KEYS: `crm:${KEY}` } });
  try {
    const env = { SITE: app.url, KEY_ID: "crm", KEY, USER_ID: await newDonor(app, "Signed") };
    const example = await docsExample();
    assert.match(example, /hexkey:\$KEY/);

    const accepted = await run(example, env);
    assert.equal(accepted.code, 0, accepted.out);
    const body = JSON.parse(accepted.out);
    assert.equal(typeof body.url, "string", accepted.out);
    assert.ok(new URL(body.url).pathname.startsWith("/sandbox/pay/"), accepted.out);
    const payments = app.logs.filter((l) => l.msg === "payment started");
    assert.equal(payments.length, 1);

    const textKeyed = example.replace('-mac HMAC -macopt "hexkey:$KEY"', '-hmac "$KEY"');
    assert.notEqual(textKeyed, example);
    const refused = await run(textKeyed, env);
    assert.equal(JSON.parse(refused.out).statusCode, 401, refused.out);
    assert.match(JSON.parse(refused.out).message, /signature does not match/);
  } finally {
    await app.close();
  }
});
