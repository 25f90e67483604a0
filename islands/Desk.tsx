import type { InputHTMLAttributes } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { DeskMember } from "@/lib/shared/visits.ts";
import { deskClient, newVisitId, type VisitDraft } from "@/lib/desk/client.ts";
import {
  DeskOfflineError,
  type OfflineDeskClient,
  type OfflineLevel,
  type SeenMember,
  withOffline,
} from "@/lib/desk/offline/offline_client.ts";
import { storedCardKey } from "@/lib/desk/offline/key_store.ts";
import type { SendResult } from "@/lib/desk/offline/queue.ts";
import { ApiError } from "@/islands/shared/admin_api.ts";
import { listFailure } from "@/islands/shared/account_forms.ts";
import { AdminShell, type SectionView } from "@/islands/admin/AdminShell.tsx";
import { isolate, messageText } from "@/islands/shared/texts.ts";
import { DeskAnswer, type VisitChoice } from "@/islands/desk/DeskAnswer.tsx";
import { readQr } from "@/islands/desk/scan.ts";
import { useDates } from "@/islands/shared/dates.tsx";
import { OfflineStatus, useDeskOffline } from "@/islands/desk/offline.tsx";

/** The page's language, the museum's time zone, the texts, and the levels (for cards read offline). */
export interface DeskProps {
  lang: string;
  timeZone: string;
  texts: Record<string, string>;
  levels: OfflineLevel[];
}

type View =
  | { kind: "find" }
  | { kind: "results"; members: DeskMember[] }
  | { kind: "answer"; member: SeenMember }
  | { kind: "done"; text: string };

/**
 * The front desk (issue 28), `/{lang}/desk`, for a tablet held in one hand: scan a member card's QR
 * code with the camera (or a picture of it), type the member number, or search by name or email;
 * then the full-screen answer ({@link DeskAnswer}) and **Check in** or **Allow anyway**. Every call
 * goes through `lib/desk/client.ts` (the offline queue wraps it later), with the signed-in staff
 * member's session, in the back office's shell (who is signed in, sign out; the front desk, admins
 * and owners only: anyone else gets the shell's notice, and the server refuses their calls).
 */
export default function Desk(props: DeskProps) {
  return (
    <AdminShell lang={props.lang} timeZone={props.timeZone} section="desk" texts={props.texts}>
      {(view) => <DeskBody view={view} levels={props.levels} />}
    </AdminShell>
  );
}

function DeskBody(props: { view: SectionView; levels: OfflineLevel[] }) {
  const { t, api, lang } = props.view;
  // Offline (issue 28): cards checked with the kept key, check-ins queued and sent when it returns.
  const offline = useDeskOffline<VisitDraft>(lang, (visit): Promise<SendResult> => desk.send(visit));
  const desk: OfflineDeskClient = useMemo(
    () =>
      withOffline(deskClient(api, lang), {
        queue: offline.queue,
        key: () => storedCardKey()?.jwk ?? null,
        levels: props.levels,
      }),
    [],
  );
  // Offline the server cannot confirm the session: the stored one serves (the calls carry its token).
  const ready = props.view.ready || (!offline.online && props.view.admin !== null);
  const dates = useDates();
  const [view, setView] = useState<View>({ kind: "find" });
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [scanning, setScanning] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  // One id per visit shown: a retry after a failure resends the same one (recorded once).
  const visitId = useRef(newVisitId());

  const problem = (error: unknown) =>
    error instanceof DeskOfflineError
      ? t(error.reason === "invalidCard" ? "frontDesk.invalidCard" : `frontDesk.offline.${error.reason}`)
      : error instanceof ApiError && error.status === 400 && /member card/.test(error.message)
      ? t("frontDesk.invalidCard")
      : error instanceof ApiError && error.status === 400 && /member number/.test(error.message)
      ? t("frontDesk.invalidNumber")
      : t("transactions.errorPrefix") + messageText(t, listFailure(error));

  async function look(find: () => Promise<SeenMember | DeskMember[]>) {
    setBusy(true);
    setNotice(null);
    try {
      const found = await find();
      visitId.current = newVisitId();
      setFailure(null);
      if (!Array.isArray(found)) setView({ kind: "answer", member: found });
      else if (found.length === 1) setView({ kind: "answer", member: found[0] });
      else if (found.length === 0) setNotice(t("frontDesk.noResults"));
      else setView({ kind: "results", members: found });
    } catch (error) {
      setNotice(problem(error));
    } finally {
      setBusy(false);
    }
  }

  async function record(member: DeskMember, choice: VisitChoice) {
    setBusy(true);
    setFailure(null);
    try {
      const outcome = await desk.checkIn({ ...choice, id: visitId.current });
      if (outcome.queued) return setView({ kind: "done", text: t("frontDesk.offline.queued") });
      const { visit } = outcome.answer;
      const name = visit.cardholder || member.name;
      const key = visit.kind === "override" ? "frontDesk.allowed" : "frontDesk.checkedIn";
      setView({ kind: "done", text: t(key, { name: isolate(name), count: visit.guests }) });
    } catch (error) {
      setFailure(error instanceof ApiError && error.status === 409 ? error.message : problem(error));
    } finally {
      setBusy(false);
    }
  }

  const next = () => {
    setView({ kind: "find" });
    setFailure(null);
    setNotice(null);
  };

  // The camera: read a frame every quarter second until a code is found or the scan is stopped.
  useEffect(() => {
    if (!scanning) return;
    let stream: MediaStream | null = null;
    let stopped = false;
    (async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
        if (stopped || !video.current) return;
        video.current.srcObject = stream;
        await video.current.play();
        while (!stopped) {
          const token = await readQr(video.current).catch(() => null);
          if (token && !stopped) {
            setScanning(false);
            await look(() => desk.memberByCard(token));
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      } catch {
        if (!stopped) (setScanning(false), setNotice(t("frontDesk.cameraUnavailable")));
      }
    })();
    return () => {
      stopped = true;
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, [scanning]);

  async function picture(file: File | undefined) {
    if (!file) return;
    setNotice(null);
    try {
      const token = await readQr(await createImageBitmap(file));
      if (!token) return setNotice(t("frontDesk.noCode"));
      await look(() => desk.memberByCard(token));
    } catch {
      setNotice(t("frontDesk.noCode"));
    }
  }

  return (
    <>
      <div class="desk" data-ready={ready ? "" : undefined}>
        <OfflineStatus
          state={offline}
          t={t}
          formatTime={(iso) => dates.dateTime(iso) ?? iso}
          describe={(visit) => visit.name || visit.number || ""}
        />
        <p>{t("frontDesk.intro")}</p>
        <section class="desk-scan" aria-label={t("frontDesk.scan")}>
          {scanning
            ? (
              <>
                <video
                  ref={video}
                  class="desk-video"
                  muted
                  playsInline
                  aria-label={t("frontDesk.scanHint")}
                />
                <p>{t("frontDesk.scanHint")}</p>
                <button type="button" class="button button-outline" onClick={() => setScanning(false)}>
                  {t("frontDesk.scanStop")}
                </button>
              </>
            )
            : (
              <button
                type="button"
                class="button button-primary desk-scan-button"
                disabled={!ready || busy}
                onClick={() => setScanning(true)}
              >
                {t("frontDesk.scan")}
              </button>
            )}
          <label class="desk-picture">
            {t("frontDesk.scanImage")}
            <input
              type="file"
              accept="image/*"
              capture="environment"
              disabled={!ready || busy}
              onChange={(e) => picture(e.currentTarget.files?.[0])}
            />
          </label>
        </section>
        <FindForm
          id="desk-number"
          label={t("frontDesk.numberLabel")}
          button={t("frontDesk.find")}
          disabled={!ready || busy}
          input={{ autocapitalize: "characters", maxLength: 20, dir: "ltr" }}
          onFind={(number) => look(() => desk.memberByNumber(number))}
        />
        <FindForm
          id="desk-search"
          search
          label={t("frontDesk.searchLabel")}
          button={t("frontDesk.search")}
          disabled={!ready || busy}
          input={{ type: "search", maxLength: 320 }}
          onFind={(text) => look(() => desk.search(text))}
        />
        <div aria-live="polite">
          {busy && view.kind === "find" && <p role="status">{t("frontDesk.searching")}</p>}
          {notice && <p class="form-alert desk-notice" role="alert">{notice}</p>}
        </div>
        {view.kind === "results" && (
          <section class="desk-results" aria-labelledby="desk-results-title">
            <h2 id="desk-results-title">{t("frontDesk.results")}</h2>
            <ul>
              {view.members.map((m) => (
                <li key={m.number}>
                  <button
                    type="button"
                    class={`desk-result desk-result-${m.state}`}
                    onClick={() => ((visitId.current = newVisitId()), setView({ kind: "answer", member: m }))}
                  >
                    <strong>{m.name}</strong> <bdi>{m.number}</bdi> · {m.levelName} ·{" "}
                    {t(`frontDesk.states.${m.state}`)}
                  </button>
                </li>
              ))}
            </ul>
          </section>
        )}
        {view.kind === "answer" && (
          <DeskAnswer
            key={view.member.number ?? "unknown"}
            t={t}
            member={view.member}
            busy={busy}
            failure={failure}
            onRecord={(choice) => record(view.member, choice)}
            onNext={next}
          />
        )}
        {view.kind === "done" && (
          <section
            class="desk-answer desk-answer-done"
            role="dialog"
            aria-modal="true"
            aria-labelledby="desk-done"
          >
            <h2 id="desk-done" class="desk-state desk-done-text">{view.text}</h2>
            <div class="desk-actions">
              <button type="button" class="button button-primary desk-next" onClick={next}>
                {t("frontDesk.next")}
              </button>
            </div>
          </section>
        )}
      </div>
    </>
  );
}

/** One of the desk's look-up forms: a labelled box and its button; answers the trimmed text. */
function FindForm(props: {
  id: string;
  label: string;
  button: string;
  disabled: boolean;
  search?: boolean;
  input: InputHTMLAttributes<HTMLInputElement>;
  onFind: (text: string) => void;
}) {
  return (
    <form
      class="desk-find"
      role={props.search ? "search" : undefined}
      onSubmit={(e) => {
        e.preventDefault();
        const text = String(new FormData(e.currentTarget).get("text") ?? "").trim();
        if (text) props.onFind(text);
      }}
    >
      <label for={props.id}>{props.label}</label>
      <div class="desk-row">
        <input {...props.input} id={props.id} name="text" autocomplete="off" />
        <button type="submit" class="button button-primary" disabled={props.disabled}>{props.button}</button>
      </div>
    </form>
  );
}
