import assert from "node:assert/strict";
import { createLogger, jsonLine } from "./log.ts";
import { redactPath, redactUrls } from "./log_redact.ts";
import { overBudget } from "@/tests/helpers/time_budget.ts";

/** What a line was before it was written member by member: one object through JSON.stringify. */
function reference(level: string, msg: string, fields: Record<string, unknown>) {
  const replacer = (_k: string, v: unknown) =>
    v instanceof Error ? { name: v.name, message: v.message, stack: v.stack } : v;
  return JSON.parse(JSON.stringify({ time: "T", level, msg, ...fields }, replacer));
}

Deno.test("jsonLine: the same JSON as one object through JSON.stringify, member for member", () => {
  const error = new Error("boom");
  const cases: Record<string, unknown>[] = [
    {},
    { requestId: "b625-41", method: "GET", path: '/en/"quoted"\\\n\u2028', status: 200, ms: 1.3 },
    { n: NaN, inf: -Infinity, zero: -0, big: 1e21, small: 1e-7, yes: true, no: false, none: null },
    { skipped: undefined, fn: () => 1, sym: Symbol("s"), kept: "x" },
    { nested: { a: [1, "b", null], d: new Date(0) }, error, list: [error] },
    { 2: "two", a: "a", 1: "one" },
    { msg: "overrides", level: "custom" },
    { 'we"ird key\n': "v" },
  ];
  for (const fields of cases) {
    const line = JSON.parse(jsonLine("info", "request", fields));
    assert.match(line.time, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.deepEqual(
      { ...line, time: "T" },
      reference("info", "request", fields),
      JSON.stringify(Object.keys(fields)),
    );
    // The members come in the same order.
    assert.deepEqual(Object.keys(line), Object.keys(reference("info", "request", fields)));
  }
});

Deno.test("logger: levels below the minimum are dropped; with() adds fields to every line", () => {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger((line) => lines.push(JSON.parse(line)), {}, "info");
  log.debug("hidden");
  log.with({ requestId: "r1" }).warn("careful", { status: 503 });
  assert.equal(lines.length, 1);
  assert.deepEqual({ ...lines[0], time: "T" }, {
    time: "T",
    level: "warn",
    msg: "careful",
    requestId: "r1",
    status: 503,
  });
});

Deno.test("stdout: lines wait for their batch, and are all written when the process exits", async () => {
  const script = `
    import { createLogger } from ${JSON.stringify(new URL("./log.ts", import.meta.url).href)};
    const log = createLogger();
    for (let i = 0; i < 1000; i++) log.info("line", { i });
    log.warn("a warning writes what waits before it, at once");
    log.info("long", { text: "x".repeat(100_000) + "ü" }); // longer than the whole batch buffer
    log.info("last");
    Deno.exit(0); // before the batch's timer: written on exit
  `;
  const out = await new Deno.Command(Deno.execPath(), { args: ["eval", script], stdout: "piped" }).output();
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines.length, 1003);
  assert.deepEqual(lines.slice(0, 3).map((l) => l.i), [0, 1, 2]);
  assert.deepEqual(lines.slice(0, 1000).map((l) => l.i), [...Array(1000).keys()], "every line, in order");
  assert.equal(lines[1000].level, "warn");
  assert.equal(lines[1001].text.length, 100_001);
  assert.equal(lines[1002].msg, "last");
});

Deno.test("redactPath: id segments become :id, the query string and fragment go; words stay", async () => {
  const id = "q2V0bUoHx3f1k8Zr0aTQ9w_L";
  const cases: [string, string][] = [
    [`/api/user/${id}`, "/api/user/:id"],
    [`/api/user/off-monthly-payment/${id}`, "/api/user/off-monthly-payment/:id"],
    [`/api/auth/admin/${id}/approve`, "/api/auth/admin/:id/approve"],
    [`/payments/return/${id}?PelecardTransactionId=abc&x=1`, "/payments/return/:id"],
    [`/he/cancel-subscription?id=${id}`, "/he/cancel-subscription"],
    ["/sandbox/pay/550e8400-e29b-41d4-a716-446655440000#top", "/sandbox/pay/:id"],
    [`/x/${"ab12".repeat(16)}/${id}/`, "/x/:id/:id/"],
    ["/api/payment/test-emv/1001", "/api/payment/test-emv/1001"],
    ["/api/payment/test-emv/4580123456789015", "/api/payment/test-emv/:id"],
    ["/api/payment/notify/123456789", "/api/payment/notify/:id"],
    ["/api/transaction/get-all-success-transactions", "/api/transaction/get-all-success-transactions"],
    ["/en/terminal-payment/7", "/en/terminal-payment/7"],
    ["/api/user/off-monthly-payment", "/api/user/off-monthly-payment"],
    ["/_app/island-DonorPayment-3F2A9C1B.js", "/_app/island-DonorPayment-3F2A9C1B.js"],
    ["/", "/"],
  ];
  for (const [path, logged] of cases) assert.equal(redactPath(path), logged, path);
  // Linear: adversarial text at the body limit (64 KiB) takes milliseconds, not seconds.
  for (
    const [fn, text] of [
      [redactPath, "/" + "aB".repeat(32 * 1024) + "."],
      [redactPath, ("/" + "1".repeat(7) + "a").repeat(7 * 1024)],
      [redactUrls, "a-".repeat(32 * 1024)],
      [redactUrls, "http://".repeat(9 * 1024)],
    ] as const
  ) {
    assert.equal(await overBudget(text, fn), null, text.slice(0, 20));
  }
  // A long path of near-ids costs no more than its length.
  const long = "/" + "a".repeat(15) + ("/" + "a".repeat(40) + ".").repeat(1500);
  assert.equal(await overBudget(long, redactPath), null);
});

Deno.test("every log line: paths redacted, URLs in any string cut to origin and redacted path", () => {
  const id = "q2V0bUoHx3f1k8Zr0aTQ9w_L";
  const lines: string[] = [];
  const log = createLogger((line) => lines.push(line));
  log.info("request", { requestId: "r1", method: "GET", path: `/api/user/${id}`, status: 200 });
  log.warn("cross-site form post refused", { path: `/en/cancel-subscription?id=${id}` });
  log.error("could not verify a returned payment", {
    error: `error sending request for url (https://psp.example/return/${id}?UserKey=${id})`,
  });
  log.warn("storage unreachable", {
    error: "connect postgres://app:hunter2@db.internal:5432/x?sslmode=require",
  });
  const cause = new Error(`GET http://127.0.0.1:8000/api/user/${id}?token=secret failed`);
  log.error("unhandled error", { error: cause, path: `/payments/return/${id}?status=000` });
  for (const line of lines) {
    assert.ok(!line.includes(id), line);
    assert.ok(!line.includes("?"), line);
  }
  const [request, refused, verify, storage, unhandled] = lines.map((line) => JSON.parse(line));
  assert.equal(storage.error, "connect postgres://db.internal:5432/x");
  assert.equal(request.path, "/api/user/:id");
  assert.equal(refused.path, "/en/cancel-subscription");
  assert.equal(verify.error, "error sending request for url (https://psp.example/return/:id)");
  assert.equal(unhandled.error.message, "GET http://127.0.0.1:8000/api/user/:id failed");
  assert.match(unhandled.error.stack, /http:\/\/127\.0\.0\.1:8000\/api\/user\/:id failed/);
  assert.equal(unhandled.path, "/payments/return/:id");
  // The caller's fields are left as they were.
  const fields = { path: `/api/user/${id}` };
  jsonLine("info", "request", fields);
  assert.equal(fields.path, `/api/user/${id}`);
});

Deno.test("jsonLine: every shape of fields is written as JSON.stringify writes the line's object", () => {
  const cases: Record<string, unknown>[] = [
    { requestId: "3f1c", method: "GET", path: "/en/", status: 200, ms: 1.5 },
    { ok: true, none: null, gone: undefined, zero: -0, big: 1e21, small: 1e-7 },
    { text: 'a "quoted" \\ back\nslash\u0001', he: "שלום", emoji: "😀", lone: "\ud800x" },
    { nested: { a: 1 }, list: [1, "b"] },
    { error: new Error("boom") },
    { msg: "overrides the message in place", extra: 1 },
    { 2: "an integer key", a: "b" },
    { ['we"ird']: "key" },
    { nan: NaN, inf: Infinity },
    { url: "see https://example.org/en/admin/donors/ABCDEFGH12345678XYZ?x=1 now" },
    { path: "/en/admin/donors/ABCDEFGH12345678XYZ?token=secret" },
    {},
  ];
  for (const fields of cases) {
    const line = JSON.parse(jsonLine("info", 'a "msg"', fields));
    const expected = JSON.parse(
      JSON.stringify(
        { time: line.time, level: "info", msg: 'a "msg"', ...fields },
        (key, value) =>
          value instanceof Error
            ? { name: value.name, message: value.message, stack: value.stack }
            : key === "path" && typeof value === "string"
            ? redactPath(value)
            : typeof value === "string" && value.includes("://")
            ? redactUrls(value)
            : value,
      ),
    );
    assert.deepEqual(line, expected);
    assert.deepEqual(Object.keys(line), Object.keys(expected), "members in the same order");
  }
  // The plain request line is the very string JSON.stringify writes.
  const fields = { requestId: "r1", method: "GET", path: "/en/", status: 200, ms: 0.3 };
  const line = jsonLine("info", "request", fields);
  assert.equal(
    line,
    JSON.stringify({ time: JSON.parse(line).time, level: "info", msg: "request", ...fields }),
  );
});
