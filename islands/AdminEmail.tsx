import { AdminShell } from "@/islands/admin/AdminShell.tsx";
import { OutboxMessages } from "@/islands/admin/OutboxMessages.tsx";

/**
 * The outgoing email section, `/{lang}/admin/email` (issue 26; owners and admins): the outbox's
 * messages and their delivery (`admin/OutboxMessages.tsx`).
 */
export default function AdminEmail(props: { lang: string; timeZone: string; texts: Record<string, string> }) {
  return (
    <AdminShell lang={props.lang} timeZone={props.timeZone} section="email" texts={props.texts}>
      {({ api, t, ready }) => <OutboxMessages api={api} t={t} ready={ready} />}
    </AdminShell>
  );
}
