import { useEffect, useState } from "preact/hooks";
import { listFailure } from "@/islands/shared/account_forms.ts";
import { messageText } from "@/islands/shared/texts.ts";
import { AdminShell, type SectionView } from "@/islands/admin/AdminShell.tsx";
import { type EditorLanguage, MuseumEditor } from "@/islands/admin/MuseumEditor.tsx";
import type { FormLimits } from "@/islands/admin/museum_form.ts";

/** The page's language and texts. */
export interface AdminSettingsProps {
  lang: string;
  /** The museum's time zone (`config.museumTimeZone`): times are shown on its clock, with its offset. */
  timeZone: string;
  texts: Record<string, string>;
  /** The site's languages, each by its own name, for the museum editor's fields. */
  languages: EditorLanguage[];
  /** The smallest and largest price the server takes (major units), for its messages. */
  limits: FormLimits;
}

interface FlagSetting {
  flag: string;
  enabled: boolean;
  updatedAt: string | null;
}

/**
 * The settings section (issues 16, 26 and 27), `/{lang}/admin/settings` (owners): the museum's
 * identity and levels (`admin/MuseumEditor.tsx`), and the feature flags; switch one and every
 * instance follows within seconds. Each change is audited by the server.
 */
export default function AdminSettings(props: AdminSettingsProps) {
  return (
    <AdminShell lang={props.lang} timeZone={props.timeZone} section="settings" texts={props.texts}>
      {(view) => (
        <>
          <MuseumEditor view={view} languages={props.languages} limits={props.limits} />
          <FeatureFlags view={view} />
        </>
      )}
    </AdminShell>
  );
}

function FeatureFlags(props: { view: SectionView }) {
  const { api, t, ready } = props.view;
  const [flags, setFlags] = useState<FlagSetting[] | null>(null);
  const [notice, setNotice] = useState("");
  const [busy, setBusy] = useState(false);
  const failed = (error: unknown) =>
    setNotice(t("transactions.errorPrefix") + messageText(t, listFailure(error)));

  const load = () => api.request<FlagSetting[]>("/api/settings/flags").then(setFlags).catch(failed);
  useEffect(() => {
    if (ready) load();
  }, [ready]);

  async function switchFlag(flag: FlagSetting) {
    setBusy(true);
    try {
      await api.request("/api/settings/flags", {
        method: "POST",
        body: JSON.stringify({ flag: flag.flag, enabled: !flag.enabled }),
      });
      setNotice(t("staffAdmin.flagChanged", {
        flag: t(`staffAdmin.flags.${flag.flag}`),
        state: t(flag.enabled ? "staffAdmin.off" : "staffAdmin.on"),
      }));
      await load();
    } catch (error) {
      failed(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <p class="staff-notice" role="status">{notice}</p>
      <section aria-labelledby="flags-title" data-loaded={flags ? "" : undefined}>
        <h2 id="flags-title">{t("staffAdmin.flagsTitle")}</h2>
        <p>{t("staffAdmin.flagsIntro")}</p>
        <ul class="flag-list">
          {flags?.map((f) => (
            <li key={f.flag}>
              <span id={`flag-${f.flag}`}>{t(`staffAdmin.flags.${f.flag}`)}</span>{" "}
              <span class={f.enabled ? "badge badge-success" : "badge"}>
                {t(f.enabled ? "staffAdmin.on" : "staffAdmin.off")}
              </span>{" "}
              <button
                type="button"
                class="button button-outline"
                disabled={busy}
                aria-describedby={`flag-${f.flag}`}
                onClick={() => switchFlag(f)}
              >
                {t(f.enabled ? "staffAdmin.turnOff" : "staffAdmin.turnOn")}
              </button>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
