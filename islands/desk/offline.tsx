/**
 * The desk page's offline part (issue 28, item 2): whether the network is there, the queue of
 * check-ins waiting to be sent (and those the server refused), when the desk last synced the
 * museum's card key, and the banner and list that show it. The desk island uses
 * {@link useDeskOffline} and renders {@link OfflineStatus}; the mechanisms live in
 * `lib/desk/offline/` (the card check, the kept key, the queue, the worker's registration).
 *
 * @module
 */
import { useEffect, useMemo, useState } from "preact/hooks";
import { CheckInQueue, keepSending, type QueuedCheckIn, type SendCheckIn } from "@/lib/desk/offline/queue.ts";
import { type StoredCardKey, storedCardKey, syncCardKey } from "@/lib/desk/offline/key_store.ts";
import { registerDeskWorker } from "@/lib/desk/offline/register.ts";
import type { Translate } from "@/islands/shared/texts.ts";

/** What the desk knows of its offline state. */
export interface DeskOffline<T extends { id: string }> {
  /** The browser says it is online (`navigator.onLine`, `online`/`offline` events). */
  online: boolean;
  /** Every kept check-in, in order: waiting ones and failed ones. */
  entries: QueuedCheckIn<T>[];
  /** The card key kept at the last sync, with its time; null before the first. */
  key: StoredCardKey | null;
  /** The queue itself: the island adds check-ins to it and sends them through it. */
  queue: CheckInQueue<T> | null;
}

/**
 * Registers the desk's worker, syncs the card key (now and when the network returns), and keeps the
 * queue sending through `send` (the desk's client) while the page is open.
 *
 * @example
 * ```ts
 * const offline = useDeskOffline(lang, (request) => client.checkIn(request));
 * ```
 */
export function useDeskOffline<T extends { id: string }>(lang: string, send: SendCheckIn<T>): DeskOffline<T> {
  const [online, setOnline] = useState(true);
  const [entries, setEntries] = useState<QueuedCheckIn<T>[]>([]);
  const [key, setKey] = useState<StoredCardKey | null>(null);
  const queue = useMemo(() => typeof indexedDB === "undefined" ? null : new CheckInQueue<T>(), []);
  useEffect(() => {
    void registerDeskWorker(lang);
    setKey(storedCardKey());
    const sync = () => void syncCardKey().then(setKey);
    const onLine = () => {
      setOnline(navigator.onLine);
      if (navigator.onLine) sync();
    };
    onLine();
    addEventListener("online", onLine);
    addEventListener("offline", onLine);
    if (!queue) return () => (removeEventListener("online", onLine), removeEventListener("offline", onLine));
    const refresh = () => void queue.list().then(setEntries);
    const unsubscribe = queue.subscribe(refresh);
    refresh();
    const stop = keepSending(queue, send);
    return () => {
      removeEventListener("online", onLine);
      removeEventListener("offline", onLine);
      unsubscribe();
      stop();
    };
  }, []);
  return { online, entries, key, queue };
}

/**
 * The offline banner, the last sync, "waiting to send (N)" and the check-ins the server refused
 * (each with its reason and a button to dismiss it). Texts: `frontDesk.offline.*`.
 */
export function OfflineStatus<T extends { id: string }>(props: {
  state: DeskOffline<T>;
  t: Translate;
  /** The time of a sync or a check-in as the desk shows times. */
  formatTime: (iso: string) => string;
  /** Says who a kept check-in was for (the cardholder's name or number). */
  describe: (request: T) => string;
}) {
  const { state, t } = props;
  const waiting = state.entries.filter((e) => e.state === "waiting").length;
  const failed = state.entries.filter((e) => e.state === "failed");
  return (
    <div class="desk-offline">
      {!state.online && (
        <p class="desk-offline-banner" role="status">
          <strong>{t("frontDesk.offline.banner")}</strong> {t("frontDesk.offline.bannerText")}
        </p>
      )}
      <p class="desk-offline-sync">
        {state.key
          ? t("frontDesk.offline.lastSync", { time: props.formatTime(state.key.syncedAt) })
          : t("frontDesk.offline.neverSynced")}
      </p>
      <p class="desk-offline-queue" role="status" aria-live="polite">
        {waiting > 0 ? t("frontDesk.offline.waiting", { count: waiting }) : ""}
      </p>
      {failed.length > 0 && (
        <section class="desk-offline-failed" aria-labelledby="desk-offline-failed">
          <h2 id="desk-offline-failed">{t("frontDesk.offline.failedTitle", { count: failed.length })}</h2>
          <ul>
            {failed.map((entry) => (
              <li key={entry.seq}>
                <span>
                  <bdi>{props.describe(entry.request)}</bdi> · <bdi>{props.formatTime(entry.queuedAt)}</bdi> ·
                  {" "}
                  {t("frontDesk.offline.failedReason", { reason: entry.reason ?? "" })}
                </span>
                <button
                  type="button"
                  class="button button-outline"
                  onClick={() => void state.queue?.remove(entry.seq)}
                >
                  {t("frontDesk.offline.dismiss")}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
