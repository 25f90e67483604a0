/**
 * The plumbing every Pelecard call shares (`pelecard_protocol.ts`), seen through the provider on the
 * simulator: transport failures, refused redirects, no plain HTTP, masked card numbers, clean logs.
 */
import assert from "node:assert/strict";
import { createPelecardProvider } from "./pelecard.ts";
import { maskPan } from "./protocol.ts";
import { SIM_LOGIN, startPelecardSimulator } from "@/tests/pelecard_simulator.ts";
import { assertLogsClean, FULL_PAN, rejectsWith, request, setupLogging } from "@/tests/helpers/pelecard.ts";

/** Every log line of every provider in this file, checked for secrets by the last test. */
const allLogs: string[] = [];
const setup = setupLogging(allLogs);

Deno.test("init transport failures: HTTP 500, garbage, no answer, nobody listening", async () => {
  // Answers that come get a deadline no busy machine reaches (a 150 ms one turned a slow HTTP 500
  // into a timeout under CI's load); only the call that never gets an answer has a short one.
  await using t = await setup({ timeoutMs: 30_000 });
  t.sim.state.failNext("http500");
  await rejectsWith(() => t.pelecard.startHostedPayment(request()), "unreachable", /HTTP 500/);
  t.sim.state.failNext("garbage");
  await rejectsWith(() => t.pelecard.startHostedPayment(request()), "invalid-answer");
  await using impatient = await setup({ timeoutMs: 150 });
  impatient.sim.state.failNext("hang");
  await rejectsWith(() => impatient.pelecard.startHostedPayment(request()), "timeout");

  const closed = await startPelecardSimulator();
  await closed.close();
  const gone = createPelecardProvider({ baseUrl: closed.url, ...SIM_LOGIN, timeoutMs: 30_000 });
  await rejectsWith(() => gone.startHostedPayment(request()), "unreachable");
});

Deno.test("a connection failure is unreachable even when it is reported after the deadline", async () => {
  // A loaded machine can learn of a refused connection only after the timeout fired: it is still
  // the connection that failed, not a server that did not answer.
  const late = createPelecardProvider({
    baseUrl: "https://gateway21.pelecard.biz",
    ...SIM_LOGIN,
    timeoutMs: 20,
    fetch: (_input, init) =>
      new Promise((_resolve, reject) =>
        init!.signal!.addEventListener("abort", () => reject(new TypeError("error sending request: refused")))
      ),
  });
  await rejectsWith(() => late.startHostedPayment(request()), "unreachable", /refused/);
});

Deno.test("redirects are not followed: a redirected POST would carry the password elsewhere", async () => {
  const seen: RequestInit[] = [];
  const pelecard = createPelecardProvider({
    baseUrl: "https://gateway21.pelecard.biz",
    ...SIM_LOGIN,
    fetch: (_input, init) => {
      seen.push(init!);
      return Promise.resolve(
        new Response(null, { status: 307, headers: { location: "https://elsewhere.example/" } }),
      );
    },
  });
  await rejectsWith(() => pelecard.startHostedPayment(request()), "unreachable", /HTTP 307/);
  assert.equal(seen[0].redirect, "manual");
  assert.ok(seen[0].signal instanceof AbortSignal);
});

Deno.test("credentials never travel over plain HTTP to a remote host", () => {
  assert.throws(
    () => createPelecardProvider({ baseUrl: "http://gateway21.pelecard.biz", ...SIM_LOGIN }),
    TypeError,
  );
  const p = createPelecardProvider({ baseUrl: "https://gateway21.pelecard.biz/", ...SIM_LOGIN });
  assert.deepEqual(p.frameOrigins, ["https://gateway21.pelecard.biz"]);
});

Deno.test("maskPan keeps six and four, and leaves masked numbers alone", () => {
  assert.equal(maskPan(FULL_PAN), "458045******4580");
  assert.equal(maskPan("458045******4580"), "458045******4580");
  assert.equal(maskPan("5326-1003-0000-0015"), "532610******0015");
});

// Last: every line logged by every test above.
Deno.test("log lines name the call, its duration and outcome, never a password or a card number", () => {
  assertLogsClean(allLogs, 2, ["timeout", "unreachable", "invalid-answer"]);
});
