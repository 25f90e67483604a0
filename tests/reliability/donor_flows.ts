/**
 * Simulated donors for the reliability tests, over real HTTP against an app process, the way a
 * browser and a kiosk do it:
 * - online: `POST /api/user`, signed `POST /api/payment/create`, the sandbox's hosted card page
 *   (form submit), our return route `/payments/return/<id>` (303) and the result page it names;
 * - terminal: `POST /api/user`, then a signed `POST /api/payment/pay-emv` from a paired kiosk (each
 *   shop's kiosk is created once through the back office's API, by the auditor (the first admin), and paired on
 *   `/en/kiosk-pair`, as staff would), the sandbox terminal deciding by itself
 *   (`SANDBOX_TERMINAL_AUTO`).
 *
 * Every request is timed and checked; each finished payment is logged by its provider transaction
 * id, so the test can compare the client's own books with the server's. With `retryUnavailable`,
 * a 503 (storage down) is checked (JSON with a message under `/api`, a page elsewhere) and the step
 * tried again, as a donor would, until `giveUpMs`; so is a kiosk sale answered 409 ("already
 * waiting at the terminal", an attempt the fault interrupted).
 *
 * @module
 */
import { signPayload } from "@/lib/shared/signing.ts";
import type { Store, Transaction, TransactionBatch } from "@/lib/storage/types.ts";
import { sleep } from "./process_support.ts";

/** A sandbox card that is approved; `4000 0000 0000 0XYZ` declines with `XYZ`. */
export const APPROVED_CARD = "4580 1234 5678 9015";
export const DECLINE_CODES = ["004", "033", "006", "039"];

/** A payment the client saw finish. */
export interface Completed {
  channel: "online" | "terminal";
  /** The provider's transaction id (SandboxTransactionId, or the terminal's TransactionId). */
  ref: string;
  approved: boolean;
  statusCode: string;
  /** Minor units. */
  amount: number;
  currency: 1 | 2;
  isMonthly: boolean;
}

/** Options of a {@link DonorClient}. */
export interface ClientOptions {
  base: string;
  /** Client-side limit of one request; past it the request counts as a timeout error. */
  requestTimeoutMs?: number;
  /** Retry 503 answers (checked) until `giveUpMs` after the flow started. */
  retryUnavailable?: boolean;
  giveUpMs?: number;
  /** The terminal's decision in this app (`SANDBOX_TERMINAL_AUTO`): "approve" or "decline:XYZ". */
  terminalMode?: string;
}

class FlowError extends Error {}

const TIERS: [number, "nis" | "dollars"][] = [
  [20, "nis"],
  [100, "nis"],
  [200, "nis"],
  [400, "nis"],
  [5, "dollars"],
  [25, "dollars"],
  [50, "dollars"],
  [100, "dollars"],
  [12.5, "dollars"],
  [36, "nis"],
];
const LANGS = ["en", "he", "ru", "pt", "es"];

/** A population of simulated donors sharing one set of books. */
export class DonorClient {
  readonly completed: Completed[] = [];
  readonly errors: string[] = [];
  /** Latencies in ms by step. */
  readonly latencies = new Map<string, number[]>();
  requests = 0;
  /** 503 answers seen (and their latencies). */
  readonly unavailable: { path: string; ms: number; at: number }[] = [];
  /** Kiosk sales tried again after a 409 ("already waiting at the terminal"). */
  kioskRetries = 0;
  /** Every status seen, by status, for the report. */
  readonly statuses = new Map<number, number>();
  /** When each successful answer arrived (ms since epoch), for recovery measurements. */
  readonly okTimes: number[] = [];
  private key: Promise<{ keyId: string; key: string; expiresAt: number }> | null = null;
  private admin: Promise<string> | null = null;
  private readonly kiosks = new Map<string, Promise<string>>();
  private n = 0;

  constructor(readonly options: ClientOptions) {}

  /** One online donation, start to finish (or an error recorded). */
  async online(): Promise<void> {
    const i = this.n++;
    const started = Date.now();
    try {
      const [amount, currency] = TIERS[i % TIERS.length];
      const decline = i % 5 === 3 ? DECLINE_CODES[(i / 5 | 0) % DECLINE_CODES.length] : null;
      const isMonthly = i % 10 === 7;
      const language = LANGS[i % LANGS.length];
      const userId = await this.newDonor(i, started);
      const created = await this.step("create", started, async () => {
        const body = await signPayload(
          { amount, currency, userId, isMonthly, language },
          await this.signingKey(),
        );
        return this.send("POST", "/api/payment/create", JSON.stringify(body));
      }, 200);
      const pageUrl = String((await created.json()).url);
      if (!pageUrl.startsWith(`${this.options.base}/sandbox/pay/`)) throw new FlowError(`page ${pageUrl}`);
      const card = decline ? `4000 0000 0000 0${decline}` : APPROVED_CARD;
      const form = new URLSearchParams({
        cardNumber: card,
        expiry: "12/30",
        cvv: "123",
        idNumber: "123456789",
      });
      const page = await this.step(
        "card page",
        started,
        () =>
          this.send("POST", pageUrl.slice(this.options.base.length), form.toString(), {
            "content-type": "application/x-www-form-urlencoded",
          }),
        200,
      );
      const html = await page.text();
      const href = html.match(/<a class="button button-primary" href="([^"]+)" target="_top">/)?.[1];
      if (!href) throw new FlowError(`no return link on the card page: ${html.slice(0, 200)}`);
      const returnUrl = new URL(href.replaceAll("&amp;", "&"));
      const back = await this.step(
        "return",
        started,
        () => this.send("GET", returnUrl.pathname + returnUrl.search),
        303,
      );
      await back.body?.cancel();
      const landed = new URL(back.headers.get("location")!, this.options.base);
      const ref = landed.searchParams.get("SandboxTransactionId") ?? "";
      const expected = decline ? `/${language}/error` : `/${language}/success`;
      if (landed.pathname !== expected || !ref) {
        throw new FlowError(`landed on ${landed.pathname}${landed.search}, expected ${expected}`);
      }
      if (decline && landed.searchParams.get("SandboxStatusCode") !== decline) {
        throw new FlowError(
          `declined with ${landed.searchParams.get("SandboxStatusCode")}, expected ${decline}`,
        );
      }
      const result = await this.step(
        "result page",
        started,
        () => this.send("GET", landed.pathname + landed.search),
        200,
      );
      await result.body?.cancel();
      this.completed.push({
        channel: "online",
        ref,
        approved: !decline,
        statusCode: decline ?? "000",
        amount: Math.round(amount * 100),
        currency: currency === "nis" ? 1 : 2,
        isMonthly,
      });
    } catch (e) {
      this.errors.push(`online #${i}: ${(e as Error).message}`);
    }
  }

  /** One donation at a kiosk's terminal. */
  async terminal(shop: string): Promise<void> {
    const i = this.n++;
    const started = Date.now();
    try {
      const [amount, currency] = TIERS[i % TIERS.length];
      const language = LANGS[i % LANGS.length];
      const cookie = await this.kioskCookie(shop);
      const userId = await this.newDonor(i, started);
      const answer = await this.step("pay-emv", started, async () => {
        const body = await signPayload(
          { amount, currency, userId, language, isMonthly: false, shopNumber: shop },
          await this.signingKey(),
        );
        return this.send("POST", "/api/payment/pay-emv", JSON.stringify(body), {
          "content-type": "application/json",
          cookie,
        });
      }, 200);
      const result = await answer.json();
      const mode = this.options.terminalMode ?? "approve";
      const code = mode === "approve" ? "000" : mode.slice("decline:".length);
      const ref = String(result?.ResultData?.TransactionId ?? "");
      if (result?.StatusCode !== code || !ref) {
        throw new FlowError(`terminal answered ${JSON.stringify(result).slice(0, 200)}, expected ${code}`);
      }
      this.completed.push({
        channel: "terminal",
        ref,
        approved: code === "000",
        statusCode: code,
        amount: Math.round(amount * 100),
        currency: currency === "nis" ? 1 : 2,
        isMonthly: false,
      });
    } catch (e) {
      this.errors.push(`terminal #${i}: ${(e as Error).message}`);
    }
  }

  /** Runs `flow` in `concurrency` loops until `untilMs` (epoch ms); each loop finishes its flow. */
  async loop(concurrency: number, untilMs: number, flow: () => Promise<void>): Promise<void> {
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (Date.now() < untilMs) await flow();
    }));
  }

  private async newDonor(i: number, started: number): Promise<string> {
    const res = await this.step("user", started, () =>
      this.send(
        "POST",
        "/api/user",
        JSON.stringify({
          firstName: `Load${i}`,
          lastName: "Donor",
          email: `load${i}@example.org`,
          country: "Israel",
        }),
      ), 201);
    return String((await res.json()).id);
  }

  /** The device cookie of the kiosk paired for `shop` (paired once, on first use). */
  private kioskCookie(shop: string): Promise<string> {
    let cookie = this.kiosks.get(shop);
    if (!cookie) {
      cookie = this.pairKiosk(shop);
      this.kiosks.set(shop, cookie);
      cookie.catch(() => this.kiosks.delete(shop));
    }
    return cookie;
  }

  /**
   * The back office admin's token, asked for once and shared. Asked during an outage, a 503 is
   * retried like any step (with `retryUnavailable`); a failure is not kept, so the next flow asks
   * again rather than every later flow failing at once.
   */
  private adminToken(started: number): Promise<string> {
    this.admin ??= (async () => {
      for (;;) {
        try {
          return await backOfficeToken(this.options.base);
        } catch (e) {
          const unavailable = / 503 /.test((e as Error).message);
          const late = Date.now() - started > (this.options.giveUpMs ?? 60_000);
          if (!this.options.retryUnavailable || !unavailable || late) throw e;
          await sleep(200 + Math.random() * 300);
        }
      }
    })();
    const asked = this.admin;
    asked.catch(() => {
      if (this.admin === asked) this.admin = null;
    });
    return asked;
  }

  /** Creates a kiosk device for `shop` as the first (approved) admin, and pairs it. */
  private async pairKiosk(shop: string): Promise<string> {
    const started = Date.now();
    const token = await this.adminToken(started);
    const created = await this.step(
      "kiosk device",
      started,
      () =>
        this.send("POST", "/api/kiosk-devices", JSON.stringify({ name: `Kiosk ${shop}`, shopNumber: shop }), {
          "content-type": "application/json",
          authorization: `Bearer ${token}`,
        }),
      201,
    );
    const { pairing } = await created.json();
    const paired = await this.step(
      "kiosk pairing",
      started,
      () =>
        this.send("POST", "/en/kiosk-pair", new URLSearchParams({ code: pairing.code }).toString(), {
          "content-type": "application/x-www-form-urlencoded",
          origin: this.options.base,
        }),
      303,
    );
    await paired.body?.cancel();
    const cookie = (paired.headers.get("set-cookie") ?? "").match(/kiosk_device=[0-9a-f]{64}/)?.[0];
    if (!cookie) throw new FlowError("pairing the kiosk set no device cookie");
    return cookie;
  }

  /** A browser key, as a page carries one; fetched again shortly before it expires. */
  private async signingKey(): Promise<{ keyId: string; key: string }> {
    const current = await this.key?.catch(() => null);
    if (current && current.expiresAt - Date.now() > 120_000) return current;
    this.key = (async () => {
      const started = Date.now();
      const res = await this.step("signing key", started, () => this.send("GET", "/api/signing-key"), 200);
      return await res.json();
    })();
    return await this.key;
  }

  /**
   * Runs one request (`send`, again for each try) and checks its status; retries checked 503s
   * when asked to.
   */
  private async step(
    name: string,
    flowStarted: number,
    send: () => Promise<{ res: Response; ms: number; path: string }>,
    expected: number,
  ): Promise<Response> {
    for (let attempt = 0;; attempt++) {
      const { res, ms, path } = await send();
      this.statuses.set(res.status, (this.statuses.get(res.status) ?? 0) + 1);
      if (res.status === expected) {
        this.record(name, ms);
        this.okTimes.push(Date.now());
        return res;
      }
      const text = await res.text();
      // "Already waiting at the terminal; wait a minute": after a fault, a kiosk donor tries again.
      if (res.status === 409 && name === "pay-emv" && this.options.retryUnavailable) {
        this.kioskRetries++;
        if (Date.now() - flowStarted > (this.options.giveUpMs ?? 60_000)) {
          throw new FlowError(`${name}: still 409 after ${this.options.giveUpMs} ms: ${text.slice(0, 200)}`);
        }
        await sleep(500);
        continue;
      }
      if (res.status === 503 && this.options.retryUnavailable) {
        this.unavailable.push({ path, ms, at: Date.now() });
        if (path.startsWith("/api/")) {
          let message: unknown;
          try {
            message = JSON.parse(text).message;
          } catch { /* checked below */ }
          if (typeof message !== "string" || message === "") {
            throw new FlowError(`${name}: 503 without a JSON message: ${text.slice(0, 200)}`);
          }
        } else if (!text.includes("<html")) throw new FlowError(`${name}: 503 that is not a page`);
        if (Date.now() - flowStarted > (this.options.giveUpMs ?? 60_000)) {
          throw new FlowError(`${name}: still 503 after ${this.options.giveUpMs} ms`);
        }
        await sleep(200 + Math.random() * 300);
        continue;
      }
      throw new FlowError(
        `${name}: ${path} answered ${res.status} (expected ${expected}): ${text.slice(0, 200)}`,
      );
    }
  }

  private async send(
    method: string,
    path: string,
    body?: string,
    headers: Record<string, string> = { "content-type": "application/json" },
  ): Promise<{ res: Response; ms: number; path: string }> {
    const limit = this.options.requestTimeoutMs ?? 30_000;
    const started = performance.now();
    this.requests++;
    try {
      const res = await fetch(this.options.base + path, {
        method,
        body,
        headers: body === undefined ? {} : headers,
        redirect: "manual",
        signal: AbortSignal.timeout(limit),
      });
      return { res, ms: performance.now() - started, path: path.split("?")[0] };
    } catch (e) {
      const what = (e as Error).name === "TimeoutError"
        ? `no answer within ${limit} ms`
        : (e as Error).message;
      throw new FlowError(`${method} ${path.split("?")[0]}: ${what}`);
    }
  }

  private record(step: string, ms: number) {
    let list = this.latencies.get(step);
    if (!list) this.latencies.set(step, list = []);
    list.push(ms);
  }

  /** Every latency, all steps together. */
  allLatencies(): number[] {
    return [...this.latencies.values()].flat();
  }
}

/** Every transaction in storage, successes and errors, read in keyset batches. */
export async function storedTransactions(store: Store): Promise<Transaction[]> {
  const all: Transaction[] = [];
  for (const kind of ["success", "error"] as const) {
    let before: string | null = null;
    do {
      const batch: TransactionBatch = await store.transactions.scan({ kind, before, limit: 1000 });
      all.push(...batch.data);
      before = batch.next;
    } while (before !== null);
  }
  return all;
}

/**
 * Compares the client's books with storage's: every payment the client saw finish is recorded
 * exactly once, with its amount, currency and outcome, and nothing else is recorded. Answers the
 * problems found (empty when the books agree).
 */
export function compareBooks(
  completed: Completed[],
  stored: Transaction[],
  options: { unseenErrors?: boolean } = {},
): string[] {
  const problems: string[] = [];
  const byRef = new Map<string, Transaction[]>();
  for (const tx of stored) {
    const ref = tx.providerTransactionId ?? `(none: ${tx.id})`;
    const list = byRef.get(ref) ?? [];
    list.push(tx);
    byRef.set(ref, list);
  }
  const seen = new Set<string>();
  for (const c of completed) {
    if (seen.has(c.ref)) problems.push(`the client finished ${c.ref} twice`);
    seen.add(c.ref);
    const txs = byRef.get(c.ref) ?? [];
    if (txs.length !== 1) {
      problems.push(`${c.channel} payment ${c.ref} is recorded ${txs.length} times`);
      continue;
    }
    const tx = txs[0];
    const kind = c.approved ? "success" : "error";
    if (tx.kind !== kind || tx.statusCode !== c.statusCode) {
      problems.push(`${c.ref}: recorded ${tx.kind} ${tx.statusCode}, the client saw ${kind} ${c.statusCode}`);
    }
    if (tx.amount !== c.amount || tx.currency !== c.currency || tx.isMonthly !== c.isMonthly) {
      problems.push(
        `${c.ref}: recorded ${tx.amount}/${tx.currency}/${tx.isMonthly}, expected ${c.amount}/${c.currency}/${c.isMonthly}`,
      );
    }
  }
  for (const [ref, txs] of byRef) {
    if (seen.has(ref)) continue;
    // After a fault, an attempt that died midway may be recorded as an error (e.g. a kiosk sale
    // closed as timed out); a success nobody saw finish is always wrong.
    if (options.unseenErrors && txs.every((tx) => tx.kind === "error")) continue;
    problems.push(`${ref} is recorded (${txs.map((tx) => tx.statusCode)}) but no client finished it`);
  }
  return problems;
}

/** Sum of approved payments per currency, in minor units, and their count. */
export function approvedSums(completed: Completed[]): { count: number; sums: Record<number, number> } {
  const sums: Record<number, number> = {};
  let count = 0;
  for (const c of completed) {
    if (!c.approved) continue;
    count++;
    sums[c.currency] = (sums[c.currency] ?? 0) + c.amount;
  }
  return { count, sums };
}

/** The back office's first admin (approved at once on a fresh store): the books' auditor, who also creates the kiosks. */
const BACK_OFFICE_ADMIN = { email: "auditor@museum.org", password: "ledger-and-ink-2026" };

/** The auditor's access token: registered as the first admin, or signed in when already registered. */
export async function backOfficeToken(base: string): Promise<string> {
  const post = (path: string) =>
    fetch(base + path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(BACK_OFFICE_ADMIN),
    });
  let res = await post("/api/auth/admin/register");
  if (res.status === 409) {
    await res.body?.cancel();
    res = await post("/api/auth/admin/login");
  }
  const body = await res.json().catch(() => null);
  if (!body?.accessToken || body.status !== "approved") {
    throw new Error(`the back office's admin: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
  }
  return String(body.accessToken);
}

/**
 * Checks the back office against the client's books through the API: both lists' `total`, the sum
 * of `DebitTotal` over every page of the success list, and the daily totals. `unseenErrors` error
 * transactions no client saw (attempts interrupted by a fault) count in the error list. Answers
 * problems.
 */
export async function checkBackOffice(
  base: string,
  completed: Completed[],
  unseenErrors = 0,
): Promise<string[]> {
  const problems: string[] = [];
  let accessToken: string;
  try {
    accessToken = await backOfficeToken(base);
  } catch (e) {
    return [(e as Error).message];
  }
  // A 503 says "try again" (a pooled connection that died with the outage answers one once): the
  // back office's reader retries, as a person reloading would; anything else is a problem.
  const get = async (path: string) => {
    for (let attempt = 1;; attempt++) {
      const res = await fetch(base + path, { headers: { authorization: `Bearer ${accessToken}` } });
      if (res.status === 503 && attempt < 5) {
        console.log(`${path} answered 503 (attempt ${attempt}): ${await res.text()}; trying again`);
        await new Promise((r) => setTimeout(r, 500));
        continue;
      }
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
      return await res.json();
    }
  };
  const expected = approvedSums(completed);
  const declined = completed.filter((c) => !c.approved).length + unseenErrors;

  const sums: Record<number, number> = {};
  let rows = 0;
  let total = -1;
  for (let page = 1;; page++) {
    const body = await get(`/api/transaction/get-all-success-transactions?limit=100&page=${page}`);
    total = body.total;
    for (const item of body.data) {
      rows++;
      const currency = item.resultData.DebitCurrency;
      sums[currency] = (sums[currency] ?? 0) + Number(item.resultData.DebitTotal);
    }
    if (body.data.length < 100) break;
  }
  if (total !== expected.count) {
    problems.push(`success list total ${total}, the client completed ${expected.count}`);
  }
  if (rows !== expected.count) {
    problems.push(`success list pages hold ${rows} rows, expected ${expected.count}`);
  }
  for (const currency of [1, 2]) {
    if ((sums[currency] ?? 0) !== (expected.sums[currency] ?? 0)) {
      problems.push(
        `sum of DebitTotal in currency ${currency}: ${sums[currency]}, expected ${expected.sums[currency]}`,
      );
    }
  }
  const errors = await get(`/api/transaction/get-all-error-transactions?limit=1`);
  if (errors.total !== declined) {
    problems.push(`error list total ${errors.total}, the client saw ${declined} declines`);
  }

  const daily = await get(`/api/transaction/daily-totals?days=2`);
  const dailySums: Record<number, number> = {};
  let dailyCount = 0;
  for (const day of daily.days) {
    for (const t of day.totals) {
      dailySums[t.currency] = (dailySums[t.currency] ?? 0) + t.amount;
      dailyCount += t.count;
    }
  }
  if (dailyCount !== expected.count) {
    problems.push(`daily totals count ${dailyCount}, expected ${expected.count}`);
  }
  for (const currency of [1, 2]) {
    if ((dailySums[currency] ?? 0) !== (expected.sums[currency] ?? 0)) {
      problems.push(
        `daily total in currency ${currency}: ${dailySums[currency]}, expected ${expected.sums[currency]}`,
      );
    }
  }
  return problems;
}
