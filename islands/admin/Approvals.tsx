import { useEffect, useState } from "preact/hooks";
import { listFailure } from "@/islands/shared/account_forms.ts";
import type { ApiClient } from "@/islands/shared/admin_api.ts";
import { useDates } from "@/islands/shared/dates.tsx";
import type { AdminProfile } from "@/islands/shared/admin_session.ts";
import { pace } from "@/islands/shared/pace.ts";
import { messageText, type Translate } from "@/islands/shared/texts.ts";

const ROLES = ["viewer", "desk", "finance", "admin", "owner"];

/**
 * Registrations waiting for approval (beyond the spec: under ADMIN_REGISTRATION=approval a new
 * admin sees nothing until an approved one lets them in). Shown only when someone is waiting; each
 * decision is announced, and the list drops the decided admin. An approval names the role chosen
 * beside it (viewer unless the owner picks another). Loads once `ready` (the server has
 * confirmed the admin is approved); `onDecided` runs after each decision (the staff list reloads).
 */
export function Approvals(props: { api: ApiClient; t: Translate; ready: boolean; onDecided?: () => void }) {
  const { api, t, ready } = props;
  const dates = useDates();
  const [pending, setPending] = useState<AdminProfile[]>([]);
  const [notice, setNotice] = useState("");
  const [busy, setBusy] = useState<string | null>(null);
  // The role each pending admin gets on approval (viewer unless the owner picks another).
  const [roles, setRoles] = useState<Record<string, string>>({});

  useEffect(() => {
    if (!ready) return;
    // Nobody waiting (the usual answer) changes nothing on screen: no render pass for it.
    api.request<AdminProfile[]>("/api/auth/admin/pending").then((list) =>
      list.length > 0 && pace(() => {
        setPending(list);
        // The overview's link (`#approvals`) lands before the list is there: go to it once it is.
        if (location.hash === "#approvals") {
          requestAnimationFrame(() => document.getElementById("approvals")?.scrollIntoView());
        }
      })
    )
      .catch((error) => setNotice(t("transactions.errorPrefix") + messageText(t, listFailure(error))));
  }, [ready]);

  async function decide(admin: AdminProfile, decision: "approve" | "reject") {
    setBusy(admin.id);
    try {
      await api.request(`/api/auth/admin/${encodeURIComponent(admin.id)}/${decision}`, {
        method: "POST",
        ...(decision === "approve" ? { body: JSON.stringify({ role: roles[admin.id] ?? "viewer" }) } : {}),
      });
      setPending((list) => list.filter((a) => a.id !== admin.id));
      props.onDecided?.();
      setNotice(
        t(decision === "approve" ? "admin.approvedNotice" : "admin.rejectedNotice", { name: admin.name }),
      );
    } catch (error) {
      setNotice(t("transactions.errorPrefix") + messageText(t, listFailure(error)));
    } finally {
      setBusy(null);
    }
  }

  return (
    <>
      <p class="approvals-notice" role="status">{notice}</p>
      {pending.length > 0 && (
        <section id="approvals" class="approvals" aria-labelledby="approvals-title">
          <h2 id="approvals-title">{t("admin.approvalsTitle")}</h2>
          <ul>
            {pending.map((admin) => (
              <li key={admin.id}>
                <div>
                  <span class="admin-name">{admin.name}</span> <span class="admin-email">{admin.email}</span>
                  <span class="approval-date">
                    {t("admin.registeredOn", { date: dates.dateTime(admin.createdAt) ?? "" })}
                  </span>
                </div>
                <div class="approval-actions">
                  <select
                    aria-label={t("staffAdmin.approveRole", { name: admin.name })}
                    value={roles[admin.id] ?? "viewer"}
                    disabled={busy !== null}
                    onChange={(e) => setRoles({ ...roles, [admin.id]: e.currentTarget.value })}
                  >
                    {ROLES.map((role) => (
                      <option key={role} value={role}>{t(`staffAdmin.roles.${role}`)}</option>
                    ))}
                  </select>
                  <button
                    type="button"
                    class="button button-primary"
                    disabled={busy !== null}
                    aria-label={t("admin.approveName", { name: admin.name })}
                    onClick={() => decide(admin, "approve")}
                  >
                    {t("admin.approve")}
                  </button>
                  <button
                    type="button"
                    class="button button-outline"
                    disabled={busy !== null}
                    aria-label={t("admin.rejectName", { name: admin.name })}
                    onClick={() => decide(admin, "reject")}
                  >
                    {t("admin.reject")}
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
