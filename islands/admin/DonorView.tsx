import type { DonorView, MonthlyView } from "@/lib/shared/donor_view.ts";
import type { DateFormats } from "@/lib/shared/dates.ts";
import { listAmount } from "@/lib/shared/format.ts";
import { useDates } from "@/islands/shared/dates.tsx";
import { isolate, type Translate } from "@/islands/shared/texts.ts";
import { DataTable } from "./DataTable.tsx";
import { PaymentStatus } from "./PaymentStatus.tsx";
import { donorHref, reasonText } from "./donor_links.ts";

// Their homes are the islands' texts and donor_links.ts; answered here too for what imported them from this view.
export { donorHref, isolate, reasonText };

/**
 * A monthly gift's state in words: active, paused until, failing (tries, next try), cancelled
 * (why), ended; its times in the page's `dates`.
 */
export function monthlyStateText(t: Translate, m: MonthlyView, dates: DateFormats): string {
  const date = (iso: string | null) => isolate(dates.dateTime(iso) ?? t("common.notAvailable"));
  switch (m.state) {
    case "paused":
      return t("backofficeDonor.states.paused", { date: date(m.nextCharge) });
    case "failing":
      return t("backofficeDonor.states.failing", { count: m.failedAttempts, date: date(m.retryAt) });
    case "cancelled":
      return m.cancelReason
        ? t("backofficeDonor.states.cancelledWithReason", {
          date: date(m.cancelledAt),
          reason: isolate(reasonText(t, m.cancelReason)),
        })
        : t("backofficeDonor.states.cancelled", { date: date(m.cancelledAt) });
    default:
      return t(`backofficeDonor.states.${m.state}`);
  }
}

const BADGES: Record<MonthlyView["state"], string> = {
  active: "badge badge-success",
  paused: "badge",
  failing: "badge badge-error",
  cancelled: "badge",
  failed: "badge badge-error",
};

/**
 * One donor's page in the back office (issue 15): the names on file, the lifetime total per
 * currency with the first and last gift, every monthly gift with its state, and every gift, as
 * `GET /api/donor` answers them. Tables with captions and row headers, like the history's; times
 * in the page's language on the museum's clock, with its zone (`useDates`), amounts as currency,
 * 'N/A' for what is missing.
 */
export function DonorDetails(props: { view: DonorView; t: Translate; lang: string }) {
  const { view, t, lang } = props;
  const na = t("common.notAvailable");
  const dates = useDates();
  const date = (iso: string | null) => dates.dateTime(iso) ?? na;
  const money = (minor: number | null, currency: number | null) => listAmount(minor, currency, lang) ?? na;
  return (
    <div class="donor-details">
      <h2 id="donor-email">
        <bdi>{view.email}</bdi>
      </h2>
      <section aria-labelledby="donor-records-title">
        <h3 id="donor-records-title">{t("backofficeDonor.recordsTitle")}</h3>
        <ul class="donor-records">
          {view.donors.map((d, i) => (
            <li key={i}>
              {t("backofficeDonor.recordLine", {
                name: isolate(`${d.firstName} ${d.lastName}`.trim() || na),
                country: isolate(d.country || na),
                date: isolate(date(d.createdAt)),
              })}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="donor-summary-title">
        <h3 id="donor-summary-title">{t("backofficeDonor.summaryTitle")}</h3>
        <dl class="donor-summary">
          <dt>{t("backofficeDonor.lifetime")}</dt>
          {view.totals.length === 0 && <dd>{t("backofficeDonor.noTotal")}</dd>}
          {view.totals.map((total) => (
            <dd key={total.currency} class="donor-total">
              {t("backofficeDonor.totalLine", {
                amount: isolate(money(total.amount, total.currency)),
                count: total.count,
              })}
            </dd>
          ))}
          <dt>{t("backofficeDonor.firstGift")}</dt>
          <dd>
            <time dateTime={view.firstGift ?? undefined}>{date(view.firstGift)}</time>
          </dd>
          <dt>{t("backofficeDonor.lastGift")}</dt>
          <dd>
            <time dateTime={view.lastGift ?? undefined}>{date(view.lastGift)}</time>
          </dd>
        </dl>
        {!view.complete && (
          <p class="form-alert" role="note">
            {t("backofficeDonor.incomplete", { count: view.gifts.length })}
          </p>
        )}
      </section>
      <section aria-labelledby="donor-monthly-title">
        <h3 id="donor-monthly-title">{t("backofficeDonor.monthlyTitle")}</h3>
        <DataTable
          id="donor-monthly-caption"
          class="tx-table donor-monthly"
          caption={t("backofficeDonor.monthlyCaption", { email: view.email })}
          columns={["amount", "state", "nextCharge", "card", "started"].map((c) => t(`backofficeDonor.${c}`))}
          rows={view.monthly}
          row={(m, i) => (
            <tr key={i} class={`monthly-${m.state}`}>
              <th scope="row" class="tx-amount">{money(m.amount, m.currency)}</th>
              <td>
                <span class={BADGES[m.state]}>{monthlyStateText(t, m, dates)}</span>
              </td>
              <td class="tx-date">
                <time dateTime={m.nextCharge ?? undefined}>{date(m.nextCharge)}</time>
              </td>
              <td class="tx-card">
                <span dir="ltr">{m.card ?? na}</span>
              </td>
              <td class="tx-date">
                <time dateTime={m.createdAt}>{date(m.createdAt)}</time>
              </td>
            </tr>
          )}
          empty={t("backofficeDonor.noMonthly")}
        />
      </section>
      <section aria-labelledby="donor-gifts-title">
        <h3 id="donor-gifts-title">{t("backofficeDonor.giftsTitle")}</h3>
        <DataTable
          id="donor-gifts-caption"
          class="tx-table donor-gifts"
          caption={t("backofficeDonor.giftsCaption", { email: view.email })}
          columns={["date", "amount", "type", "status", "card", "receipt"].map((c) =>
            t(`backofficeDonor.${c}`)
          )}
          rows={view.gifts}
          row={(g) => (
            <tr key={g.id} class={g.status === "success" ? "tx-success" : "tx-error"}>
              <th scope="row" class="tx-date">
                <time dateTime={g.createdAt}>{date(g.createdAt)}</time>
              </th>
              <td class="tx-amount">
                {money(g.amount, g.currency)}
                {g.refunded > 0 && (
                  <span class="tx-reason">
                    {t("refunds.ui.refunded", { amount: money(g.refunded, g.currency) })}
                  </span>
                )}
              </td>
              <td>{t(g.isMonthly ? "transactions.monthly" : "transactions.oneTime")}</td>
              <td>
                <PaymentStatus
                  t={t}
                  success={g.status === "success"}
                  code={g.statusCode}
                  text={g.statusText}
                  detail={g.errorMessage}
                />
              </td>
              <td class="tx-card">
                <span dir="ltr">{g.card ?? na}</span>
              </td>
              <td>
                <bdi>{g.receiptNumber ?? na}</bdi>
              </td>
            </tr>
          )}
          empty={t("backofficeDonor.noGifts")}
        />
      </section>
    </div>
  );
}
