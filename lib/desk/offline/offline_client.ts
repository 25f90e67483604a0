/**
 * The desk's calls, working offline (issue 28, item 2): wraps `lib/desk/client.ts`'s client so that
 *
 * - a scanned card is looked up on the server when it answers, and otherwise checked on this device
 *   with the kept card key (`card_check.ts`), its level's name and guests from the page's levels;
 * - a check-in or allow-anyway is sent at once when the network is there and nothing waits before
 *   it, and otherwise kept in the queue (`queue.ts`) with its time and sent when the network returns;
 * - a number or a search, which need the server's members, says so offline.
 *
 * Browser code: it imports only `lib/desk/` and `lib/shared/`. The API client's errors are read by
 * their shape (`islands/shared/admin_api.ts`'s `ApiError`: `kind`, `status`, `message`).
 *
 * @module
 */
import type { CheckInAnswer, DeskMember } from "@/lib/shared/visits.ts";
import type { DeskClient, VisitDraft } from "@/lib/desk/client.ts";
import type { CardPublicJwk } from "./card_check.ts";
import type { CheckInQueue, SendResult } from "./queue.ts";

/** A level as the desk needs it offline: its name in the page's language and the guests it admits. */
export interface OfflineLevel {
  id: number;
  name: string;
  guests: number;
}

/** A member as the desk shows them; `offline` when read from the card alone. */
export type SeenMember = DeskMember & { offline?: true };

/** Why the desk could not answer offline (each has a text under `frontDesk.offline`). */
export class DeskOfflineError extends Error {
  constructor(readonly reason: "needsNetwork" | "unsupported" | "neverSynced" | "invalidCard") {
    super(`desk offline: ${reason}`);
    this.name = "DeskOfflineError";
  }
}

/** How a check-in ended: recorded (the server's answer), or kept to send later. */
export type CheckInOutcome = { queued: false; answer: CheckInAnswer } | { queued: true };

/** The desk's calls with the offline fallbacks. */
export interface OfflineDeskClient {
  memberByCard(token: string): Promise<SeenMember>;
  memberByNumber(number: string): Promise<DeskMember>;
  search(text: string): Promise<DeskMember[]>;
  checkIn(visit: VisitDraft): Promise<CheckInOutcome>;
  /** Sends one kept check-in (what the queue's flush calls). */
  send(visit: VisitDraft): Promise<SendResult>;
}

/**
 * The reason an API call's error refuses a check-in for good, or null when the check-in should wait
 * and be sent again: no answer (the network), a server error, a lost session (401, 403), a timeout
 * (408) or a rate limit (429).
 *
 * @example
 * ```ts
 * refusalOf(new ApiError("http", 409, { message: "This membership has lapsed" })); // "This membership has lapsed"
 * refusalOf(new ApiError("network")); // null
 * ```
 */
export function refusalOf(error: unknown): string | null {
  const e = error as { kind?: string; status?: number | null; message?: string } | null;
  const status = e?.kind === "http" ? e.status ?? 0 : 0;
  if (status < 400 || status >= 500 || [401, 403, 408, 429].includes(status)) return null;
  return e?.message || `HTTP ${status}`;
}

/**
 * `client` with the offline fallbacks, over the page's `queue` (null where the browser has no
 * IndexedDB: then the desk works online only), the kept key and the museum's levels.
 *
 * @example
 * ```ts
 * const desk = withOffline(deskClient(api, lang), { queue, key: () => storedCardKey()?.jwk ?? null, levels });
 * ```
 */
export function withOffline(
  client: DeskClient,
  options: {
    queue: CheckInQueue<VisitDraft> | null;
    key: () => CardPublicJwk | null;
    levels: OfflineLevel[];
    online?: () => boolean;
    now?: () => Date;
  },
): OfflineDeskClient {
  const online = options.online ?? (() => navigator.onLine);
  const now = options.now ?? (() => new Date());
  const needsNetwork = async <T>(call: () => Promise<T>) => {
    if (!online()) throw new DeskOfflineError("needsNetwork");
    try {
      return await call();
    } catch (e) {
      throw refusalOf(e) === null && (e as { kind?: string }).kind === "network"
        ? new DeskOfflineError("needsNetwork")
        : e;
    }
  };
  const fromCard = async (token: string): Promise<SeenMember> => {
    const jwk = options.key();
    if (!jwk) throw new DeskOfflineError("neverSynced");
    // Loaded with the first card read offline (the worker keeps the chunk): most scans are online.
    const { checkCardOffline } = await import("./card_check.ts");
    const answer = await checkCardOffline(token, jwk, now());
    if (!("card" in answer)) {
      throw new DeskOfflineError(answer.status === "unsupported" ? "unsupported" : "invalidCard");
    }
    const card = answer.card;
    const level = options.levels.find((l) => l.id === card.levelId);
    // Only the scanned cardholder's name is on the card: the others are left unnamed (not shown).
    const cardholders = Array.from({ length: card.holder + 1 }, (_, i) => i === card.holder ? card.name : "");
    return {
      state: answer.status === "valid" ? "active" : answer.status === "grace" ? "grace" : "lapsed",
      number: card.number,
      name: card.name,
      levelId: card.levelId,
      levelName: level?.name ?? "",
      validUntil: card.validUntil,
      graceUntil: card.expiresAt,
      cardholders,
      holder: card.holder,
      guests: level?.guests ?? 0,
      offline: true,
    };
  };
  const send = async (visit: VisitDraft): Promise<SendResult> => {
    try {
      await client.checkIn(visit);
      return { sent: true };
    } catch (e) {
      const reason = refusalOf(e);
      if (reason === null) throw e;
      return { sent: false, reason };
    }
  };
  return {
    async memberByCard(token) {
      if (!online()) return await fromCard(token);
      try {
        return await client.memberByCard(token);
      } catch (e) {
        if (refusalOf(e) !== null || (e as { status?: number }).status === 401) throw e;
        return await fromCard(token);
      }
    },
    memberByNumber: (number) => needsNetwork(() => client.memberByNumber(number)),
    search: (text) => needsNetwork(() => client.search(text)),
    send,
    async checkIn(visit) {
      const queue = options.queue;
      const waiting = queue ? (await queue.list()).some((e) => e.state === "waiting") : false;
      if (!queue || (online() && !waiting)) {
        try {
          return { queued: false, answer: await client.checkIn(visit) };
        } catch (e) {
          if (!queue || refusalOf(e) !== null) throw e;
        }
      }
      // Kept with its own time (the server records when the visitor came, not when it heard).
      await queue.add({ ...visit, at: visit.at ?? now().toISOString() });
      void queue.flush(send).catch(() => {});
      return { queued: true };
    },
  };
}
