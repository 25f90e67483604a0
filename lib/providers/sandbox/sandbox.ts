/**
 * The sandbox provider: a real, local stand-in for a card processor, so every flow runs end to end
 * on a fresh machine with no account anywhere. It keeps its books in our store (so it works across
 * app instances) and behaves like the real gateway where it matters: a hosted card page shown in
 * the payment frame, a result only the server can verify, card tokens for monthly giving, and a
 * simulated card terminal.
 *
 * Test cards and the card form's rules: `sandbox_cards.ts`.
 *
 * The terminal: `/sandbox/terminal/{terminalId}` shows the waiting sale with approve and decline
 * buttons; `SANDBOX_TERMINAL_AUTO` = `manual`, `approve`, `decline:<code>` or `timeout` decides
 * unattended.
 *
 * @module
 */
import { newId } from "@/lib/core/ids.ts";
import { bytesToHex, hmacKey } from "@/lib/shared/signing.ts";
import type { ResultData, SandboxRecord, Store } from "@/lib/storage/types.ts";
import { sandboxRefund } from "./refund.ts";
import { cardProblems, type CardSubmission, declineCodeOf, sandboxResultData } from "./cards.ts";
import type {
  HostedPaymentRequest,
  HostedPaymentSession,
  PaymentProvider,
  ProviderResult,
  TerminalResult,
  TerminalSaleRequest,
} from "@/lib/providers/provider.ts";

/**
 * Whether `ref` can be a sandbox reference (refs are {@link newId}s). Anything else is unknown
 * without a lookup: a path segment or form field of 10,000 characters must not reach storage
 * (Deno KV refuses keys over 2 KiB with an error).
 *
 * @example
 * ```ts
 * isSandboxRef(newId()); // true
 * isSandboxRef("../x"); // false
 * ```
 */
export function isSandboxRef(ref: string): boolean {
  return /^[A-Za-z0-9_-]{16,64}$/.test(ref);
}

/** How the simulated terminal decides: a person, or automatically. */
export type TerminalMode = "manual" | "approve" | "timeout" | `decline:${string}`;

/** Options of {@link createSandboxProvider}. */
export interface SandboxOptions {
  store: Store;
  /** Our public origin, for the hosted page's URL. */
  origin: string;
  /** Key for the confirmation keys the sandbox issues (derived from APP_SECRET). */
  secret: string;
  terminalMode: TerminalMode;
  /** How often a waiting terminal sale looks for a decision. */
  pollMs?: number;
  /** Sends the server-to-server notification (a fetch by default; tests may capture it). */
  notify?: (url: string, body: unknown) => Promise<void>;
}

async function confirmationKey(secret: string, userKey: string, amount: number): Promise<string> {
  const key = await hmacKey(new TextEncoder().encode(secret), ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${userKey}|${amount}`));
  return bytesToHex(new Uint8Array(mac)).slice(0, 32);
}

/**
 * Creates the sandbox provider.
 *
 * @example
 * ```ts
 * const provider = createSandboxProvider({ store, origin: "http://localhost:8000", secret, terminalMode: "manual" });
 * ```
 */
export function createSandboxProvider(options: SandboxOptions): PaymentProvider & SandboxControls {
  const { store } = options;
  const pollMs = options.pollMs ?? 200;
  const notify = options.notify ?? (async (url: string, body: unknown) => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(5000),
    });
    await res.body?.cancel();
  });
  const now = () => new Date().toISOString();

  const toResult = (record: SandboxRecord): ProviderResult => {
    const data = record.data as {
      statusCode?: string;
      errorMessage?: string;
      resultData?: ResultData;
      token?: string;
    };
    return {
      providerRef: record.ref,
      statusCode: data.statusCode ?? "301",
      errorMessage: data.errorMessage ?? null,
      amount: record.amount,
      currency: record.currency,
      reference: record.reference,
      token: data.token ?? null,
      resultData: data.resultData ?? null,
      pending: record.status === "open",
    };
  };

  const provider: PaymentProvider & SandboxControls = {
    id: "sandbox",
    displayName: "Sandbox",
    frameOrigins: [],
    refundsWithoutToken: true,

    async startHostedPayment(request: HostedPaymentRequest): Promise<HostedPaymentSession> {
      const ref = newId();
      const key = await confirmationKey(options.secret, request.userKey, request.amount);
      await store.sandbox.create({
        ref,
        kind: "hosted",
        status: "open",
        reference: request.paymentId,
        terminalId: null,
        amount: request.amount,
        currency: request.currency,
        createdAt: now(),
        updatedAt: now(),
        data: {
          userKey: request.userKey,
          confirmationKey: key,
          returnUrl: request.returnUrl,
          notifyUrl: request.notifyUrl,
          tokenize: request.tokenize,
          checkOnly: request.checkOnly === true,
          language: request.language,
        },
      });
      return { url: `${options.origin}/sandbox/pay/${ref}`, providerRef: ref, confirmationKey: key };
    },

    readReturn(params) {
      const ref = params.get("SandboxTransactionId");
      const code = params.get("SandboxStatusCode");
      return {
        providerRef: ref && /^[A-Za-z0-9_-]{16,64}$/.test(ref) ? ref : null,
        statusCode: code && /^\d{3}$/.test(code) ? code : null,
      };
    },

    readNotification(body) {
      const ref = (body as { ResultData?: { TransactionId?: unknown } } | null)?.ResultData?.TransactionId;
      return { providerRef: typeof ref === "string" && /^[A-Za-z0-9_-]{16,64}$/.test(ref) ? ref : null };
    },

    async verifyPayment(providerRef, expected) {
      const record = await store.sandbox.get(providerRef);
      if (!record || record.kind !== "hosted") {
        return {
          providerRef,
          statusCode: "404",
          errorMessage: "No such payment",
          amount: null,
          currency: null,
          reference: null,
          token: null,
          resultData: null,
        };
      }
      const result = toResult(record);
      const data = record.data as { userKey?: string; confirmationKey?: string; checkOnly?: boolean };
      const keyOk = data.userKey === expected.userKey &&
        (expected.confirmationKey === null || data.confirmationKey === expected.confirmationKey);
      // A check-only page (a card update) must not pass for a charge, nor the reverse.
      const modeOk = (data.checkOnly === true) === (expected.checkOnly === true);
      if (!keyOk || !modeOk || record.amount !== expected.amount) {
        return {
          ...result,
          statusCode: "MISMATCH",
          errorMessage: "The payment does not match this attempt",
          token: null,
        };
      }
      return result;
    },

    async chargeToken(request) {
      const token = await store.sandbox.get(request.token);
      const ref = newId();
      const code = !token || token.kind !== "token" || token.status !== "active"
        ? "506"
        : String((token.data as { declineCode?: string }).declineCode ?? "000");
      const card = String((token?.data as { card?: string } | undefined)?.card ?? "0000000000000000");
      const resultData = sandboxResultData(card, request.amount, request.currency, code);
      const record: SandboxRecord = {
        ref,
        kind: "charge",
        status: code === "000" ? "paid" : "declined",
        reference: request.reference,
        terminalId: null,
        amount: request.amount,
        currency: request.currency,
        createdAt: now(),
        updatedAt: now(),
        data: { statusCode: code, errorMessage: code === "000" ? null : `Declined (${code})`, resultData },
      };
      await store.sandbox.create(record);
      return toResult(record);
    },

    async lookupCharge(reference) {
      const record = await store.sandbox.findByReference(reference);
      return record && record.kind === "charge" ? toResult(record) : null;
    },

    refund: (request) => sandboxRefund(store, request),

    async terminalSale(request: TerminalSaleRequest): Promise<TerminalResult> {
      const ref = newId();
      await store.sandbox.create({
        ref,
        kind: "terminal",
        status: "waiting",
        reference: request.reference,
        terminalId: request.terminalId,
        amount: request.amount,
        currency: request.currency,
        createdAt: now(),
        updatedAt: now(),
        data: { shopNumber: request.shopNumber, deadlineAt: Date.now() + request.deadlineMs },
      });
      const mode = options.terminalMode;
      if (mode === "approve") await provider.decideTerminalSale(ref, "000");
      else if (mode.startsWith("decline:")) {
        await provider.decideTerminalSale(ref, mode.slice("decline:".length));
      }
      const deadline = Date.now() + request.deadlineMs;
      for (;;) {
        const record = await store.sandbox.get(ref);
        if (record && record.status !== "waiting") return terminalEnvelope(record);
        if (Date.now() >= deadline) {
          // Time is up: close the sale so a late tap cannot charge it. If a person decided in the
          // same instant, their decision stands and is answered.
          const closed = await store.sandbox.transition(ref, "waiting", "timeout", {
            statusCode: "512",
            errorMessage: "The terminal did not answer in time; nothing was charged",
          }, now());
          const final = await store.sandbox.get(ref);
          if (closed || final) return terminalEnvelope(final!);
        }
        await new Promise((resolve) =>
          setTimeout(resolve, Math.min(pollMs, Math.max(1, deadline - Date.now())))
        );
      }
    },

    async lookupTerminalSale(reference) {
      const record = await store.sandbox.findByReference(reference);
      if (!record || record.kind !== "terminal") return null;
      if (record.status !== "waiting") return terminalEnvelope(record);
      const deadlineAt = Number((record.data as { deadlineAt?: number }).deadlineAt ?? 0);
      if (Date.now() < deadlineAt) return "waiting";
      // Its deadline passed with nobody waiting for it (the sale's request died): close it, as the
      // waiting request would have, unless a decision lands first.
      await store.sandbox.transition(record.ref, "waiting", "timeout", {
        statusCode: "512",
        errorMessage: "The terminal did not answer in time; nothing was charged",
      }, now());
      const final = await store.sandbox.get(record.ref);
      return final ? terminalEnvelope(final) : null;
    },

    async decideTerminalSale(ref, code) {
      if (!isSandboxRef(ref)) return false;
      const record = await store.sandbox.get(ref);
      if (!record || record.kind !== "terminal") return false;
      const card = "4580000000000000";
      return await store.sandbox.transition(ref, "waiting", code === "000" ? "paid" : "declined", {
        statusCode: code,
        errorMessage: code === "000" ? null : `Declined at the terminal (${code})`,
        resultData: sandboxResultData(card, record.amount, record.currency, code),
      }, now());
    },

    async submitCard(ref, card) {
      if (!isSandboxRef(ref)) return { status: "unknown" };
      const record = await store.sandbox.get(ref);
      if (!record || record.kind !== "hosted") return { status: "unknown" };
      if (record.status !== "open") return { status: "done", record };
      const problems = cardProblems(card);
      if (Object.keys(problems).length > 0) return { status: "invalid", problems };
      const code = declineCodeOf(card.cardNumber) ?? "000";
      const data = record.data as { tokenize?: boolean; notifyUrl?: string };
      const token = code === "000" && data.tokenize ? `tok_${newId()}` : null;
      const resultData = sandboxResultData(card.cardNumber, record.amount, record.currency, code);
      const moved = await store.sandbox.transition(ref, "open", code === "000" ? "paid" : "declined", {
        statusCode: code,
        errorMessage: code === "000" ? null : `Declined (${code})`,
        resultData,
        token,
      }, now());
      if (!moved) return { status: "done", record: (await store.sandbox.get(ref))! };
      if (token) {
        await store.sandbox.create({
          ref: token,
          kind: "token",
          status: "active",
          reference: record.reference,
          terminalId: null,
          amount: record.amount,
          currency: record.currency,
          createdAt: now(),
          updatedAt: now(),
          data: {
            card: card.cardNumber.replace(/\D/g, "").slice(-4).padStart(16, "4"),
            cardMasked: resultData.CreditCardNumber,
          },
        });
      }
      const final = (await store.sandbox.get(ref))!;
      if (data.notifyUrl) {
        // Like a real processor, notify the merchant's server too; the merchant re-verifies.
        notify(data.notifyUrl, {
          StatusCode: code,
          ErrorMessage: final.data.errorMessage,
          ResultData: { TransactionId: ref },
        })
          .catch(() => {});
      }
      return { status: "done", record: final };
    },
  };
  return provider;
}

function terminalEnvelope(record: SandboxRecord): TerminalResult {
  const data = record.data as { statusCode?: string; errorMessage?: string | null; resultData?: ResultData };
  const r = data.resultData;
  return {
    StatusCode: data.statusCode ?? "512",
    ErrorMessage: data.errorMessage ?? "",
    ResultData: {
      TransactionId: record.ref,
      ShvaResult: String(r?.ShvaResult ?? data.statusCode ?? ""),
      VoucherId: String(r?.VoucherId ?? ""),
      PelecardTransactionId: record.ref,
      DebitTotal: String(record.amount),
      DebitCurrency: record.currency,
      CreditCardNumber: r?.CreditCardNumber ?? "",
      CreditType: r?.CreditType ?? "",
      DebitApproveNumber: r?.DebitApproveNumber ?? null,
    },
  };
}

/** How long a card update's open check page (and the token it made) is kept for its return. */
const CHECK_PAGE_MS = 86_400_000;

/**
 * Whether a sandbox record may still be read, so retention must keep it however old it is:
 * - a hosted payment or terminal sale while our payment it belongs to (`reference`) is pending:
 *   the return, the notification, reconciliation and a repeated kiosk request verify it; a card
 *   update's check page while its attempt is open (a day at most: an abandoned one is left);
 * - a card token while that payment is pending (its success creates the subscription) or while an
 *   active subscription charges it (a card update's token: while its attempt is open, or its gift
 *   is active with this token);
 * - a token charge while billing's claim of it is still `started`: recovery looks it up by
 *   reference.
 * Anything else is the simulated processor's history, which nothing reads again.
 *
 * @example
 * ```ts
 * if (!await sandboxRecordNeeded(store, record)) await store.sandbox.deleteUnchanged([record]);
 * ```
 */
export async function sandboxRecordNeeded(store: Store, record: SandboxRecord): Promise<boolean> {
  switch (record.kind) {
    case "hosted": {
      // A card update's check page is read again while its attempt is open, for a day at most
      // (nothing closes an abandoned attempt; after a day its page is left).
      const update = await store.cardUpdates.get(record.reference);
      if (update) {
        return update.status === "open" && Date.parse(update.createdAt) > Date.now() - CHECK_PAGE_MS;
      }
      return (await store.payments.get(record.reference))?.status === "pending";
    }
    case "terminal":
      return (await store.payments.get(record.reference))?.status === "pending";
    case "token": {
      // A donor portal card update's token names its attempt: needed while that gift charges it.
      const update = await store.cardUpdates.get(record.reference);
      if (update) {
        if (update.status === "open" && Date.parse(update.createdAt) > Date.now() - CHECK_PAGE_MS) {
          return true;
        }
        const sub = await store.subscriptions.get(update.subscriptionId);
        return sub?.status === "active" && sub.token === record.ref;
      }
      const payment = await store.payments.get(record.reference);
      if (payment?.status === "pending") return true;
      // Tokens name the payment that created them; seeded ones (tests, demos) name the donor.
      const subscriptions = await store.subscriptions.listByDonor(payment?.donorId ?? record.reference);
      return subscriptions.some((s) => s.status === "active" && s.token === record.ref);
    }
    case "charge": {
      // billing.ts sends `${subscriptionId}:${period}:${attempt}`; the period has colons itself.
      const m = record.reference.match(/^([^:]+):(.+):(\d+)$/);
      if (!m || Number.isNaN(Date.parse(m[2]))) return false;
      return (await store.charges.get(m[1], m[2], Number(m[3])))?.status === "started";
    }
  }
}

// The card form's submission is part of the controls' contract: the card page imports it from here.
export type { CardSubmission };

/** What only the sandbox offers: its card page and terminal decisions. */
export interface SandboxControls {
  /** The card form's submission; answers field problems, or the finished record. */
  submitCard(
    ref: string,
    card: CardSubmission,
  ): Promise<
    | { status: "unknown" }
    | { status: "invalid"; problems: Record<string, string> }
    | { status: "done"; record: SandboxRecord }
  >;
  /** A person (or the auto mode) approves ("000") or declines a waiting terminal sale. */
  decideTerminalSale(ref: string, code: string): Promise<boolean>;
}
