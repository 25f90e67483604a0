import { AdminShell } from "@/islands/admin/AdminShell.tsx";
import { MemberView } from "@/islands/admin/MemberView.tsx";

/** The page's language, zone, texts and the member's number. */
export interface AdminMemberProps {
  lang: string;
  /** The museum's time zone (`config.museumTimeZone`). */
  timeZone: string;
  texts: Record<string, string>;
  /** `?number=` of `/{lang}/admin/members`. */
  number: string;
}

/**
 * A member's page in the Members section, `/{lang}/admin/members?number=…` (issue 27, item 8):
 * `admin/MemberView.tsx` in the shell. An island of its own (issue 29): the members list
 * (`AdminMembers.tsx`) ships without the member's view, and this page without the list.
 */
export default function AdminMember(props: AdminMemberProps) {
  return (
    <AdminShell lang={props.lang} timeZone={props.timeZone} section="members" texts={props.texts}>
      {(view) => <MemberView view={view} number={props.number} />}
    </AdminShell>
  );
}
