import { useEffect, useState } from "preact/hooks";
import { ADMIN_ROLES, type AdminRole as Role } from "@/lib/shared/admin_roles.ts";
import { listFailure } from "@/islands/shared/account_forms.ts";
import type { AdminProfile } from "@/islands/shared/admin_session.ts";
import { messageText } from "@/islands/shared/texts.ts";
import { AdminShell, type SectionView } from "@/islands/admin/AdminShell.tsx";
import { Approvals } from "@/islands/admin/Approvals.tsx";
import { Address, DataTable } from "@/islands/admin/DataTable.tsx";

/** The page's language and texts. */
export interface AdminStaffProps {
  lang: string;
  /** The museum's time zone (`config.museumTimeZone`): times are shown on its clock, with its offset. */
  timeZone: string;
  texts: Record<string, string>;
}

type Member = AdminProfile & { role: Role | null };

/**
 * The staff section (issues 16 and 26), `/{lang}/admin/staff` (owners): the registrations waiting
 * for approval (`admin/Approvals.tsx`), and the museum's staff with their roles: change one,
 * deactivate an account (it is signed out at once). Each action is audited by the server.
 */
export default function AdminStaff(props: AdminStaffProps) {
  return (
    <AdminShell lang={props.lang} timeZone={props.timeZone} section="staff" texts={props.texts}>
      {(view) => <StaffList view={view} />}
    </AdminShell>
  );
}

function StaffList(props: { view: SectionView }) {
  const { api, t, ready } = props.view;
  const [staff, setStaff] = useState<Member[] | null>(null);
  const [chosen, setChosen] = useState<Record<string, Role>>({});
  const [notice, setNotice] = useState("");
  const [busy, setBusy] = useState(false);
  const failed = (error: unknown) =>
    setNotice(t("transactions.errorPrefix") + messageText(t, listFailure(error)));
  const roleName = (role: string | null) => role ? t(`staffAdmin.roles.${role}`) : "";

  async function load() {
    try {
      setStaff(await api.request<Member[]>("/api/auth/admin/staff"));
    } catch (error) {
      failed(error);
    }
  }
  useEffect(() => {
    if (ready) load();
  }, [ready]);

  async function act(run: () => Promise<string>) {
    setBusy(true);
    try {
      setNotice(await run());
      await load();
    } catch (error) {
      failed(error);
    } finally {
      setBusy(false);
    }
  }

  const changeRole = (member: Member) =>
    act(async () => {
      const role = chosen[member.id] ?? member.role ?? "viewer";
      await api.request(`/api/auth/admin/${encodeURIComponent(member.id)}/role`, {
        method: "POST",
        body: JSON.stringify({ role }),
      });
      return t("staffAdmin.roleChanged", { name: member.name, role: roleName(role) });
    });

  const deactivate = (member: Member) => {
    if (!confirm(t("staffAdmin.confirmDeactivate", { name: member.name }))) return;
    act(async () => {
      await api.request(`/api/auth/admin/${encodeURIComponent(member.id)}/deactivate`, { method: "POST" });
      return t("staffAdmin.deactivatedNotice", { name: member.name });
    });
  };

  const self = props.view.admin?.id;
  return (
    <>
      {/* An approval adds the newcomer to the list below. */}
      <Approvals api={api} t={t} ready={ready} onDecided={load} />
      <p class="staff-notice" role="status">{notice}</p>
      <section aria-labelledby="staff-title" data-loaded={staff ? "" : undefined}>
        <h2 id="staff-title">{t("staffAdmin.staffTitle")}</h2>
        <p>{t("staffAdmin.rolesIntro")}</p>
        <ul class="role-help">
          {ADMIN_ROLES.map((role) => (
            <li key={role}>
              <strong>{roleName(role)}</strong>: {t(`staffAdmin.roleHelp.${role}`)}
            </li>
          ))}
        </ul>
        <DataTable
          id="staff-caption"
          class="staff-table"
          caption={t("staffAdmin.staffTitle")}
          columns={["name", "email", "role", "status", "actions"].map((c) => t(`staffAdmin.columns.${c}`))}
          rows={staff}
          row={(m) => {
            const active = m.status === "approved";
            const own = m.id === self;
            return (
              <tr key={m.id} data-email={m.email}>
                <th scope="row">{m.name}{own ? ` ${t("staffAdmin.you")}` : ""}</th>
                <td>
                  <span dir="ltr">
                    <Address email={m.email} />
                  </span>
                </td>
                <td>
                  {active && !own
                    ? (
                      <select
                        aria-label={t("staffAdmin.roleFor", { name: m.name })}
                        value={chosen[m.id] ?? m.role ?? "viewer"}
                        onChange={(e) => setChosen({ ...chosen, [m.id]: e.currentTarget.value as Role })}
                      >
                        {ADMIN_ROLES.map((role) => <option key={role} value={role}>{roleName(role)}</option>)}
                      </select>
                    )
                    : roleName(m.role)}
                </td>
                <td>{t(active ? "staffAdmin.active" : "staffAdmin.deactivated")}</td>
                <td class="staff-actions">
                  {active && !own && (
                    <>
                      <button
                        type="button"
                        class="button button-primary"
                        disabled={busy || (chosen[m.id] ?? m.role) === m.role}
                        aria-label={t("staffAdmin.saveRoleFor", { name: m.name })}
                        onClick={() => changeRole(m)}
                      >
                        {t("staffAdmin.saveRole")}
                      </button>
                      <button
                        type="button"
                        class="button button-outline"
                        disabled={busy}
                        aria-label={t("staffAdmin.deactivateFor", { name: m.name })}
                        onClick={() => deactivate(m)}
                      >
                        {t("staffAdmin.deactivate")}
                      </button>
                    </>
                  )}
                </td>
              </tr>
            );
          }}
        />
      </section>
    </>
  );
}
