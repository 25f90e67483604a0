import { useState } from "preact/hooks";
import { usDateTime } from "@/lib/shared/format.ts";
import { listFailure } from "@/islands/shared/account_forms.ts";
import { AdminGuard, useAdminFrame } from "@/islands/shared/AdminFrame.tsx";
import type { AdminProfile } from "@/islands/shared/admin_session.ts";
import { messageText } from "@/islands/shared/texts.ts";
import { Address, DataTable } from "@/islands/admin/DataTable.tsx";

/** The page's language and texts. */
export interface AdminStaffProps {
  lang: string;
  texts: Record<string, string>;
}

const ROLES = ["owner", "admin", "finance", "viewer"] as const;
type Role = typeof ROLES[number];
type Member = AdminProfile & { role: Role | null };
interface Device {
  id: string;
  name: string;
  shopNumber: string;
  terminalId: string;
  paired: boolean;
  lastUsedAt: string | null;
  revokedAt: string | null;
}
interface FlagSetting {
  flag: string;
  enabled: boolean;
  updatedAt: string | null;
}

/**
 * The owners' page (issue 16), `/{lang}/admin/staff`: the museum's staff with their roles (change
 * one, deactivate an account: it is signed out at once), the feature flags (switch one: every
 * instance follows within seconds) and the kiosk devices (read only: they are managed on the
 * dashboard). Each action is audited by the server. Guarded like the
 * dashboard; a caller who is not an owner sees the server's refusal, translated.
 */
export default function AdminStaff(props: AdminStaffProps) {
  const { lang } = props;
  const frame = useAdminFrame(lang, props.texts, (stored) => {
    if (stored) load();
  });
  const { t, api } = frame;
  const [staff, setStaff] = useState<Member[] | null>(null);
  const [flags, setFlags] = useState<FlagSetting[] | null>(null);
  const [devices, setDevices] = useState<Device[] | null>(null);
  const [chosen, setChosen] = useState<Record<string, Role>>({});
  const [notice, setNotice] = useState("");
  const [busy, setBusy] = useState(false);
  const failed = (error: unknown) =>
    setNotice(t("transactions.errorPrefix") + messageText(t, listFailure(error)));
  const roleName = (role: string | null) => role ? t(`staffAdmin.roles.${role}`) : "";

  async function load() {
    try {
      const [list, settings, kiosks] = await Promise.all([
        api.request<Member[]>("/api/auth/admin/staff"),
        api.request<FlagSetting[]>("/api/settings/flags"),
        api.request<Device[]>("/api/kiosk-devices"),
      ]);
      setStaff(list);
      setFlags(settings);
      setDevices(kiosks);
    } catch (error) {
      failed(error);
    }
  }

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

  const switchFlag = (flag: FlagSetting) =>
    act(async () => {
      await api.request("/api/settings/flags", {
        method: "POST",
        body: JSON.stringify({ flag: flag.flag, enabled: !flag.enabled }),
      });
      return t("staffAdmin.flagChanged", {
        flag: t(`staffAdmin.flags.${flag.flag}`),
        state: t(flag.enabled ? "staffAdmin.off" : "staffAdmin.on"),
      });
    });

  const self = frame.session?.admin.id;
  const body = (
    <>
      <p>
        <a href={`/${lang}/admin`}>{t("staffAdmin.back")}</a> ·{" "}
        <a href={`/${lang}/admin/audit`}>
          {t("staffAdmin.auditTitle")}
        </a>
      </p>
      <p class="staff-notice" role="status">{notice}</p>
      <section aria-labelledby="staff-title" data-loaded={staff ? "" : undefined}>
        <h2 id="staff-title">{t("staffAdmin.staffTitle")}</h2>
        <p>{t("staffAdmin.rolesIntro")}</p>
        <ul class="role-help">
          {ROLES.map((role) => (
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
                        {ROLES.map((role) => <option key={role} value={role}>{roleName(role)}</option>)}
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
      <section aria-labelledby="devices-title" data-loaded={devices ? "" : undefined}>
        <h2 id="devices-title">{t("kiosk.devicesTitle")}</h2>
        <p>
          {t("staffAdmin.kioskNote")}{" "}
          <a href={`/${lang}/admin#kiosk-devices-title`}>{t("staffAdmin.kioskLink")}</a>
        </p>
        <DataTable
          id="devices-caption"
          class="kiosk-table"
          caption={t("kiosk.devicesTitle")}
          columns={["name", "shop", "terminal", "status", "lastUse"].map((c) => t(`kiosk.${c}`))}
          rows={devices}
          row={(d) => (
            <tr key={d.id}>
              <th scope="row">{d.name}</th>
              <td>
                <span dir="ltr">{d.shopNumber}</span>
              </td>
              <td>
                <span dir="ltr">{d.terminalId}</span>
              </td>
              <td>{t(d.revokedAt ? "kiosk.revoked" : d.paired ? "kiosk.paired" : "kiosk.notPaired")}</td>
              <td>{usDateTime(d.lastUsedAt) ?? t("kiosk.never")}</td>
            </tr>
          )}
          empty={t("kiosk.none")}
        />
      </section>
    </>
  );

  return <AdminGuard frame={frame}>{body}</AdminGuard>;
}
