import type { AdminProfile } from "@/islands/shared/admin_session.ts";
import type { Translate } from "@/islands/shared/texts.ts";

/**
 * The back office's header (spec section 2): an avatar with the first letter of the admin's name in
 * upper case, the name, the email, the link to the admin's own two-factor page (marked as the
 * current page there: `here`) and the logout button. Before the session is read (`admin` null: the
 * server's render), the same box says the sign-in is being checked.
 */
export function AdminHeader(
  props: { admin: AdminProfile | null; onLogout: () => void; t: Translate; lang?: string; here?: boolean },
) {
  const { admin, t } = props;
  const letter = admin ? [...admin.name.trim()][0]?.toLocaleUpperCase() ?? "?" : "";
  return (
    <div class="admin-header" role="group" aria-label={t("admin.accountLabel")}>
      <span class="avatar" aria-hidden="true">{letter}</span>
      <div class="admin-who">
        {admin
          ? (
            <>
              <span class="admin-name">{admin.name}</span>
              <span class="admin-email">{admin.email}</span>
            </>
          )
          // In the name's place and type: the browser has that font ready when the name comes.
          : <span class="admin-name admin-checking" role="status">{t("admin.checking")}</span>}
      </div>
      {props.lang && (
        <a href={`/${props.lang}/admin/two-factor`} aria-current={props.here ? "page" : undefined}>
          {props.t("twoFactor.link")}
        </a>
      )}
      <button type="button" class="button button-outline" onClick={props.onLogout}>
        {t("admin.logout")}
      </button>
    </div>
  );
}
