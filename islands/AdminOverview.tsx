import { AdminShell } from "@/islands/admin/AdminShell.tsx";
import { Overview } from "@/islands/admin/Overview.tsx";

/**
 * The back office's overview, `/{lang}/admin` (issue 26): where signing in lands. Its content is
 * `admin/Overview.tsx`, inside the shell every section shares.
 */
export default function AdminOverview(
  props: { lang: string; timeZone: string; texts: Record<string, string> },
) {
  return (
    <AdminShell lang={props.lang} timeZone={props.timeZone} section="overview" texts={props.texts}>
      {(view) => <Overview {...view} />}
    </AdminShell>
  );
}
