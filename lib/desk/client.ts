/**
 * The front desk page's calls (issue 28): every look-up and every check-in of `/{lang}/desk` goes
 * through {@link deskClient}, so the offline queue (a later part of issue 28) can wrap this one
 * module: keep check-ins in the browser's storage and send them, each with its own id, when the
 * network returns. Browser code (a client folder of the build, `CLIENT_FOLDERS`): it imports only
 * `lib/shared/`, and is given the API client (the back office's, which sends the session's token).
 *
 * @module
 */
import type { CheckInAnswer, DeskMember, DeskVisitKind } from "@/lib/shared/visits.ts";

/** What the desk needs of an API client: a JSON call (`islands/shared/admin_api.ts` is one). */
export interface DeskApi {
  request<T>(path: string, init?: RequestInit): Promise<T>;
}

/** A visit as the desk records it. */
export interface VisitDraft {
  /** The visit's own id, made once ({@link newVisitId}) and sent again unchanged on every retry. */
  id: string;
  kind: DeskVisitKind;
  /** The member number; null for a visitor with no membership found (allow anyway only). */
  number: string | null;
  /** The scanned or chosen cardholder (0-based). */
  holder?: number;
  /** The visitor's name when no membership names them. */
  name?: string;
  guests: number;
  /** Why they were let in anyway (required for an override). */
  reason?: string;
  /** When they were let in, if not now (a queued visit sent later). */
  at?: string;
}

/** The desk's calls. */
export interface DeskClient {
  /** The member a scanned card's code names (the server checks its signature). */
  memberByCard(token: string): Promise<DeskMember>;
  /** The member a typed number names. */
  memberByNumber(number: string): Promise<DeskMember>;
  /** Members by name, address or number (at most 10). */
  search(text: string): Promise<DeskMember[]>;
  /** Records a visit; the same id again records nothing more (`repeated`). */
  checkIn(visit: VisitDraft): Promise<CheckInAnswer>;
}

/**
 * A new visit id (what the server's `POST /api/visits` takes: 16 to 64 of `A-Z a-z 0-9 _ -`).
 *
 * @example
 * ```ts
 * newVisitId(); // "3f1c9e7a-…"
 * ```
 */
export function newVisitId(): string {
  return crypto.randomUUID();
}

/**
 * The desk's calls over `api`, in `lang` (the level names the answers carry).
 *
 * @example
 * ```ts
 * const desk = deskClient(api, "he");
 * const member = await desk.memberByNumber("7K3M-Q9TD");
 * await desk.checkIn({ id: newVisitId(), kind: "check-in", number: member.number, holder: 0, guests: 1 });
 * ```
 */
export function deskClient(api: DeskApi, lang: string): DeskClient {
  const q = (params: Record<string, string>) => new URLSearchParams({ ...params, lang }).toString();
  return {
    memberByCard: (token) => api.request<DeskMember>(`/api/visits/member?${q({ token })}`),
    memberByNumber: (number) => api.request<DeskMember>(`/api/visits/member?${q({ number })}`),
    search: async (text) =>
      (await api.request<{ data: DeskMember[] }>(`/api/visits/search?${q({ q: text })}`)).data,
    checkIn: (visit) =>
      api.request<CheckInAnswer>(`/api/visits?${q({})}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(visit),
      }),
  };
}
