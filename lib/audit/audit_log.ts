/**
 * The audit log as the back office reads it (issue 16): a page of entries, newest first, with the
 * filters (who, action, period) and a cursor, and the whole filtered log as a CSV file, streamed.
 * Owners and admins only (the routes declare it). Nothing here writes: the log is append-only, and
 * no route edits or deletes an entry.
 *
 * The cursor is the last entry's time and id, base64url-encoded: it hides nothing (whoever reads
 * the log sees both) and is checked when read back, so a mangled one is a clear 400.
 *
 * @module
 */

import { DomainError } from "@/lib/core/errors.ts";
import type { AuditEntry, AuditFilter, Store } from "@/lib/storage/types.ts";
import { BOM, csvRecord, formatUtc } from "@/lib/core/csv.ts";
import { dayStart } from "@/lib/core/zoned_time.ts";
import type { AuditActor, AuditPage } from "@/lib/shared/audit.ts";

export type { AuditActor, AuditPage };

/** The `cursor` is not one this server wrote. */
export class AuditCursorError extends DomainError {
  override readonly kind = "invalid";
  constructor() {
    super("cursor is not valid: use the nextCursor of the previous page");
  }
}

/** The filter is impossible (for example `to` before `from`). */
export class AuditFilterError extends DomainError {
  override readonly kind = "invalid";
}

/** The filters as the API takes them. */
export interface AuditQuery {
  actor?: string;
  action?: AuditEntry["action"];
  /** ISO 8601 date or instant. */
  from?: string;
  to?: string;
  /**
   * The museum's time zone (`config.museumTimeZone`): a date is its midnight there, the day the
   * back office shows an entry's time on.
   */
  timeZone: string;
}

/** The storage filter of a query: days are their start in the museum's time zone. */
export function auditFilter(query: AuditQuery): AuditFilter {
  const at = (s: string) => (s.length === 10 ? dayStart(s, query.timeZone) : new Date(s).toISOString());
  const filter: AuditFilter = {};
  if (query.actor !== undefined) filter.actorId = query.actor;
  if (query.action !== undefined) filter.action = query.action;
  if (query.from !== undefined) filter.from = at(query.from);
  if (query.to !== undefined) filter.to = at(query.to);
  if (filter.from !== undefined && filter.to !== undefined && filter.to < filter.from) {
    throw new AuditFilterError("to must not be before from");
  }
  return filter;
}

const encoder = new TextEncoder();

function writeCursor(e: AuditEntry): string {
  const bytes = encoder.encode(`${e.at}|${e.id}`);
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function readCursor(cursor: string): Pick<AuditEntry, "at" | "id"> {
  let text: string;
  try {
    text = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    throw new AuditCursorError();
  }
  const match = text.match(/^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([0-9a-f]{28})$/);
  if (!match || Number.isNaN(Date.parse(match[1]))) throw new AuditCursorError();
  return { at: match[1], id: match[2] };
}

/**
 * A page of the log matching `query`, newest first, after `cursor` (the previous page's
 * `nextCursor`). Throws {@link AuditCursorError} or {@link AuditFilterError}.
 *
 * @example
 * ```ts
 * const page = await auditPage(store, { action: "role-changed", timeZone: "Asia/Jerusalem" }, null, 50);
 * ```
 */
export async function auditPage(
  store: Store,
  query: AuditQuery,
  cursor: string | null,
  limit: number,
): Promise<AuditPage> {
  const filter = auditFilter(query);
  const before = cursor ? readCursor(cursor) : null;
  // One more than the page: whether there is a next page, without an empty last one.
  const entries = await store.audit.list(filter, limit + 1, before);
  const data = entries.slice(0, limit);
  return { data, nextCursor: entries.length > limit ? writeCursor(data.at(-1)!) : null };
}

/** The CSV's columns, in English (the log is the staff's record, not a donor-facing text). */
export const AUDIT_CSV_COLUMNS = ["Time (UTC)", "Action", "Who", "Admin ID", "Address", "Target", "Changes"];

/** One entry's CSV cells. */
export function auditCells(e: AuditEntry): string[] {
  return [
    formatUtc(e.at),
    e.action,
    e.actorEmail,
    e.actorId ?? "",
    e.address,
    e.target ?? "",
    JSON.stringify(e.changes),
  ];
}

/** The export's file name, e.g. `audit-2026-11-24.csv` (the UTC date). */
export const auditFileName = (now: Date) => `audit-${now.toISOString().slice(0, 10)}.csv`;

/**
 * Every entry matching `query` as a stream of CSV bytes (BOM, header, then a chunk per batch of
 * `batchSize` entries read from storage as the stream is read). The first batch is read before
 * answering, so a bad filter or a store that cannot answer rejects here; a failure later errors
 * the stream after calling `onError`.
 *
 * @example
 * ```ts
 * const body = await auditCsv(store, { action: "export", timeZone: "Asia/Jerusalem" });
 * return new Response(body, { headers: { "content-type": "text/csv" } });
 * ```
 */
export async function auditCsv(
  store: Store,
  query: AuditQuery,
  options: { batchSize?: number; onError?: (error: unknown) => void } = {},
): Promise<ReadableStream<Uint8Array>> {
  const filter = auditFilter(query);
  const size = options.batchSize ?? 500;
  let batch = await store.audit.list(filter, size);
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        let chunk = started ? "" : BOM + csvRecord(AUDIT_CSV_COLUMNS, -1);
        started = true;
        for (const e of batch) chunk += csvRecord(auditCells(e), -1);
        if (chunk) controller.enqueue(encoder.encode(chunk));
        if (batch.length < size) return controller.close();
        batch = await store.audit.list(filter, size, batch.at(-1)!);
      } catch (error) {
        options.onError?.(error);
        controller.error(error);
      }
    },
  });
}

/**
 * The staff the log's "who" filter offers: approved and deactivated accounts (pending and rejected
 * ones never acted), by email. Names and emails only: the log's readers see them in it anyway.
 *
 * @example
 * ```ts
 * const who = await auditActors(store); // [{ id, email, name }, …]
 * ```
 */
export async function auditActors(store: Store): Promise<AuditActor[]> {
  const [active, deactivated] = await Promise.all([
    store.admins.listByStatus("approved"),
    store.admins.listByStatus("deactivated"),
  ]);
  return [...active, ...deactivated]
    .map(({ id, email, name }) => ({ id, email, name }))
    .sort((a, b) => a.email < b.email ? -1 : a.email > b.email ? 1 : 0);
}
