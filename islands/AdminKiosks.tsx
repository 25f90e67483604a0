import { AdminShell } from "@/islands/admin/AdminShell.tsx";
import { KioskDevices } from "@/islands/admin/KioskDevices.tsx";

/**
 * The kiosks section, `/{lang}/admin/kiosks` (issue 26; owners and admins): the card terminals'
 * kiosk devices, paired, re-paired and revoked here (`admin/KioskDevices.tsx`).
 */
export default function AdminKiosks(
  props: { lang: string; timeZone: string; texts: Record<string, string> },
) {
  return (
    <AdminShell lang={props.lang} timeZone={props.timeZone} section="kiosks" texts={props.texts}>
      {({ api, t, lang, ready }) => <KioskDevices api={api} t={t} lang={lang} ready={ready} />}
    </AdminShell>
  );
}
