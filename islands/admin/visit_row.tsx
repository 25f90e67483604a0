import type { VisitView } from "@/lib/shared/visits.ts";
import type { Translate } from "@/islands/shared/texts.ts";
import { Address } from "./DataTable.tsx";

/**
 * One visit's row (issue 28): time, member, visitor, level, guests, how they came in (and why,
 * when allowed anyway), the desk. In the Front desk section and on a member's page; with `lang`, the
 * member number links to the member's page. A function, not a component, so that `DataTable` finds
 * the row's cells and labels them.
 */
export function visitRow(props: { visit: VisitView; t: Translate; time: string; lang?: string }) {
  const { visit: v, t } = props;
  // Called, not rendered as a component: the table labels the cells of the row it is given.
  return (
    <tr key={v.id}>
      <td>{props.time}</td>
      <td>
        {v.number
          ? (props.lang
            ? <a href={`/${props.lang}/admin/members?number=${encodeURIComponent(v.number)}`}>{v.number}</a>
            : <bdi>{v.number}</bdi>)
          : "—"}
      </td>
      <td>{v.cardholder || "—"}</td>
      <td>{v.levelName || "—"}</td>
      <td>{v.guests}</td>
      <td>
        <span class={`visit-kind visit-kind-${v.kind}`}>{t(`frontDesk.kinds.${v.kind}`)}</span>
        {v.reason && <span class="visit-reason">{t("frontDesk.reasonShown", { reason: v.reason })}</span>}
      </td>
      <td>
        <bdi>
          <Address email={v.deskEmail} />
        </bdi>
      </td>
    </tr>
  );
}
